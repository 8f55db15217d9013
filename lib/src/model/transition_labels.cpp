// Labels and lanes of a model's transitions; see model/transition_labels.hpp.
#include "model/transition_labels.hpp"

#include <map>

#include "statecheck/report.hpp"
#include "statecheck/time.hpp"

namespace statecheck::detail {

std::string transition_label(const TransitionInfo& info) {
  if (info.delay_ms > 0) {  // the time step; appended: `"+" + text` makes GCC 12 warn -Wrestrict (bug 105329)
    std::string label(1, '+');
    return label += duration_text(duration(info.delay_ms));
  }
  std::string label = info.action_name;
  if (info.params.empty()) return label;
  label += '(';
  for (std::size_t i = 0; i < info.params.size(); ++i) {
    if (i > 0) label += ", ";
    label += info.params[i].first + "=" + value_text(info.params[i].second);
  }
  return label + ')';
}

TraceStep trace_step(const ModelOps& ops, std::uint32_t tid, const std::byte* before, const std::byte* after) {
  const TransitionInfo info = ops.describe(ops.model, before, tid);
  TraceStep step;
  step.label = transition_label(info);
  step.action = info.action_name;
  step.params = info.params;
  step.actor = ops.action_actors[info.action];
  step.target = ops.action_targets[info.action];
  step.delay_ms = info.delay_ms;
  step.state = ops.to_value(ops.model, after);
  return step;
}

std::string failing_part(const ModelOps& ops, const std::byte* state, std::uint32_t tid) {
  if (state == nullptr) return "action " + transition_label(ops.describe(ops.model, nullptr, tid));
  try {
    return "action " + transition_label(ops.describe(ops.model, state, tid));
  } catch (...) {  // describing runs no spec code but the choice's enumerator
    return "the choice of action " + transition_label(ops.describe(ops.model, nullptr, tid));
  }
}

std::string lane_of(const std::string& actor, const std::string& action,
                    const std::vector<std::pair<std::string, Value>>& params) {
  for (const auto& [name, value] : params)
    if (!actor.empty() && name == actor) return value.kind == Value::Kind::name ? value_text(value) : name + "=" + value_text(value);
  return "action " + action;
}

std::uint64_t actor_switches(const Trace& trace) {
  std::uint64_t switches = 0;
  std::size_t at = 0;
  std::string previous;  // the lane of the step before (the first step counts none)
  trace.for_each([&](const TraceStep& step) {
    std::string lane = lane_of(step.actor, step.action, step.params);
    if (at++ >= 2 && lane != previous) ++switches;
    previous = std::move(lane);
  });
  return switches;
}

std::vector<std::uint32_t> transition_lanes(const ModelOps& ops, std::vector<std::string>& names) {
  std::map<std::string, std::uint32_t> index;
  for (std::uint32_t i = 0; i < names.size(); ++i) index.emplace(names[i], i);
  std::vector<std::uint32_t> lanes(ops.transitions);
  for (std::uint32_t t = 0; t < ops.transitions; ++t) {
    // An actor is a parameter, never a choice: describing without a state names it.
    const TransitionInfo info = ops.describe(ops.model, nullptr, t);
    const std::string lane = lane_of(ops.action_actors[info.action], info.action_name, info.params);
    const auto [at, added] = index.try_emplace(lane, static_cast<std::uint32_t>(names.size()));
    if (added) names.push_back(lane);
    lanes[t] = at->second;
  }
  return lanes;
}

LaneRenaming::LaneRenaming(const std::vector<SymmetryKind>& kinds, std::vector<std::string>& names) {
  std::map<std::string, std::uint32_t> index;
  for (std::uint32_t i = 0; i < names.size(); ++i) index.emplace(names[i], i);
  lanes_.resize(kinds.size());
  std::vector<Place> places;
  for (std::uint32_t k = 0; k < kinds.size(); ++k) {
    const SymmetryKind& kind = kinds[k];
    // An id's name is its prefix and its number; the first symmetric id's number gives the offset.
    int offset = 0;
    try {
      offset = std::stoi(kind.first.substr(kind.prefix.size())) - kind.first_index;
    } catch (const std::exception&) {
      ok_ = false;
      return;
    }
    const auto name = [&](int i) { return kind.prefix + std::to_string(i + offset); };
    if (kind.count > 0 && (name(kind.first_index) != kind.first || name(kind.first_index + kind.count - 1) != kind.last)) {
      ok_ = false;
      return;
    }
    lanes_[k].resize(renaming_width);
    for (int i = kind.first_index; i < kind.first_index + kind.count; ++i) {
      const auto [at, added] = index.try_emplace(name(i), static_cast<std::uint32_t>(names.size()));
      if (added) names.push_back(name(i));
      lanes_[k][static_cast<std::size_t>(i)] = at->second;
      if (place_.size() <= at->second) place_.resize(at->second + 1);
      if (place_[at->second].kind != none) ok_ = false;  // two kinds print ids alike: a lane cannot say which
      place_[at->second] = {k, static_cast<std::uint32_t>(i)};
    }
  }
}

}  // namespace statecheck::detail
