// statecheck/spec.hpp - the DSL a spec is written in.
//
//   inline auto make_spec(const Config& c) {
//     const auto rm = statecheck::param("rm", 0, c.rms - 1);
//     return statecheck::spec<State>("two-phase",
//         statecheck::init([&](State& s) { ... }),
//         statecheck::actions(
//             statecheck::action("RMPrepare", rm,
//                 [](const State& s, int r) { return s.rm[r] == Rm::working; },  // guard
//                 [](State& s, int r) { s.rm[r] = Rm::prepared; })),            // effect
//         statecheck::invariants(statecheck::invariant("Consistent", [](const State& s) { ... })),
//         statecheck::reachable(statecheck::goal("AllCommitted", [](const State& s) { ... })));
//   }
//
// Enumeration order is a contract: actions in declaration order; within an
// action, parameter combinations with the first parameter varying slowest and
// each parameter's values in the order given. Each combination is one dense
// transition id, which traces and replay rely on. An action with a choice
// (each / each_in) has `bound` ids per combination, one per witness index.
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "statecheck/action.hpp"
#include "statecheck/member_traits.hpp"
#include "statecheck/symmetry.hpp"
#include "statecheck/detail/clocks.hpp"
#include "statecheck/time.hpp"

namespace statecheck {

/// Initial states: fn(State&, P...) for every parameter combination; a fn that
/// returns bool keeps only the combinations for which it returns true.
template <class Fn, class... P>
struct init_t {
  std::tuple<param_t<P>...> params;
  Fn fn;
};
template <class Fn>
struct invariant_t {
  std::string_view name;
  Fn fn;
};
template <class Fn>
struct goal_t {
  std::string_view name;
  Fn fn;
};
template <class Fn, bool Prune = false>
struct constraint_t {
  Fn fn;
  static constexpr bool prunes = Prune;
};
/// Marks a spec whose terminal states are expected (no deadlock check).
struct allow_deadlock_t {};
inline constexpr allow_deadlock_t allow_deadlock{};

template <class... A>
struct actions_t { std::tuple<A...> list; };
template <class... I>
struct invariants_t { std::tuple<I...> list; };
template <class... G>
struct goals_t { std::tuple<G...> list; };
struct no_constraint {};

/// One action of several branches, as a TLA+ action that is a disjunction:
/// `branches("Next", action("Send", ...), action("Receive", ...))`. Each branch
/// keeps its own parameters, choice, guard and effect, is labelled
/// `Next.Send(...)`, and each enabled branch is a successor of its own, as
/// TLC counts the disjuncts of an action. Written among the other actions.
template <class... A>
struct branches_t {
  std::tuple<A...> list;
};
namespace detail {
/// An action as a tuple of one, the branches of branches(...) as theirs.
template <class A>
auto action_list(A a) {
  if constexpr (requires { a.list; }) return std::move(a.list);
  else return std::make_tuple(std::move(a));
}
template <class... A>
actions_t<A...> to_actions(std::tuple<A...> list) { return {std::move(list)}; }
}  // namespace detail

/// The spec's actions, in order; branches(...) adds each of its branches here.
template <class... A>
auto actions(A... a) {
  static_assert(sizeof...(A) > 0, "statecheck::actions: declare at least one action");
  return detail::to_actions(std::tuple_cat(detail::action_list(std::move(a))...));
}
template <class... I>
invariants_t<I...> invariants(I... i) { return {std::make_tuple(std::move(i)...)}; }
template <class... G>
goals_t<G...> reachable(G... g) { return {std::make_tuple(std::move(g)...)}; }

/// A complete spec; built by statecheck::spec<State>(...).
template <class State, class Init, class Actions, class Invariants, class Goals, class Constraint,
          class Symmetry = symmetry_t<>, class Time = detail::untimed_t>
struct spec_t {
  using state_type = State;
  using symmetry_type = Symmetry;
  using time_type = Time;
  std::string_view name;
  Init init;
  Actions actions;        // actions_t<...>
  Invariants invariants;  // invariants_t<...>
  Goals goals;            // goals_t<...>
  Constraint constraint;  // constraint_t<Fn> or no_constraint
  bool deadlock_allowed = false;
  Symmetry symmetry{};    // symmetry_t<Tags...>: the ranges declared symmetric<Tag>(first, count)
  Time time{};            // detail::timed_t<...> (the timing, the deadlines) when the state holds clocks
  static constexpr bool timed = !std::is_same_v<Time, detail::untimed_t>;
  static constexpr bool has_constraint = !std::is_same_v<Constraint, no_constraint>;
  static constexpr bool has_symmetry = Symmetry::kinds > 0;
  static constexpr bool constraint_prunes = [] {
    if constexpr (has_constraint) return Constraint::prunes;
    else return false;
  }();
};

namespace detail {
template <template <class...> class Tmpl, class T>
struct is_instance : std::false_type {};
template <template <class...> class Tmpl, class... A>
struct is_instance<Tmpl, Tmpl<A...>> : std::true_type {};

template <class T>
constexpr bool is_constraint = false;
template <class Fn, bool Prune>
constexpr bool is_constraint<constraint_t<Fn, Prune>> = true;

/// The part of kind `Pred` among `parts`, or `fallback` when absent.
template <template <class> class Pred, class Fallback, class... Parts>
auto pick(Fallback fallback, const Parts&... parts) {
  constexpr std::size_t n = (std::size_t{0} + ... + (Pred<Parts>::value ? 1 : 0));
  static_assert(n <= 1, "statecheck::spec: each kind of part (init, actions, invariants, "
                        "reachable, constraint) may be given once");
  if constexpr (n == 0) {
    return fallback;
  } else {
    return std::get<0>(std::tuple_cat([](const auto& p) {
      if constexpr (Pred<std::remove_cvref_t<decltype(p)>>::value) return std::make_tuple(p);
      else return std::tuple<>{};
    }(parts)...));
  }
}
template <class T> struct is_init_part : is_instance<init_t, T> {};
template <class T> struct is_actions_part : is_instance<actions_t, T> {};
template <class T> struct is_invariants_part : is_instance<invariants_t, T> {};
template <class T> struct is_goals_part : is_instance<goals_t, T> {};
template <class T> struct is_constraint_part : std::bool_constant<is_constraint<T>> {};
template <class T> struct is_deadlock_part : std::is_same<T, allow_deadlock_t> {};
template <class T> struct is_symmetric_part : is_instance<symmetric_t, T> {};
template <class T> struct is_timing_part : std::is_same<T, timing> {};
template <class T> struct is_deadlines_part : is_instance<deadlines_t, T> {};
template <class T> struct is_timelock_part : std::is_same<T, allow_timelock_t> {};

/// The spec's time (detail/time_step.hpp): untimed_t, or the timing and
/// deadlines of a state that holds clocks.
template <class State, class... Parts>
auto collect_time(const Parts&... parts) {
  constexpr bool clocks = holds_clocks<State>;
  constexpr bool given = (is_timing_part<Parts>::value || ...);
  static_assert(!clocks || given, "statecheck::spec: the state holds a statecheck::clock: add the spec's "
                                  "statecheck::timing (its time unit and bounds) to the spec's parts");
  static_assert(clocks || !given, "statecheck::spec: a statecheck::timing is given but the state holds no "
                                  "statecheck::clock; drop the timing, or give the state its clocks");
  static_assert(clocks || !(is_deadlines_part<Parts>::value || ...),
                "statecheck::spec: deadlines(...) need a state with statecheck::clock members");
  if constexpr (clocks && given) {
    auto deadlines_part = pick<is_deadlines_part>(deadlines_t<>{}, parts...);
    return timed_t<decltype(deadlines_part)>{pick<is_timing_part>(0, parts...), deadlines_part,
                                             (is_timelock_part<Parts>::value || ...)};
  } else {
    return untimed_t{};
  }
}

template <class... Parts>
struct symmetry_parts {
  template <class Part>
  using tag_list = std::conditional_t<is_symmetric_part<Part>::value, std::tuple<Part>, std::tuple<>>;
  using parts = decltype(std::tuple_cat(std::declval<tag_list<Parts>>()...));
};
template <class Tuple>
struct symmetry_from;
template <class... Tags>
struct symmetry_from<std::tuple<symmetric_t<Tags>...>> {
  using type = symmetry_t<Tags...>;
  template <class... Parts>
  static type collect(const Parts&... parts) {
    type out{};
    std::size_t range = 0;  // the symmetric parts fill the ranges in the order given
    const auto note = [&](const auto& part) {
      if constexpr (is_symmetric_part<std::remove_cvref_t<decltype(part)>>::value) {
        out.firsts[range] = part.first;
        out.counts[range] = part.count;
        ++range;
      }
    };
    (note(parts), ...);
    return out;
  }
};
/// The spec's symmetry_t<Tags...>, one range per symmetric<Tag>(...) part, in the order given.
template <class... Parts>
auto collect_symmetry(const Parts&... parts) {
  using from = symmetry_from<typename symmetry_parts<Parts...>::parts>;
  return from::collect(parts...);
}
}  // namespace detail

}  // namespace statecheck

