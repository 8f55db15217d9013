// The page of one counterexample (check --html, view): a self-contained HTML
// file rendered from the trace document alone, never by searching again.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "report/json_value.hpp"

namespace statecheck::detail {

/// The page (lib/src/report/trace_page.html) with `doc`, a "statecheck-trace"
/// document (docs/trace-format.md), embedded as its data: one lane per actor.
std::string trace_page(const nlohmann::ordered_json& doc);
/// The same written a piece at a time, with the traces of `r` streamed where
/// `doc` (check_document(r, ..., true)) holds their slots.
void write_trace_page(const nlohmann::ordered_json& doc, const CheckResult& r, const DocumentSink& write);

/// The page template, embedded at build time (trace_page.cpp.in).
const char* trace_page_template();

}  // namespace statecheck::detail
