// Two processes each add 1 to a shared counter by a read and a later write,
// so one increment can overwrite the other. BothCounted (once both are done,
// x == 2) fails in 4 steps: Read(p=0) Read(p=1) Write(p=0) Write(p=1).
#include <array>
#include <cstdint>
#include <statecheck/statecheck.hpp>

namespace {

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (std::uint8_t, x), (std::array<std::uint8_t, 2>, copy),
                           (std::array<std::uint8_t, 2>, step));  // step: 0 read next, 1 write next, 2 done
  friend bool operator==(const State&, const State&) = default;
};

struct Config {};
const auto config = statecheck::constants<Config>();

auto make_spec(const Config&) {
  const auto p = statecheck::param("p", 0, 1);
  return statecheck::spec<State>(
      "lost-update", statecheck::init([](State&) {}),
      statecheck::actions(
          statecheck::action(
              "Read", p, [](const State& s, int i) { return s.step[i] == 0; },
              [](State& s, int i) {
                s.copy[i] = s.x;
                s.step[i] = 1;
              }),
          statecheck::action(
              "Write", p, [](const State& s, int i) { return s.step[i] == 1; },
              [](State& s, int i) {
                s.x = static_cast<std::uint8_t>(s.copy[i] + 1);
                s.step[i] = 2;
              })),
      statecheck::invariants(statecheck::invariant(
          "BothCounted", [](const State& s) { return !(s.step[0] == 2 && s.step[1] == 2) || s.x == 2; })),
      statecheck::allow_deadlock);
}

}  // namespace

STATECHECK_REGISTER(lost_update, "read-then-write counter; BothCounted fails in 4 steps", config, make_spec,
                    {{}, "violation BothCounted 4"});
