// A small timed spec: a watchdog that must be kicked within
// `kick_within` (a deadline) and is kicked at most three times, beside an
// uptime clock of another kind compared only with `uptime` (a goal), so that
// the two kinds are capped at different bounds. Once the watchdog is broken,
// or has had its three kicks, time runs into the deadline with no action
// enabled: a timelock, unless the spec allows it.
#pragma once

#include <chrono>
#include <cstdint>
#include <statecheck/statecheck.hpp>

namespace examples::watchdog {

using namespace std::chrono_literals;

struct Kick {};
struct Up {};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (bool, broken), (std::uint8_t, kicks), (statecheck::clock<Kick>, since_kick),
                           (statecheck::clock<Up>, up));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  statecheck::duration kick_within = 3s;
  statecheck::duration uptime = 7s;
  statecheck::duration unit = 1s;
  bool allow_timelock = false;
};

inline const auto config = statecheck::constants<Config>(
    statecheck::duration_constant("kick_within", &Config::kick_within, 1s, 1h, "the watchdog is kicked within this"),
    statecheck::duration_constant("uptime", &Config::uptime, 1s, 1h, "the uptime the goal LongUp asks for"),
    statecheck::duration_constant("unit", &Config::unit, 1ms, 1h, "the time unit clocks count in"),
    statecheck::boolean("allow_timelock", &Config::allow_timelock, "a stopped watchdog is expected: no timelock"));

inline auto make_spec(const Config& cfg) {
  statecheck::timing time(cfg.unit);
  const auto kick_within = time.bound<Kick>("kick_within", cfg.kick_within);
  const auto uptime = time.bound<Up>("uptime", cfg.uptime);
  const auto init = statecheck::init([](State& s) {
    s.since_kick.reset();
    s.up.reset();
  });
  const auto actions = statecheck::actions(
      statecheck::action("Kick", [](const State& s) { return !s.broken && s.kicks < 3; },
                         [](State& s) {
                           s.since_kick.reset();
                           ++s.kicks;
                         }),
      statecheck::action("Break", [](const State& s) { return !s.broken; }, [](State& s) { s.broken = true; }));
  const auto goals =
      statecheck::reachable(statecheck::goal("LongUp", [uptime](const State& s) { return s.up >= uptime; }));
  const auto deadlines = statecheck::deadlines(
      statecheck::deadline("KickInTime", [kick_within](const State& s) { return s.since_kick <= kick_within; }));
  // One spec type either way: allowing timelocks is a flag of the spec, not a type.
  return cfg.allow_timelock ? statecheck::spec<State>("watchdog", init, actions, goals, time, deadlines,
                                                      statecheck::allow_timelock)
                            : statecheck::spec<State>("watchdog", init, actions, goals, time, deadlines);
}

}  // namespace examples::watchdog
