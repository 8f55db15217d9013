// A one-spec checker built with statecheck_add_checker, whose effect throws
// once the counter reaches `crash_at`: the CLI must report it (exit 3) with
// the trace, never crash. With `flaky_at`, the effect from the state n = flaky_at
// is not a function of the state (a hidden counter): the self-checks must say so.
#include <atomic>
#include <stdexcept>
#include <statecheck/statecheck.hpp>

namespace {

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, n));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int crash_at = 2;
  bool safe = false;
  int flaky_at = 0;
};

const auto config = statecheck::constants<Config>(
    statecheck::integer("crash_at", &Config::crash_at, 1, 100, "value at which Step throws"),
    statecheck::boolean("safe", &Config::safe, "never throw"),
    statecheck::integer("flaky_at", &Config::flaky_at, 0, 100, "value from which Step is not deterministic (0: none)"));

auto make_spec(const Config& c) {
  return statecheck::spec<State>(
      "faulty", statecheck::init([](State&) {}),
      statecheck::actions(statecheck::action(
          "Step", statecheck::param("by", 1, 2), [](const State& s, int) { return s.n < 10; },
          [c](State& s, int by) {
            if (!c.safe && s.n + by == c.crash_at) throw std::runtime_error("counter hit crash_at");
            static std::atomic<int> flips{0};  // what a deterministic effect must not read
            s.n += by + (c.flaky_at != 0 && s.n == c.flaky_at ? flips.fetch_add(1) % 2 : 0);
          })),
      statecheck::allow_deadlock);
}

}  // namespace

STATECHECK_REGISTER(faulty, "a spec whose effect throws", config, make_spec);
