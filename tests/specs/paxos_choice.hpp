// Single-decree Paxos over a set of messages (after Lamport's Paxos.tla in
// tlaplus/Examples), written twice: with state-dependent choice (each_in: the
// acceptor receives one of the messages present) and, as a spec had to be
// written before choice existed, with a parameter over every message the
// model could ever send plus a membership guard. Both must explore the same
// states; the choice version's transition ids do not grow with that superset.
//
// TLA+ -> DSL: `\E m \in msgs : Phase1b(a, m)` -> action("Phase1b", acc,
// each_in("m", msgs), guard, effect); `\E Q \in Quorum` -> param q (Quorum is
// a constant); primed/unprimed reads -> effect(const State& before, State& after, ...).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "statecheck/statecheck.hpp"

namespace paxos {

STATECHECK_ENUM(Type, p1a, p1b, p2a, p2b);

struct AccTag {
  static constexpr std::string_view prefix = "a";
};
using Acc = statecheck::id<AccTag>;

constexpr int acceptors = 3;
constexpr int quorums = 3;     // the majorities {a1,a2}, {a1,a3}, {a2,a3}
constexpr int max_ballots = 4;
constexpr std::size_t capacity = 4 + 12 + 4 + 12;  // 1a, 1b, 2a, 2b messages at 4 ballots

struct Msg {
  BOOST_HANA_DEFINE_STRUCT(Msg, (Type, type), (std::int8_t, acc), (std::int8_t, bal), (std::int8_t, mbal),
                           (std::int8_t, val));
  friend bool operator==(const Msg&, const Msg&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (std::array<std::int8_t, acceptors>, maxBal),
                           (std::array<std::int8_t, acceptors>, maxVBal), (std::array<std::int8_t, acceptors>, maxVal),
                           (statecheck::bounded_set<Msg, capacity>, msgs));
  friend bool operator==(const State&, const State&) = default;
};

inline bool in_quorum(int q, int a) { return a != 2 - q; }  // quorum q leaves out acceptor 2 - q

inline void init(State& s) {
  s.maxBal.fill(-1);
  s.maxVBal.fill(-1);
  s.maxVal.fill(-1);
}

inline bool phase2a_enabled(const State& s, int b, int v, int q) {
  for (const Msg& m : s.msgs)
    if (m.type == Type::p2a && m.bal == b) return false;
  std::array<bool, acceptors> promised{};
  int best_mbal = -1, best_val = -1;
  for (const Msg& m : s.msgs) {
    if (m.type != Type::p1b || m.bal != b || !in_quorum(q, m.acc)) continue;
    promised[static_cast<std::size_t>(m.acc)] = true;
    if (m.mbal > best_mbal) best_mbal = m.mbal, best_val = m.val;
  }
  for (int a = 0; a < acceptors; ++a)
    if (in_quorum(q, a) && !promised[static_cast<std::size_t>(a)]) return false;
  return best_mbal < 0 || best_val == v;
}

inline bool chosen_by_some_quorum(const State& s) {
  for (const Msg& m : s.msgs) {
    if (m.type != Type::p2b) continue;
    for (int q = 0; q < quorums; ++q) {
      bool all = true;
      for (int a = 0; a < acceptors; ++a)
        if (in_quorum(q, a) && !s.msgs.contains(Msg{Type::p2b, static_cast<std::int8_t>(a), m.bal, -1, m.val}))
          all = false;
      if (all) return true;
    }
  }
  return false;
}

// [choice-example]
inline bool phase1b_receive(const State& s, Acc a, const Msg& m) {
  return m.type == Type::p1a && m.bal > s.maxBal[a];
}
inline void phase1b_send(const State& before, State& after, Acc a, const Msg& m) {
  after.maxBal[a] = m.bal;
  after.msgs.insert({Type::p1b, static_cast<std::int8_t>(a.index()), m.bal, before.maxVBal[a], before.maxVal[a]});
}
inline bool phase2b_receive(const State& s, Acc a, const Msg& m) { return m.type == Type::p2a && m.bal >= s.maxBal[a]; }
inline void phase2b_send(State& s, Acc a, const Msg& m) {
  s.maxBal[a] = s.maxVBal[a] = m.bal;
  s.maxVal[a] = m.val;
  s.msgs.insert({Type::p2b, static_cast<std::int8_t>(a.index()), m.bal, -1, m.val});
}

/// The message-set spec with choice; `expect_chosen`: a goal, else an
/// invariant that no value is chosen (so that a trace ends there).
inline auto spec(int ballots, int values, bool expect_chosen) {
  const auto acc = statecheck::ids<AccTag>("a", acceptors);
  const auto b = statecheck::param("b", 0, ballots - 1);
  const auto v = statecheck::param("v", 0, values - 1);
  const auto q = statecheck::param("q", 0, quorums - 1);
  const auto msg = statecheck::each_in("m", [](const State& s) -> const auto& { return s.msgs; });
  return statecheck::spec<State>(
      "paxos-choice", statecheck::init(init),
      statecheck::actions(
          statecheck::action("Phase1a", b, [](State& s, int bal) { s.msgs.insert({Type::p1a, 0, static_cast<std::int8_t>(bal), -1, -1}); }),
          statecheck::action("Phase1b", acc, msg, phase1b_receive, phase1b_send),
          statecheck::action("Phase2a", b, v, q, phase2a_enabled,
                             [](State& s, int bal, int val, int) {
                               s.msgs.insert({Type::p2a, 0, static_cast<std::int8_t>(bal), -1, static_cast<std::int8_t>(val)});
                             }),
          statecheck::action("Phase2b", acc, msg, phase2b_receive, phase2b_send)),
      statecheck::invariants(statecheck::invariant("NoneChosen", [=](const State& s) {
        return expect_chosen || !chosen_by_some_quorum(s);
      })),
      statecheck::allow_deadlock);
}
// [choice-example-end]

/// Every message the model could send at `ballots` ballots and `values` values.
inline std::vector<Msg> all_messages(int ballots, int values) {
  std::vector<Msg> all;
  const auto i8 = [](int x) { return static_cast<std::int8_t>(x); };
  for (int b = 0; b < ballots; ++b) all.push_back({Type::p1a, 0, i8(b), -1, -1});
  for (int a = 0; a < acceptors; ++a)
    for (int b = 0; b < ballots; ++b)
      for (int mb = -1; mb < ballots; ++mb)
        for (int mv = -1; mv < values; ++mv) all.push_back({Type::p1b, i8(a), i8(b), i8(mb), i8(mv)});
  for (int b = 0; b < ballots; ++b)
    for (int v = 0; v < values; ++v) all.push_back({Type::p2a, 0, i8(b), -1, i8(v)});
  for (int a = 0; a < acceptors; ++a)
    for (int b = 0; b < ballots; ++b)
      for (int v = 0; v < values; ++v) all.push_back({Type::p2b, i8(a), i8(b), -1, i8(v)});
  return all;
}

/// The same spec before choice: Phase1b and Phase2b take a parameter over
/// all_messages and a guard that the message is present.
inline auto superset_spec(int ballots, int values) {
  const auto acc = statecheck::ids<AccTag>("a", acceptors);
  const auto b = statecheck::param("b", 0, ballots - 1);
  const auto v = statecheck::param("v", 0, values - 1);
  const auto q = statecheck::param("q", 0, quorums - 1);
  const auto msg = statecheck::param("m", all_messages(ballots, values));
  return statecheck::spec<State>(
      "paxos-superset", statecheck::init(init),
      statecheck::actions(
          statecheck::action("Phase1a", b, [](State& s, int bal) { s.msgs.insert({Type::p1a, 0, static_cast<std::int8_t>(bal), -1, -1}); }),
          statecheck::action(
              "Phase1b", acc, msg,
              [](const State& s, Acc a, const Msg& m) { return s.msgs.contains(m) && phase1b_receive(s, a, m); },
              phase1b_send),
          statecheck::action("Phase2a", b, v, q, phase2a_enabled,
                             [](State& s, int bal, int val, int) {
                               s.msgs.insert({Type::p2a, 0, static_cast<std::int8_t>(bal), -1, static_cast<std::int8_t>(val)});
                             }),
          statecheck::action(
              "Phase2b", acc, msg,
              [](const State& s, Acc a, const Msg& m) { return s.msgs.contains(m) && phase2b_receive(s, a, m); },
              phase2b_send)),
      statecheck::allow_deadlock);
}

}  // namespace paxos
