// A corpus of newcomer mistakes: each CASE_* breaks one rule of the DSL
// contract and must not compile. compile_errors.py compiles each case with g++
// and with clang++ and pins that the FIRST error line is at the line marked
// `// expect: TEXT` (the action, init, property or spec call at fault, or the
// user's own expression) and contains TEXT (statecheck::mistake::... names the
// mistake), and that the whole output stays small.
#include <statecheck/statecheck.hpp>

#include <cstdint>
#include <utility>
#include <vector>

struct Scm {
  static constexpr std::string_view prefix = "s";
};
struct Dn {
  static constexpr std::string_view prefix = "d";
};
using DnId = statecheck::id<Dn>;

#if defined(CASE_vector_member)
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (std::vector<int>, log));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>("x", statecheck::init([](State&) {}),  // expect: state_is_not_trivially_copyable
                                 statecheck::actions(statecheck::action("A", [](State&) {})));
#elif defined(CASE_no_equality)
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
};
auto s = statecheck::spec<State>("x", statecheck::init([](State&) {}),  // expect: state_or_a_struct_inside_it_has_no_operator_equals
                                 statecheck::actions(statecheck::action("A", [](State&) {})));
#elif defined(CASE_nested_no_equality)
// A struct inside the state without operator==: the state's defaulted == cannot compare it.
struct Inner {
  BOOST_HANA_DEFINE_STRUCT(Inner, (int, a));
};
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::bounded_vec<Inner, 2>, v));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>("x", statecheck::init([](State&) {}),  // expect: state_or_a_struct_inside_it_has_no_operator_equals
                                 statecheck::actions(statecheck::action("A", [](State&) {})));
auto r = statecheck::check(s);
#elif defined(CASE_bad_guard)
// The guard leaves out the action's parameter.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("A", statecheck::param("i", 0, 1),  // expect: guard_takes_a_different_number_of_values
                                           [](const State&) { return true; }, [](State&, int) {})));
#elif defined(CASE_param_missing)
// The effect leaves out the second of two parameters.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("Set", statecheck::param("i", 0, 1), statecheck::param("v", 0, 3),  // expect: effect_takes_a_different_number_of_values
                                           [](State& st, int i) { st.n = i; })));
#elif defined(CASE_params_swapped)
// The effect takes the parameters in another order than they are declared.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::id_array<Dn, int, 3>, v));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("Set", statecheck::ids<Dn>("d", 3), statecheck::param("v", 0, 3),  // expect: effect_takes_the_parameters_in_another_order
                                           [](State& st, int v, DnId d) { st.v[d] = v; })));
#elif defined(CASE_param_wrong_type)
// The effect's value has a type the parameter's values do not convert to.
STATECHECK_ENUM(Role, leader, follower);
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (Role, role));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("Become", statecheck::param("r", 0, 1),  // expect: effect_value_has_another_type_than_its_parameter
                                           [](State& st, Role r) { st.role = r; })));
#elif defined(CASE_choice_not_last)
// The chosen value comes after the parameter values, not before them.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::bounded_set<DnId, 3>, pending), (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action(  // expect: effect_takes_the_chosen_value_before_the_parameters
        "Ack", statecheck::param("v", 0, 1),
        statecheck::each_in("d", [](const State& st) -> const auto& { return st.pending; }),
        [](State& st, DnId d, int v) {
          st.pending.erase(d);
          st.n = v;
        })));
#elif defined(CASE_choice_before_param)
// A choice is written after the parameters.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::bounded_set<int, 3>, pending), (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action(  // expect: choice_comes_after_the_parameters
        "Finish", statecheck::each_in("j", [](const State& st) -> const auto& { return st.pending; }),
        statecheck::param("v", 0, 1), [](State& st, int v, int j) { st.n = v + j; })));
#elif defined(CASE_each_in_by_value)
// The accessor returns a copy of the container: the choice would iterate a temporary.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::bounded_set<int, 3>, pending), (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action(  // expect: each_in_accessor_returns_a_copy_of_the_container
        "Finish", statecheck::each_in("j", [](const State& st) { return st.pending; }),
        [](State& st, int j) { st.pending.erase(j); })));
auto r = statecheck::check(s);
#elif defined(CASE_each_returns_container)
// each's enumerator returns the values instead of calling emit(value) for each.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action(  // expect: each_enumerator_is_not_callable_with_the_state_and_emit
        "Jump", statecheck::each<int>("to", 2, [](const State& st) { return std::vector<int>{st.n + 1, st.n + 2}; }),
        [](State& st, int to) { st.n = to; })));
auto r = statecheck::check(s);  // was 78 KB of errors from inside the engine (g++ 12)
#elif defined(CASE_effect_by_value)
// The effect's changes land on a copy: every successor would equal its parent.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("A", statecheck::param("i", 0, 1),  // expect: effect_takes_the_state_by_value_or_as_const
                                           [](const State&, int) { return true; },
                                           [](State st, int i) { st.n = i; })));
