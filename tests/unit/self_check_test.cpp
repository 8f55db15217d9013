// The spec self-checks (--self-check): specs that break the checker's
// assumptions are reported as errors naming the action or property, with the
// trace to the state where it showed; sound specs pass and say how many states
// were checked.
#include <catch2/catch.hpp>
#include <memory>
#include <vector>

#include "search/self_check_plan.hpp"
#include "support/check_helpers.hpp"
#include "statecheck/statecheck.hpp"

namespace {

using statecheck::action;
using statecheck::actions;
using statecheck::init;
using statecheck::invariant;
using statecheck::invariants;

struct Counter {
  BOOST_HANA_DEFINE_STRUCT(Counter, (int, x), (int, ghost));
  friend bool operator==(const Counter&, const Counter&) = default;
};

/// `ghost` is not part of the state's identity for operator==, but the raw
/// bytes (the fingerprint) include it.
struct Forgetful {
  BOOST_HANA_DEFINE_STRUCT(Forgetful, (int, x), (int, ghost));
  friend bool operator==(const Forgetful& a, const Forgetful& b) { return a.x == b.x; }
};

auto step_to(int limit) {
  return action("Inc", [limit](const Counter& s) { return s.x < limit; }, [](Counter& s) { ++s.x; });
}

/// Jump writes a call counter into the state: the same state, another successor.
auto hidden_counter(std::shared_ptr<int> calls) {
  return statecheck::spec<Counter>(
      "hidden-counter", init([](Counter&) {}),
      actions(step_to(3), action("Jump", [](const Counter& s) { return s.x == 1; },
                                 [calls](Counter& s) { s.ghost = ++*calls % 2; })),
      statecheck::allow_deadlock);
}

statecheck::CheckResult run(const auto& spec, unsigned threads = 1) {
  statecheck::CheckOptions o = test::options(threads);
  return statecheck::check(spec, o);
}

}  // namespace

TEST_CASE("self-check: an effect that depends on hidden mutable data is not deterministic", "[self-check]") {
  auto calls = std::make_shared<int>(0);
  const auto spec = hidden_counter(calls);
  for (unsigned threads : {1u, 4u}) {
    *calls = 0;
    const statecheck::CheckResult r = run(spec, threads);
    REQUIRE(r.outcome == statecheck::Outcome::error);
    REQUIRE(r.error->where == "action Jump");
    REQUIRE_THAT(r.error->message, Catch::Contains("applied twice to the same state it gives different successors") &&
                                       Catch::Contains("ghost: 0 vs 1"));  // the enumeration set 1, the steps 0 then 1
    REQUIRE(test::labels(r.error->trace) == std::vector<std::string>{"Inc"});  // the state where it showed
  }
}

TEST_CASE("self-check: an invariant with hidden state is not pure", "[self-check]") {
  auto calls = std::make_shared<int>(0);
  const auto spec = statecheck::spec<Counter>(
      "moody-invariant", init([](Counter&) {}), actions(step_to(3)),
      invariants(invariant("Moody", [calls](const Counter&) { return ++*calls % 2 == 1; })), statecheck::allow_deadlock);
  const statecheck::CheckResult r = run(spec);
  REQUIRE(r.outcome == statecheck::Outcome::error);
  REQUIRE(r.error->where == "invariant Moody");
  REQUIRE_THAT(r.error->message, Catch::Contains("pure function"));
  REQUIRE(r.error->trace.size() == 1);
}

TEST_CASE("self-check: operator== that ignores a field the fingerprint includes", "[self-check]") {
  const auto spec = statecheck::spec<Forgetful>(
      "forgetful", init([](Forgetful&) {}),
      actions(action("Touch", [](const Forgetful& s) { return s.ghost < 2; }, [](Forgetful& s) { ++s.ghost; })),
      statecheck::allow_deadlock);
  const statecheck::CheckResult r = run(spec);
  REQUIRE(r.outcome == statecheck::Outcome::error);
  REQUIRE(r.error->where == "action Touch");
  REQUIRE_THAT(r.error->message, Catch::Contains("a successor equal to its state has a different fingerprint"));
}

