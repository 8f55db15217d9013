// statecheck/detail/transitions.hpp - flattens actions x parameter values into
// dense transition ids. The only code that walks a spec's action tuple.
//
// Id order: actions in declaration order; within an action, the first
// parameter varies slowest and values come in their declared order.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "statecheck/detail/domains.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "statecheck/member_traits.hpp"
#include "statecheck/spec.hpp"

namespace statecheck::detail {

template <class Guard, class Effect, class... P>
std::size_t combination_count(const action_t<Guard, Effect, P...>& a) {
  if (!a.present) return 0;
  return std::apply([](const auto&... p) { return (std::size_t{1} * ... * p.values.size()); }, a.params);
}

/// Calls f(values...) for every combination of `params` in id order.
template <std::size_t I = 0, class Params, class F, class... Vs>
inline void for_each_combination(const Params& params, F& f, const Vs&... vs) {
  if constexpr (I == std::tuple_size_v<Params>) {
    f(vs...);
  } else {
    for (const auto& v : std::get<I>(params).values) for_each_combination<I + 1>(params, f, vs..., v);
  }
}

/// Calls f(values...) for combination number `index` of `params` (mixed radix).
template <std::size_t I = 0, class Params, class F, class... Vs>
inline decltype(auto) with_combination(const Params& params, std::size_t index, std::size_t stride, F&& f,
                                       const Vs&... vs) {
  if constexpr (I == std::tuple_size_v<Params>) {
    return f(vs...);
  } else {
    const auto& values = std::get<I>(params).values;
    const std::size_t inner = stride / values.size();
    return with_combination<I + 1>(params, index % inner, inner, std::forward<F>(f), vs...,
                                   values[index / inner]);
  }
}

template <class Spec>
class TransitionTable {
 public:
  using State = typename Spec::state_type;

  /// Throws config_error for a parameter domain or a transition count beyond
  /// the limits of detail/domains.hpp.
  explicit TransitionTable(const Spec& spec) : spec_(&spec) {
    std::apply([&](const auto&... a) { (add_action(a), ...); }, spec.actions.list);
  }

  std::uint32_t count() const { return total_; }
  std::size_t action_count() const { return names_.size(); }
  const std::vector<std::string>& action_names() const { return names_; }
  /// Per action: the parameter naming who acts (ModelOps::action_actors).
  const std::vector<std::string>& action_actors() const { return actors_; }
  std::uint32_t action_of(std::uint32_t tid) const {
    std::size_t a = 0;
    while (a + 1 < offsets_.size() && offsets_[a + 1] <= tid) ++a;
    return static_cast<std::uint32_t>(a);
  }

  /// Hot path: f(tid, action, values...) for every transition, in id order.
  template <class F>
  inline void for_each(F&& f) const {
    std::uint32_t tid = 0;
    std::apply([&](const auto&... a) { (visit_action(a, tid, f), ...); }, spec_->actions.list);
  }

  /// Replays transition `tid` on `s`; false when its guard does not hold.
  bool apply(std::uint32_t tid, State& s) const {
    bool enabled = false;
    with_action(tid, [&](const auto& a, const auto&... vs) {
      enabled = a.guard(static_cast<const State&>(s), vs...);
      if (enabled) {
        const State before = s;  // a copy only matters to effects that read it
        apply_effect(a.effect, before, s, vs...);
      }
    });
    return enabled;
  }

  /// Action name and named parameter values of `tid`, for labels.
  TransitionInfo describe(std::uint32_t tid) const {
    TransitionInfo info;
    info.action = action_of(tid);
    info.action_name = names_[info.action];
    with_action(tid, [&](const auto& a, const auto&... vs) {
      std::size_t i = 0;
      auto add = [&](const auto& p, const auto& v) {
        info.params.emplace_back(std::string(p.name), to_value(v));
        ++i;
      };
      std::apply([&](const auto&... ps) { (add(ps, vs), ...); }, a.params);
    });
    return info;
  }

 private:
  template <class A>
  void add_action(const A& a) {
    offsets_.push_back(total_);
    names_.emplace_back(a.name);
    actors_.push_back(actor_of(a));
    if (!a.present) return;  // left out with when(): no ids, and its parameters are not checked
    total_ += static_cast<std::uint32_t>(checked_combinations(spec_->name, a.name, a.params, max_enumerated - total_));
  }

  template <class A, class F>
  inline void visit_action(const A& a, std::uint32_t& tid, F& f) const {
    if (!a.present) return;
    auto call = [&](const auto&... vs) { f(tid++, a, vs...); };
    for_each_combination(a.params, call);
  }

  template <class F>
  void with_action(std::uint32_t tid, F&& f) const {
    const std::uint32_t which = action_of(tid);
    std::uint32_t index = 0;
    std::apply([&](const auto&... a) { (visit_one(a, which, index++, tid, f), ...); }, spec_->actions.list);
  }

  template <class A, class F>
  void visit_one(const A& a, std::uint32_t which, std::uint32_t index, std::uint32_t tid, F& f) const {
    if (index != which) return;
    const std::size_t combo = tid - offsets_[which];
    with_combination(a.params, combo, combination_count(a), [&](const auto&... vs) { f(a, vs...); });
  }

  /// The declared actor parameter, else the first named id, else "" (cold:
  /// once per action); resolve_actor refuses a declared name that is no parameter.
  /// Not inlined: cold, and inlined into the constructor it led g++ 12 -O3 to a
  /// false -Wrestrict in a spec's member_traits (om_membership_test.cpp).
  template <class A>
  [[gnu::noinline]] std::string actor_of(const A& a) const {
    std::vector<std::string_view> names;
    std::string_view first_id;
    std::apply([&](const auto&... p) {
      auto look = [&](const auto& one) {
        names.push_back(one.name);
        if (first_id.empty() && is_id<typename std::remove_cvref_t<decltype(one)>::type>::value) first_id = one.name;
      };
      (look(p), ...);
      (void)look;  // an action without parameters looks at none
    }, a.params);
    return resolve_actor(spec_->name, a.name, a.actor_param, names, first_id);
  }

  const Spec* spec_;
  std::vector<std::uint32_t> offsets_;
  std::vector<std::string> names_;
  std::vector<std::string> actors_;  // per action: ModelOps::action_actors
  std::uint32_t total_ = 0;
};

}  // namespace statecheck::detail
