// A `--format json` result without what describes the run rather than the
// search (time, memory, where the levels were kept), for comparing runs that
// must find the same. The fields are listed once, in volatile_fields.json
// (tests/mpi/mpi_compare.py reads the same file); a target that includes this
// defines VOLATILE_FIELDS as that file's path.
#pragma once

#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/json.hpp"

namespace test {

/// volatile_fields.json, read once.
inline const nlohmann::json& volatile_fields() {
  static const nlohmann::json fields = [] {
    std::ifstream in(VOLATILE_FIELDS);
    return nlohmann::json::parse(in, nullptr, false);
  }();
  INFO("volatile fields from " << VOLATILE_FIELDS);
  REQUIRE(fields.is_object());
  return fields;
}

/// `out` (a --format json result) without the stats and options of one run.
/// Runs compared at different --memory differ in memory_bytes on purpose.
inline nlohmann::json search_facts(const std::string& out) {
  nlohmann::json doc = parse_json(out);
  for (const auto& key : volatile_fields().at("stats_of_the_run")) doc["stats"].erase(key.get<std::string>());
  for (const auto& key : volatile_fields().at("options_of_the_run"))
    doc["run"]["options"].erase(key.get<std::string>());
  return doc;
}

}  // namespace test
