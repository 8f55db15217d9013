// statecheck/detail/spec_checks.hpp - compile-time checks of the DSL contract,
// each with a message that says what to write instead.
#pragma once

#include <concepts>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "statecheck/result.hpp"

namespace statecheck::detail {

template <class State>
constexpr void check_state_type() {
  static_assert(reflected_struct<State>,
                "statecheck: the state type must list its members with "
                "BOOST_HANA_DEFINE_STRUCT(State, (type, name), ...)");
  static_assert(std::equality_comparable<State>,
                "statecheck: the state type and every struct inside it need "
                "`friend bool operator==(const T&, const T&) = default;` (T: the state, or a struct "
                "it holds as a member or in a container)");
  static_assert(std::is_trivially_copyable_v<State> && std::is_default_constructible_v<State>,
                "statecheck: states are copied for every successor and must be trivially "
                "copyable: use std::array, statecheck::bounded_vec or statecheck::id_set instead "
                "of std::vector, std::set or std::string");
  static_assert(state_member<State>,
                "statecheck: a state member has an unsupported type; use bool, integers, "
                "STATECHECK_ENUM enums, std::array, std::bitset, statecheck::bounded_vec, "
                "statecheck::id_set or nested BOOST_HANA_DEFINE_STRUCT structs, or specialise "
                "statecheck::member_traits<T> for your type");
}

// An effect or init that takes the state by value (or as const) compiles and
// runs, but its changes are lost: every successor equals its parent. Such a
// callable accepts an rvalue State; one taking State& does not.
template <class Fn, class State, class... P>
constexpr bool takes_state_by_reference = !std::is_invocable_v<const Fn&, State&&, P...>;

/// The guard and effect of an action whose values are P... (parameters, then
/// the chosen value of a choice).
template <class State, class Guard, class Effect, class... P>
constexpr void check_callables() {
  static_assert((state_member<P> && ...),
                "statecheck::action: a parameter's values are printed in labels: its type needs "
                "statecheck::member_traits; use int, bool, a STATECHECK_ENUM, a statecheck::id, a "
                "BOOST_HANA_DEFINE_STRUCT struct, or specialise statecheck::member_traits<T>");
  constexpr bool guard_mutates = !std::is_invocable_v<const Guard&, const State&, P...> &&
                                 std::is_invocable_v<const Guard&, State&, P...>;
  static_assert(!guard_mutates,
                "statecheck::action: the guard takes the state as State&, so it could change it; "
                "a guard only reads: write it as [](const State& s, parameter values...) { return ...; }");
  static_assert(guard_mutates || std::is_invocable_r_v<bool, const Guard&, const State&, P...>,
                "statecheck::action: the guard must be callable as "
                "bool(const State&, parameter values...) in parameter order");
  if constexpr (reads_pre_state<Effect, State, P...>) {
    static_assert(!std::is_invocable_v<const Effect&, const State&, State&&, P...>,
                  "statecheck::action: the effect takes the successor by value or as const, so its "
                  "changes would be lost; write it as [](const State& before, State& after, "
                  "parameter values...) { ... }");
    static_assert(std::is_void_v<std::invoke_result_t<const Effect&, const State&, State&, P...>>,
                  "statecheck::action: the effect returns a value, which would be dropped; change the "
                  "successor through its State& parameter and return nothing (a guard decides "
                  "whether the action is enabled)");
  } else {
    static_assert(std::is_invocable_v<const Effect&, State&, P...>,
                  "statecheck::action: the effect must be callable as void(State& next, parameter "
                  "values...) or void(const State& before, State& after, parameter values...) in "
                  "parameter order");
    if constexpr (std::is_invocable_v<const Effect&, State&, P...>) {
      static_assert(takes_state_by_reference<Effect, State, P...>,
                    "statecheck::action: the effect takes the state by value or as const, so its "
                    "changes would be lost; write it as [](State& s, parameter values...) { ... }");
      static_assert(std::is_void_v<std::invoke_result_t<const Effect&, State&, P...>>,
                    "statecheck::action: the effect returns a value, which would be dropped; change "
                    "the state through its State& parameter and return nothing (a guard decides "
                    "whether the action is enabled)");
    }
  }
}

template <class State, class Guard, class Effect, class Choice, class... P>
constexpr void check_action(const action_t<Guard, Effect, Choice, P...>&) {
  if constexpr (std::is_same_v<Choice, no_choice>) {
    check_callables<State, Guard, Effect, P...>();
  } else {
    check_callables<State, Guard, Effect, P..., typename choice_traits<Choice, State, P...>::value_type>();
  }
}

template <class State, class Fn, class... P>
constexpr void check_init(const init_t<Fn, P...>&) {
  static_assert(std::is_invocable_v<const Fn&, State&, P...>,
                "statecheck::init: the function must be callable as "
                "void(State&, parameter values...) or bool(State&, parameter values...)");
  if constexpr (std::is_invocable_v<const Fn&, State&, P...>) {
    static_assert(takes_state_by_reference<Fn, State, P...>,
                  "statecheck::init: the function takes the state by value or as const, so the "
                  "initial state would stay empty; write it as [](State& s, parameter values...) { ... }");
    using R = std::invoke_result_t<const Fn&, State&, P...>;
    static_assert(std::is_void_v<R> || std::is_same_v<R, bool>,
                  "statecheck::init: the function must return nothing, or bool to keep only some "
                  "parameter combinations; change the state through its State& parameter");
  }
}

template <class State, class Fn>
constexpr void check_predicate() {
  static_assert(std::is_invocable_r_v<bool, const Fn&, const State&>,
                "statecheck: invariants, goals and constraints must be callable as "
                "bool(const State&)");
}

template <class State, class InitPart, class... A, class... I, class... G, class C>
constexpr void check_parts(const InitPart& init_part, const actions_t<A...>& acts,
                           const invariants_t<I...>&, const goals_t<G...>&, const C&) {
  check_init<State>(init_part);
  std::apply([](const auto&... a) { (check_action<State>(a), ...); }, acts.list);
  (check_predicate<State, decltype(std::declval<I>().fn)>(), ...);
  (check_predicate<State, decltype(std::declval<G>().fn)>(), ...);
  if constexpr (!std::is_same_v<C, no_constraint>) check_predicate<State, decltype(C::fn)>();
  static_assert(sizeof...(A) > 0, "statecheck::actions: declare at least one action");
}

/// Run-time check of the names a property or action is selected and reported
/// by: two alike would make `--invariant NAME` check one of them and a saved
/// trace ambiguous. config_error naming the spec, the kind and the name.
inline void require_unique_names(std::string_view spec, const char* kind, const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < names.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (names[i] == names[j])
        throw config_error("spec '" + std::string(spec) + "' has two " + kind + "s named '" + std::string(names[i]) +
                           "'; give each " + kind + " its own name");
}

/// The names parts are reported by (a branch's with its action's: Next.Send).
template <class... Part>
std::vector<std::string> names_of(const std::tuple<Part...>& parts) {
  auto name = [](const auto& p) {
    if constexpr (requires { p.full_name(); }) return p.full_name();
    else return std::string(p.name);
  };
  return std::apply([&](const auto&... p) { return std::vector<std::string>{name(p)...}; }, parts);
}

/// Checked when a spec is registered and whenever a check is built from it.
template <class Spec>
void require_unique_names(const Spec& spec) {
  require_unique_names(spec.name, "action", names_of(spec.actions.list));
  require_unique_names(spec.name, "invariant", names_of(spec.invariants.list));
  require_unique_names(spec.name, "goal", names_of(spec.goals.list));
}

}  // namespace statecheck::detail
