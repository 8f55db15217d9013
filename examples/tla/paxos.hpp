// Lamport's single-decree Paxos (tlaplus/Examples, specifications/Paxos/Paxos.tla),
// checked as specifications/Paxos/MCPaxos.cfg checks it: SPECIFICATION Spec,
// INVARIANT Inv1 Inv2 Inv3 Inv4, SYMMETRY MCSymmetry == Permutations(MCAcceptor)
// \cup Permutations(MCValue). (The cfg's PROPERTY VotingSpecBar, a refinement,
// is temporal: statecheck does not check it.) MCPaxos.tla sets MCAcceptor ==
// {a1}, MCValue == {v1}, MCQuorum == {{a1}}, MCBallot == 0..1 (its larger
// sets are commented out), so at the published size the symmetry group is
// trivial; at 2-3 acceptors and 2 values it is not, and tests/unit/symmetry_test.cpp
// cross-checks the reduction there by brute force.
//
// TLA+ -> DSL:
//   CONSTANTS Acceptor, Value        -> named id kinds Acc (a1..) and Val (v1..), counts from constants
//   SYMMETRY MCSymmetry              -> symmetric<Acc>(acceptors), symmetric<Val>(values)
//   None (CHOOSE v : v \notin Value) -> an empty id_set<max_values, Val> (MaybeVal, else one value): no id to rename
//   msgs \subseteq Message, a union of four record sets
//                                    -> four bounded_sets, one per message type (Msg1b, Msg2a, Msg2b;
//                                       a 1a message is its ballot), so that no message holds an
//                                       unused acceptor or value field that renaming would move
//   maxBal, maxVBal \in [Acceptor -> Ballot \cup {-1}] -> id_array<Acc, int8, N>
//   maxVal \in [Acceptor -> Value \cup {None}]         -> id_array<Acc, MaybeVal, N>
//   Quorum <- MCQuorum               -> every set of n/2+1 acceptors (for 1: {{a1}})
//   \E b \in Ballot : Phase1a(b)     -> action("Phase1a", b): always enabled, as in TLC
//   Phase1b(a): \E m \in msgs : m.type = "1a" /\ ...   -> each_in("m", msgs1a)
//   Phase2a(b, v): \E Q \in Quorum : ... \/ Q1bv = {} \/ \E m \in Q1bv : ...
//                                    -> parameters Q (index of a quorum) and w (the acceptor of the
//                                       witness m, -1 for the Q1bv = {} branch): TLC generates one
//                                       successor per witness and per branch. An acceptor sends one
//                                       1b message per ballot, so its acceptor names m.
//   Phase2b(a): \E m \in msgs : m.type = "2a" /\ ...   -> each_in("m", msgs2a)
//   Inv1 (TypeOK)                    -> holds by construction of the types
//   Inv2, Inv3, Inv4 (= V!Inv)       -> Inv2, Inv3 without its \E Q : V!ShowsSafeAt conjunct, and
//                                       V!Inv's OneValuePerBallot (its VotesSafe is left out)
//
// TLC's counts for MCPaxos.cfg are published in the repository's
// specifications/Paxos/manifest.json: 25 distinct states, 82 generated, depth 9
// (tests/specs/tla_symmetry_test.cpp pins what statecheck reports against them).
#pragma once

#include <cstdint>
#include <statecheck/statecheck.hpp>
#include <vector>

#include "majorities.hpp"

