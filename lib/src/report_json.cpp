// JSON output of --format json; see statecheck/report.hpp.
#include <nlohmann/json.hpp>

#include "statecheck/report.hpp"

namespace statecheck {

namespace {

using nlohmann::json;

json value_json(const Value& v) {
  using K = Value::Kind;
  switch (v.kind) {
    case K::integer: return v.number;
    case K::boolean: return v.number != 0;
    case K::name: return v.text;
    case K::array:
    case K::sequence:
    case K::set: {
      json a = json::array();
      for (const Value& item : v.items) a.push_back(value_json(item));
      return a;
    }
    case K::record: {
      json o = json::object();
      for (std::size_t i = 0; i < v.items.size(); ++i) o[v.keys[i]] = value_json(v.items[i]);
      return o;
    }
  }
  return nullptr;
}

json trace_json(const std::vector<TraceStep>& trace) {
  json steps = json::array();
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const TraceStep& s = trace[i];
    json params = json::object();
    for (const auto& [name, value] : s.params) params[name] = value_json(value);
    steps.push_back({{"action", i == 0 ? json(nullptr) : json(s.action)},
                     {"label", i == 0 ? json(nullptr) : json(s.label)},
                     {"params", params},
                     {"state", value_json(s.state)}});
  }
  return steps;
}

const char* kind_name(Violation::Kind k) {
  switch (k) {
    case Violation::Kind::invariant: return "invariant";
    case Violation::Kind::deadlock: return "deadlock";
    case Violation::Kind::goal: return "goal";
  }
  return "?";
}

json stats_json(const Stats& s) {
  json actions = json::array();
  for (const ActionStats& a : s.actions)
    actions.push_back({{"name", a.name}, {"enabled", a.enabled}, {"new_states", a.new_states}});
  json visited = {{"exact", s.exact}, {"bytes", s.visited_bytes}};
  if (!s.exact) {
    visited["capacity"] = s.visited_capacity;
    visited["load"] = s.load;
    visited["fingerprint_bits"] = s.fingerprint_bits;
    visited["omission_probability"] = s.omission_probability;
  }
  return {{"distinct", s.distinct},     {"generated", s.generated}, {"depth", s.depth},
          {"seconds", s.seconds},       {"threads", s.threads},     {"states_per_level", s.level_sizes},
          {"actions", actions},         {"visited_set", visited},   {"trace_log_bytes", s.trace_bytes},
          {"peak_rss_bytes", s.peak_rss}};
}

}  // namespace

std::string to_json(const CheckResult& r, const RunInfo& info) {
  json constants = json::object();
  for (const auto& [name, value] : info.constants) constants[name] = value;
  const char* result = r.outcome == Outcome::ok ? "ok" : r.outcome == Outcome::violation ? "violation" : "error";
  json doc = {{"spec", info.spec}, {"constants", constants}, {"result", result}, {"stats", stats_json(r.stats)}};
  if (r.depth_bounded) doc["depth_bounded"] = true;
  if (r.violation) {
    doc["violation"] = {{"kind", kind_name(r.violation->kind)},
                        {"property", r.violation->property},
                        {"length", r.violation->length()},
                        {"trace", trace_json(r.violation->trace)}};
  }
  if (r.error) {
    doc["error"] = {{"message", r.error->message}, {"where", r.error->where}, {"trace", trace_json(r.error->trace)}};
  }
  if (r.outcome == Outcome::limit) doc["error"] = {{"message", r.limit_message}, {"where", "resource limit"}};
  doc["warnings"] = r.warnings;
  return doc.dump(2);
}

}  // namespace statecheck
