// JSON documents of the CLI, read so that a bad document or a missing field
// fails the test with what was there, not with an exception or undefined
// behaviour (operator[] on a const json with a missing key is an assertion).
#pragma once

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

namespace test {

/// Parses `text`, failing the test with the text when it is not one document.
inline nlohmann::json parse_json(const std::string& text) {
  INFO(text);
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());
  return doc;
}

/// The field at a slash-separated path ("stats/distinct", "violation/trace/6/state");
/// fails the test naming the path when it is absent.
inline const nlohmann::json& field(const nlohmann::json& doc, const std::string& path) {
  const nlohmann::json::json_pointer pointer("/" + path);
  INFO("JSON field " << path << " in " << doc.dump());
  REQUIRE(doc.contains(pointer));
  return doc.at(pointer);
}

}  // namespace test
