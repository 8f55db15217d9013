// Walking a trace through a registered spec (statecheck/trace_walk.hpp): the
// library side of the tests that `replay --emit-test` writes. Cold code on
// ModelView, as replay itself.
#include "statecheck/trace_walk.hpp"

#include <nlohmann/json.hpp>
#include <optional>

#include "model/spec_config.hpp"
#include "model/model_view.hpp"
#include "report/json_value.hpp"

namespace statecheck {

struct TraceWalk::Impl {
  const detail::ModelView& view;
  std::optional<detail::OwnedState> state;
};

bool TraceWalk::start(const std::string& state_json) {
  const nlohmann::ordered_json want = nlohmann::ordered_json::parse(state_json);
  const detail::ModelView& view = impl_->view;
  for (std::uint32_t c = 0; c < view.ops().init_combinations; ++c) {
    std::optional<detail::OwnedState> s = view.initial(c);
    // Compared as unordered json: key order is not part of the format.
    if (s && nlohmann::json(detail::value_json(view.value(*s))) == nlohmann::json(want)) {
      impl_->state = std::move(s);
      return true;
    }
  }
  return false;
}

bool TraceWalk::step(const std::string& label) {
  if (!impl_->state) return false;
  // A choice's label names the value chosen from this state: look it up here.
  const std::optional<std::uint32_t> tid = impl_->view.find_label(label, *impl_->state);
  return tid && impl_->view.step(*impl_->state, *tid);
}

std::string TraceWalk::state() const {
  if (!impl_->state) return "(no state: start() did not find the initial state)";
  return detail::value_json(impl_->view.value(*impl_->state)).dump();
}

bool TraceWalk::violates(const std::string& invariant) const {
  if (!impl_->state) return false;
  const std::uint64_t mask = detail::invariant_mask(impl_->view.ops(), {invariant});
  return impl_->view.violated_invariant(*impl_->state, mask).has_value();
}

bool TraceWalk::deadlocked() const {
  return impl_->state && impl_->view.enabled(*impl_->state).empty();
}

std::string TraceWalk::blocking_deadline() const {
  return impl_->state ? impl_->view.blocking_deadline(*impl_->state) : std::string();
}

void walk_trace(const std::string& spec, const std::vector<std::pair<std::string, std::string>>& constants,
                const std::function<void(TraceWalk&)>& walk) {
  const SpecEntry& entry = detail::find_spec(spec);
  std::vector<std::pair<std::string, std::string>> shown;
  const std::vector<int> values = detail::constant_values(entry, constants, shown);
  entry.with_model(values, [&](const detail::ModelOps& ops) {
    const detail::ModelView view(ops);
    TraceWalk::Impl impl{view, std::nullopt};
    TraceWalk w(impl);
    walk(w);
  });
}

}  // namespace statecheck
