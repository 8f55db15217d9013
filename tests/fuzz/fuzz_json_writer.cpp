// Fuzz target: the JSON writer (--format json). Whatever a spec puts into a
// result - names, exception messages with any bytes, deep or odd values - the
// output must be one JSON document that parses, with the spec name and the
// trace length intact.
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "fuzz_input.hpp"
#include "statecheck/report.hpp"

namespace {

statecheck::Value make_value(fuzz::Input& in, int depth) {
  using K = statecheck::Value::Kind;
  const int kind = in.byte() % 7;
  if (depth > 4 || kind == 0) return statecheck::Value::integer(in.number());
  if (kind == 1) return statecheck::Value::boolean(in.byte() & 1);
  if (kind == 2) return statecheck::Value::name(in.text());
  const K list_kind = kind == 3 ? K::array : kind == 4 ? K::sequence : kind == 5 ? K::set : K::record;
  statecheck::Value v = statecheck::Value::list(list_kind);
  const int n = in.byte() % 5;
  for (int i = 0; i < n; ++i) {
    v.items.push_back(make_value(in, depth + 1));
    if (list_kind == K::record) v.keys.push_back(in.text(8));
  }
  return v;
}

std::vector<statecheck::TraceStep> make_trace(fuzz::Input& in) {
  std::vector<statecheck::TraceStep> trace;
  const int n = in.byte() % 6;
  for (int i = 0; i < n; ++i) {
    statecheck::TraceStep step;
    if (i > 0) {
      step.action = in.text(12);
      step.label = in.text(24);
      if (in.byte() & 1) step.params.emplace_back(in.text(6), make_value(in, 3));
    }
    step.state = make_value(in, 0);
    trace.push_back(std::move(step));
  }
  return trace;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  fuzz::Input in(data, size);
  statecheck::CheckResult r;
  statecheck::RunInfo info;
  info.spec = in.text();
  r.spec = info.spec;
  info.constants.emplace_back(in.text(8), in.text(8));
  info.options.invariants.push_back(in.text(8));
  r.stats.distinct = static_cast<std::uint64_t>(in.number());
  r.stats.seconds = static_cast<double>(in.number() % 100000) / 7.0;
  r.stats.actions.push_back({in.text(8), 1, 1});
  r.warnings.push_back(in.text());
  const int outcome = in.byte() % 4;
  if (outcome == 1) {
    r.outcome = statecheck::Outcome::violation;
    r.violation = statecheck::Violation{static_cast<statecheck::Violation::Kind>(in.byte() % 3), in.text(), make_trace(in)};
  } else if (outcome == 2) {
    r.outcome = statecheck::Outcome::error;
    r.error = statecheck::SpecError{in.text(64), in.text(16), make_trace(in)};
  } else if (outcome == 3) {
    r.outcome = statecheck::Outcome::limit;
    r.limit_message = in.text(64);
  }
  const std::string text = statecheck::to_json(r, info);
  const nlohmann::json doc = nlohmann::json::parse(text);  // throws (a finding) when the output does not parse
  if (r.violation && !r.violation->trace.empty()) {
    const nlohmann::json* v = doc.contains("violation") ? &doc["violation"] : nullptr;
    if (v == nullptr || !v->contains("trace") || (*v)["trace"].size() != r.violation->trace.size()) std::abort();
  }
  return 0;
}
