// Each CASE_* breaks one rule of the DSL contract; the test expects the
// compiler to stop with statecheck's message for it.
#include <statecheck/statecheck.hpp>
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
#endif
