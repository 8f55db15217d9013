// Simple: the two-line algorithm of Lamport's "Teaching Concurrency" (N processes
// on a ring; each sets x[self] := 1, then y[self] := x[self - 1]). When all are
// done, some y[i] = 1.
//
// Source: tlaplus/Examples, specifications/TeachingConcurrency/Simple.tla (the
// PlusCal algorithm's TLA+ translation) with Simple.cfg: N = 5, INVARIANTS PCorrect
// TypeOK Inv. Pinned in tests/specs/tla_corpus_test.cpp to TLC's published counts
// in specifications/TeachingConcurrency/manifest.json (distinctStates 723,
// totalStates 1842, stateDepth 11).
//
// TLA+ -> DSL:
//   process (proc \in 0..N-1)             named ids ProcId (prefix "p", numbered from 0 like
//                                         the TLA+ processes), parameter ids<Proc>("self", n)
//   x, y \in [0..N-1 -> {0, 1}]           bounded_vec<std::uint8_t, 8> each, indexed by ProcId
//   pc \in [0..N-1 -> {"a", "b", "Done"}] bounded_vec<Pc, 8> of a STATECHECK_ENUM
//   a(self), b(self)                      actions A and B over `self`; the guard is the pc test
//   x[(self-1) % N]                       x[left(self)]: TLA+'s % is never negative
//   the disjunct "all Done /\ UNCHANGED vars" (PlusCal's guard against deadlock)
//                                         the action Terminating with an empty effect: one
//                                         stuttering successor, which TLC counts as generated
//   PCorrect, TypeOK, Inv                 three invariants (TypeOK checks the 0/1 range the
//                                         member type does not enforce)
#pragma once

#include <cstdint>
#include <statecheck/statecheck.hpp>
#include <string_view>

namespace examples::tla::teaching_simple {

struct Proc {
  static constexpr std::string_view prefix = "p";
  static constexpr int first = 0;  // the TLA+ processes are 0..N-1
};
using ProcId = statecheck::id<Proc>;

STATECHECK_ENUM(Pc, a, b, Done);

inline constexpr int max_procs = 8;

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::bounded_vec<std::uint8_t, max_procs>, x),
                           (statecheck::bounded_vec<std::uint8_t, max_procs>, y),
                           (statecheck::bounded_vec<Pc, max_procs>, pc));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int n = 5;  // Simple.cfg: N = 5
};

inline const auto config =
    statecheck::constants<Config>(statecheck::integer("n", &Config::n, 1, max_procs, "number of processes (N)"));

inline bool all_done(const State& s) {
  for (Pc p : s.pc)
    if (p != Pc::Done) return false;
  return true;
}

inline bool some_y_is_one(const State& s) { return s.y.contains(std::uint8_t{1}); }

inline auto make_spec(const Config& c) {
  const int n = c.n;
  const auto self = statecheck::ids<Proc>("self", n);
  // (self - 1) % N as TLA+ computes it: in 0..N-1.
  const auto left = [n](ProcId p) { return static_cast<std::size_t>((p.index() + n - 1) % n); };
  return statecheck::spec<State>(
      "tla-teaching-simple",
      statecheck::init([n](State& s) {
        for (int i = 0; i < n; ++i) {
          s.x.push_back(0);
          s.y.push_back(0);
          s.pc.push_back(Pc::a);
        }
      }),
      statecheck::actions(
          statecheck::action(
              "A", self, [](const State& s, ProcId p) { return s.pc[p] == Pc::a; },
              [](State& s, ProcId p) {
                s.x[p] = 1;
                s.pc[p] = Pc::b;
              }),
          statecheck::action(
              "B", self, [](const State& s, ProcId p) { return s.pc[p] == Pc::b; },
              [left](const State& before, State& after, ProcId p) {
                after.y[p] = before.x[left(p)];
                after.pc[p] = Pc::Done;
              }),
          statecheck::action("Terminating", all_done, [](State&) {})),
      statecheck::invariants(
          statecheck::invariant("PCorrect", [](const State& s) { return !all_done(s) || some_y_is_one(s); }),
          statecheck::invariant("TypeOK",
                                [](const State& s) {
                                  for (int i = 0; i < s.x.size(); ++i)
                                    if (s.x[i] > 1 || s.y[i] > 1) return false;
                                  return true;
                                }),
          // Inv, less TypeOK (checked above): a process past `a` has set its x, and
          // while all are done some y is 1.
          statecheck::invariant("Inv", [](const State& s) {
            for (int i = 0; i < s.pc.size(); ++i)
              if (s.pc[i] != Pc::a && s.x[i] != 1) return false;
            return !all_done(s) || some_y_is_one(s);
          })));
}

}  // namespace examples::tla::teaching_simple
