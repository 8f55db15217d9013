// Lamport's Voting (tlaplus/Examples, specifications/Paxos/Voting.tla), checked
// as MCVoting.cfg checks it: 3 acceptors, 2 values, ballots 0..1, quorums the
// pairs of acceptors, SYMMETRY Permutations(Acceptor) \cup Permutations(Value),
// INVARIANT Inv, CHECK_DEADLOCK FALSE. (The cfg's PROPERTY ConsensusSpecBar, a
// refinement, is temporal: statecheck does not check it.)
//
// TLA+ -> DSL:
//   CONSTANTS Acceptor, Value       -> named id kinds Acc (a1..) and Val (v1..), counts from constants
//   SYMMETRY Permutations(Acceptor)
//            \cup Permutations(Value) -> symmetric<Acc>(n), symmetric<Val>(m)
//   votes \in [Acceptor -> SUBSET (Ballot \X Value)]
//                                   -> id_array<Acc, bounded_set<Vote, 8>, 5> (Vote = {ballot, value})
//   maxBal \in [Acceptor -> Ballot \cup {-1}] -> id_array<Acc, int, 5>
//   Quorum (the pairs of 3)         -> every set of n/2+1 acceptors (for 3: the pairs)
//   Ballot <- 0..1                  -> param("b", 0, max_ballot)
//   \E a, b: IncreaseMaxBal(a, b) \/ \E v: VoteFor(a, b, v) -> actions over (a, b) and (a, b, v, Q, c)
//   VoteFor's \E Q \in Quorum : ShowsSafeAt(Q, b, v), whose \E c \in -1..(b-1) TLC also
//   enumerates (one successor per witness: that is what its generated count counts)
//                                   -> parameters Q (index of a quorum) and c of VoteFor
//   Inv == TypeOK /\ VotesSafe /\ OneValuePerBallot -> invariants VotesSafe, OneValuePerBallot
//                                      (TypeOK holds by construction of the types)
//
// TLC's counts for MCVoting.cfg are published in the repository's
// specifications/Paxos/manifest.json: 77 distinct states, 451 generated, depth
// 11 (tests/specs/tla_symmetry_test.cpp pins what statecheck reports against them).
#pragma once

#include <cstdint>
#include <statecheck/statecheck.hpp>
#include <vector>

#include "majorities.hpp"

namespace examples::voting {

struct Acc {
  static constexpr std::string_view prefix = "a";
};
struct Val {
  static constexpr std::string_view prefix = "v";
};
using AccId = statecheck::id<Acc>;
using ValId = statecheck::id<Val>;

inline constexpr int max_acceptors = 5;
inline constexpr int max_values = 3;
inline constexpr int max_ballot_limit = 2;

struct Vote {
  BOOST_HANA_DEFINE_STRUCT(Vote, (std::int8_t, ballot), (ValId, value));
  friend bool operator==(const Vote&, const Vote&) = default;
};

// [symmetric-state]
struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (statecheck::id_array<Acc, statecheck::bounded_set<Vote, (max_ballot_limit + 1) * max_values>, max_acceptors>, votes),
      (statecheck::id_array<Acc, std::int8_t, max_acceptors>, max_bal));
  friend bool operator==(const State&, const State&) = default;
};
// [symmetric-state-end]

struct Config {
  int acceptors = 3;
  int values = 2;
  int max_ballot = 1;
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("acceptors", &Config::acceptors, 1, max_acceptors, "number of acceptors"),
    statecheck::integer("values", &Config::values, 1, max_values, "number of values"),
    statecheck::integer("max_ballot", &Config::max_ballot, 0, max_ballot_limit, "ballots are 0..max_ballot"));

using Quorum = statecheck::id_set<max_acceptors, Acc>;

/// Every majority of n acceptors (examples/tla/majorities.hpp; for 3 acceptors MCQuorum's pairs).
inline std::vector<Quorum> majorities(int n) { return examples::majorities<Quorum>(n); }

/// The definitions of Voting.tla, over one state.
struct Voting {
  int acceptors;
  int values;
  std::vector<Quorum> quorums;

