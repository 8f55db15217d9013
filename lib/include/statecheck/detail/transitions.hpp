// statecheck/detail/transitions.hpp - flattens actions x parameter values into
// dense transition ids. The only code that walks a spec's action tuple.
//
// Id order: actions in declaration order; within an action, the first
// parameter varies slowest and values come in their declared order. An action
// with a choice has `bound` ids per parameter combination: id = its first id +
// combination * bound + witness index, where the witness index is the place of
// the chosen value in the order the choice enumerates it from the pre-state.
// Replay re-enumerates the same pre-state to find the same value again.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <stdexcept>

#include "statecheck/detail/choice.hpp"
#include "statecheck/detail/domains.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "statecheck/detail/time_step.hpp"
#include "statecheck/member_traits.hpp"
#include "statecheck/spec.hpp"

namespace statecheck::detail {

/// What a choice's enumerator threw (or its having more witnesses than its
/// bound), with the first transition id of the parameter combination whose
/// values it was enumerating: the expansion blames that action, not the one
/// before it (or "the constraint" when it is the first). what() is what the
/// enumerator's exception said.
struct choice_failure : std::runtime_error {
  choice_failure(std::uint32_t first_tid, const std::string& what) : std::runtime_error(what), tid(first_tid) {}
  std::uint32_t tid;
};

/// Rethrows the exception in flight as a choice_failure of `first_tid` (cold).
[[noreturn, gnu::cold, gnu::noinline]] inline void rethrow_as_choice_failure(std::uint32_t first_tid) {
  try {
    throw;
  } catch (const std::exception& e) {
    throw choice_failure(first_tid, e.what());
  } catch (...) {
    throw choice_failure(first_tid, non_std_exception);
  }
}

template <class Guard, class Effect, class Choice, class... P>
std::size_t combination_count(const action_t<Guard, Effect, Choice, P...>& a) {
  if (!a.present) return 0;
  return std::apply([](const auto&... p) { return (std::size_t{1} * ... * p.values.size()); }, a.params);
}

/// The choice traits of action `A` for states of type `State`.
template <class A, class State>
struct action_choice;
template <class Guard, class Effect, class Choice, class... P, class State>
struct action_choice<action_t<Guard, Effect, Choice, P...>, State> {
  using traits = choice_traits<Choice, State, P...>;
};

/// Transition ids per parameter combination: one, or one per witness index.
template <class State, class A>
std::uint32_t ids_per_combination(const A& a) {
  if constexpr (A::has_choice) return action_choice<A, State>::traits::bound(a.choice);
  else return 1;
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

/// A parameter's value for a label; a type without member_traits is refused
/// by action(...) (parameter_type_cannot_be_printed), and prints nothing more here.
template <class V>
Value printed(const V& v) {
  if constexpr (state_member<V>) return to_value(v);
  else return Value::name("?");
}

/// The time step of a spec whose Time is `Time` (none for an untimed spec).
template <class State, class Time>
struct time_step_of {
  struct none {};
  using type = none;
};
template <class State, class Deadlines>
struct time_step_of<State, timed_t<Deadlines>> {
  using type = TimeStep<State, Deadlines>;
};

template <class Spec>
class TransitionTable {
 public:
  using State = typename Spec::state_type;
  static constexpr bool timed = Spec::timed;

  /// Throws config_error for a parameter domain or a transition count beyond
  /// the limits of detail/domains.hpp, or a timing that does not fit the
  /// state's clocks (detail/clocks.hpp).
  explicit TransitionTable(const Spec& spec) : spec_(&spec) {
    std::apply([&](const auto&... a) { (add_action(a), ...); }, spec.actions.list);
    if constexpr (timed) add_time_step();
  }

  std::uint32_t count() const { return total_; }
  std::size_t action_count() const { return names_.size(); }
  const std::vector<std::string>& action_names() const { return names_; }
  /// Per action: the parameter naming who acts (ModelOps::action_actors).
  const std::vector<std::string>& action_actors() const { return actors_; }
  /// Per action: the parameter naming whom a step reaches (ModelOps::action_targets).
  const std::vector<std::string>& action_targets() const { return targets_; }
  std::uint32_t action_of(std::uint32_t tid) const {
    std::size_t a = 0;
    while (a + 1 < offsets_.size() && offsets_[a + 1] <= tid) ++a;
    return static_cast<std::uint32_t>(a);
  }

  /// Hot path: f(tid, action, values...) for every transition of `s`, in id
  /// order (a choice's value comes last). Throws std::length_error when a
  /// choice has more witnesses than its bound.
  template <class F>
  inline void for_each(const State& s, F&& f) const {
    std::uint32_t tid = 0;
    std::apply([&](const auto&... a) { (visit_action(a, s, tid, f), ...); }, spec_->actions.list);
    if constexpr (timed) time_->for_each(s, tid, f);
  }

  /// Replays transition `tid` on `s`; false when its guard does not hold (or
  /// its witness does not exist in `s`).
  bool apply(std::uint32_t tid, State& s) const {
    if constexpr (timed) {
      if (is_time_step(tid)) {
        State after = s;
        if (!time_->apply(delay_of(tid), after)) return false;
        s = after;
        return true;
      }
    }
    const State before = s;  // the choice's values and pre-state effects read it
    bool enabled = false;
    with_action(tid, before, [&](const auto& a, const auto&... vs) {
      enabled = a.guard(before, vs...);
      if (enabled) apply_effect(a.effect, before, s, vs...);
    });
    return enabled;
  }

  /// True when the label of `tid` depends on the state (a choice's value).
  bool chooses(std::uint32_t tid) const { return chooses_[action_of(tid)]; }

  /// Action name and named values of `tid`, for labels. Without a state a
  /// choice's value is left out; with one it is the value chosen in `s`
  /// ("?" when `s` has no such witness).
  TransitionInfo describe(std::uint32_t tid, const State* s = nullptr) const {
    if constexpr (timed) {
      if (is_time_step(tid)) return time_->describe(action_of(tid), delay_of(tid));
    }
    TransitionInfo info;
    info.action = action_of(tid);
    info.action_name = names_[info.action];
    info.depends_on_state = chooses_[info.action];
    auto add_params = [&](const auto& a, const auto&... vs) {
      auto add = [&](const auto& p, const auto& v) { info.params.emplace_back(std::string(p.name), printed(v)); };
      std::apply([&](const auto&... ps) { (add(ps, vs), ...); }, a.params);
    };
    std::uint32_t index = 0;
    std::apply([&](const auto&... a) { (describe_one(a, info.action, index++, tid, s, info, add_params), ...); },
               spec_->actions.list);
    return info;
  }

 /// The time step (timed specs; see detail/time_step.hpp).
  const auto& time_step() const { return *time_; }
  bool is_time_step(std::uint32_t tid) const { return timed && tid >= time_first_; }

 private:
  int delay_of(std::uint32_t tid) const { return static_cast<int>(tid - time_first_) + 1; }

  /// The time step as the last action, one id per delay of 1..its longest.
  void add_time_step() {
    if constexpr (timed) {
      time_.emplace(std::string(spec_->name), spec_->time);
      offsets_.push_back(total_);
      names_.emplace_back(time_action_name);
      chooses_.push_back(false);
      per_combination_.push_back(1);
      actors_.emplace_back();
      targets_.emplace_back();
      time_first_ = total_;
      if (time_->count() > max_enumerated - total_)
        throw config_error("spec '" + std::string(spec_->name) + "': its time step's delays and its actions' "
                           "transitions exceed the most transition ids; choose a coarser time unit");
      total_ += time_->count();
    }
  }

  template <class A>
  void add_action(const A& a) {
    offsets_.push_back(total_);
    names_.push_back(a.full_name());
    chooses_.push_back(A::has_choice);
    per_combination_.push_back(1);
    actors_.push_back(actor_of(a));
    targets_.push_back(resolve_target(spec_->name, a.full_name(), a.sends_param, param_names(a)));
    if (!a.present) return;  // left out with when(): no ids, and its parameters are not checked
    const std::uint32_t per = ids_per_combination<State>(a);
    if constexpr (A::has_choice) {
      if (per == 0)
        throw config_error(part_name(spec_->name, a.full_name()) + " choice '" + std::string(a.choice.name) +
                           "' has bound 0; give the most values it may offer in one state");
    }
    per_combination_.back() = per;
    // Beyond the limit alone, the action is named by checked_combinations; within it, the actions
    // together may still pass it, and the largest is the one to narrow (not this one, the last).
    const std::uint64_t combos = checked_combinations(spec_->name, a.full_name(), a.params, max_enumerated / per);
    if (combos * per > max_enumerated - total_) throw config_error(too_many_transitions(combos * per));
    total_ += static_cast<std::uint32_t>(combos * per);
  }

  /// The refusal of actions whose transitions together pass max_enumerated, the
  /// last of them (`last` ids) just added to names_ and offsets_ (cold).
  [[gnu::noinline]] std::string too_many_transitions(std::uint64_t last) const {
    std::string list;
    std::uint64_t most = 0;
    std::size_t largest = 0;
    for (std::size_t i = 0; i < names_.size(); ++i) {
      const std::uint64_t ids = i + 1 < offsets_.size() ? offsets_[i + 1] - offsets_[i] : last;
      if (ids == 0) continue;  // left out with when()
      list += (list.empty() ? "" : ", ") + names_[i] + " " + std::to_string(ids);
      if (ids > most) {
        most = ids;
        largest = i;
      }
    }
    return "spec '" + std::string(spec_->name) + "': its actions have " + std::to_string(total_ + last) +
           " transitions in all (" + list + "), more than the " + std::to_string(max_enumerated) +
           " a spec may have: narrow the parameters of action '" + names_[largest] + "'";
  }

  template <class A, class F>
  inline void visit_action(const A& a, const State& s, std::uint32_t& tid, F& f) const {
    if (!a.present) return;
    if constexpr (A::has_choice) {
      const std::uint32_t bound = ids_per_combination<State>(a);
      auto call = [&](const auto&... vs) {
        const std::uint32_t first = tid;
        std::uint32_t witness = 0;
        bool stepping = false;  // inside f: a throw there is the guard's or the effect's, not the choice's
        auto chosen = [&](const auto& v) {
          if (witness == bound) throw std::length_error(too_many_witnesses(a, bound));
          stepping = true;
          f(first + witness++, a, vs..., v);
          stepping = false;
        };
        try {
          action_choice<A, State>::traits::enumerate(a.choice, s, chosen, vs...);
        } catch (...) {
          if (!stepping) rethrow_as_choice_failure(first);
          throw;
        }
        tid = first + bound;
      };
      for_each_combination(a.params, call);
    } else {
      auto call = [&](const auto&... vs) { f(tid++, a, vs...); };
      for_each_combination(a.params, call);
    }
  }

  template <class A>
  static std::string too_many_witnesses(const A& a, std::uint32_t bound) {
    return "action '" + a.full_name() + "': choice '" + std::string(a.choice.name) + "' offers more than " +
           std::to_string(bound) + " values in this state; raise its bound in each(\"" + std::string(a.choice.name) +
           "\", bound, ...)";
  }

  /// Calls f(action, values...) for `tid` in state `s`; false when `s` has no
  /// such witness.
  template <class F>
  bool with_action(std::uint32_t tid, const State& s, F&& f) const {
    const std::uint32_t which = action_of(tid);
    std::uint32_t index = 0;
    bool found = false;
    std::apply([&](const auto&... a) { (visit_one(a, which, index++, tid, s, f, found), ...); }, spec_->actions.list);
    return found;
  }

  /// Calls f(a, values...) when `a` is action `which`; a choice's value is
  /// the witness of that index in `s`.
  template <class A, class F>
  void visit_one(const A& a, std::uint32_t which, std::uint32_t index, std::uint32_t tid, const State& s, F& f,
                 bool& found) const {
    if (index != which) return;
    const std::uint32_t per = per_combination_[which];
    const std::size_t combo = (tid - offsets_[which]) / per;
    with_combination(a.params, combo, combination_count(a), [&](const auto&... vs) {
      if constexpr (A::has_choice) {
        const std::uint32_t wanted = (tid - offsets_[which]) % per;
        std::uint32_t witness = 0;
        auto pick = [&](const auto& v) {
          if (witness++ != wanted) return;
          found = true;
          f(a, vs..., v);
        };
        action_choice<A, State>::traits::enumerate(a.choice, s, pick, vs...);
      } else {
        found = true;
        f(a, vs...);
      }
    });
  }

  template <class A, class Add>
  void describe_one(const A& a, std::uint32_t which, std::uint32_t index, std::uint32_t tid, const State* s,
                    TransitionInfo& info, Add& add_params) const {
    if (index != which) return;
    const std::uint32_t per = per_combination_[which];
    with_combination(a.params, (tid - offsets_[which]) / per, combination_count(a), [&](const auto&... vs) {
      add_params(a, vs...);
      if constexpr (A::has_choice) {
        if (s == nullptr) return;
        const std::uint32_t wanted = (tid - offsets_[which]) % per;
        std::uint32_t witness = 0;
        Value chosen = Value::name("?");
        auto pick = [&](const auto& v) {
          if (witness++ == wanted) chosen = printed(v);
        };
        action_choice<A, State>::traits::enumerate(a.choice, *s, pick, vs...);
        info.params.emplace_back(std::string(a.choice.name), std::move(chosen));
      }
    });
  }

  /// The declared actor parameter, else the first named id, else "" (cold:
  /// once per action); resolve_actor refuses a declared name that is no parameter.
  /// Not inlined: cold, and inlined into the constructor it led g++ 12 -O3 to a
  /// false -Wrestrict in a spec's member_traits (om_membership_test.cpp).
  template <class A>
  [[gnu::noinline]] std::string actor_of(const A& a) const {
    std::string_view first_id;
    std::apply([&](const auto&... p) {
      auto look = [&](const auto& one) {
        if (first_id.empty() && is_id<typename std::remove_cvref_t<decltype(one)>::type>::value) first_id = one.name;
      };
      (look(p), ...);
      (void)look;  // an action without parameters looks at none
    }, a.params);
    return resolve_actor(spec_->name, a.full_name(), a.actor_param, param_names(a), first_id);
  }

  template <class A>
  [[gnu::noinline]] static std::vector<std::string_view> param_names(const A& a) {
    std::vector<std::string_view> names;
    std::apply([&](const auto&... p) { (names.push_back(p.name), ...); }, a.params);
    return names;
  }

  const Spec* spec_;
  std::vector<std::uint32_t> offsets_;
  std::vector<std::uint32_t> per_combination_;  // ids per parameter combination, per action
  std::vector<bool> chooses_;
  std::vector<std::string> names_;
  std::vector<std::string> actors_;  // per action: ModelOps::action_actors
  std::vector<std::string> targets_;  // per action: ModelOps::action_targets
  std::uint32_t total_ = 0;
  std::optional<typename time_step_of<State, typename Spec::time_type>::type> time_;  // timed specs
  std::uint32_t time_first_ = ~std::uint32_t{0};  // the time step's first id (delay 1)
};

}  // namespace statecheck::detail
