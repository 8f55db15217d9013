// The search on tiny fixture specs: deadlocks, goals, constraints, depth
// bounds, several initial states, spec exceptions, non-deterministic specs,
// the memory budget, property selection and stuttering steps.
#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>
#include <vector>

#include "support/check_helpers.hpp"
#include "support/fixture_specs.hpp"
#include "examples/two_phase.hpp"
#include "statecheck/statecheck.hpp"

using statecheck::Outcome;
using statecheck::Violation;

namespace {

using test::Counter;

/// x counts up to `limit` and then has nowhere to go.
template <bool DeadlockOk>
auto counter(int limit) {
  auto inc = statecheck::action(
      "Inc", [limit](const Counter& s) { return s.x < limit; }, [](Counter& s) { ++s.x; });
  auto reached = statecheck::reachable(statecheck::goal("Top", [limit](const Counter& s) { return s.x == limit; }));
  if constexpr (DeadlockOk)
    return statecheck::spec<Counter>("counter", statecheck::init([](Counter&) {}), statecheck::actions(inc), reached,
                                     statecheck::allow_deadlock);
  else
    return statecheck::spec<Counter>("counter", statecheck::init([](Counter&) {}), statecheck::actions(inc), reached);
}

using test::Grid;

int global_ticks = 0;  // read by a deliberately non-deterministic effect

}  // namespace

TEST_CASE("a state without successors is a deadlock, unless allowed", "[search]") {
  const auto r = test::check_all_threads(counter<false>(3));
  REQUIRE(r.outcome == Outcome::violation);
  REQUIRE(r.violation->kind == Violation::Kind::deadlock);
  REQUIRE(r.violation->length() == 3);
  REQUIRE(r.stats.distinct == 4);   // hand derivation: x = 0..3
  REQUIRE(r.stats.generated == 4);  // 1 initial + 3 successors
  REQUIRE(test::check_all_threads(counter<true>(3)).outcome == Outcome::ok);
  auto o = test::options(1);
  o.check_deadlock = false;
  REQUIRE(statecheck::check(counter<false>(3), o).outcome == Outcome::ok);
}

TEST_CASE("an unreachable goal is a violation; a reached one is not", "[search]") {
  const auto never = statecheck::spec<Counter>(
      "never", statecheck::init([](Counter&) {}),
      statecheck::actions(statecheck::action("Inc", [](const Counter& s) { return s.x < 2; }, [](Counter& s) { ++s.x; })),
      statecheck::reachable(statecheck::goal("Two", [](const Counter& s) { return s.x == 2; }),
                            statecheck::goal("Five", [](const Counter& s) { return s.x == 5; })),
      statecheck::allow_deadlock);
  const auto r = test::check_all_threads(never);
  REQUIRE(r.outcome == Outcome::violation);
  REQUIRE(r.violation->kind == Violation::Kind::goal);
  REQUIRE(r.violation->property == "Five");
  REQUIRE(r.violation->trace.empty());
}

TEST_CASE("constraint, depth bound and several initial states", "[search]") {
  const auto grid = statecheck::spec<Counter>(
      "grid",
      statecheck::init(statecheck::param("x0", 0, 3), [](Counter& s, int x0) {
        s.x = static_cast<std::uint8_t>(x0);
        return x0 % 2 == 0;  // initial x in {0, 2}
      }),
      statecheck::actions(statecheck::action("Right", [](Counter& s) { ++s.x; }),
                          statecheck::action("Up", [](Counter& s) { ++s.y; })),
      statecheck::constraint([](const Counter& s) { return s.x + s.y < 4; }));
  const auto r = test::check_all_threads(grid);
  REQUIRE(r.outcome == Outcome::ok);
  // Expanded: x + y < 4; kept: x + y <= 4, x >= x0, from (0,0) and (2,0).
  REQUIRE(r.stats.distinct == 15);
  REQUIRE(r.stats.level_sizes == std::vector<std::uint64_t>{2, 4, 5, 2, 2});
  auto o = test::options(2);
  o.max_depth = 2;
  const auto bounded = statecheck::check(grid, o);
  REQUIRE(bounded.depth_bounded);
  REQUIRE(bounded.stats.depth == 2);
  REQUIRE(bounded.stats.distinct == 6);  // hand derivation: the first two levels above, 2 + 4
}

TEST_CASE("an exception in spec code is reported with its action and trace", "[search]") {
  const auto faulty = statecheck::spec<Counter>(
      "faulty", statecheck::init([](Counter&) {}),
      statecheck::actions(statecheck::action("Inc", [](Counter& s) { ++s.x; }),
                          statecheck::action("Log", statecheck::param("slot", 0, 1),
                                             [](const Counter& s, int) { return s.x >= 2; },
                                             [](Counter& s, int slot) {
                                               statecheck::bounded_vec<std::uint8_t, 1> v{s.x};
                                               s.y = v.at(static_cast<std::size_t>(slot));  // slot 1 throws
                                             })));
  const auto r = test::check_all_threads(faulty);
  REQUIRE(r.outcome == Outcome::error);
  REQUIRE(r.error->where == "action Log(slot=1)");
  REQUIRE(r.error->message == "statecheck::bounded_vec: index out of range");
  REQUIRE(test::labels(r.error->trace) == std::vector<std::string>{"Inc", "Inc"});
}