namespace examples::paxos {

struct Acc {
  static constexpr std::string_view prefix = "a";
};
struct Val {
  static constexpr std::string_view prefix = "v";
};
using AccId = statecheck::id<Acc>;
using ValId = statecheck::id<Val>;

inline constexpr int max_acceptors = 3;
inline constexpr int max_values = 2;  // MaybeVal's capacity
inline constexpr int max_ballot_limit = 2;
inline constexpr int ballots_limit = max_ballot_limit + 1;
using MaybeVal = statecheck::id_set<max_values, Val>;  // Value \cup {None}: one value, or empty for None

struct Msg1b {
  BOOST_HANA_DEFINE_STRUCT(Msg1b, (AccId, acc), (std::int8_t, bal), (std::int8_t, mbal), (MaybeVal, mval));
  friend bool operator==(const Msg1b&, const Msg1b&) = default;
};
struct Msg2a {
  BOOST_HANA_DEFINE_STRUCT(Msg2a, (std::int8_t, bal), (ValId, val));
  friend bool operator==(const Msg2a&, const Msg2a&) = default;
};
struct Msg2b {
  BOOST_HANA_DEFINE_STRUCT(Msg2b, (AccId, acc), (std::int8_t, bal), (ValId, val));
  friend bool operator==(const Msg2b&, const Msg2b&) = default;
};

// An acceptor sends one 1b and one 2b message per ballot at most; one 2a per ballot.
struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (statecheck::id_array<Acc, std::int8_t, max_acceptors>, max_bal),
      (statecheck::id_array<Acc, std::int8_t, max_acceptors>, max_vbal),
      (statecheck::id_array<Acc, MaybeVal, max_acceptors>, max_val),
      (statecheck::bounded_set<std::int8_t, ballots_limit>, msgs1a),
      (statecheck::bounded_set<Msg1b, max_acceptors * ballots_limit>, msgs1b),
      (statecheck::bounded_set<Msg2a, ballots_limit>, msgs2a),
      (statecheck::bounded_set<Msg2b, max_acceptors * ballots_limit>, msgs2b));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int acceptors = 1;
  int values = 1;
  int max_ballot = 1;
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("acceptors", &Config::acceptors, 1, max_acceptors, "number of acceptors"),
    statecheck::integer("values", &Config::values, 1, max_values, "number of values"),
    statecheck::integer("max_ballot", &Config::max_ballot, 0, max_ballot_limit, "ballots are 0..max_ballot"));

using Quorum = statecheck::id_set<max_acceptors, Acc>;

/// Every majority of n acceptors (examples/tla/majorities.hpp; for one acceptor MCQuorum's {{a1}}).
inline std::vector<Quorum> majorities(int n) { return examples::majorities<Quorum>(n); }

/// Phase2a(b, v)'s enabling condition for quorum q and witness w (the acceptor
/// of the 1b message m \in Q1bv; -1: the Q1bv = {} branch).
inline bool phase2a_enabled(const State& s, const Quorum& q, int b, ValId v, int w) {
  for (const Msg2a& m : s.msgs2a)
    if (m.bal == b) return false;
  Quorum promised;
  bool any_vote = false;  // Q1bv # {}
  int best = -1;          // the largest mbal in Q1bv
  for (const Msg1b& m : s.msgs1b) {
    if (m.bal != b || !q.contains(m.acc)) continue;
    promised.insert(m.acc);
    if (m.mbal >= 0) any_vote = true, best = std::max<int>(best, m.mbal);
  }
  if (!(promised == q)) return false;
  if (w == -1) return !any_vote;
  for (const Msg1b& m : s.msgs1b)
    if (m.acc == AccId(w) && m.bal == b && q.contains(m.acc) && m.mbal >= 0)
      return m.mval.contains(v) && m.mbal == best;
  return false;
}

inline bool voted(const State& s, AccId a, int bal, const MaybeVal& val) {
  bool found = false;
  val.for_each([&](ValId v) { found = s.msgs2b.contains(Msg2b{a, static_cast<std::int8_t>(bal), v}); });
  return found;
}