// The mistakes of a spec's parts; it inspects the part types above, and the
// builders below name a mistake at their call.
#include "statecheck/detail/spec_checks.hpp"

namespace statecheck {

// Each builder below comes twice: the one that builds the part, and, for
// arguments with a mistake, one declared and never defined whose return type
// is the mistake (statecheck/mistakes.hpp): the call is the one error, at the
// user's line, naming it (see action() in action.hpp).

template <class... Args>
  requires std::is_void_v<detail::mistake_of<decltype(detail::init_args_mistake<Args...>())>>
auto init(Args... args) {
  constexpr std::size_t total = sizeof...(Args);
  auto all = std::make_tuple(std::move(args)...);
  auto ps = detail::tuple_slice(all, std::make_index_sequence<total - 1>{},
                                std::integral_constant<std::size_t, 0>{});
  return std::apply(
      [&](auto... p) {
        return init_t<std::tuple_element_t<total - 1, decltype(all)>, typename decltype(p)::type...>{
            std::move(ps), std::get<total - 1>(all)};
      },
      ps);
}
template <class... Args>
  requires(!std::is_void_v<detail::mistake_of<decltype(detail::init_args_mistake<Args...>())>>)
detail::mistake_of<decltype(detail::init_args_mistake<Args...>())> init(Args... args);

namespace detail {
template <class Mistake, class Fn>
using predicate_args_mistake_t = mistake_of<decltype(predicate_args_mistake<Mistake, Fn>())>;
using invariant_mistake = mistake::invariant_is_not_callable_as_bool_of_const_State_ref;
using goal_mistake = mistake::goal_is_not_callable_as_bool_of_const_State_ref;
using constraint_mistake = mistake::constraint_is_not_callable_as_bool_of_const_State_ref;
}  // namespace detail

/// A property that must hold in every reachable state: bool(const State&).
template <class Fn>
  requires std::is_void_v<detail::predicate_args_mistake_t<detail::invariant_mistake, Fn>>
invariant_t<Fn> invariant(std::string_view name, Fn fn) { return {name, fn}; }
template <class Fn>
  requires(!std::is_void_v<detail::predicate_args_mistake_t<detail::invariant_mistake, Fn>>)
detail::predicate_args_mistake_t<detail::invariant_mistake, Fn> invariant(std::string_view name, Fn fn);

/// A state predicate that must hold in at least one reachable state (a guard
/// against vacuous specs): bool(const State&).
template <class Fn>
  requires std::is_void_v<detail::predicate_args_mistake_t<detail::goal_mistake, Fn>>
goal_t<Fn> goal(std::string_view name, Fn fn) { return {name, fn}; }
template <class Fn>
  requires(!std::is_void_v<detail::predicate_args_mistake_t<detail::goal_mistake, Fn>>)
detail::predicate_args_mistake_t<detail::goal_mistake, Fn> goal(std::string_view name, Fn fn);

/// States for which fn returns false are kept and checked but not expanded.
template <class Fn>
  requires std::is_void_v<detail::predicate_args_mistake_t<detail::constraint_mistake, Fn>>
constraint_t<Fn> constraint(Fn fn) { return {fn}; }
template <class Fn>
  requires(!std::is_void_v<detail::predicate_args_mistake_t<detail::constraint_mistake, Fn>>)
detail::predicate_args_mistake_t<detail::constraint_mistake, Fn> constraint(Fn fn);

/// TLC's CONSTRAINT: a state for which fn returns false is counted as
/// generated and then dropped: neither stored (not distinct), nor checked,
/// nor expanded. Initial states too.
template <class Fn>
  requires std::is_void_v<detail::predicate_args_mistake_t<detail::constraint_mistake, Fn>>
constraint_t<Fn, true> tlc_constraint(Fn fn) { return {fn}; }
template <class Fn>
  requires(!std::is_void_v<detail::predicate_args_mistake_t<detail::constraint_mistake, Fn>>)
detail::predicate_args_mistake_t<detail::constraint_mistake, Fn> tlc_constraint(Fn fn);

template <class... A>
  requires std::is_void_v<detail::mistake_of<decltype(detail::branches_mistake<A...>())>>
branches_t<A...> branches(std::string_view name, A... branch) {
  static_assert(sizeof...(A) > 0, "statecheck::branches: give at least one action(...) as a branch");
  ((branch.branch_of = name), ...);
  return {std::make_tuple(std::move(branch)...)};
}
template <class... A>
  requires(!std::is_void_v<detail::mistake_of<decltype(detail::branches_mistake<A...>())>>)
detail::mistake_of<decltype(detail::branches_mistake<A...>())> branches(std::string_view name, A... branch);

/// Builds a spec from its parts, in any order: init(...) and actions(...) are
/// required; invariants(...), reachable(...), constraint(...),
/// allow_deadlock and symmetric<Tag>(n) (statecheck/symmetry.hpp; a kind
/// may be given in several disjoint ranges) are optional. A state that holds
/// clocks needs its timing, and may add deadlines(...) and allow_timelock
/// (statecheck/time.hpp).
template <class State, class... Parts>
  requires std::is_void_v<detail::spec_mistake_t<State, Parts...>>
auto spec(std::string_view name, Parts... parts) {
  static_assert((detail::is_init_part<Parts>::value || ...),
                "statecheck::spec: add statecheck::init([](State& s) { ... })");
  static_assert((detail::is_actions_part<Parts>::value || ...),
                "statecheck::spec: add statecheck::actions(statecheck::action(...), ...)");
  auto init_part = detail::pick<detail::is_init_part>(0, parts...);
  auto actions_part = detail::pick<detail::is_actions_part>(0, parts...);
  auto invariants_part = detail::pick<detail::is_invariants_part>(invariants_t<>{}, parts...);
  auto goals_part = detail::pick<detail::is_goals_part>(goals_t<>{}, parts...);
  auto constraint_part = detail::pick<detail::is_constraint_part>(no_constraint{}, parts...);
  constexpr bool deadlock_ok = (detail::is_deadlock_part<Parts>::value || ...);
  auto symmetry_part = detail::collect_symmetry(parts...);
  auto time_part = detail::collect_time<State>(parts...);
  return spec_t<State, decltype(init_part), decltype(actions_part), decltype(invariants_part),
                decltype(goals_part), decltype(constraint_part), decltype(symmetry_part), decltype(time_part)>{
      name,         init_part,   actions_part,  invariants_part, goals_part,
      constraint_part, deadlock_ok, symmetry_part, time_part};
}
/// A spec with a mistake in its state type or a part (one whose callables are
/// generic: the others name theirs at their own call).
template <class State, class... Parts>
  requires(!std::is_void_v<detail::spec_mistake_t<State, Parts...>>)
detail::spec_mistake_t<State, Parts...> spec(std::string_view name, Parts... parts);

}  // namespace statecheck
