// --format json: one "statecheck-trace" document, specified field by field in
// docs/trace-format.md and docs/trace-format.schema.json. A change to what is
// written here is a change to that format: bump trace_format_version when a
// field is removed, renamed or changes meaning (see the versioning policy).
#include <algorithm>

#include "statecheck/detail/visited_set.hpp"
#include "statecheck/report.hpp"
#include "statecheck/version.hpp"

#include "statecheck/detail/utf8.hpp"
#include "report/json_value.hpp"
#include "model/transition_labels.hpp"

namespace statecheck {

namespace detail {

using nlohmann::ordered_json;

ordered_json value_json(const Value& v) {
  using K = Value::Kind;
  switch (v.kind) {
    case K::integer: return v.number;
    case K::boolean: return v.number != 0;
    case K::name: return detail::escaped_text(v.text, false);  // not UTF-8: escaped, not replaced, so that it replays
    case K::array:
    case K::sequence:
    case K::set: {
      ordered_json a = ordered_json::array();
      for (const Value& item : v.items) a.push_back(value_json(item));
      return a;
    }
    case K::record: {
      ordered_json o = ordered_json::object();
      for (std::size_t i = 0; i < v.items.size(); ++i) o[detail::escaped_text(v.keys[i], false)] = value_json(v.items[i]);
      return o;
    }
  }
  return nullptr;
}

namespace {

/// Step `i` of a trace as docs/trace-format.md specifies it; `time_ms` is its
/// time since the initial state, written when some step of its trace lets time pass.
ordered_json step_json(const TraceStep& s, std::size_t i, bool timed, std::int64_t time_ms) {
  ordered_json params = ordered_json::object();
  for (const auto& [name, value] : s.params) params[name] = value_json(value);
  ordered_json step = {{"label", i == 0 ? ordered_json(nullptr) : ordered_json(s.label)},
                       {"action", i == 0 ? ordered_json(nullptr) : ordered_json(s.action)},
                       {"params", params}};
  if (i != 0 && !s.actor.empty()) step["actor"] = s.actor;  // optional: the parameter naming who acts
  if (i != 0 && !s.target.empty()) step["sends_to"] = s.target;  // optional: the parameter naming whom it reaches
  if (s.delay_ms > 0) step["delay_ms"] = s.delay_ms;  // optional: a time step's delay
  if (timed) step["time_ms"] = time_ms;               // optional: the time since the initial state
  step["state"] = value_json(s.state);
  return step;
}

/// Calls take(step's JSON) for every step of `trace`, in order.
template <class F>
void for_each_step_json(const Trace& trace, F&& take) {
  bool timed = false;  // some step lets time pass: a walk of its own, one step in memory at a time
  trace.for_each([&](const TraceStep& s) { timed = timed || s.delay_ms > 0; });
  std::size_t i = 0;
  std::int64_t now = 0;
  trace.for_each([&](const TraceStep& s) {
    now += s.delay_ms;
    take(step_json(s, i++, timed, now));
  });
}

}  // namespace

ordered_json trace_json(const Trace& trace) {
  ordered_json steps = ordered_json::array();
  for_each_step_json(trace, [&](ordered_json step) { steps.push_back(std::move(step)); });
  return steps;
}

}  // namespace detail

namespace {

using nlohmann::ordered_json;
using detail::trace_json;

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::ok: return "ok";
    case Outcome::violation: return "violation";
    case Outcome::error: return "error";
    case Outcome::limit: return "limit";
  }
  return "?";
}

const char* kind_name(Violation::Kind k) {
  switch (k) {
    case Violation::Kind::invariant: return "invariant";
    case Violation::Kind::deadlock: return "deadlock";
    case Violation::Kind::goal: return "goal";
    case Violation::Kind::timelock: return "timelock";
  }
  return "?";
}

/// A default option (0 in CheckOptions) is written as null.
ordered_json or_null(std::uint64_t n) { return n == 0 ? ordered_json(nullptr) : ordered_json(n); }

/// How states were told apart: what a fingerprint run may confuse.
ordered_json visited_set_layout(bool exact) {
  using detail::VisitedSet;
  if (exact) return {{"kind", "exact"}};
  return {{"kind", "fingerprints"},
          {"hash", "XXH3-128"},
          {"fingerprint_bits", VisitedSet::fingerprint_bits()},
          {"signature_bits", VisitedSet::signature_bits},
          {"displacement_bits", 64 - VisitedSet::signature_bits},  // the rest of each 64-bit slot
          {"initial_home_bits", VisitedSet::home_bits}};
}

