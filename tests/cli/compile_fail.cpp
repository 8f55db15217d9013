// Each CASE_* breaks one rule of the DSL contract; the test expects the
// compiler to stop with statecheck's message for it.
#include <statecheck/statecheck.hpp>
#include <utility>
#include <vector>

#if defined(CASE_vector_member)
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (std::vector<int>, log));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>("x", statecheck::init([](State&) {}),
                                 statecheck::actions(statecheck::action("A", [](State&) {})));
#elif defined(CASE_no_equality)
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
};
auto s = statecheck::spec<State>("x", statecheck::init([](State&) {}),
                                 statecheck::actions(statecheck::action("A", [](State&) {})));
#elif defined(CASE_bad_guard)
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("A", statecheck::param("i", 0, 1), [](const State&) { return true; },
                                           [](State&, int) {})));
#elif defined(CASE_effect_by_value)
// The effect's changes land on a copy: every successor would equal its parent.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("A", statecheck::param("i", 0, 1), [](const State&, int) { return true; },
                                           [](State st, int i) { st.n = i; })));
#elif defined(CASE_effect_const_returns_state)
// A functional-style effect: returns the new state, which would be dropped.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>("x", statecheck::init([](State&) {}),
                                 statecheck::actions(statecheck::action("A", [](const State& st) {
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
                                 statecheck::actions(statecheck::action("A", [](State& st) {
                                   if (st.n > 3) return false;
                                   ++st.n;
                                   return true;
                                 })));
#elif defined(CASE_mutable_guard)
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("A", [](State& st) { return ++st.n < 3; }, [](State&) {})));
#elif defined(CASE_init_by_value)
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>("x", statecheck::init([](State st) { st.n = 5; }),
                                 statecheck::actions(statecheck::action("A", [](State&) {})));
#elif defined(CASE_mixed_ids)
// A datanode id where an SCM id belongs.
struct Scm {
  static constexpr std::string_view prefix = "s";
};
struct Dn {
  static constexpr std::string_view prefix = "d";
};
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::id_set<3, Scm>, acks));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("Ack", statecheck::ids<Dn>("d", 3),
                                           [](State& st, statecheck::id<Dn> d) { st.acks.insert(d); })));
#elif defined(CASE_pre_state_by_value)
// The two-state form with the successor taken by value: its changes would be lost too.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("A", [](const State& before, State after) { after.n = before.n + 1; })));
#elif defined(CASE_nested_no_equality)
// A struct inside the state without operator==: the state's defaulted == cannot compare it.
struct Inner {
  BOOST_HANA_DEFINE_STRUCT(Inner, (int, a));
};
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::bounded_vec<Inner, 2>, v));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>("x", statecheck::init([](State&) {}),
                                 statecheck::actions(statecheck::action("A", [](State&) {})));
auto r = statecheck::check(s);
#elif defined(CASE_unprintable_param)
// A parameter's values are printed in labels: std::pair has no member_traits.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>(
    "x", statecheck::init([](State&) {}),
    statecheck::actions(statecheck::action("A", statecheck::param("p", {std::pair<int, int>{1, 2}}),
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
    statecheck::actions(statecheck::action(
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
                                             statecheck::action("Down", [](State st) { --st.n; }))));
#elif defined(CASE_branch_not_action)
// A branch is an action(...), not a bare function.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};
auto s = statecheck::spec<State>("x", statecheck::init([](State&) {}),
                                 statecheck::actions(statecheck::branches("Next", [](State& st) { ++st.n; })));
#elif defined(CASE_id_array_wrong_kind)
// An id_array indexed by another kind's id (or an int): only its own kind's ids index it.
struct Scm {
  static constexpr std::string_view prefix = "s";
};
struct Dn {
  static constexpr std::string_view prefix = "d";
};
statecheck::id_array<Scm, int, 3> a;
int x = a[statecheck::id<Dn>(0)] + a[1];
#endif
