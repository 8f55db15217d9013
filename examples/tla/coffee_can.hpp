// The coffee can problem (Scholten, via Dijkstra and Gries): draw two beans; two
// of one colour are replaced by a black one, a black and a white by the white one.
// Every initial can with 1..MaxBeanCount beans is an initial state, so every
// reachable can is initial too: TLC's depth is 1.
//
// Source: tlaplus/Examples, specifications/CoffeeCan/CoffeeCan.tla (Andrew Helwer)
// with CoffeeCan100Beans.cfg and CoffeeCan1000Beans.cfg (MaxBeanCount = 100 and
// 1000, as the names say; the index this was written from holds neither cfg, and
// 5150 = 101*102/2 - 1 initial cans confirms 100). Pinned in
// tests/specs/tla_corpus_test.cpp to TLC's published counts in
// specifications/CoffeeCan/manifest.json: 100 beans 5150 distinct / 20002
// generated / depth 1; 1000 beans 501500 / 2000002 / 1. The cfgs' temporal
// properties (termination, the action properties) have no statecheck counterpart
// and are left out; they do not change the counts.
//
// TLA+ -> DSL:
//   can \in [black: 0..Max, white: 0..Max] the state's two members
//   Init == can \in {c \in Can : c.black + c.white \in 1..Max}
//                                         init over the parameters black and white whose
//                                         function returns false for the cans it filters out
//                                         (those are not initial states, and TLC does not
//                                         count them as generated either)
//   the four disjuncts of Next            four actions, in Next's order
//   Termination == BeanCount = 1 /\ UNCHANGED can
//                                         an action with an empty effect: a stuttering
//                                         successor, counted as generated as TLC does
//   TypeInvariant                         an invariant (the members are plain ints)
//
// This model found an engine bug: more than 4096 distinct initial states never
// finished the initial level (the level table was not grown for them); fixed,
// and tests/unit/search_test.cpp holds the regression test.
// Any max_beans is checked against a hand derivation that TLC's two published
// configs confirm: (M+1)(M+2)/2 - 1 initial cans, and from the cans of n >= 2
// beans three picks each, n - 1 of each kind enabled, 3 M (M - 1) / 2 in all,
// plus the 2 one-bean cans' Termination steps.
#pragma once

#include <statecheck/statecheck.hpp>

namespace examples::tla::coffee_can {

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, black), (int, white));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int max_beans = 100;  // CoffeeCan100Beans.cfg
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("max_beans", &Config::max_beans, 1, 2000, "beans a can holds at most (MaxBeanCount)"));

inline int bean_count(const State& s) { return s.black + s.white; }

inline auto make_spec(const Config& c) {
  const int max = c.max_beans;
  const auto black = statecheck::param("black", 0, max);
  const auto white = statecheck::param("white", 0, max);
  return statecheck::spec<State>(
      "tla-coffee-can",
      statecheck::init(black, white,
                       [max](State& s, int b, int w) {
                         s.black = b;
                         s.white = w;
                         return bean_count(s) >= 1 && bean_count(s) <= max;
                       }),
      statecheck::actions(
          statecheck::action(
              "PickSameColorWhite", [](const State& s) { return bean_count(s) > 1 && s.white >= 2; },
              [](State& s) {
                s.black += 1;
                s.white -= 2;
              }),
          statecheck::action(
              "PickSameColorBlack", [](const State& s) { return bean_count(s) > 1 && s.black >= 2; },
              [](State& s) { s.black -= 1; }),
          statecheck::action(
              "PickDifferentColor",
              [](const State& s) { return bean_count(s) > 1 && s.black >= 1 && s.white >= 1; },
              [](State& s) { s.black -= 1; }),
          statecheck::action(
              "Termination", [](const State& s) { return bean_count(s) == 1; }, [](State&) {})),
      statecheck::invariants(statecheck::invariant("TypeInvariant", [max](const State& s) {
        return s.black >= 0 && s.black <= max && s.white >= 0 && s.white <= max;
      })));
}

}  // namespace examples::tla::coffee_can