ordered_json run_json(const RunInfo& info) {
  ordered_json constants = ordered_json::object();
  for (const auto& [name, value] : info.constants) constants[name] = value;
  const CheckOptions& o = info.options;
  const ordered_json options = {{"threads", or_null(o.threads)},
                                {"memory_bytes", or_null(o.memory)},
                                {"max_depth", or_null(o.max_depth)},
                                {"check_deadlock", o.check_deadlock},
                                {"exact", o.exact},
                                {"symmetry", o.symmetry},
                                {"invariants", o.invariants}};
  return {{"statecheck_version", STATECHECK_VERSION},
          {"spec", info.spec},
          {"constants", constants},
          {"options", options},
          {"visited_set", visited_set_layout(o.exact)}};
}

/// The symmetry the counts are reduced by, or null when none.
ordered_json symmetry_json(const Stats& s) {
  if (s.symmetry.empty()) return nullptr;
  // An integer while it is exact in a double (up to 2^53; 18! is beyond), else the double.
  const auto number = [](double x) {
    return x < 9.0e15 ? ordered_json(static_cast<std::uint64_t>(x)) : ordered_json(x);
  };
  const ordered_json size = number(s.symmetry_group);
  // The concrete states the orbits stand for: exact, or a lower bound (states_exact false).
  return {{"kinds", s.symmetry},
          {"group_size", size},
          {"orbits", s.distinct},
          {"states", number(s.symmetry_states)},
          {"states_exact", s.symmetry_uncounted == 0}};
}

ordered_json stats_json(const Stats& s) {
  ordered_json actions = ordered_json::array();
  for (const ActionStats& a : s.actions)
    actions.push_back({{"name", a.name}, {"enabled", a.enabled}, {"new_states", a.new_states}});
  ordered_json visited = {{"bytes", s.visited_bytes}};
  if (!s.exact) {
    visited["capacity"] = s.visited_capacity;
    visited["load"] = s.load;
    visited["omission_probability"] = s.omission_probability;
    visited["compaction_collisions"] = s.compaction_collisions;
  }
  return {{"distinct", s.distinct},     {"generated", s.generated}, {"depth", s.depth},
          {"seconds", s.seconds},       {"threads", s.threads},     {"states_per_level", s.level_sizes},
          {"actions", actions},         {"visited_set", visited},   {"trace_log_bytes", s.trace_bytes},
          {"trace_log_disk_bytes", s.trace_disk_bytes},               {"memory_peak_bytes", s.memory_peak},
          {"frontier_spilled_levels", s.frontier_spilled_levels},     {"frontier_disk_bytes", s.frontier_disk_bytes},
          {"frontier_raw_bytes", s.frontier_raw_bytes},
          {"peak_rss_bytes", s.peak_rss},                             {"self_checked", s.self_checked},
          {"self_checked_by_depth", s.self_checked_by_depth},
          {"self_check_seconds", s.self_check_seconds},
          {"symmetry", symmetry_json(s)},
          {"level_table", {{"slots", s.level_table_slots}, {"retries", s.level_table_retries}}}};
}

/// The forecasts made at 25/50/75% of the run and how far off each was.
ordered_json forecast_json(const Stats& s) {
  ordered_json points = ordered_json::array();
  for (const ForecastPoint& f : s.forecast)
    points.push_back({{"fraction", f.fraction},
                      {"level", f.level},
                      {"states", f.states},
                      {"seconds", f.seconds},
                      {"memory_bytes", f.memory},
                      {"states_error", forecast_error(static_cast<double>(f.states), static_cast<double>(s.distinct))},
                      {"seconds_error", forecast_error(f.seconds, s.seconds)},
                      {"memory_error", forecast_error(static_cast<double>(f.memory), static_cast<double>(s.memory_peak))}});
  return points;
}

}  // namespace

