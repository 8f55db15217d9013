// Replaying a saved trace against a spec; see tools/replay.hpp.
#include "tools/replay.hpp"

#include <algorithm>

#include "report/json_value.hpp"
#include "statecheck/detail/clip.hpp"
#include "statecheck/report.hpp"

namespace statecheck::detail {

namespace {

using nlohmann::ordered_json;

/// Deeper than any trace document; keeps the recursive walks below (and
/// nlohmann's dump) safe from a hostile file's nesting.
constexpr int max_nesting = 64;

const char* type_word(const ordered_json& j) {
  if (j.is_object()) return "an object";
  if (j.is_array()) return "an array";
  if (j.is_string()) return "a string";
  if (j.is_boolean()) return "a boolean";
  if (j.is_number()) return "a number";
  return "null";
}

/// `parent[name]`, required to exist and to pass `is_type`; `path` names it in errors.
const ordered_json& field(const ordered_json& parent, const std::string& path, const char* name,
                          bool (ordered_json::*is_type)() const noexcept, const char* type) {
  const std::string full = path.empty() ? name : path + "." + name;
  const auto it = parent.find(name);
  if (it == parent.end()) throw config_error("missing field '" + full + "'");
  if (!((*it).*is_type)())
    throw config_error("field '" + full + "' must be " + type + ", not " + type_word(*it));
  return *it;
}

bool nested_within(const ordered_json& j, int depth) {
  if (depth > max_nesting) return false;
  if (!j.is_structured()) return true;
  for (const auto& item : j) if (!nested_within(item, depth + 1)) return false;
  return true;
}

SavedStep parse_step(const ordered_json& step, std::size_t i) {
  const std::string path = "violation.trace[" + std::to_string(i) + "]";
  if (!step.is_object()) throw config_error("'" + path + "' must be an object, not " + type_word(step));
  SavedStep s;
  const auto it = step.find("label");
  if (it == step.end()) throw config_error("missing field '" + path + ".label'");
  if (i == 0 && !it->is_null()) throw config_error("'" + path + ".label' must be null: step 0 is the initial state");
  if (i > 0) {
    s.label = field(step, path, "label", &ordered_json::is_string, "a string").get<std::string>();
    s.action = field(step, path, "action", &ordered_json::is_string, "a string").get<std::string>();
  }
  s.params_json = field(step, path, "params", &ordered_json::is_object, "an object").dump();
  s.state_json = field(step, path, "state", &ordered_json::is_object, "an object").dump();
  return s;
}

}  // namespace

SavedTrace parse_saved_trace(std::string_view text) {
  ordered_json doc;
  try {
    doc = ordered_json::parse(text.begin(), text.end());
  } catch (const ordered_json::exception& e) {  // parse_error, or out_of_range for a number like 1E999999 (fuzzer)
    const std::string what = e.what();  // "[json.exception.parse_error.101] parse error at line 1, ..."
    throw config_error("not JSON: " + what.substr(what.find(']') + 2));
  }
  if (!nested_within(doc, 0)) throw config_error("JSON nested deeper than " + std::to_string(max_nesting) + " levels");
  if (!doc.is_object()) throw config_error("not a statecheck trace: the document is " + std::string(type_word(doc)));
  const auto format = doc.find("format");
  if (format == doc.end() || *format != trace_format_name)
    throw config_error("not a statecheck trace: field 'format' must be \"" + std::string(trace_format_name) +
                       "\"; write one with 'statecheck check NAME --format json'");
  const auto version = doc.find("version");
  if (version == doc.end() || !version->is_number_integer() || *version != trace_format_version)
    throw config_error("trace format version " + (version == doc.end() ? std::string("(missing)") : version->dump()) +
                       " is not supported; this statecheck reads version " + std::to_string(trace_format_version));

  SavedTrace t;
  const ordered_json& run = field(doc, "", "run", &ordered_json::is_object, "an object");
  t.spec = field(run, "run", "spec", &ordered_json::is_string, "a string").get<std::string>();
  for (const auto& [name, value] : field(run, "run", "constants", &ordered_json::is_object, "an object").items()) {
    if (!value.is_string()) throw config_error("constant 'run.constants." + name + "' must be a string, not " + type_word(value));
    t.constants.emplace_back(name, value.get<std::string>());
  }
  const std::string outcome = field(doc, "", "outcome", &ordered_json::is_string, "a string").get<std::string>();
  if (outcome != "violation")
    throw config_error("the run's outcome is '" + outcome + "', not 'violation': there is no counterexample to replay");
  const ordered_json& violation = field(doc, "", "violation", &ordered_json::is_object, "an object");
  const std::string kind = field(violation, "violation", "kind", &ordered_json::is_string, "a string").get<std::string>();
  t.property = field(violation, "violation", "property", &ordered_json::is_string, "a string").get<std::string>();
  if (kind == "goal") throw config_error("goal " + t.property + " was never reached: a goal violation has no trace to replay");
  if (kind != "invariant" && kind != "deadlock" && kind != "timelock")
    throw config_error("field 'violation.kind' must be \"invariant\", \"deadlock\", \"timelock\" or \"goal\", not \"" +
                       kind + "\"");
  t.kind = kind == "invariant" ? Violation::Kind::invariant
           : kind == "deadlock" ? Violation::Kind::deadlock
                                : Violation::Kind::timelock;
  const ordered_json& trace = field(violation, "violation", "trace", &ordered_json::is_array, "an array");
  if (trace.empty()) throw config_error("field 'violation.trace' has no steps: there is nothing to replay");
  for (std::size_t i = 0; i < trace.size(); ++i) t.steps.push_back(parse_step(trace[i], i));
  return t;
}

namespace {

/// A value as a message shows it, clipped; `quoted` shows strings in quotes
/// (when the other side is not a string, "0" and 0 must not read alike).
std::string leaf_text(const ordered_json& j, bool quoted = false) {
  return clipped(j.is_string() && !quoted ? j.get<std::string>() : j.dump());
}

/// The first place where `got` (replayed) and `want` (recorded `what`: "state"
/// or "parameter list") differ, as "big = 2, recorded 3"; empty when equal. Object
/// members compare by name, so key order does not matter.
std::string first_difference(const ordered_json& got, const ordered_json& want, const std::string& path,
                             const std::string& what) {
  const std::string shown = path.empty() ? "the " + what : path;
  if (got.is_object() && want.is_object()) {
    for (const auto& [key, value] : got.items()) {
      const std::string sub = path.empty() ? key : path + "." + key;
      const auto it = want.find(key);
      if (it == want.end()) return sub + " is missing from the recorded " + what;
      if (std::string d = first_difference(value, *it, sub, what); !d.empty()) return d;
    }
    for (const auto& [key, value] : want.items())
      if (!got.contains(key))
        return (path.empty() ? key : path + "." + key) + " is recorded, but the spec's " + what + " has no such member";
    return "";
  }
  if (got.is_array() && want.is_array() && got.size() == want.size()) {
    for (std::size_t i = 0; i < got.size(); ++i)
      if (std::string d = first_difference(got[i], want[i], path + "[" + std::to_string(i) + "]", what); !d.empty())
        return d;
    return "";
  }
  if (got == want) return "";
  if (std::string(type_word(got)) != type_word(want))
    return shown + " = " + leaf_text(got, true) + " (" + type_word(got) + "), recorded " + leaf_text(want, true) +
           " (" + type_word(want) + ")";
  return shown + " = " + leaf_text(got) + ", recorded " + leaf_text(want);
}

std::string state_difference(const ModelView& view, const OwnedState& s, const std::string& recorded_json) {
  return first_difference(value_json(view.value(s)), ordered_json::parse(recorded_json), "", "state");
}

std::string step_name(std::size_t i, const std::string& label) {
  return "step " + std::to_string(i) + " (" + (i == 0 ? std::string("initial state") : clipped(label)) + ")";
}

/// Step 0: the recorded state must be one of the spec's initial states.
std::optional<OwnedState> match_initial(const ModelView& view, const SavedStep& step, ReplayResult& r) {
  std::string difference;
  std::uint32_t candidates = 0;
  for (std::uint32_t c = 0; c < view.ops().init_combinations; ++c) {
    std::optional<OwnedState> s = view.initial(c);
    if (!s) continue;
    ++candidates;
    std::string d = state_difference(view, *s, step.state_json);
    if (d.empty()) return s;
    if (difference.empty()) difference = std::move(d);
  }
  r.verdict = ReplayResult::Verdict::differs;
  r.step = 0;
  r.message = step_name(0, "") + " is not an initial state of the spec" +
              (candidates == 1 ? ": " + difference
                               : " (it matches none of its " + std::to_string(candidates) + " initial states)");
  return std::nullopt;
}

/// Whether `s` may be expanded, with `where` naming the constraint while it
/// runs: a throw there is the constraint's, not the step's.
bool expandable(const ModelView& view, const OwnedState& s, std::string& where) {
  const std::string was = std::move(where);
  where = "the constraint";
  const bool inside = view.expandable(s);
  where = was;
  return inside;
}

/// Step i > 0: an enabled transition of the spec leading to the recorded state.
std::optional<OwnedState> take_step(const ModelView& view, const OwnedState& from, const SavedStep& step, std::size_t i,
                                    ReplayResult& r, std::string& where) {
  const auto differs = [&](const std::string& why) {
    r.verdict = ReplayResult::Verdict::differs;
    r.step = i;
    r.message = step_name(i, step.label) + " " + why;
    return std::nullopt;
  };
  const std::optional<std::uint32_t> tid = view.find_label(step.label, from);
  if (!tid) return differs("names no transition of the spec");
  const TraceStep described = view.trace_step(*tid, from, from);
  if (described.action != step.action) return differs("records action '" + clipped(step.action) + "', its label names '" + described.action + "'");
  ordered_json params = ordered_json::object();
  for (const auto& [name, value] : described.params) params[name] = value_json(value);
  if (std::string d = first_difference(params, ordered_json::parse(step.params_json), "", "parameter list"); !d.empty())
    return differs("records other parameters than its label names: " + d);
  if (!expandable(view, from, where)) return differs("is not taken: the state before it is outside the spec's constraint");
  std::optional<OwnedState> next = view.successor(from, *tid);
  if (!next) return differs("is not enabled in the state before it");
  if (std::string d = state_difference(view, *next, step.state_json); !d.empty())
    return differs("leads to a different state: " + d);
  return next;
}

void spec_threw(ReplayResult& r, std::size_t i, const std::string& where, const std::string& what) {
  r.verdict = ReplayResult::Verdict::spec_error;
  r.step = i;
  r.message = "spec error at step " + std::to_string(i) + " in " + where + ": " + clipped(what);
  r.error = SpecError{what, where, r.trace};
}

/// The recorded property must fail again in the last state.
void check_property(const ModelView& view, const SavedTrace& saved, const OwnedState& last, ReplayResult& r,
                    std::string& where) {
  const std::size_t length = saved.steps.size() - 1;
  const std::string at = " in the last state (step " + std::to_string(length) + ")";
  r.verdict = ReplayResult::Verdict::differs;
  r.step = length;
  if (saved.kind == Violation::Kind::deadlock || saved.kind == Violation::Kind::timelock) {
    const bool timelock = saved.kind == Violation::Kind::timelock;
    const std::string none = timelock ? "no timelock" : "no deadlock";
    const std::vector<std::uint32_t> enabled = view.enabled(last);
    const std::string blocking = view.blocking_deadline(last);
    if (!expandable(view, last, where)) r.message = none + at + ": it is outside the spec's constraint";
    else if (!enabled.empty()) r.message = none + at + ": " + view.label(enabled.front(), last) + " is enabled";
    else if (timelock && blocking != saved.property)
      r.message = none + at + ": " + (blocking.empty() ? "no deadline keeps time from passing"
                                                         : "deadline " + blocking + " keeps time from passing, not " + saved.property);
    else if (!timelock && !blocking.empty())
      r.message = none + at + ": it is a timelock (deadline " + blocking + " keeps time from passing)";
    else {
      r.verdict = ReplayResult::Verdict::reproduces;
      r.step.reset();
      r.message = (timelock ? "timelock after " : "deadlock after ") + std::to_string(length) + " steps";
    }
    return;
  }
  const auto& names = view.ops().invariant_names;
  const auto it = std::find(names.begin(), names.end(), saved.property);
  if (it == names.end() || names.size() > 64) {
    r.message = "the spec has no invariant '" + saved.property + "'";
    return;
  }
  const std::uint64_t bit = std::uint64_t{1} << (it - names.begin());
  if (!view.violated_invariant(last, bit)) {
    r.message = "invariant " + saved.property + " holds" + at;
    return;
  }
  r.verdict = ReplayResult::Verdict::reproduces;
  r.step.reset();
  r.message = "invariant " + saved.property + " fails after " + std::to_string(length) + " steps";
}

}  // namespace

ReplayResult replay(const ModelView& view, const SavedTrace& saved) {
  ReplayResult r;
  std::size_t i = 0;
  std::string where = "init";
  try {
    std::optional<OwnedState> current = match_initial(view, saved.steps[0], r);
    if (!current) return r;
    r.trace.push_back({"", "", {}, view.value(*current), "", ""});
    for (i = 1; i < saved.steps.size(); ++i) {
      where = "action " + clipped(saved.steps[i].label);
      std::optional<OwnedState> next = take_step(view, *current, saved.steps[i], i, r, where);
      if (!next) return r;
      r.trace.push_back(view.trace_step(*view.find_label(saved.steps[i].label, *current), *current, *next));
      current = std::move(next);
    }
    --i;
    where = saved.kind == Violation::Kind::deadlock   ? "the deadlock check"
            : saved.kind == Violation::Kind::timelock ? "deadline " + saved.property
                                                      : "invariant " + saved.property;
    check_property(view, saved, *current, r, where);
  } catch (const std::exception& e) {
    spec_threw(r, i, where, e.what());
  } catch (...) {
    spec_threw(r, i, where, non_std_exception);
  }
  return r;
}

}  // namespace statecheck::detail
