// statecheck/detail/action_checks.hpp - the mistakes an action can hold, found
// at compile time. Each finder returns found<M>: M is a statecheck::mistake::...
// type (statecheck/mistakes.hpp), or void when the part is right. action(...)
// runs them as soon as its callables name the state type, so that the error is
// at the user's action(...) line; spec<State>(...) runs them again, which
// catches the actions whose callables are all generic. Only
// statecheck/action.hpp includes this header, after the types it inspects.
#pragma once

#include <iterator>
#include <tuple>
#include <type_traits>

#include "statecheck/detail/choice.hpp"
#include "statecheck/detail/signature.hpp"
#include "statecheck/mistakes.hpp"

namespace statecheck::detail {

template <class M>
using found = std::type_identity<M>;
using none_found = std::type_identity<void>;
template <class Finding>
using mistake_of = typename Finding::type;

/// The first of the findings that is a mistake, or none_found.
constexpr none_found first_found() { return {}; }
template <class M, class... Rest>
constexpr auto first_found(found<M> first, Rest... rest) {
  if constexpr (std::is_void_v<M>) return first_found(rest...);
  else return first;
}

/// The mistakes a guard's or an effect's values can make, one per kind of misfit.
template <class Count, class ChosenNotLast, class Reordered, class Type, class Other>
struct value_mistakes {
  template <fit F>
  static constexpr auto pick() {
    if constexpr (F == fit::count) return found<Count>{};
    else if constexpr (F == fit::chosen_not_last) return found<ChosenNotLast>{};
    else if constexpr (F == fit::reordered) return found<Reordered>{};
    else if constexpr (F == fit::type) return found<Type>{};
    else return found<Other>{};  // each value fits: what does not is how it takes the state
  }
};
using guard_value_mistakes =
    value_mistakes<mistake::guard_takes_a_different_number_of_values_than_the_action_has,
                   mistake::guard_takes_the_chosen_value_before_the_parameters,
                   mistake::guard_takes_the_parameters_in_another_order,
                   mistake::guard_value_has_another_type_than_its_parameter,
                   mistake::guard_is_not_callable_with_the_state_and_the_values>;
using effect_value_mistakes =
    value_mistakes<mistake::effect_takes_a_different_number_of_values_than_the_action_has,
                   mistake::effect_takes_the_chosen_value_before_the_parameters,
                   mistake::effect_takes_the_parameters_in_another_order,
                   mistake::effect_value_has_another_type_than_its_parameter,
                   mistake::effect_is_not_callable_with_the_state_and_the_values>;

/// The guard, called as guard(const State&, values...): the parameters'
/// values, then the chosen value.
template <class State, class Guard, bool HasChoice, class... V>
constexpr auto guard_mistake() {
  using sig = signature<Guard>;
  if constexpr (std::is_same_v<Guard, always_enabled>) {
    return none_found{};
  } else if constexpr (std::is_invocable_v<const Guard&, const State&, const V&...>) {
    if constexpr (std::is_invocable_r_v<bool, const Guard&, const State&, const V&...>) return none_found{};
    else return found<mistake::guard_does_not_return_bool>{};
  } else if constexpr (std::is_invocable_v<const Guard&, State&, const V&...>) {
    return found<mistake::guard_takes_the_state_as_State_ref_so_it_could_change_it>{};
  } else if constexpr (sig::known) {
    if constexpr (std::is_same_v<param_at_t<0, typename sig::params>, State&>)
      return found<mistake::guard_takes_the_state_as_State_ref_so_it_could_change_it>{};
    else
      return guard_value_mistakes::pick<fit_values<HasChoice, drop_t<1, typename sig::params>, type_list<V...>>()>();
  } else {
    return found<mistake::guard_is_not_callable_with_the_state_and_the_values>{};
  }
}

/// Why an effect with a known signature (Params) cannot be called: how it
/// takes the state (the successor by value), else how its values misfit.
template <class State, class Params, bool HasChoice, class... V>
constexpr auto effect_signature_mistake() {
  using first = param_at_t<0, Params>;
  using second = param_at_t<1, Params>;
  if constexpr (std::is_same_v<std::remove_cvref_t<first>, State> && std::is_same_v<std::remove_cvref_t<second>, State>) {
    if constexpr (!std::is_same_v<second, State&>)
      return found<mistake::effect_takes_the_successor_by_value_or_as_const_so_its_changes_would_be_lost>{};
    else
      return effect_value_mistakes::pick<fit_values<HasChoice, drop_t<2, Params>, type_list<V...>>()>();
  } else if constexpr (std::is_same_v<std::remove_cvref_t<first>, State> && !std::is_same_v<first, State&>) {
    return found<mistake::effect_takes_the_state_by_value_or_as_const_so_its_changes_would_be_lost>{};
  } else {
    return effect_value_mistakes::pick<fit_values<HasChoice, drop_t<1, Params>, type_list<V...>>()>();
  }
}

/// The effect, called as effect(State&, values...) or effect(const State&
/// before, State& after, values...).
template <class State, class Effect, bool HasChoice, class... V>
constexpr auto effect_mistake() {
  using sig = signature<Effect>;
  if constexpr (reads_pre_state<Effect, State, const V&...>) {
    if constexpr (std::is_invocable_v<const Effect&, const State&, State&&, const V&...>)
      return found<mistake::effect_takes_the_successor_by_value_or_as_const_so_its_changes_would_be_lost>{};
    else if constexpr (!std::is_void_v<std::invoke_result_t<const Effect&, const State&, State&, const V&...>>)
      return found<mistake::effect_returns_a_value_that_would_be_dropped>{};
    else
      return none_found{};
  } else if constexpr (std::is_invocable_v<const Effect&, State&, const V&...>) {
    // One taking State&& also takes a copy (by value, as const): its changes would be lost.
    if constexpr (std::is_invocable_v<const Effect&, State&&, const V&...>)
      return found<mistake::effect_takes_the_state_by_value_or_as_const_so_its_changes_would_be_lost>{};
    else if constexpr (!std::is_void_v<std::invoke_result_t<const Effect&, State&, const V&...>>)
      return found<mistake::effect_returns_a_value_that_would_be_dropped>{};
    else
      return none_found{};
  } else if constexpr (sig::known) {
    return effect_signature_mistake<State, typename sig::params, HasChoice, V...>();
  } else {
    return found<mistake::effect_is_not_callable_with_the_state_and_the_values>{};
  }
}

/// A guard and an effect written the other way round: each fails in its own
/// place and fits the other's.
template <class State, class Guard, class Effect, class... V>
constexpr bool swapped_callables() {
  if constexpr (std::is_same_v<Guard, always_enabled> || std::is_invocable_v<const Guard&, const State&, const V&...> ||
                !std::is_invocable_v<const Guard&, State&, const V&...>)
    return false;
  else
    return std::is_void_v<std::invoke_result_t<const Guard&, State&, const V&...>> &&
           std::is_invocable_r_v<bool, const Effect&, const State&, const V&...>;
}

/// The guard and effect of an action whose values are V... (parameters, then
/// the chosen value).
template <class State, class Guard, class Effect, bool HasChoice, class... V>
constexpr auto callables_mistake() {
  if constexpr (!(state_member<V> && ...)) return found<mistake::parameter_type_cannot_be_printed>{};
  else if constexpr (swapped_callables<State, Guard, Effect, V...>()) return found<mistake::guard_and_effect_are_swapped>{};
  else return first_found(guard_mistake<State, Guard, HasChoice, V...>(), effect_mistake<State, Effect, HasChoice, V...>());
}

/// A choice's mistake (`problem`, void when none) and, when it has none, the
/// type of its chosen value (`value_type`).
template <class Choice, class State, class... P>
struct choice_check;

/// Stands for the engine's sink when an enumerator is tried out.
struct probe_sink {
  template <class T>
  void operator()(const T&) const {}
};

template <class T, class E, class State, class... P>
struct choice_check<each_t<T, E>, State, P...> {
  using emit = emitter<T, probe_sink>&;
  static constexpr bool callable = (sizeof...(P) > 0 && std::is_invocable_v<const E&, const State&, emit, const P&...>) ||
                                   std::is_invocable_v<const E&, const State&, emit>;
  using problem = std::conditional_t<callable, void, mistake::each_enumerator_is_not_callable_with_the_state_and_emit>;
  using value_type = T;
};

template <class A, class State, class... P>
struct choice_check<each_in_t<A>, State, P...> {
  static auto access() {
    if constexpr (sizeof...(P) > 0 && std::is_invocable_v<const A&, const State&, const P&...>)
      return std::type_identity<std::invoke_result_t<const A&, const State&, const P&...>>{};
    else if constexpr (std::is_invocable_v<const A&, const State&>)
      return std::type_identity<std::invoke_result_t<const A&, const State&>>{};
    else
      return none_found{};
  }
  using result = typename decltype(access())::type;  // void: not callable
  using container = std::remove_cvref_t<result>;
  static auto find() {
    if constexpr (std::is_void_v<result>) return found<mistake::each_in_accessor_is_not_callable_with_the_state>{};
    else if constexpr (!std::is_reference_v<result>) return found<mistake::each_in_accessor_returns_a_copy_of_the_container>{};
    else if constexpr (!requires { container::capacity(); }) return found<mistake::each_in_container_has_no_fixed_capacity>{};
    else return none_found{};
  }
  using problem = mistake_of<decltype(find())>;
  static auto value() {
    if constexpr (std::is_void_v<problem>)
      return std::type_identity<std::remove_cvref_t<decltype(*std::begin(std::declval<const container&>()))>>{};
    else
      return none_found{};
  }
  using value_type = typename decltype(value())::type;
};

/// The mistake of an action whose parts are these, for this state type.
template <class State, class Guard, class Effect, class Choice, class... P>
constexpr auto action_mistake() {
  if constexpr (std::is_same_v<Choice, no_choice>) {
    return callables_mistake<State, Guard, Effect, false, P...>();
  } else {
    using choice = choice_check<Choice, State, P...>;
    if constexpr (!std::is_void_v<typename choice::problem>) return found<typename choice::problem>{};
    else return callables_mistake<State, Guard, Effect, true, P..., typename choice::value_type>();
  }
}

/// The same for a built action_t (spec<State>(...) checks every action so).
template <class State, class Guard, class Effect, class Choice, class... P>
constexpr auto built_action_mistake(std::type_identity<action_t<Guard, Effect, Choice, P...>>) {
  return action_mistake<State, Guard, Effect, Choice, P...>();
}

/// How action(name, args...) splits its arguments: `params` parameters, then
/// at most one choice, then the guard and the effect, or only the effect.
template <class... Args>
struct action_shape {
  using all = std::tuple<std::remove_cvref_t<Args>..., no_choice>;
  static constexpr std::size_t params = count_leading_params<Args...>();
  using after = std::tuple_element_t<params, all>;
  static constexpr std::size_t choices = is_choice<after>::value ? 1 : 0;
  static constexpr std::size_t fns = sizeof...(Args) - params - choices;
  static constexpr bool param_after_choice = [] {
    constexpr bool is_p[] = {is_param<std::remove_cvref_t<Args>>::value..., false};
    constexpr bool is_c[] = {is_choice<std::remove_cvref_t<Args>>::value..., false};
    bool choice_seen = false;
    for (std::size_t i = 0; i < sizeof...(Args); ++i) {
      if (is_p[i] && choice_seen) return true;
      choice_seen = choice_seen || is_c[i];
    }
    return false;
  }();
  static constexpr bool well_formed = !param_after_choice && (fns == 1 || fns == 2);
};

/// The parts of a well-formed action(...): the types action_t is made of.
template <class Shape, class... Args>
struct action_parts {
  using all = std::tuple<std::remove_cvref_t<Args>...>;
  static constexpr std::size_t first_fn = Shape::params + Shape::choices;
  using guard = std::conditional_t<Shape::fns == 2, std::tuple_element_t<first_fn, all>, always_enabled>;
  using effect = std::tuple_element_t<first_fn + Shape::fns - 1, all>;
  using choice = std::conditional_t<Shape::choices == 1, typename Shape::after, no_choice>;
  template <std::size_t... I>
  static auto param_values(std::index_sequence<I...>) -> type_list<typename std::tuple_element_t<I, all>::type...>;
  using values = decltype(param_values(std::make_index_sequence<Shape::params>{}));
};

template <class Parts, class State, class Values>
struct parts_mistake;
template <class Parts, class State, class... P>
struct parts_mistake<Parts, State, type_list<P...>> {
  using type = mistake_of<decltype(action_mistake<State, typename Parts::guard, typename Parts::effect,
                                                  typename Parts::choice, P...>())>;
};

/// The mistake in action(name, args...) that can be named at the call: its
/// shape, and, when its guard or effect names the state type (not generic),
/// everything else. void when there is none to name there.
template <class... Args>
constexpr auto action_args_mistake() {
  using shape = action_shape<Args...>;
  if constexpr (shape::param_after_choice) {
    return found<mistake::choice_comes_after_the_parameters>{};
  } else if constexpr (!shape::well_formed) {
    return found<mistake::action_takes_parameters_then_one_choice_then_guard_and_effect>{};
  } else {
    using parts = action_parts<shape, Args...>;
    using state = typename state_of<typename parts::effect, typename parts::guard>::type;
    if constexpr (std::is_void_v<state>) return none_found{};
    else return found<typename parts_mistake<parts, state, typename parts::values>::type>{};
  }
}
template <class... Args>
using action_args_mistake_t = mistake_of<decltype(action_args_mistake<Args...>())>;

}  // namespace statecheck::detail
