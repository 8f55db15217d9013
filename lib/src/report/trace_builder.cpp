// Trace reconstruction by replay; see detail/trace_builder.hpp.
#include "report/trace_builder.hpp"

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

bool TraceBuilder::visited(const std::byte* state) const {
  const std::size_t scratch_size = ops_.encoding_size == 0 ? 1 : ops_.encoding_size;
  std::unique_ptr<std::byte[]> scratch(new std::byte[scratch_size]);
  const Hash128 h = ops_.fingerprint(ops_.model, state, scratch.get());
  if (exact_ != nullptr) return exact_->contains(h, ops_.encoding_size == 0 ? state : scratch.get());
  return visited_->contains(h);
}

std::vector<TraceStep> TraceBuilder::build(const std::vector<std::uint32_t>& path, std::string& problem,
                                           const std::byte* expected_last) const {
  std::vector<TraceStep> steps;
  if (path.empty()) return steps;
  std::unique_ptr<std::byte[]> state(new std::byte[ops_.state_size + 16]);
  try {
    if (!ops_.make_initial(ops_.model, path[0], state.get())) {
      problem = "the spec is not deterministic: initial state " + std::to_string(path[0]) +
                " was rejected on replay";
      return {};
    }
    TraceStep first;
    first.state = ops_.to_value(ops_.model, state.get());
    steps.push_back(std::move(first));
    for (std::size_t i = 1; i < path.size(); ++i) {
      const TransitionInfo info = ops_.describe(ops_.model, path[i]);
      TraceStep step;
      step.label = transition_label(info);
      step.action = info.action_name;
      step.params = info.params;
      step.actor = ops_.action_actors[info.action];
      if (!ops_.replay(ops_.model, state.get(), path[i])) {
        problem = "the spec is not deterministic: on replay, step " + std::to_string(i) + " (" + step.label +
                  ") is not enabled";
        return {};
      }
      if (!visited(state.get())) {
        problem = "the spec is not deterministic: on replay, step " + std::to_string(i) + " (" + step.label +
                  ") reaches a state the search never visited";
        return {};
      }
      step.state = ops_.to_value(ops_.model, state.get());
      steps.push_back(std::move(step));
    }
    if (expected_last != nullptr && !ops_.equal(state.get(), expected_last)) {
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