TEST_CASE("replay exposes a non-deterministic spec", "[search]") {
  const auto flaky = statecheck::spec<Counter>(
      "flaky", statecheck::init([](Counter&) {}),
      statecheck::actions(statecheck::action("Tick", [](const Counter& s) { return s.x < 3; },
                                             [](Counter& s) {
                                               ++s.x;
                                               s.y = static_cast<std::uint8_t>(global_ticks++ % 7);
                                             })),
      statecheck::invariants(statecheck::invariant("Small", [](const Counter& s) { return s.x < 3; })));
  auto o = test::options(1);
  // The self-checks catch it first, on the initial state...
  const auto caught = statecheck::check(flaky, o);
  REQUIRE(caught.outcome == Outcome::error);
  REQUIRE(caught.error->where == "action Tick");
  // ...and without them, replaying the counterexample does.
  o.self_check_states = 0;
  const auto r = statecheck::check(flaky, o);
  REQUIRE(r.outcome == Outcome::error);
  REQUIRE(r.error->where == "replay");
  REQUIRE_THAT(r.error->message, Catch::StartsWith("the spec is not deterministic: on replay, step 1 (Tick)"));
}

TEST_CASE("a full visited set stops the search cleanly", "[search]") {
  // A 1024 x 1024 grid walked in narrow diagonal levels: the levels are small,
  // so the 2^20-slot visited set (8 MiB) is what --memory 12M cannot grow.
  const auto grid = statecheck::spec<Grid>(
      "grid", statecheck::init([](Grid&) {}),
      statecheck::actions(statecheck::action("Right", [](const Grid& s) { return s.x < 1023; }, [](Grid& s) { ++s.x; }),
                          statecheck::action("Up", [](const Grid& s) { return s.y < 1023; }, [](Grid& s) { ++s.y; })),
      statecheck::allow_deadlock);
  auto o = test::options(2);
  o.memory = std::size_t{12} << 20;
  const auto r = statecheck::check(grid, o);
  REQUIRE(r.outcome == Outcome::limit);
  REQUIRE_THAT(r.limit_message, Catch::StartsWith("the visited set is full"));
  REQUIRE(r.stats.distinct <= 996147);         // 0.95 of 2^20 (VisitedSet::hold_load)
  REQUIRE(r.stats.distinct > 996147 - 1024);  // a diagonal level holds at most 1024 states
  REQUIRE(r.stats.memory_peak <= o.memory);
}

TEST_CASE("levels that outgrow --memory stop the search cleanly", "[search]") {
  auto o = test::options(2);
  o.memory = std::size_t{12} << 20;  // the visited set takes 8 MiB of it
  const auto r = statecheck::check(examples::two_phase::make_spec({8}), o);
  REQUIRE(r.outcome == Outcome::limit);
  REQUIRE_THAT(r.limit_message, Catch::Contains("more than --memory 12 MiB") && Catch::EndsWith("raise --memory"));
  REQUIRE(r.stats.depth >= 4);
}

TEST_CASE("only the named invariants are checked; unknown names are refused", "[search]") {
  const auto two = statecheck::spec<Counter>(
      "two", statecheck::init([](Counter&) {}),
      statecheck::actions(statecheck::action("Inc", [](const Counter& s) { return s.x < 5; }, [](Counter& s) { ++s.x; })),
      statecheck::invariants(statecheck::invariant("BelowFour", [](const Counter& s) { return s.x < 4; }),
                             statecheck::invariant("BelowTwo", [](const Counter& s) { return s.x < 2; })),
      statecheck::allow_deadlock);
  const auto both = test::check_all_threads(two);
  REQUIRE(both.violation->property == "BelowTwo");
  REQUIRE(both.violation->length() == 2);
  auto o = test::options(2);
  o.invariants = {"BelowFour"};
  const auto one = statecheck::check(two, o);
  REQUIRE(one.violation->property == "BelowFour");
  REQUIRE(one.violation->length() == 4);
  o.invariants = {"Nope"};
  REQUIRE_THROWS_AS(statecheck::check(two, o), statecheck::config_error);
}

