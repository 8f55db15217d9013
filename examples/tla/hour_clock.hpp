// HourClock: the first specification of Lamport's "Specifying Systems" (chapter
// 2), a clock that shows the hour and ticks. Every hour is an initial state, so
// TLC's depth is 1.
//
// Source: tlaplus/Examples, specifications/SpecifyingSystems/HourClock/HourClock.tla
// with HourClock.cfg, and HourClock2.tla with HourClock2.cfg (HCnxt2 == hr' =
// (hr % 12) + 1, the same next-state relation written with %). Neither cfg is in
// the index this was written from; HCini, the spec's type invariant, is checked
// here, and the deadlock check is on (a clock always ticks). Pinned in
// tests/specs/tla_corpus_test.cpp to TLC's published counts in
// specifications/SpecifyingSystems/manifest.json: both distinctStates 12,
// totalStates 24, stateDepth 1.
//
// TLA+ -> DSL:
//   HCini == hr \in (1 .. 12)             init over the parameter hr = 1..12
//   HCnxt == hr' = IF hr # 12 THEN hr + 1 ELSE 1
//                                         the action Tick (or, with --set modulo=true,
//                                         HourClock2's (hr % 12) + 1)
//   HCini as a state predicate            the invariant HCini
#pragma once

#include <statecheck/statecheck.hpp>

namespace examples::tla::hour_clock {

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, hr));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  bool modulo = false;  // true: HourClock2's HCnxt2
};

inline const auto config = statecheck::constants<Config>(
    statecheck::boolean("modulo", &Config::modulo, "tick as HourClock2 writes it, hr' = (hr % 12) + 1"));

inline auto make_spec(const Config& c) {
  const auto hour = statecheck::param("hr", 1, 12);
  return statecheck::spec<State>(
      "tla-hour-clock", statecheck::init(hour, [](State& s, int h) { s.hr = h; }),
      statecheck::actions(statecheck::action("Tick", [modulo = c.modulo](State& s) {
        if (modulo) s.hr = (s.hr % 12) + 1;
        else s.hr = s.hr != 12 ? s.hr + 1 : 1;
      })),
      statecheck::invariants(
          statecheck::invariant("HCini", [](const State& s) { return s.hr >= 1 && s.hr <= 12; })));
}

}  // namespace examples::tla::hour_clock
