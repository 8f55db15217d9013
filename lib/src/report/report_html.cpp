// The page of a counterexample: the template with the trace document as its
// data. All drawing (lanes, changed fields, stepping) is the page's script,
// so a saved trace renders the same page as the check that found it.
#include "report/report_html.hpp"

#include <stdexcept>

namespace statecheck::detail {

namespace {

constexpr std::string_view data_marker = "/*STATECHECK_TRACE_DOCUMENT*/";

/// JSON text that may sit inside <script>: a '<' (only ever inside a JSON
/// string) becomes \u003c, so no "</script>" in a state ends the block.
std::string script_safe(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  for (const char c : json) {
    if (c == '<') out += "\\u003c";
    else out += c;
  }
  return out;
}

}  // namespace

void write_trace_page(const nlohmann::ordered_json& doc, const CheckResult& r, const DocumentSink& write) {
  const std::string_view page = trace_page_template();
  const std::size_t at = page.find(data_marker);
  if (at == std::string_view::npos) throw std::logic_error("trace_page.html lost its data marker");
  write(page.substr(0, at));
  write_document(doc, r, -1, [&](std::string_view part) { write(script_safe(part)); });
  write(page.substr(at + data_marker.size()));
}

std::string trace_page(const nlohmann::ordered_json& doc) {
  std::string page;
  write_trace_page(doc, CheckResult{}, [&](std::string_view part) { page += part; });
  return page;
}

}  // namespace statecheck::detail
