// statecheck/action.hpp - what one action of a spec is made of: named
// parameters, a state-dependent choice (each / each_in), a guard and an
// effect, and the builders action(...) and when(...). statecheck/spec.hpp
// puts actions together with initial states and properties into a spec.
//
//   statecheck::action("Send", statecheck::ids<Node>("from", n), statecheck::ids<Node>("to", n),
//                      [](const State& s, NodeId from, NodeId to) { return from != to; },   // guard
//                      [](State& s, NodeId from, NodeId to) { s.msgs.insert({from, to}); }) // effect
//       .actor("from").sends("to");
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

#include "statecheck/member_traits.hpp"

namespace statecheck {
/// The most values one parameter may have (documented in the README): beyond
/// it a spec is refused when it is built into a model, rather than allocating
/// gigabytes or wrapping a transition id.
inline constexpr std::int64_t max_param_values = std::int64_t{1} << 24;

/// A named parameter with a finite domain; printed as `name=value` in labels.
template <class T>
struct param_t {
  using type = T;
  std::string_view name;
  std::vector<T> values;
  // For param(name, lo, hi): the range asked for, so that an empty or
  // oversized one can be named when the spec is refused.
  std::int64_t lo = 0;
  std::int64_t hi = 0;
  bool ranged = false;
};

/// Integer parameter taking lo..hi inclusive. An empty range (hi < lo) or one
/// of more than max_param_values values is kept empty here and refused when
/// the spec is built into a model (a configuration error naming it): a
/// constructor cannot say which spec and action it belongs to.
inline param_t<int> param(std::string_view name, int lo, int hi) {
  param_t<int> p{name, {}, lo, hi, true};
  const std::int64_t count = std::int64_t{hi} - std::int64_t{lo} + 1;  // 64-bit: INT_MAX cannot wrap
  if (count <= 0 || count > max_param_values) return p;
  p.values.reserve(static_cast<std::size_t>(count));
  for (std::int64_t v = lo; v <= hi; ++v) p.values.push_back(static_cast<int>(v));
  return p;
}

/// Parameter over an explicit list of values, in that order.
template <class T>
param_t<T> param(std::string_view name, std::initializer_list<T> values) {
  return {name, std::vector<T>(values), 0, 0, false};
}
template <class T>
param_t<T> param(std::string_view name, std::vector<T> values) {
  return {name, std::move(values), 0, 0, false};
}

/// Parameter over every value of a bool or a STATECHECK_ENUM: `param<Role>("role")`.
template <class T>
  requires(std::is_same_v<T, bool> || named_enum<T>)
param_t<T> param(std::string_view name) {
  param_t<T> p{name, {}, 0, 0, false};
  if constexpr (std::is_same_v<T, bool>) {
    p.values = {false, true};
  } else {
    for (std::size_t i = 0; i < enum_count<T>(); ++i) p.values.push_back(static_cast<T>(i));
  }
  return p;
}

/// Parameter over the first n named ids of a kind: ids<Scm>("s", 3) takes s1, s2, s3.
template <class Tag>
param_t<id<Tag>> ids(std::string_view name, int n) {
  param_t<id<Tag>> p{name, {}};
  for (int i = 0; i < n; ++i) p.values.push_back(id<Tag>(i));
  return p;
}

template <class T>
struct is_param : std::false_type {};
template <class T>
struct is_param<param_t<T>> : std::true_type {};

/// A choice whose values depend on the state (TLA+'s `\E m \in msgs : A(m)`):
/// enumerate(const State& s, emit[, parameter values...]) calls emit(value) once
/// per witness, in a deterministic order. Each witness is one successor, and
/// its transition id is (action, parameter combination, witness index), so ids
/// grow with `bound` (the most witnesses a state may have), never with the set
/// the values come from. A state with more than `bound` witnesses is a spec error.
template <class T, class Enumerate>
struct each_t {
  std::string_view name;
  std::uint32_t bound;
  Enumerate enumerate;
};

/// each<Msg>("m", 16, [](const State& s, auto&& emit) { for (const Msg& m : s.msgs) emit(m); })
template <class T, class Enumerate>
each_t<T, Enumerate> each(std::string_view name, std::uint32_t bound, Enumerate enumerate) {
  return {name, bound, enumerate};
}

/// A choice of one member of a container of the state, in its order:
/// each_in("m", [](const State& s) -> const auto& { return s.msgs; }). The
/// container's capacity() is the bound; the accessor may also take the
/// action's parameter values after the state.
template <class Access>
struct each_in_t {
  std::string_view name;
  Access access;
};
template <class Access>
each_in_t<Access> each_in(std::string_view name, Access access) {
  return {name, access};
}

/// An action without a state-dependent choice.
struct no_choice {};

template <class T>
struct is_choice : std::false_type {};
template <class T, class E>
struct is_choice<each_t<T, E>> : std::true_type {};
template <class A>
struct is_choice<each_in_t<A>> : std::true_type {};

namespace detail {
/// An effect either changes a copy of the state in place, effect(State& next,
/// values...), or also reads the state it left, effect(const State& before,
/// State& after, values...), as TLA+ reads unprimed variables while writing
/// primed ones. The forms differ in arity, so one test tells them apart.
template <class Effect, class State, class... P>
constexpr bool reads_pre_state = std::is_invocable_v<const Effect&, const State&, State&, P...>;

/// Applies `effect` to `after` (a copy of `before`) in whichever form it has.
template <class State, class Effect, class... Vs>
inline void apply_effect(const Effect& effect, const State& before, State& after, const Vs&... vs) {
  if constexpr (reads_pre_state<Effect, State, Vs...>) effect(before, after, vs...);
  else effect(after, vs...);
}
}  // namespace detail

/// Guard of an action declared without one.
struct always_enabled {
  template <class... Args>
  constexpr bool operator()(const Args&...) const { return true; }
};

template <class Guard, class Effect, class Choice, class... P>
struct action_t {
  std::string_view name;
  std::tuple<param_t<P>...> params;
  Guard guard;
  Effect effect;
  bool present = true;  // false: left out of this configuration (see when())
  // No default member initializer: with one, clang checks it when a tuple of
  // actions asks whether an action is default-constructible, and a choice whose
  // enumerator captures (so has no default constructor) fails to compile.
  Choice choice;  // no_choice, or each_t / each_in_t after the parameters
  static constexpr bool has_choice = !std::is_same_v<Choice, no_choice>;
  std::string_view actor_param = {};  // the parameter naming who acts (see actor())
  std::string_view sends_param = {};  // the parameter naming whom it reaches (see sends())
  std::string_view branch_of = {};    // the action this is a branch of (see branches())

