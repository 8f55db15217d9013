// SimpleRegular: the algorithm of TeachingConcurrency's Simple with regular
// registers (Yuri Abraham's variant): a write of x[self] first makes the register
// hold {0, 1}, then {1}, and a read may return any value the register holds.
//
// Source: tlaplus/Examples, specifications/TeachingConcurrency/SimpleRegular.tla
// (the PlusCal algorithm's TLA+ translation) with SimpleRegular.cfg: N = 8,
// INVARIANTS PCorrect TypeOK Inv. Pinned in tests/specs/tla_corpus_test.cpp to
// TLC's published counts in specifications/TeachingConcurrency/manifest.json
// (distinctStates 277726, totalStates 1454776, stateDepth 25).
//
// TLA+ -> DSL (see teaching_simple.hpp for what the two share):
//   x \in [0..N-1 -> SUBSET {0, 1}]       bounded_vec<id_set<2>, 8>: a register is a set of
//                                         the values 0 and 1, printed {0, 1}
//   a1(self), a2(self)                    actions A1, A2
//   b(self): \E v \in x[(self-1) % N] : y' = [y EXCEPT ![self] = v]
//                                         the action B over self with a choice (each) of
//                                         v among the values x[left(self)] holds: one
//                                         successor per value, as TLC counts them
//   Terminating (all Done /\ UNCHANGED)   an action with an empty effect (a counted stutter)
//   PCorrect, TypeOK, Inv                 three invariants
#pragma once

#include <cstdint>
#include <statecheck/statecheck.hpp>
#include <string_view>

namespace examples::tla::teaching_simple_regular {

struct Proc {
  static constexpr std::string_view prefix = "p";
  static constexpr int first = 0;  // the TLA+ processes are 0..N-1
};
using ProcId = statecheck::id<Proc>;

STATECHECK_ENUM(Pc, a1, a2, b, Done);

inline constexpr int max_procs = 8;
using Register = statecheck::id_set<2>;  // a regular register: the values a read may return

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (statecheck::bounded_vec<Register, max_procs>, x),
                           (statecheck::bounded_vec<std::uint8_t, max_procs>, y),
                           (statecheck::bounded_vec<Pc, max_procs>, pc));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int n = 8;  // SimpleRegular.cfg: N = 8
};

inline const auto config =
    statecheck::constants<Config>(statecheck::integer("n", &Config::n, 1, max_procs, "number of processes (N)"));

inline bool all_done(const State& s) {
  for (Pc p : s.pc)
    if (p != Pc::Done) return false;
  return true;
}

inline bool pcorrect(const State& s) { return !all_done(s) || s.y.contains(std::uint8_t{1}); }

inline auto make_spec(const Config& c) {
  const int n = c.n;
  const auto self = statecheck::ids<Proc>("self", n);
  const auto left = [n](ProcId p) { return static_cast<std::size_t>((p.index() + n - 1) % n); };
  return statecheck::spec<State>(
      "tla-teaching-simple-regular",
      statecheck::init([n](State& s) {
        for (int i = 0; i < n; ++i) {
          s.x.push_back(Register{0});
          s.y.push_back(0);
          s.pc.push_back(Pc::a1);
        }
      }),
      statecheck::actions(
          statecheck::action(
              "A1", self, [](const State& s, ProcId p) { return s.pc[p] == Pc::a1; },
              [](State& s, ProcId p) {
                s.x[p] = Register{0, 1};
                s.pc[p] = Pc::a2;
              }),
          statecheck::action(
              "A2", self, [](const State& s, ProcId p) { return s.pc[p] == Pc::a2; },
              [](State& s, ProcId p) {
                s.x[p] = Register{1};
                s.pc[p] = Pc::b;
              }),
          // \E v \in x[(self-1) % N]: one witness per value the register may return (a choice).
          statecheck::action(
              "B", self,
              statecheck::each<int>("v", 2,
                                    [left](const State& s, auto&& emit, ProcId p) { s.x[left(p)].for_each(emit); }),
              [](const State& s, ProcId p, int) { return s.pc[p] == Pc::b; },
              [](State& s, ProcId p, int v) {
                s.y[p] = static_cast<std::uint8_t>(v);
                s.pc[p] = Pc::Done;
              }),
          statecheck::action("Terminating", all_done, [](State&) {})),
      statecheck::invariants(
          statecheck::invariant("PCorrect", pcorrect),
          statecheck::invariant("TypeOK",
                                [](const State& s) {
                                  for (int i = 0; i < s.x.size(); ++i)
                                    if (s.x[i].empty() || s.y[i] > 1) return false;
                                  return true;
                                }),
          // Inv, less TypeOK (checked above).
          statecheck::invariant("Inv", [](const State& s) {
            for (int i = 0; i < s.pc.size(); ++i)
              if ((s.pc[i] == Pc::b || s.pc[i] == Pc::Done) && s.x[i] != Register{1}) return false;
            return pcorrect(s);
          })));
}

}  // namespace examples::tla::teaching_simple_regular
