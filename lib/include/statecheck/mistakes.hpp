// statecheck/mistakes.hpp - the names of the mistakes a spec can make that
// stop the compiler.
//
// A builder that finds a mistake in its arguments (action(...), init(...),
// invariant(...), spec<State>(...), ...) returns one of these types, declared
// and never defined. Calling a function whose return type is incomplete is an
// error at the call, so the FIRST error line is at the user's action (or init,
// property, spec) and names the mistake, e.g. with g++:
//
//   spec.cpp:42:45: error: invalid use of incomplete type ... {aka 'struct
//   statecheck::mistake::effect_takes_the_state_by_value_or_as_const_so_its_changes_would_be_lost'}
//
// and the note that follows quotes the declaration below, whose comment says
// what to write instead. Nothing else fails after it: the erroneous call ends
// the expression (no cascade of template errors, no pages of output).
//
// Keep each declaration and its fix on ONE line: the compilers quote only that line.
#pragma once

namespace statecheck::mistake {

// clang-format off
// The state type (found at spec<State>(...)).
struct state_must_list_its_members_with_BOOST_HANA_DEFINE_STRUCT;  // write BOOST_HANA_DEFINE_STRUCT(State, (type, name), ...) inside the state struct
struct state_or_a_struct_inside_it_has_no_operator_equals;  // add `friend bool operator==(const T&, const T&) = default;` to the state and to every struct it holds (as a member or in a container)
struct state_is_not_trivially_copyable;  // states are copied for every successor: use std::array, statecheck::bounded_vec or statecheck::id_set instead of std::vector, std::set or std::string
struct state_member_has_an_unsupported_type;  // use bool, integers, STATECHECK_ENUM enums, std::array, std::bitset, statecheck's containers or nested BOOST_HANA_DEFINE_STRUCT structs, or specialise statecheck::member_traits<T>

// The shape of an action (found at action(...) and branches(...)).
struct action_takes_parameters_then_one_choice_then_guard_and_effect;  // write action("Name", param..., [each(...) or each_in(...),] [guard,] effect)
struct choice_comes_after_the_parameters;  // write action("Name", param..., each_in(...), guard, effect): the chosen value also comes after the parameter values
struct parameter_type_cannot_be_printed;  // labels print parameter and chosen values: use int, bool, a STATECHECK_ENUM, a statecheck::id or a reflected struct, or specialise statecheck::member_traits<T>
struct branch_is_not_an_action;  // write branches("Next", action("A", ...), action("B", ...)): each branch is an action(...)

// A choice (each / each_in).
struct each_in_accessor_is_not_callable_with_the_state;  // write each_in("m", [](const State& s) -> const auto& { return s.msgs; }), or take the parameter values after the state
struct each_in_accessor_returns_a_copy_of_the_container;  // return the state's container by reference: [](const State& s) -> const auto& { return s.msgs; }
struct each_in_container_has_no_fixed_capacity;  // each_in takes a bounded_set, bounded_vec or bounded_map of the state; for another range write each<T>("name", bound, enumerate)
struct each_enumerator_is_not_callable_with_the_state_and_emit;  // write each<T>("name", bound, [](const State& s, auto&& emit) { ... emit(value); ... }): call emit once per choice

// The guard: bool(const State& s, parameter values..., chosen value).
struct guard_and_effect_are_swapped;  // the guard comes first: action("Name", param..., guard, effect)
struct guard_takes_the_state_as_State_ref_so_it_could_change_it;  // a guard only reads: [](const State& s, values...) { return ...; }
struct guard_takes_a_different_number_of_values_than_the_action_has;  // take the state, then one value per parameter in order, then the chosen value of a choice
struct guard_takes_the_chosen_value_before_the_parameters;  // the chosen value of each(...) / each_in(...) comes after the parameter values
struct guard_takes_the_parameters_in_another_order;  // take the values in the order the parameters are declared in action(...)
struct guard_value_has_another_type_than_its_parameter;  // take each value as its parameter's type: param(name, lo, hi) gives int, ids<Tag> gives statecheck::id<Tag>
struct guard_is_not_callable_with_the_state_and_the_values;  // write [](const State& s, parameter values..., chosen value) { return ...; }
struct guard_does_not_return_bool;  // return whether the action is enabled: [](const State& s, values...) { return ...; }

// The effect: void(State& next, values...) or void(const State& before, State& after, values...).
struct effect_takes_the_state_by_value_or_as_const_so_its_changes_would_be_lost;  // write [](State& s, values...) { ... }
struct effect_takes_the_successor_by_value_or_as_const_so_its_changes_would_be_lost;  // write [](const State& before, State& after, values...) { ... }
struct effect_takes_a_different_number_of_values_than_the_action_has;  // take the state, then one value per parameter in order, then the chosen value of a choice
struct effect_takes_the_chosen_value_before_the_parameters;  // the chosen value of each(...) / each_in(...) comes after the parameter values
struct effect_takes_the_parameters_in_another_order;  // take the values in the order the parameters are declared in action(...)
struct effect_value_has_another_type_than_its_parameter;  // take each value as its parameter's type: param(name, lo, hi) gives int, ids<Tag> gives statecheck::id<Tag>
struct effect_is_not_callable_with_the_state_and_the_values;  // write [](State& s, values...) { ... } or [](const State& before, State& after, values...) { ... }
struct effect_returns_a_value_that_would_be_dropped;  // change the state through its State& parameter and return nothing; a guard decides whether the action is enabled

// init(param..., fn).
struct init_takes_parameters_then_one_function;  // write init(param..., [](State& s, values...) { ... })
struct init_takes_the_state_by_value_or_as_const_so_it_would_stay_empty;  // write init([](State& s, values...) { ... })
struct init_is_not_callable_with_the_state_and_its_values;  // write init(param..., [](State& s, values...) { ... }), the values in parameter order
struct init_returns_neither_nothing_nor_bool;  // return nothing, or bool to keep only some parameter combinations

// Properties: bool(const State&).
struct invariant_is_not_callable_as_bool_of_const_State_ref;  // write invariant("Name", [](const State& s) { return ...; })
struct goal_is_not_callable_as_bool_of_const_State_ref;  // write goal("Name", [](const State& s) { return ...; })
struct constraint_is_not_callable_as_bool_of_const_State_ref;  // write constraint([](const State& s) { return ...; })
struct deadline_is_not_callable_as_bool_of_const_State_ref;  // write deadline("Name", [](const State& s) { return ...; })

// Named ids.
struct id_array_is_indexed_by_its_own_kind_of_id;  // index an id_array<Tag, T, N> by a statecheck::id<Tag>, not by an int or another kind's id
// clang-format on

}  // namespace statecheck::mistake