  /// The name in labels, statistics and messages: `Next.Send` for a branch.
  std::string full_name() const {
    return branch_of.empty() ? std::string(name) : std::string(branch_of) + "." + std::string(name);
  }

  /// Declares which parameter is the actor taking this step, for the lanes of
  /// `--html` pages: `action("Vote", voter, peer, guard, effect).actor("v")`.
  /// Without it a page uses the first named-id parameter. A name that is not a
  /// parameter of this action is refused when the spec is built into a model.
  action_t actor(std::string_view param_name) const {
    action_t a = *this;
    a.actor_param = param_name;
    return a;
  }

  /// Declares which parameter names the actor a message (or a shared-state
  /// effect) of this step reaches; `--html` pages draw an arrow from the
  /// actor's lane to that one: `action("Send", from, to, guard, effect)
  /// .actor("from").sends("to")`. Refused like actor() when not a parameter.
  action_t sends(std::string_view param_name) const {
    action_t a = *this;
    a.sends_param = param_name;
    return a;
  }
};

/// Keeps `a` in the spec only when `condition` holds, e.g. an action that
/// exists in one scenario: `when(c.leader_change, action("ElectLeader", ...))`.
/// A left-out action has no transition ids and is not reported as never enabled.
template <class Guard, class Effect, class Choice, class... P>
action_t<Guard, Effect, Choice, P...> when(bool condition, action_t<Guard, Effect, Choice, P...> a) {
  a.present = condition;
  return a;
}

namespace detail {
template <class... Args>
constexpr std::size_t count_leading_params() {
  constexpr bool flags[] = {is_param<std::remove_cvref_t<Args>>::value..., false};
  std::size_t n = 0;
  while (flags[n]) ++n;
  return n;
}

template <class Tuple, std::size_t... I, std::size_t Offset>
auto tuple_slice(Tuple&& t, std::index_sequence<I...>, std::integral_constant<std::size_t, Offset>) {
  return std::make_tuple(std::get<Offset + I>(std::forward<Tuple>(t))...);
}

template <class T>
struct param_types;
template <class... P>
struct param_types<std::tuple<param_t<P>...>> {
  template <class Guard, class Effect, class Choice>
  using action = action_t<Guard, Effect, Choice, P...>;
};
}  // namespace detail

}  // namespace statecheck

// The mistakes an action(...) can hold; it inspects the types above.
#include "statecheck/detail/action_checks.hpp"

namespace statecheck {

/// action(name, params..., [choice,] guard, effect) or action(name, params..., [choice,] effect).
/// guard: bool(const State&, P...[, chosen]); effect: void(State& next, P...[, chosen]) or
/// void(const State& before, State& after, P...[, chosen]); the chosen value of
/// each(...) / each_in(...) comes last.
template <class... Args>
  requires std::is_void_v<detail::action_args_mistake_t<Args...>>
auto action(std::string_view name, Args... args) {
  using shape = detail::action_shape<Args...>;
  constexpr std::size_t params = shape::params;
  constexpr std::size_t choices = shape::choices;
  constexpr std::size_t fns = shape::fns;
  auto all = std::make_tuple(std::move(args)...);
  auto ps = detail::tuple_slice(all, std::make_index_sequence<params>{},
                                std::integral_constant<std::size_t, 0>{});
  constexpr std::size_t first_fn = params + choices;
  auto choice = [&] {
    if constexpr (choices == 1) return std::get<params>(all);
    else return no_choice{};
  }();
  if constexpr (fns == 2) {
    using A = typename detail::param_types<decltype(ps)>::template action<
        std::tuple_element_t<first_fn, decltype(all)>, std::tuple_element_t<first_fn + 1, decltype(all)>,
        decltype(choice)>;
    return A{name, std::move(ps), std::get<first_fn>(all), std::get<first_fn + 1>(all), true, choice};
  } else {
    using A = typename detail::param_types<decltype(ps)>::template action<
        always_enabled, std::tuple_element_t<first_fn, decltype(all)>, decltype(choice)>;
    return A{name, std::move(ps), always_enabled{}, std::get<first_fn>(all), true, choice};
  }
}

/// An action(...) with a mistake: declared, never defined. Its return type is
/// the mistake (statecheck/mistakes.hpp), an incomplete type, so the call is the
/// one error, at the user's action(...) line, and names the mistake.
template <class... Args>
  requires(!std::is_void_v<detail::action_args_mistake_t<Args...>>)
detail::action_args_mistake_t<Args...> action(std::string_view name, Args... args);

}  // namespace statecheck
