// Each CASE_* misuses a clock (statecheck/time.hpp); the test expects the
// compiler to stop with statecheck's message for it.
#include <chrono>
#include <statecheck/statecheck.hpp>

using namespace std::chrono_literals;
struct Delay {};
struct Other {};
struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::clock<Delay>, c));
  friend bool operator==(const State&, const State&) = default;
};
inline statecheck::timing time_of_spec(1s);
inline const auto two = time_of_spec.bound<Delay>("two", 2s);
inline const auto other = time_of_spec.bound<Other>("other", 2s);

#if defined(CASE_strict_bound)
bool guard(const State& s) { return s.c > two; }
#elif defined(CASE_strict_bound_below)
bool guard(const State& s) { return s.c < two; }
#elif defined(CASE_bound_of_another_kind)
bool guard(const State& s) { return s.c >= other; }
#elif defined(CASE_plain_duration)
bool guard(const State& s) { return s.c <= 2s; }
#elif defined(CASE_clock_in_set)
struct Entry {
  BOOST_HANA_DEFINE_STRUCT(Entry, (int, id), (statecheck::clock<Delay>, c));
  friend bool operator==(const Entry&, const Entry&) = default;
};
struct SetState {
  BOOST_HANA_DEFINE_STRUCT(SetState, (statecheck::bounded_set<Entry, 4>, pending));
  friend bool operator==(const SetState&, const SetState&) = default;
};
auto s = statecheck::spec<SetState>("x", statecheck::init([](SetState&) {}),
                                    statecheck::actions(statecheck::action("A", [](SetState&) {})), time_of_spec);
#elif defined(CASE_clock_without_timing)
auto s = statecheck::spec<State>("x", statecheck::init([](State&) {}),
                                 statecheck::actions(statecheck::action("A", [](State&) {})));
#endif
