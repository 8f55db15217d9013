// Two processes guard a critical section with a flag they test and then set
// in two separate steps, so both can pass the test before either sets it.
// MutualExclusion fails in 4 steps: Test(p=0) Test(p=1) Enter(p=0) Enter(p=1).
#include <array>
#include <cstdint>
#include <statecheck/statecheck.hpp>

namespace {

STATECHECK_ENUM(Pc, idle, tested, critical);

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (std::array<Pc, 2>, pc), (bool, locked));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {};
const auto config = statecheck::constants<Config>();

auto make_spec(const Config&) {
  const auto p = statecheck::param("p", 0, 1);
  const auto at = [](Pc where) { return [where](const State& s, int i) { return s.pc[i] == where; }; };
  return statecheck::spec<State>(
      "naive-mutex", statecheck::init([](State&) {}),
      statecheck::actions(
          statecheck::action(
              "Test", p, [](const State& s, int i) { return s.pc[i] == Pc::idle && !s.locked; },
              [](State& s, int i) { s.pc[i] = Pc::tested; }),
          statecheck::action("Enter", p, at(Pc::tested), [](State& s, int i) {
            s.locked = true;
            s.pc[i] = Pc::critical;
          }),
          statecheck::action("Leave", p, at(Pc::critical), [](State& s, int i) {
            s.locked = false;
            s.pc[i] = Pc::idle;
          })),
      statecheck::invariants(statecheck::invariant(
          "MutualExclusion", [](const State& s) { return !(s.pc[0] == Pc::critical && s.pc[1] == Pc::critical); })));
}

}  // namespace

STATECHECK_REGISTER(naive_mutex, "test-then-set lock; MutualExclusion fails in 4 steps", config, make_spec,
                    {{}, "violation MutualExclusion 4"});
