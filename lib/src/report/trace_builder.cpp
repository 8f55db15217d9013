// Trace reconstruction by replay; see detail/trace_builder.hpp.
#include "report/trace_builder.hpp"

#include <cstring>
#include <memory>

#include "statecheck/report.hpp"

namespace statecheck::detail {

std::string transition_label(const TransitionInfo& info) {
  std::string label = info.action_name;
  if (info.params.empty()) return label;
  label += '(';
  for (std::size_t i = 0; i < info.params.size(); ++i) {
    if (i > 0) label += ", ";
    label += info.params[i].first + "=" + value_text(info.params[i].second);
  }
  return label + ')';
}

std::string lane_of(const std::string& actor, const std::string& action,
                    const std::vector<std::pair<std::string, Value>>& params) {
  for (const auto& [name, value] : params)
    if (!actor.empty() && name == actor) return value.kind == Value::Kind::name ? value_text(value) : name + "=" + value_text(value);
  return "action " + action;
}

std::uint64_t actor_switches(const std::vector<TraceStep>& trace) {
  std::uint64_t switches = 0;
  for (std::size_t i = 2; i < trace.size(); ++i)
    if (lane_of(trace[i].actor, trace[i].action, trace[i].params) !=
        lane_of(trace[i - 1].actor, trace[i - 1].action, trace[i - 1].params))
      ++switches;
  return switches;
}

bool TraceBuilder::visited(const std::byte* state) const {
  const std::size_t scratch_size = ops_.encoding_size == 0 ? 1 : ops_.encoding_size;
  std::unique_ptr<std::byte[]> scratch(new std::byte[scratch_size]);
  const Hash128 h = ops_.fingerprint(ops_.model, state, scratch.get());
  if (exact_ != nullptr) return exact_->contains(h, ops_.encoding_size == 0 ? state : scratch.get());
  return visited_->contains(h);
}

bool TraceBuilder::step_into_orbit(std::byte* state, const std::byte* target, std::uint32_t& tid) const {
  std::unique_ptr<std::byte[]> next(new std::byte[ops_.state_size + 16]);
  std::unique_ptr<std::byte[]> canon(new std::byte[ops_.state_size + 16]);
  for (std::uint32_t t = 0; t < ops_.transitions; ++t) {
    std::memcpy(next.get(), state, ops_.state_size);
    try {
      if (!ops_.replay(ops_.model, next.get(), t)) continue;
    } catch (const std::exception&) {
      continue;  // not the step taken: the logged one did not throw
    }
    std::memcpy(canon.get(), next.get(), ops_.state_size);
    ops_.canonicalize(ops_.model, canon.get());
    if (!ops_.equal(canon.get(), target)) continue;
    std::memcpy(state, next.get(), ops_.state_size);
    tid = t;
    return true;
  }
  return false;
}

std::uint32_t TraceBuilder::concrete_failing(const std::byte* state, std::uint32_t tid, const std::string& message) const {
  if (ops_.canonicalize == nullptr) return tid;
  std::unique_ptr<std::byte[]> next(new std::byte[ops_.state_size + 16]);
  for (std::uint32_t t = 0; t < ops_.transitions; ++t) {
    std::memcpy(next.get(), state, ops_.state_size);
    try {
      ops_.replay(ops_.model, next.get(), t);
    } catch (const std::exception& e) {
      if (message == e.what()) return t;
    }
  }
  return tid;
}

std::vector<TraceStep> TraceBuilder::build(const std::vector<std::uint32_t>& path, std::string& problem,
                                           const std::byte* expected_last, std::vector<std::byte>* last_state) const {
  std::vector<TraceStep> steps;
  if (path.empty()) return steps;
  std::unique_ptr<std::byte[]> state(new std::byte[ops_.state_size + 16]);
  // With symmetry, `state` is the concrete state and `rep` its logged representative.
  const bool symmetric = ops_.canonicalize != nullptr;
  std::unique_ptr<std::byte[]> rep(new std::byte[ops_.state_size + 16]);
  std::byte* logged = symmetric ? rep.get() : state.get();
  // The concrete state before each step: a choice's value is read from it.
  std::unique_ptr<std::byte[]> before(new std::byte[ops_.state_size + 16]);
  try {
    if (!ops_.make_initial(ops_.model, path[0], state.get())) {
      problem = "the spec is not deterministic: initial state " + std::to_string(path[0]) +
                " was rejected on replay";
      return {};
    }
    if (symmetric) {
      std::memcpy(rep.get(), state.get(), ops_.state_size);
      ops_.canonicalize(ops_.model, rep.get());
    }
    TraceStep first;
    first.state = ops_.to_value(ops_.model, state.get());
    steps.push_back(std::move(first));
    for (std::size_t i = 1; i < path.size(); ++i) {
      TraceStep step;
      step.label = transition_label(ops_.describe(ops_.model, logged, path[i]));  // as logged, for the messages below
      std::memcpy(before.get(), state.get(), ops_.state_size);
      if (!ops_.replay(ops_.model, logged, path[i])) {
        problem = "the spec is not deterministic: on replay, step " + std::to_string(i) + " (" + step.label +
                  ") is not enabled";
        return {};
      }
      if (symmetric) ops_.canonicalize(ops_.model, logged);
      if (!visited(logged)) {
        problem = "the spec is not deterministic: on replay, step " + std::to_string(i) + " (" + step.label +
                  ") reaches a state the search never visited";
        return {};
      }
      std::uint32_t taken = path[i];
      if (symmetric && !step_into_orbit(state.get(), logged, taken)) {
        problem = "the spec is not symmetric: on the concrete trace, no transition at step " + std::to_string(i) +
                  " reaches the orbit the search logged (" + step.label + " on its representative); run --self-check";
        return {};
      }
      const TransitionInfo info = ops_.describe(ops_.model, before.get(), taken);
      step.label = transition_label(info);
      step.action = info.action_name;
      step.params = info.params;
      step.actor = ops_.action_actors[info.action];
      step.target = ops_.action_targets[info.action];
      step.state = ops_.to_value(ops_.model, state.get());
      steps.push_back(std::move(step));
    }
    if (last_state != nullptr) last_state->assign(state.get(), state.get() + ops_.state_size);
    if (expected_last != nullptr && !ops_.equal(logged, expected_last)) {
      problem = "the spec is not deterministic: replaying the trace ends in a different state";
      return {};
    }
  } catch (const std::exception& e) {
    problem = std::string("the spec threw on replay: ") + e.what();
    return {};
  } catch (...) {
    problem = std::string("the spec threw on replay: ") + non_std_exception;
    return {};
  }
  return steps;
}

}  // namespace statecheck::detail
