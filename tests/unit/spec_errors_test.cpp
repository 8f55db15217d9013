// Spec-author mistakes the search must report, never mistake for a verdict:
// init or a property that throws, an init that accepts no state, and more
// invariants than the 64-bit selection mask holds.
#include <catch2/catch.hpp>
#include <array>
#include <stdexcept>
#include <string>
#include <utility>

#include "statecheck/statecheck.hpp"
#include "support/check_helpers.hpp"
#include "support/fixture_specs.hpp"

using statecheck::Outcome;
using test::Counter;

namespace {

auto climb() {
  return statecheck::action("Inc", [](const Counter& s) { return s.x < 3; }, [](Counter& s) { ++s.x; });
}

/// `count` invariants Inv0, Inv1, ...; InvK fails when x reaches K + 1 (x climbs to 200).
template <std::size_t... K>
auto many_invariants(std::index_sequence<K...>) {
  static const std::array<std::string, sizeof...(K)> names{("Inv" + std::to_string(K))...};
  return statecheck::spec<Counter>(
      "many", statecheck::init([](Counter&) {}),
      statecheck::actions(
          statecheck::action("Inc", [](const Counter& s) { return s.x < 200; }, [](Counter& s) { ++s.x; })),
      statecheck::invariants(statecheck::invariant(names[K], [](const Counter& s) { return s.x != K + 1; })...),
      statecheck::allow_deadlock);
}

}  // namespace

TEST_CASE("spec errors: an init that throws is an error naming init, whatever the threads", "[spec-errors]") {
  const auto spec = statecheck::spec<Counter>(
      "bad-init", statecheck::init(statecheck::param("x0", 0, 2), [](Counter& s, int x0) {
        if (x0 == 1) throw std::runtime_error("no such start");
        s.x = static_cast<std::uint8_t>(x0);
      }),
      statecheck::actions(climb()), statecheck::allow_deadlock);
  const auto r = test::check_all_threads(spec);
  REQUIRE(r.outcome == Outcome::error);
  REQUIRE(r.error->where == "init (combination 1)");
  REQUIRE(r.error->message == "no such start");
  REQUIRE(r.stats.distinct == 0);
}

TEST_CASE("spec errors: an invariant that throws is an error with the trace to its state", "[spec-errors]") {
  const auto spec = statecheck::spec<Counter>(
      "bad-invariant", statecheck::init([](Counter&) {}), statecheck::actions(climb()),
      statecheck::invariants(statecheck::invariant("Fine", [](const Counter&) { return true; }),
                             statecheck::invariant("Picky", [](const Counter& s) {
                               if (s.x == 2) throw std::runtime_error("cannot judge 2");
                               return true;
                             })),
      statecheck::allow_deadlock);
  const auto r = test::check_all_threads(spec);
  REQUIRE(r.outcome == Outcome::error);
  REQUIRE(r.error->where == "property check");
  REQUIRE(r.error->message == "Picky: cannot judge 2");
  REQUIRE(test::labels(r.error->trace) == std::vector<std::string>{"Inc", "Inc"});
  // Not checked, it cannot throw: the run completes.
  auto o = test::options(2);
  o.invariants = {"Fine"};
  test::require_ok(statecheck::check(spec, o), 4, 4, 4);  // depth counts levels: x = 0..3
}

TEST_CASE("spec errors: an init that accepts no state is refused, not an empty success", "[spec-errors]") {
  const auto spec = statecheck::spec<Counter>(
      "no-init", statecheck::init(statecheck::param("x0", 0, 3), [](Counter&, int) { return false; }),
      statecheck::actions(climb()));
  for (unsigned threads : {1u, 4u})
    REQUIRE_THROWS_MATCHES(statecheck::check(spec, test::options(threads)), statecheck::config_error,
                           Catch::Message("spec 'no-init' has no initial state: check its init function"));
}

TEST_CASE("spec errors: 64 invariants are each checked; a 65th is refused", "[spec-errors]") {
  const auto full = many_invariants(std::make_index_sequence<64>{});
  test::require_violation(statecheck::check(full, test::options(2)), "Inv0", 1);
  // The last bit of the mask: selected alone, Inv63 fails at x = 64.
  test::require_violation(statecheck::check(full, test::only("Inv63")), "Inv63", 64);
  const auto over = many_invariants(std::make_index_sequence<65>{});
  REQUIRE_THROWS_MATCHES(statecheck::check(over, test::options(1)), statecheck::config_error,
                         Catch::Message("spec 'many' declares more than 64 invariants"));
}

TEST_CASE("spec errors: init or an invariant throwing what is not a std::exception is an error too", "[spec-errors]") {
  const auto odd_init = statecheck::spec<Counter>(
      "odd-init", statecheck::init([](Counter&) { throw 7; }), statecheck::actions(climb()), statecheck::allow_deadlock);
  const auto r = test::check_all_threads(odd_init);
  REQUIRE(r.outcome == Outcome::error);
  REQUIRE(r.error->where == "init (combination 0)");
  REQUIRE(r.error->message == "an exception that is not a std::exception");
  const auto odd_invariant = statecheck::spec<Counter>(
      "odd-invariant", statecheck::init([](Counter&) {}), statecheck::actions(climb()),
      statecheck::invariants(statecheck::invariant("Odd", [](const Counter& s) {
        if (s.x == 1) throw 7;
        return true;
      })),
      statecheck::allow_deadlock);
  const auto q = test::check_all_threads(odd_invariant);
  REQUIRE(q.outcome == Outcome::error);
  REQUIRE(q.error->message == "Odd: an exception that is not a std::exception");
  REQUIRE(q.error->trace.size() == 2);
}