TEST_CASE("when(false, action) leaves an action out of the configuration", "[search]") {
  for (const bool with_jump : {false, true}) {
    const auto spec = statecheck::spec<Counter>(
        "optional", statecheck::init([](Counter&) {}),
        statecheck::actions(
            statecheck::action("Inc", [](const Counter& s) { return s.x < 4; }, [](Counter& s) { ++s.x; }),
            statecheck::when(with_jump, statecheck::action("Jump", statecheck::param("to", 3, 4),
                                                           [](const Counter& s, int) { return s.x == 0; },
                                                           [](Counter& s, int to) { s.x = static_cast<std::uint8_t>(to); })),
            statecheck::action("Reset", [](const Counter& s) { return s.x == 4; }, [](Counter& s) { s.x = 0; })),
        statecheck::invariants(statecheck::invariant("BelowFour", [](const Counter& s) { return s.x < 4; })));
    const auto r = test::check_all_threads(spec);
    REQUIRE(r.violation->length() == (with_jump ? 1u : 4u));
    REQUIRE(test::labels(r.violation->trace).back() == (with_jump ? "Jump(to=4)" : "Inc"));
    REQUIRE(r.stats.transition_enabled.size() == (with_jump ? 4u : 2u));
  }
}

TEST_CASE("more initial states than the level table's first 4096 slots", "[search]") {
  // Was: the 4097th initial state probed the full table for ever (and Ctrl-C
  // was not seen); found by the tlaplus/Examples CoffeeCan model (5150 initial
  // states).
  const auto wide = statecheck::spec<test::Grid>(
      "wide-init",
      statecheck::init(statecheck::param("x0", 0, 199), statecheck::param("y0", 0, 99),
                       [](test::Grid& s, int x0, int y0) {
                         s.x = static_cast<std::uint16_t>(x0);
                         s.y = static_cast<std::uint16_t>(y0);
                         return (x0 + y0) % 2 == 0;
                       }),
      statecheck::actions(statecheck::action(
          "Up", [](const test::Grid& s) { return s.y < 100; }, [](test::Grid& s) { ++s.y; })),
      statecheck::allow_deadlock);
  for (const bool exact : {false, true}) {
    auto o = test::options(1);
    o.exact = exact;
    const auto r = test::check_all_threads(wide, o);
    REQUIRE(r.outcome == Outcome::ok);
    // Hand count. Level 1: x in 0..199, y in 0..99, x + y even: 10,000 states.
    // Level 2: Up maps each to (x, y + 1), x + y odd: 10,000 new states (100 of
    // them at y = 100, x odd). Level 3: from a level-2 state with y < 99 Up
    // reaches level 1 again; from (x, 99), x even, it reaches (x, 100): 100 new.
    REQUIRE(r.stats.level_sizes == std::vector<std::uint64_t>{10000, 10000, 100});
    REQUIRE(r.stats.distinct == 20100);
  }
}

namespace {

/// A byte and a 32-bit word: padding between them, so fingerprints hash the
/// encoding, not the raw bytes (the other fixture states are raw).
struct Padded {
  BOOST_HANA_DEFINE_STRUCT(Padded, (std::uint8_t, x), (std::uint32_t, y));
  friend bool operator==(const Padded&, const Padded&) = default;
};

/// x counts up to 3; Stay (at 3) and Touch (anywhere) change nothing, and Jump
/// goes back to 0 from 2: stuttering steps and a real step back.
template <class State>
auto stutters() {
  return statecheck::spec<State>(
      "stutters", statecheck::init([](State&) {}),
      statecheck::actions(
          statecheck::action("Inc", [](const State& s) { return s.x < 3; }, [](State& s) { ++s.x; }),
          statecheck::action("Stay", [](const State& s) { return s.x == 3; }, [](State&) {}),
          statecheck::action("Touch", [](const State&) { return true; }, [](State& s) { s.y = s.y; }),
          statecheck::action("Jump", [](const State& s) { return s.x == 2; }, [](State& s) { s.x = 0; })),
      statecheck::reachable(statecheck::goal("Top", [](const State& s) { return s.x == 3; })));
}

template <class State>
void require_stutter_counts(bool exact) {
  auto o = test::options(1);
  o.exact = exact;
  const auto r = test::check_all_threads(stutters<State>(), o);
  // x = 3 has only stuttering steps (Stay, Touch): successors all the same, so no deadlock.
  REQUIRE(r.outcome == Outcome::ok);
  REQUIRE(r.stats.distinct == 4);  // x = 0..3
  REQUIRE(r.stats.depth == 4);
  // Hand count: 1 initial; Inc 3, Touch 4 (one per state), Stay 1, Jump 1.
  REQUIRE(r.stats.generated == 10);
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> want{{3, 3}, {1, 0}, {4, 0}, {1, 0}};  // enabled, new
  REQUIRE(r.stats.actions.size() == want.size());
  for (std::size_t a = 0; a < want.size(); ++a) {
    INFO(r.stats.actions[a].name);
    REQUIRE(r.stats.actions[a].enabled == want[a].first);
    REQUIRE(r.stats.actions[a].new_states == want[a].second);
  }
}

}  // namespace

TEST_CASE("stuttering steps count as generated successors and never as new states", "[search]") {
  // The search skips the lookup of a successor equal to the state it came
  // from (Model::expand); counts, coverage and deadlocks must not notice.
  for (const bool exact : {false, true}) {
    require_stutter_counts<Counter>(exact);  // raw bytes compared
    require_stutter_counts<Padded>(exact);   // encodings compared
  }
}
