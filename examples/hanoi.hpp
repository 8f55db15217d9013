// Tower of Hanoi with D disks on 3 pegs. "All disks on the last peg" is
// stated as the invariant NotSolved, so its shortest counterexample is the
// optimal solution: 2^D - 1 moves.
#pragma once

#include <cstdint>
#include <statecheck/statecheck.hpp>

namespace examples::hanoi {

inline constexpr int max_disks = 12;

struct State {
  // peg[d]: the peg disk d is on; disk 0 is the smallest.
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::bounded_vec<std::uint8_t, max_disks>, peg));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int disks = 4;
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("disks", &Config::disks, 1, max_disks, "number of disks"));

/// The smallest disk on peg p, or -1 when p is empty.
inline int top(const State& s, int p) {
  for (int d = 0; d < s.peg.size(); ++d)
    if (s.peg[d] == p) return d;
  return -1;
}

inline auto make_spec(const Config& c) {
  const int n = c.disks;
  const auto from = statecheck::param("from", 0, 2);
  const auto to = statecheck::param("to", 0, 2);
  return statecheck::spec<State>(
      "hanoi",
      statecheck::init([n](State& s) {
        for (int d = 0; d < n; ++d) s.peg.push_back(0);
      }),
      statecheck::actions(statecheck::action(
          "Move", from, to,
          [](const State& s, int f, int t) {
            const int disk = top(s, f);
            const int onto = top(s, t);
            return f != t && disk >= 0 && (onto < 0 || disk < onto);
          },
          [](State& s, int f, int t) { s.peg[static_cast<std::size_t>(top(s, f))] = static_cast<std::uint8_t>(t); })),
      statecheck::invariants(statecheck::invariant("NotSolved", [](const State& s) {
        for (std::uint8_t p : s.peg)
          if (p != 2) return true;
        return false;
      })));
}

}  // namespace examples::hanoi