namespace detail {

std::string json_text(const ordered_json& doc) { return doc.dump(2, ' ', false, ordered_json::error_handler_t::replace); }

namespace {

/// What check_document writes in place of a trace it leaves to write_document.
const char* const violation_trace_slot = "\x01statecheck:violation.trace";
const char* const error_trace_slot = "\x01statecheck:error.trace";

/// `trace` as the array dump(indent) writes at an object member indented by
/// `at` spaces, a step at a time: never the whole array as one DOM.
void write_trace_array(const Trace& trace, int indent, std::size_t at, const DocumentSink& write) {
  if (trace.empty()) return write("[]");
  const std::size_t step_at = at + static_cast<std::size_t>(indent < 0 ? 0 : indent);
  // A line break and the indentation before each step and the closing bracket (none when compact).
  const auto line_start = [&](std::size_t spaces) { return indent < 0 ? std::string() : std::string(1, '\n').append(spaces, ' '); };
  bool first = true;
  write("[");
  for_each_step_json(trace, [&](const ordered_json& step) {
    std::string text = step.dump(indent, ' ', false, ordered_json::error_handler_t::replace);
    if (indent >= 0) {  // the step's own lines, moved in to its place in the document
      for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', nl + 1))
        text.insert(nl + 1, step_at, ' ');
    }
    if (!first) write(",");
    write(line_start(step_at));
    write(text);
    first = false;
  });
  write(line_start(at));
  write("]");
}

}  // namespace

ordered_json check_document(const CheckResult& r, const RunInfo& info, bool traces_written_later) {
  ordered_json doc = {{"format", trace_format_name},
                      {"version", trace_format_version},
                      {"run", run_json(info)},
                      {"outcome", outcome_name(r.outcome)},
                      {"depth_bounded", r.depth_bounded},
                      {"stats", stats_json(r.stats)}};
  if (!r.stats.forecast.empty()) doc["stats"]["forecast"] = forecast_json(r.stats);  // runs of a second or more
  const auto trace_or_slot = [&](const Trace& trace, const char* slot) {
    return traces_written_later ? ordered_json(slot) : trace_json(trace);
  };
  if (r.violation) {
    doc["violation"] = {{"kind", kind_name(r.violation->kind)},
                        {"property", r.violation->property},
                        {"length", r.violation->length()},
                        {"trace", trace_or_slot(r.violation->trace, violation_trace_slot)}};
    if (!r.trace_policy.empty()) {  // how this trace was chosen among the shortest, and what it scores
      doc["violation"]["trace_policy"] = r.trace_policy;
      doc["violation"]["actor_switches"] = detail::actor_switches(r.violation->trace);
    }
  }
  if (r.error) {
    doc["error"] = {{"message", r.error->message},
                    {"where", r.error->where},
                    {"length", r.error->trace.empty() ? 0 : r.error->trace.size() - 1},
                    {"trace", trace_or_slot(r.error->trace, error_trace_slot)}};
  }
  if (r.outcome == Outcome::limit) doc["limit"] = {{"message", r.limit_message}};
  if (r.resumed_from_level != 0) doc["resumed_from_level"] = r.resumed_from_level;
  if (!r.checkpoint_written.empty()) doc["checkpoint"] = r.checkpoint_written;
  doc["warnings"] = r.warnings;
  return doc;
}

void write_document(const ordered_json& doc, const CheckResult& r, int indent, const DocumentSink& write) {
  const std::string text = doc.dump(indent, ' ', false, ordered_json::error_handler_t::replace);
  std::size_t from = 0;
  const std::string violation_slot = ordered_json(violation_trace_slot).dump();  // as the text holds it
  const std::string error_slot = ordered_json(error_trace_slot).dump();
  while (true) {
    const std::size_t v = r.violation ? text.find(violation_slot, from) : std::string::npos;
    const std::size_t e = r.error ? text.find(error_slot, from) : std::string::npos;
    const std::size_t at = std::min(v, e);
    if (at == std::string::npos) break;
    write(std::string_view(text).substr(from, at - from));
    const std::size_t line = text.rfind('\n', at);
    const std::size_t member = line == std::string::npos ? 0 : text.find_first_not_of(' ', line + 1) - (line + 1);
    write_trace_array(at == v ? r.violation->trace : r.error->trace, indent, member, write);
    from = at + (at == v ? violation_slot : error_slot).size();
  }
  write(std::string_view(text).substr(from));
}

}  // namespace detail

std::string to_json(const CheckResult& r, const RunInfo& info) {
  std::string text;
  detail::write_document(detail::check_document(r, info, true), r, 2, [&](std::string_view part) { text += part; });
  return text;
}

}  // namespace statecheck