  static bool voted_for(const State& s, AccId a, int b, ValId v) {
    return s.votes[a].contains(Vote{static_cast<std::int8_t>(b), v});
  }
  bool did_not_vote_at(const State& s, AccId a, int b) const {
    for (int v = 0; v < values; ++v)
      if (voted_for(s, a, b, ValId(v))) return false;
    return true;
  }
  bool cannot_vote_at(const State& s, AccId a, int b) const { return s.max_bal[a] > b && did_not_vote_at(s, a, b); }
  bool none_other_choosable_at(const State& s, int b, ValId v) const {
    for (const Quorum& q : quorums) {
      bool all = true;
      q.for_each([&](AccId a) { all = all && (voted_for(s, a, b, v) || cannot_vote_at(s, a, b)); });
      if (all) return true;
    }
    return false;
  }
  bool safe_at(const State& s, int b, ValId v) const {
    for (int c = 0; c < b; ++c)
      if (!none_other_choosable_at(s, c, v)) return false;
    return true;
  }
  /// ShowsSafeAt(Q, b, v) with its \E c fixed: TLC enumerates both existentials
  /// of VoteFor (Q and c), one successor per witness, so they are parameters here.
  bool shows_safe_at(const State& s, const Quorum& q, int b, ValId v, int c, int w) const {
    if (c >= b) return false;
    bool high = true;
    q.for_each([&](AccId a) { high = high && s.max_bal[a] >= b; });
    // (c # -1) => \E a \in Q : VotedFor(a, c, v), with the witness a = w (none: -1)
    const bool voted = c == -1 ? w == -1 : w >= 0 && q.contains(AccId(w)) && voted_for(s, AccId(w), c, v);
    bool silent = true;
    for (int d = c + 1; d < b; ++d) q.for_each([&](AccId a) { silent = silent && did_not_vote_at(s, a, d); });
    return high && voted && silent;
  }
  bool may_vote(const State& s, AccId a, int b, ValId v, int q, int c, int w) const {
    if (s.max_bal[a] > b) return false;
    for (const Vote& vt : s.votes[a])
      if (vt.ballot == b) return false;
    for (int other = 0; other < acceptors; ++other) {
      if (AccId(other) == a) continue;
      for (const Vote& vt : s.votes[AccId(other)])
        if (vt.ballot == b && vt.value != v) return false;
    }
    return shows_safe_at(s, quorums[static_cast<std::size_t>(q)], b, v, c, w);
  }
  bool votes_safe(const State& s) const {
    for (int a = 0; a < acceptors; ++a)
      for (const Vote& vt : s.votes[AccId(a)])
        if (!safe_at(s, vt.ballot, vt.value)) return false;
    return true;
  }
  /// Chosen(v) at some ballot: a quorum all voted for v there (the state the safety properties are about).
  bool some_value_chosen(const State& s, int max_ballot) const {
    for (const Quorum& q : quorums)
      for (int b = 0; b <= max_ballot; ++b)
        for (int v = 0; v < values; ++v) {
          bool all = true;
          q.for_each([&](AccId a) { all = all && voted_for(s, a, b, ValId(v)); });
          if (all) return true;
        }
    return false;
  }
  bool one_value_per_ballot(const State& s) const {
    for (int a1 = 0; a1 < acceptors; ++a1)
      for (const Vote& x : s.votes[AccId(a1)])
        for (int a2 = 0; a2 < acceptors; ++a2)
          for (const Vote& y : s.votes[AccId(a2)])
            if (x.ballot == y.ballot && x.value != y.value) return false;
    return true;
  }
};

inline auto make_spec(const Config& c) {
  const Voting v{c.acceptors, c.values, majorities(c.acceptors)};
  const auto a = statecheck::ids<Acc>("a", c.acceptors);
  const auto b = statecheck::param("b", 0, c.max_ballot);
  const auto val = statecheck::ids<Val>("v", c.values);
  const auto q = statecheck::param("Q", 0, static_cast<int>(v.quorums.size()) - 1);  // index into v.quorums
  const auto shown = statecheck::param("c", -1, c.max_ballot - 1);
  const auto witness = statecheck::param("w", -1, c.acceptors - 1);  // -1: none (c = -1)
  return statecheck::spec<State>(
      "voting",
      statecheck::init([n = c.acceptors](State& s) {
        statecheck::use_ids<Acc>(s, n);
        s.max_bal.fill(-1);
      }),
      statecheck::actions(
          statecheck::action("IncreaseMaxBal", a, b, [](const State& s, AccId x, int bal) { return bal > s.max_bal[x]; },
                             [](State& s, AccId x, int bal) { s.max_bal[x] = static_cast<std::int8_t>(bal); }),
          statecheck::action("VoteFor", a, b, val, q, shown, witness,
                             [v](const State& s, AccId x, int bal, ValId w, int quorum, int since, int voter) {
                               return v.may_vote(s, x, bal, w, quorum, since, voter);
                             },
                             [](State& s, AccId x, int bal, ValId w, int, int, int) {
                               s.votes[x].insert(Vote{static_cast<std::int8_t>(bal), w});
                               s.max_bal[x] = static_cast<std::int8_t>(bal);
                             })),
      statecheck::invariants(statecheck::invariant("VotesSafe", [v](const State& s) { return v.votes_safe(s); }),
                             statecheck::invariant("OneValuePerBallot",
                                                   [v](const State& s) { return v.one_value_per_ballot(s); })),
      // Not in the TLA+ module: evidence that the invariants are checked where they matter.
      statecheck::reachable(statecheck::goal(
          "ValueChosen", [v, top = c.max_ballot](const State& s) { return v.some_value_chosen(s, top); })),
      // [symmetric-parts]
      statecheck::allow_deadlock, statecheck::symmetric<Acc>(c.acceptors), statecheck::symmetric<Val>(c.values));
  // [symmetric-parts-end]
}

}  // namespace examples::voting
