// Values and traces as JSON (docs/trace-format.md): shared by the --format json
// writer and by replay, which compares states in this form. Private to lib/src.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
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
nlohmann::ordered_json trace_json(const Trace& trace);

/// The --format json document of a check (docs/trace-format.md), to which
/// commands add their own sections (coverage, graph, simulation). With
/// `traces_written_later` each trace is a marked slot that write_document
/// streams: a long trace is never held as one JSON tree.
nlohmann::ordered_json check_document(const CheckResult& r, const RunInfo& info, bool traces_written_later = false);
/// Where a document's text goes, a piece at a time.
using DocumentSink = std::function<void(std::string_view)>;
/// Writes `doc` as dump(indent) would (2: json_text; -1: compact), and in
/// place of each slot of check_document(r, ..., true) the trace of `r`
/// it stands for, a step at a time.
void write_document(const nlohmann::ordered_json& doc, const CheckResult& r, int indent, const DocumentSink& write);
/// The "coverage" section of --coverage: per action, then per parameter value.
nlohmann::ordered_json coverage_json(const Coverage& coverage);
/// The document as text. Bytes that are not UTF-8 (from an exception message,
/// say) become U+FFFD instead of failing the whole output.
std::string json_text(const nlohmann::ordered_json& doc);

}  // namespace statecheck::detail
