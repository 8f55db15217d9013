// Peterson's N-process filter lock (Filter.tla), one atomic step per shared
// memory access, as bench/peers/filter models it for TLC, SPIN and Rumur
// (docs/peers.md).
#pragma once

#include <cstdint>
#include <statecheck/statecheck.hpp>

namespace examples::filter {

inline constexpr int max_procs = 8;

STATECHECK_ENUM(Pc, idle, setv, wait, cs);

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (statecheck::bounded_vec<std::uint8_t, max_procs>, level),   // level[i] of process i
      (statecheck::bounded_vec<std::uint8_t, max_procs>, victim),  // victim[l - 1] of level l = 1..N-1
      (statecheck::bounded_vec<Pc, max_procs>, pc));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int procs = 3;
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("procs", &Config::procs, 2, max_procs, "number of processes"));

inline auto make_spec(const Config& c) {
  const int n = c.procs;
  const auto proc = statecheck::param("i", 0, n - 1);
  return statecheck::spec<State>(
      "filter",
      statecheck::init([n](State& s) {
        for (int i = 0; i < n; ++i) {
          s.level.push_back(0);
          s.pc.push_back(Pc::idle);
        }
        for (int l = 1; l < n; ++l) s.victim.push_back(0);
      }),
      statecheck::actions(
          statecheck::action(
              "Enter", proc, [](const State& s, int i) { return s.pc[i] == Pc::idle; },
              [](State& s, int i) {
                s.level[i] = 1;
                s.pc[i] = Pc::setv;
              }),
          statecheck::action(
              "SetVictim", proc, [](const State& s, int i) { return s.pc[i] == Pc::setv; },
              [](State& s, int i) {
                s.victim[s.level[i] - 1u] = static_cast<std::uint8_t>(i);
                s.pc[i] = Pc::wait;
              }),
          statecheck::action(
              "Pass", proc,
              [n](const State& s, int i) {
                if (s.pc[i] != Pc::wait) return false;
                if (s.victim[s.level[i] - 1u] != i) return true;
                for (int k = 0; k < n; ++k)
                  if (k != i && s.level[k] >= s.level[i]) return false;
                return true;
              },
              [n](State& s, int i) {
                if (s.level[i] == n - 1) {
                  s.pc[i] = Pc::cs;
                } else {
                  ++s.level[i];
                  s.pc[i] = Pc::setv;
                }
              }),
          statecheck::action(
              "Exit", proc, [](const State& s, int i) { return s.pc[i] == Pc::cs; },
              [](State& s, int i) {
                s.level[i] = 0;
                s.pc[i] = Pc::idle;
              })),
      statecheck::invariants(statecheck::invariant("Mutex", [](const State& s) {
        int in_cs = 0;
        for (Pc p : s.pc) in_cs += p == Pc::cs ? 1 : 0;
        return in_cs <= 1;
      })),
      statecheck::reachable(statecheck::goal("SomeoneInCritical", [](const State& s) { return s.pc.contains(Pc::cs); })));
}

}  // namespace examples::filter
