// Values and traces as JSON (docs/trace-format.md): shared by the --format json
// writer and by replay, which compares states in this form. Private to lib/src.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/coverage.hpp"
#include "statecheck/report.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

/// integer -> number, boolean -> true/false, enumerator -> string,
/// array/sequence/set -> array, record -> object keyed by member name.
nlohmann::ordered_json value_json(const Value& v);
/// Steps as {"label", "action", "params", "state"}; label and action are null
/// for step 0, the initial state.
nlohmann::ordered_json trace_json(const std::vector<TraceStep>& trace);

/// The --format json document of a check (docs/trace-format.md), to which
/// commands add their own sections (coverage, graph, simulation).
nlohmann::ordered_json check_document(const CheckResult& r, const RunInfo& info);
/// The "coverage" section of --coverage: per action, then per parameter value.
nlohmann::ordered_json coverage_json(const Coverage& coverage);
/// The document as text. Bytes that are not UTF-8 (from an exception message,
/// say) become U+FFFD instead of failing the whole output.
std::string json_text(const nlohmann::ordered_json& doc);

}  // namespace statecheck::detail
