// The page of a counterexample: the template with the trace document as its
// data. All drawing (lanes, changed fields, stepping) is the page's script,
// so a saved trace renders the same page as the check that found it.
#include "report/report_html.hpp"

#include <stdexcept>

namespace statecheck::detail {

namespace {

constexpr std::string_view data_marker = "/*STATECHECK_TRACE_DOCUMENT*/";

/// The document as text that may sit inside <script>: a '<' (only ever inside
/// a JSON string) becomes \u003c, so no "</script>" in a state ends the block.
std::string script_safe_json(const nlohmann::ordered_json& doc) {
  const std::string json = doc.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  std::string out;
  out.reserve(json.size());
  for (const char c : json) {
    if (c == '<') out += "\\u003c";
    else out += c;
  }
  return out;
}

}  // namespace

std::string trace_page(const nlohmann::ordered_json& doc) {
  std::string page = trace_page_template();
  const std::size_t at = page.find(data_marker);
  if (at == std::string::npos) throw std::logic_error("trace_page.html lost its data marker");
  page.replace(at, data_marker.size(), script_safe_json(doc));
  return page;
}

}  // namespace statecheck::detail
