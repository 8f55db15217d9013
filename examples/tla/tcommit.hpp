// TCommit: Lamport's specification of transaction commit, the one TwoPhase
// refines (examples/two_phase.hpp is TwoPhase itself).
//
// Source: tlaplus/Examples, specifications/transaction_commit/TCommit.tla with
// TCommit.cfg: RM = {r1, r2, r3}, INVARIANTS TCTypeOK TCConsistent,
// CHECK_DEADLOCK FALSE. Pinned in tests/specs/tla_corpus_test.cpp to TLC's
// published counts in specifications/transaction_commit/manifest.json
// (distinctStates 34, totalStates 94, stateDepth 7).
//
// TLA+ -> DSL:
//   CONSTANT RM = {r1, r2, r3}          named ids RmId (prefix "r"), parameter ids<Rm>("r", rms)
//   rmState \in [RM -> {"working", ...}] bounded_vec<RmState, 8> indexed by RmId; STATECHECK_ENUM
//                                        makes TCTypeOK hold by construction
//   \E r \in RM : Prepare(r) \/ Decide(r) one action per operator, each over the parameter r
//   Decide(r) == \/ ... committed       branches("Decide", action("Commit", ...),
//                \/ ... aborted          action("Abort", ...)): one action of two branches,
//                                        labelled Decide.Commit(r=r1) and Decide.Abort(r=r1); a
//                                        state where both are enabled has two successors, as in
//                                        TLC
//   canCommit, notCommitted              helper functions over the state
//   CHECK_DEADLOCK FALSE                 allow_deadlock (every RM ends committed or aborted)
//   (none)                               the goal AllCommitted is ours, not the cfg's: a
//                                        check that committing is reachable at all
#pragma once

#include <statecheck/statecheck.hpp>
#include <string_view>

namespace examples::tla::tcommit {

struct Rm {
  static constexpr std::string_view prefix = "r";
};
using RmId = statecheck::id<Rm>;

STATECHECK_ENUM(RmState, working, prepared, committed, aborted);

inline constexpr int max_rms = 8;

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::bounded_vec<RmState, max_rms>, rm_state));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int rms = 3;  // TCommit.cfg: RM = {r1, r2, r3}
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("rms", &Config::rms, 1, max_rms, "number of resource managers (|RM|)"));

/// canCommit: every RM is prepared or committed.
inline bool can_commit(const State& s) {
  for (RmState r : s.rm_state)
    if (r != RmState::prepared && r != RmState::committed) return false;
  return true;
}

/// notCommitted: no RM has committed.
inline bool not_committed(const State& s) { return !s.rm_state.contains(RmState::committed); }

inline auto make_spec(const Config& c) {
  const auto rm = statecheck::ids<Rm>("r", c.rms);
  return statecheck::spec<State>(
      "tla-tcommit",
      statecheck::init([n = c.rms](State& s) {
        for (int r = 0; r < n; ++r) s.rm_state.push_back(RmState::working);
      }),
      statecheck::actions(
          statecheck::action(
              "Prepare", rm, [](const State& s, RmId r) { return s.rm_state[r] == RmState::working; },
              [](State& s, RmId r) { s.rm_state[r] = RmState::prepared; }),
          statecheck::branches(
              "Decide",
              statecheck::action(
                  "Commit", rm,
                  [](const State& s, RmId r) { return s.rm_state[r] == RmState::prepared && can_commit(s); },
                  [](State& s, RmId r) { s.rm_state[r] = RmState::committed; }),
              statecheck::action(
                  "Abort", rm,
                  [](const State& s, RmId r) {
                    return (s.rm_state[r] == RmState::working || s.rm_state[r] == RmState::prepared) &&
                           not_committed(s);
                  },
                  [](State& s, RmId r) { s.rm_state[r] = RmState::aborted; }))),
      statecheck::invariants(statecheck::invariant("TCConsistent", [](const State& s) {
        return !(s.rm_state.contains(RmState::aborted) && s.rm_state.contains(RmState::committed));
      })),
      statecheck::reachable(statecheck::goal("AllCommitted",
                                             [](const State& s) {
                                               for (RmState r : s.rm_state)
                                                 if (r != RmState::committed) return false;
                                               return true;
                                             })),
      statecheck::allow_deadlock);
}

}  // namespace examples::tla::tcommit
