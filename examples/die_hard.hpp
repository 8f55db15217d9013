// The Die Hard 3 water jugs: get exactly 4 gallons with a 3- and a 5-gallon
// jug. NotSolved (big != 4) fails; the shortest counterexample is the puzzle's
// solution, 6 steps.
#pragma once

#include <cstdint>
#include <statecheck/statecheck.hpp>

namespace examples::die_hard {

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (std::uint8_t, big), (std::uint8_t, small));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {};
inline const auto config = statecheck::constants<Config>();

inline auto make_spec(const Config&) {
  using U = std::uint8_t;
  return statecheck::spec<State>(
      "die-hard", statecheck::init([](State&) {}),
      statecheck::actions(
          statecheck::action("FillSmall", [](State& s) { s.small = 3; }),
          statecheck::action("FillBig", [](State& s) { s.big = 5; }),
          statecheck::action("EmptySmall", [](State& s) { s.small = 0; }),
          statecheck::action("EmptyBig", [](State& s) { s.big = 0; }),
          statecheck::action("SmallToBig",
                             [](State& s) {
                               const int total = s.big + s.small;
                               s.big = static_cast<U>(total <= 5 ? total : 5);
                               s.small = static_cast<U>(total <= 5 ? 0 : total - 5);
                             }),
          statecheck::action("BigToSmall",
                             [](State& s) {
                               const int total = s.big + s.small;
                               s.small = static_cast<U>(total <= 3 ? total : 3);
                               s.big = static_cast<U>(total <= 3 ? 0 : total - 3);
                             })),
      statecheck::invariants(statecheck::invariant("NotSolved", [](const State& s) { return s.big != 4; })));
}

}  // namespace examples::die_hard
