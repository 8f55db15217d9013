// Values and traces as JSON (docs/trace-format.md): shared by the --format json
// writer and by replay, which compares states in this form. Private to lib/src.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "statecheck/result.hpp"

namespace statecheck::detail {

/// integer -> number, boolean -> true/false, enumerator -> string,
/// array/sequence/set -> array, record -> object keyed by member name.
nlohmann::ordered_json value_json(const Value& v);
/// Steps as {"label", "action", "params", "state"}; label and action are null
/// for step 0, the initial state.
nlohmann::ordered_json trace_json(const std::vector<TraceStep>& trace);

}  // namespace statecheck::detail