TEST_CASE("self-check: sound specs pass, on at most the states asked for", "[self-check]") {
  const auto spec = statecheck::spec<Counter>("sound", init([](Counter&) {}), actions(step_to(50)),
                                              statecheck::allow_deadlock);
  statecheck::CheckOptions o = test::options(2);
  statecheck::CheckResult r = statecheck::check(spec, o);
  test::require_ok(r, 51, 51, 51);  // hand derivation: a chain 0..50, one successor each
  REQUIRE(r.stats.self_checked == 51);
  REQUIRE(r.stats.self_checked_by_depth == std::vector<std::uint64_t>(51, 1));
  // The first 10 states, then a sample of every later level: each holds one state here.
  o.self_check_states = 10;
  r = statecheck::check(spec, o);
  REQUIRE(r.stats.self_checked == 51);
  REQUIRE(r.stats.self_checked_by_depth == std::vector<std::uint64_t>(51, 1));
  o.self_check_states = 0;
  r = statecheck::check(spec, o);
  REQUIRE(r.stats.self_checked == 0);
  REQUIRE(r.stats.self_checked_by_depth.empty());
  test::require_ok(r, 51, 51, 51);
}

namespace {
std::vector<std::uint64_t> selected(const statecheck::detail::SelfCheckPlan& plan, std::uint64_t level_states) {
  std::vector<std::uint64_t> out;
  for (std::uint64_t r = 0; r < level_states; ++r)
    if (plan.selected(r)) out.push_back(r);
  return out;
}
}  // namespace

TEST_CASE("self-check plan: the run's first states, then one in 1,000 of every level, evenly spread", "[self-check]") {
  using statecheck::detail::SelfCheckPlan;
  // A level of 5,000 while the budget of 1,000 is unspent: its first 1,000, then 4 of the other 4,000.
  const SelfCheckPlan first(1000, 0, 5000);
  std::vector<std::uint64_t> want(1000);
  for (std::uint64_t r = 0; r < 1000; ++r) want[r] = r;
  for (const std::uint64_t r : {1000, 2000, 3000, 4000}) want.push_back(r);
  REQUIRE(selected(first, 5000) == want);
  REQUIRE(first.total() == 1004);
  REQUIRE(first.end() == 4001);
  REQUIRE(first.count_below(1500) == 1001);  // a failure at rank 1500: 1,001 states passed before it
  REQUIRE(first.count_below(4001) == 1004);
  // Budget spent: a small level still gets one state, a large one at most the budget, strided.
  REQUIRE(selected(SelfCheckPlan(1000, 1000, 999), 999) == std::vector<std::uint64_t>{0});
  const SelfCheckPlan large(1000, 5000, 10'000'000);
  REQUIRE(large.total() == 1000);
  REQUIRE(large.selected(0));
  REQUIRE(large.selected(9'990'000));
  REQUIRE(!large.selected(5000));
  REQUIRE(large.end() == 9'990'001);
  // Part of the budget left: the rest of it, then a sample of what follows.
  REQUIRE(selected(SelfCheckPlan(1000, 990, 3000), 3000) ==
          std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 1006, 2002});
  // all: every state; 0: none.
  REQUIRE(SelfCheckPlan(SelfCheckPlan::all, 123, 77).total() == 77);
  REQUIRE(selected(SelfCheckPlan(0, 0, 50), 50).empty());
}

TEST_CASE("self-check: off, a non-deterministic spec is only caught if a trace replays through it", "[self-check]") {
  auto calls = std::make_shared<int>(0);
  const auto spec = hidden_counter(calls);
  statecheck::CheckOptions o = test::options(1);
  o.self_check_states = 0;
  const statecheck::CheckResult r = statecheck::check(spec, o);
  INFO(r.limit_message);
  REQUIRE(r.outcome == statecheck::Outcome::ok);
}