inline auto make_spec(const Config& c) {
  const std::vector<Quorum> quorums = majorities(c.acceptors);
  const int acceptors = c.acceptors;
  const auto a = statecheck::ids<Acc>("a", c.acceptors);
  const auto b = statecheck::param("b", 0, c.max_ballot);
  const auto v = statecheck::ids<Val>("v", c.values);
  const auto q = statecheck::param("Q", 0, static_cast<int>(quorums.size()) - 1);  // index into quorums
  const auto w = statecheck::param("w", -1, c.acceptors - 1);
  const auto sent1a = statecheck::each_in("m", [](const State& s) -> const auto& { return s.msgs1a; });
  const auto sent2a = statecheck::each_in("m", [](const State& s) -> const auto& { return s.msgs2a; });
  auto i8 = [](int x) { return static_cast<std::int8_t>(x); };
  return statecheck::spec<State>(
      "paxos",
      statecheck::init([n = c.acceptors](State& s) {
        statecheck::use_ids<Acc>(s, n);
        s.max_bal.fill(-1);
        s.max_vbal.fill(-1);
      }),
      statecheck::actions(
          statecheck::action("Phase1a", b, [i8](State& s, int bal) { s.msgs1a.insert(i8(bal)); }),
          statecheck::action(
              "Phase1b", a, sent1a, [](const State& s, AccId x, std::int8_t m) { return m > s.max_bal[x]; },
              [](const State& before, State& after, AccId x, std::int8_t m) {
                after.max_bal[x] = m;
                after.msgs1b.insert(Msg1b{x, m, before.max_vbal[x], before.max_val[x]});
              }),
          statecheck::action(
              "Phase2a", b, v, q, w,
              [quorums](const State& s, int bal, ValId val, int quorum, int witness) {
                return phase2a_enabled(s, quorums[static_cast<std::size_t>(quorum)], bal, val, witness);
              },
              [i8](State& s, int bal, ValId val, int, int) { s.msgs2a.insert(Msg2a{i8(bal), val}); }),
          statecheck::action(
              "Phase2b", a, sent2a, [](const State& s, AccId x, const Msg2a& m) { return m.bal >= s.max_bal[x]; },
              [](State& s, AccId x, const Msg2a& m) {
                s.max_bal[x] = s.max_vbal[x] = m.bal;
                s.max_val[x] = MaybeVal{};
                s.max_val[x].insert(m.val);
                s.msgs2b.insert(Msg2b{x, m.bal, m.val});
              })),
      statecheck::invariants(
          statecheck::invariant("Inv2",
                                [acceptors](const State& s) {
                                  for (int i = 0; i < acceptors; ++i) {
                                    const AccId x(i);
                                    if (s.max_vbal[x] == -1 ? !s.max_val[x].empty()
                                                            : !voted(s, x, s.max_vbal[x], s.max_val[x]))
                                      return false;
                                  }
                                  return true;
                                }),
          statecheck::invariant("Inv3",
                                [](const State& s) {
                                  for (const Msg1b& m : s.msgs1b)
                                    if (s.max_bal[m.acc] < m.bal || (m.mbal >= 0 && !voted(s, m.acc, m.mbal, m.mval)))
                                      return false;
                                  for (const Msg2a& m : s.msgs2a)
                                    for (const Msg2a& mm : s.msgs2a)
                                      if (m.bal == mm.bal && !(m.val == mm.val)) return false;
                                  return true;
                                }),
          statecheck::invariant("OneValuePerBallot",
                                [](const State& s) {
                                  for (const Msg2b& m : s.msgs2b)
                                    for (const Msg2b& mm : s.msgs2b)
                                      if (m.bal == mm.bal && !(m.val == mm.val)) return false;
                                  return true;
                                })),
      // Not in the TLA+ module: evidence that the invariants are checked where
      // they matter, a value chosen (2b messages of one ballot and value from a quorum).
      statecheck::reachable(statecheck::goal("ValueChosen",
                                             [quorums](const State& s) {
                                               for (const Msg2b& m : s.msgs2b)
                                                 for (const Quorum& quorum : quorums) {
                                                   bool all = true;
                                                   quorum.for_each([&](AccId x) {
                                                     all = all && s.msgs2b.contains(Msg2b{x, m.bal, m.val});
                                                   });
                                                   if (all) return true;
                                                 }
                                               return false;
                                             })),
      // No CHECK_DEADLOCK in the cfg: TLC checks deadlock (Phase1a is always enabled).
      statecheck::symmetric<Acc>(c.acceptors), statecheck::symmetric<Val>(c.values));
}

}  // namespace examples::paxos
