// Lamport's two-phase commit (TwoPhase.tla), exactly as bench/peers/twophase
// models it for TLC, SPIN and Rumur, so that state counts can be compared 1:1
// (docs/peers.md).
#pragma once

#include <statecheck/statecheck.hpp>

namespace examples::two_phase {

inline constexpr int max_rms = 12;  // N=11 is the 300M-state run of bench/frontier.txt

STATECHECK_ENUM(Rm, working, prepared, committed, aborted);
STATECHECK_ENUM(Tm, init, committed, aborted);

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (statecheck::bounded_vec<Rm, max_rms>, rm),        // resource manager states
      (Tm, tm),                                          // transaction manager state
      (statecheck::id_set<max_rms>, tm_prepared),        // Prepared messages the TM received
      (statecheck::id_set<max_rms>, msg_prepared),       // Prepared messages sent
      (bool, msg_commit),
      (bool, msg_abort));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int rms = 3;
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("rms", &Config::rms, 1, max_rms, "number of resource managers"));

inline auto make_spec(const Config& c) {
  const int n = c.rms;
  const auto rm = statecheck::param("rm", 0, n - 1);
  return statecheck::spec<State>(
      "two-phase",
      statecheck::init([n](State& s) {
        for (int r = 0; r < n; ++r) s.rm.push_back(Rm::working);
      }),
      statecheck::actions(
          statecheck::action(
              "TMCommit", [n](const State& s) { return s.tm == Tm::init && s.tm_prepared.size() == n; },
              [](State& s) {
                s.tm = Tm::committed;
                s.msg_commit = true;
              }),
          statecheck::action(
              "TMAbort", [](const State& s) { return s.tm == Tm::init; },
              [](State& s) {
                s.tm = Tm::aborted;
                s.msg_abort = true;
              }),
          statecheck::action(
              "TMRcvPrepared", rm, [](const State& s, int r) { return s.tm == Tm::init && s.msg_prepared.contains(r); },
              [](State& s, int r) { s.tm_prepared.insert(r); }),
          statecheck::action(
              "RMPrepare", rm, [](const State& s, int r) { return s.rm[r] == Rm::working; },
              [](State& s, int r) {
                s.rm[r] = Rm::prepared;
                s.msg_prepared.insert(r);
              }),
          statecheck::action(
              "RMChooseToAbort", rm, [](const State& s, int r) { return s.rm[r] == Rm::working; },
              [](State& s, int r) { s.rm[r] = Rm::aborted; }),
          statecheck::action(
              "RMRcvCommitMsg", rm, [](const State& s, int) { return s.msg_commit; },
              [](State& s, int r) { s.rm[r] = Rm::committed; }),
          statecheck::action(
              "RMRcvAbortMsg", rm, [](const State& s, int) { return s.msg_abort; },
              [](State& s, int r) { s.rm[r] = Rm::aborted; })),
      statecheck::invariants(statecheck::invariant("TCConsistent", [](const State& s) {
        return !(s.rm.contains(Rm::aborted) && s.rm.contains(Rm::committed));
      })),
      statecheck::reachable(
          statecheck::goal("AllCommitted",
                           [](const State& s) {
                             for (Rm r : s.rm)
                               if (r != Rm::committed) return false;
                             return true;
                           }),
          statecheck::goal("AllAborted", [](const State& s) {
            for (Rm r : s.rm)
              if (r != Rm::aborted) return false;
            return true;
          })));
}

}  // namespace examples::two_phase
