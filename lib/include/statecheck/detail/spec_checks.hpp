// statecheck/detail/spec_checks.hpp - the mistakes of a spec's state type,
// init, properties and branches, found at compile time as action_checks.hpp
// finds an action's (found<M>, M a statecheck::mistake::... type or void), and
// the run-time check of its names. init(...), invariant(...), goal(...),
// constraint(...) and branches(...) name their mistake at their own call when
// their function names the state type; spec<State>(...) then checks the whole
// spec for this State (the generic callables' mistakes are found there).
// spec.hpp includes this header after the part types and before the builders.
#pragma once

#include <concepts>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "statecheck/detail/action_checks.hpp"
#include "statecheck/detail/utf8.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

template <class State>
constexpr auto state_mistake() {
  if constexpr (!reflected_struct<State>)
    return found<mistake::state_must_list_its_members_with_BOOST_HANA_DEFINE_STRUCT>{};
  else if constexpr (!std::equality_comparable<State>)
    return found<mistake::state_or_a_struct_inside_it_has_no_operator_equals>{};
  else if constexpr (!std::is_trivially_copyable_v<State> || !std::is_default_constructible_v<State>)
    return found<mistake::state_is_not_trivially_copyable>{};
  else if constexpr (!state_member<State>)
    return found<mistake::state_member_has_an_unsupported_type>{};
  else
    return none_found{};
}

/// init's function, called as fn(State&, parameter values...).
template <class State, class Fn, class... P>
constexpr auto init_fn_mistake() {
  using sig = signature<Fn>;
  if constexpr (std::is_invocable_v<const Fn&, State&, const P&...>) {
    using R = std::invoke_result_t<const Fn&, State&, const P&...>;
    // One taking State&& also takes a copy (by value, as const): the initial state would stay empty.
    if constexpr (std::is_invocable_v<const Fn&, State&&, const P&...>)
      return found<mistake::init_takes_the_state_by_value_or_as_const_so_it_would_stay_empty>{};
    else if constexpr (!std::is_void_v<R> && !std::is_same_v<R, bool>)
      return found<mistake::init_returns_neither_nothing_nor_bool>{};
    else
      return none_found{};
  } else if constexpr (sig::known && std::is_same_v<first_param<Fn>, State> &&
                       !std::is_same_v<param_at_t<0, typename sig::params>, State&>) {
    return found<mistake::init_takes_the_state_by_value_or_as_const_so_it_would_stay_empty>{};
  } else {
    return found<mistake::init_is_not_callable_with_the_state_and_its_values>{};
  }
}

template <class State, class Fn, class... Params>
constexpr auto init_params_mistake(type_list<Params...>) {
  return init_fn_mistake<State, Fn, typename Params::type...>();
}
template <class All, std::size_t... I>
auto leading_types(std::index_sequence<I...>) -> type_list<std::tuple_element_t<I, All>...>;

/// init(args...): parameters then one function; when the function names the
/// state type, the function too.
template <class... Args>
constexpr auto init_args_mistake() {
  constexpr std::size_t total = sizeof...(Args);
  if constexpr (total == 0 || count_leading_params<Args...>() != total - 1) {
    return found<mistake::init_takes_parameters_then_one_function>{};
  } else {
    using all = std::tuple<std::remove_cvref_t<Args>...>;
    using fn = std::tuple_element_t<total - 1, all>;
    using state = typename state_of<fn>::type;
    if constexpr (std::is_void_v<state>) return none_found{};
    else return init_params_mistake<state, fn>(decltype(leading_types<all>(std::make_index_sequence<total - 1>{})){});
  }
}

/// An invariant, goal or constraint: bool(const State&).
template <class Mistake, class State, class Fn>
constexpr auto predicate_mistake() {
  if constexpr (std::is_invocable_r_v<bool, const Fn&, const State&>) return none_found{};
  else return found<Mistake>{};
}
/// The same at invariant(...), goal(...), constraint(...): when Fn names the state type.
template <class Mistake, class Fn>
constexpr auto predicate_args_mistake() {
  using state = typename state_of<Fn>::type;
  if constexpr (std::is_void_v<state>) return none_found{};
  else return predicate_mistake<Mistake, state, Fn>();
}

template <class T>
constexpr bool is_action = false;
template <class Guard, class Effect, class Choice, class... P>
constexpr bool is_action<action_t<Guard, Effect, Choice, P...>> = true;

/// branches(name, branch...): each branch is an action(...).
template <class... Branch>
constexpr auto branches_mistake() {
  if constexpr ((is_action<Branch> && ...)) return none_found{};
  else return found<mistake::branch_is_not_an_action>{};
}

/// The mistake of one part of spec<State>(...) for this State; other parts
/// (allow_deadlock, symmetric<Tag>) have none.
template <class State, class Part>
constexpr auto part_mistake(std::type_identity<Part>) {
  return none_found{};
}
template <class State, class Fn, class... P>
constexpr auto part_mistake(std::type_identity<init_t<Fn, P...>>) {
  return init_fn_mistake<State, Fn, P...>();
}
template <class State, class... A>
constexpr auto part_mistake(std::type_identity<actions_t<A...>>) {
  return first_found(built_action_mistake<State>(std::type_identity<A>{})...);
}
template <class State, class... Fn>
constexpr auto part_mistake(std::type_identity<invariants_t<invariant_t<Fn>...>>) {
  return first_found(predicate_mistake<mistake::invariant_is_not_callable_as_bool_of_const_State_ref, State, Fn>()...);
}
template <class State, class... Fn>
constexpr auto part_mistake(std::type_identity<goals_t<goal_t<Fn>...>>) {
  return first_found(predicate_mistake<mistake::goal_is_not_callable_as_bool_of_const_State_ref, State, Fn>()...);
}
template <class State, class... Fn>
constexpr auto part_mistake(std::type_identity<deadlines_t<deadline_t<Fn>...>>) {
  return first_found(predicate_mistake<mistake::deadline_is_not_callable_as_bool_of_const_State_ref, State, Fn>()...);
}
template <class State, class Fn, bool Prune>
constexpr auto part_mistake(std::type_identity<constraint_t<Fn, Prune>>) {
  return predicate_mistake<mistake::constraint_is_not_callable_as_bool_of_const_State_ref, State, Fn>();
}

/// spec<State>(parts...): the state type, then each part in the order given.
template <class State, class... Parts>
constexpr auto spec_mistake() {
  if constexpr (!std::is_void_v<mistake_of<decltype(state_mistake<State>())>>) return state_mistake<State>();
  else return first_found(part_mistake<State>(std::type_identity<Parts>{})...);
}
template <class State, class... Parts>
using spec_mistake_t = mistake_of<decltype(spec_mistake<State, Parts...>())>;

/// Run-time check of the names a property or action is selected and reported
/// by: two alike would make `--invariant NAME` check one of them and a saved
/// trace ambiguous. config_error naming the spec, the kind and the name.
/// A name with a control character or a byte that is not UTF-8 would move the
/// terminal, or be changed in JSON, and select nothing with --invariant: refused too.
inline void require_unique_names(std::string_view spec, const char* kind, const std::vector<std::string>& names) {
  for (const std::string& name : names)
    if (!printable_name(name))
      throw config_error("spec '" + std::string(spec) + "' has " + (kind[0] == 'a' || kind[0] == 'i' ? "an " : "a ") + kind +
                         " named '" + escaped_text(name, true) + "', with a control character or a byte that is not UTF-8; "
                         "name it with printable text");
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