#elif defined(CASE_effect_const_returns_state)
// A functional-style effect: returns the new state, which would be dropped.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>("x", statecheck::init([](State&) {}),
                                 statecheck::actions(statecheck::action("A", [](const State& st) {  // expect: effect_takes_the_state_by_value_or_as_const
                                   State next = st;
                                   next.n = 1;
                                   return next;
                                 })));
#elif defined(CASE_effect_returns_value)
// An effect that returns bool as if it were a guard: the value would be dropped.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>("x", statecheck::init([](State&) {}),
                                 statecheck::actions(statecheck::action("A", [](State& st) {  // expect: effect_returns_a_value_that_would_be_dropped
                                   if (st.n > 3) return false;
                                   ++st.n;
                                   return true;
                                 })));
#elif defined(CASE_pre_state_by_value)
// The two-state form with the successor taken by value: its changes would be lost too.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action(  // expect: effect_takes_the_successor_by_value_or_as_const
        "A", [](const State& before, State after) { after.n = before.n + 1; })));
#elif defined(CASE_mutable_guard)
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("A", [](State& st) { return ++st.n < 3; }, [](State&) {})));  // expect: guard_takes_the_state_as_State_ref
#elif defined(CASE_guard_returns_void)
// A guard without `return`: it says nothing about whether the action is enabled.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("A", statecheck::param("i", 0, 1),  // expect: guard_does_not_return_bool
                                           [](const State& st, int i) { (void)(st.n < i); },
                                           [](State& st, int i) { st.n = i; })));
#elif defined(CASE_guard_effect_swapped)
// The effect written before the guard.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("A", statecheck::param("i", 0, 1),  // expect: guard_and_effect_are_swapped
                                           [](State& st, int i) { st.n = i; },
                                           [](const State& st, int i) { return st.n != i; })));
#elif defined(CASE_unprintable_param)
// A parameter's values are printed in labels: std::pair has no member_traits.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("A", statecheck::param("p", {std::pair<int, int>{1, 2}}),  // expect: parameter_type_cannot_be_printed
                                           [](State& st, std::pair<int, int> p) { st.n = p.first; })));
auto r = statecheck::check(s);
#elif defined(CASE_choice_effect_by_value)
// The contract holds for actions with a choice too (the chosen value comes last).
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::bounded_set<int, 3>, pending));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action(  // expect: effect_takes_the_state_by_value_or_as_const
        "A", statecheck::each_in("j", [](const State& st) -> const auto& { return st.pending; }),
        [](State st, int j) { st.pending.erase(j); })));
#elif defined(CASE_branch_effect_by_value)
// The contract holds for the branches of an action too.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::branches("Next", statecheck::action("Up", [](State& st) { ++st.n; }),
                                             statecheck::action("Down", [](State st) { --st.n; }))));  // expect: effect_takes_the_state_by_value_or_as_const
#elif defined(CASE_branch_not_action)
// A branch is an action(...), not a bare function.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>("x", statecheck::init([](State&) {}),
                                 statecheck::actions(statecheck::branches("Next", [](State& st) { ++st.n; })));  // expect: branch_is_not_an_action
#elif defined(CASE_generic_effect_by_value)
// Generic lambdas: the action cannot tell its state type, the spec can.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>("x", statecheck::init([](State&) {}),  // expect: effect_takes_the_state_by_value_or_as_const
                                 statecheck::actions(statecheck::action("A", [](auto st) { ++st.n; })));
#elif defined(CASE_init_by_value)
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>("x", statecheck::init([](State st) { st.n = 5; }),  // expect: init_takes_the_state_by_value_or_as_const
                                 statecheck::actions(statecheck::action("A", [](State&) {})));
#elif defined(CASE_mutable_invariant)
// An invariant that takes State&: it could change the state it checks.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}), statecheck::actions(statecheck::action("A", [](State& st) { ++st.n; })),
    statecheck::invariants(statecheck::invariant("Small", [](State& st) { return st.n < 3; })));  // expect: invariant_is_not_callable_as_bool_of_const_State_ref
#elif defined(CASE_mixed_ids)
// A datanode id where an SCM id belongs: the user's own expression is at fault.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::id_set<3, Scm>, acks));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("Ack", statecheck::ids<Dn>("d", 3),
                                           [](State& st, DnId d) { st.acks.insert(d); })));  // expect: id<Dn>
#elif defined(CASE_id_array_wrong_kind)
// An id_array indexed by another kind's id: only its own kind's ids index it.
statecheck::id_array<Scm, int, 3> a;
int x = a[statecheck::id<Dn>(0)];  // expect: id_array_is_indexed_by_its_own_kind_of_id
#elif defined(CASE_id_array_int)
// An id_array indexed by an int.
statecheck::id_array<Scm, int, 3> a;
int x = a[1];  // expect: id_array_is_indexed_by_its_own_kind_of_id
#endif
