// The two constraint semantics (issue 14): constraint(pred) keeps, counts and
// checks the states outside it and only does not expand them; tlc_constraint(pred)
// is TLC's CONSTRAINT: a state outside it is generated (counted) and dropped,
// neither stored nor checked nor expanded, initial states included.
#include <catch2/catch.hpp>

#include "report/state_graph.hpp"
#include "support/check_helpers.hpp"
#include "tools/simulate.hpp"
#include "statecheck/detail/model.hpp"
#include "statecheck/statecheck.hpp"

namespace {

struct Point {
  BOOST_HANA_DEFINE_STRUCT(Point, (int, x), (int, y));
  friend bool operator==(const Point&, const Point&) = default;
};

/// Right and Up from (0, 0) and (5, 0), without bound but the constraint x + y < 4.
template <class Constraint>
auto grid(Constraint c, bool check_below_5) {
  const auto start = statecheck::param("start", {0, 5});
  return statecheck::spec<Point>(
      "grid", statecheck::init(start, [](Point& p, int x) { p.x = x; }),
      statecheck::actions(statecheck::action("Right", [](Point& p) { ++p.x; }),
                          statecheck::action("Up", [](Point& p) { ++p.y; })),
      statecheck::invariants(statecheck::invariant("Below5", [=](const Point& p) { return !check_below_5 || p.x + p.y < 5; })),
      c);
}

bool inside(const Point& p) { return p.x + p.y < 4; }

}  // namespace

TEST_CASE("tlc_constraint: states outside are generated, then neither stored, checked nor expanded", "[constraint]") {
  // By hand: the states kept are the 10 points with x + y <= 3; each of them
  // generates Right and Up (20), and the two initial states are generated
  // too, (5, 0) being dropped at once: 22 generated, 4 levels (x + y = 0..3).
  // Below5 fails only at (5, 0) and at x + y = 5, which are never kept.
  const auto r = test::check_all_threads(grid(statecheck::tlc_constraint(inside), true));
  REQUIRE(r.outcome == statecheck::Outcome::ok);
  REQUIRE(r.stats.distinct == 10);
  REQUIRE(r.stats.generated == 22);
  REQUIRE(r.stats.depth == 4);
}

TEST_CASE("constraint (the default): states outside are kept and checked, not expanded", "[constraint]") {
  // By hand: the 10 points with x + y <= 3 are expanded; the 5 with x + y = 4
  // and the initial (5, 0) are kept unexpanded: 16 distinct, 22 generated, 5
  // levels; Below5 fails in the initial state (5, 0).
  const auto r = test::check_all_threads(grid(statecheck::constraint(inside), false));
  REQUIRE(r.outcome == statecheck::Outcome::ok);
  REQUIRE(r.stats.distinct == 16);
  REQUIRE(r.stats.generated == 22);
  REQUIRE(r.stats.depth == 5);
  const auto v = test::check_all_threads(grid(statecheck::constraint(inside), true));
  REQUIRE(v.outcome == statecheck::Outcome::violation);
  REQUIRE(v.violation->property == "Below5");
  REQUIRE(v.violation->trace.size() == 1);
}

TEST_CASE("tlc_constraint: the graph and simulate drop the same states as the check", "[constraint]") {
  namespace detail = statecheck::detail;
  const auto spec = grid(statecheck::tlc_constraint(inside), true);
  const detail::Model<decltype(spec)> m(spec);
  const detail::ModelOps ops = m.ops();
  const detail::ModelView view(ops);
  const detail::StateGraph g = detail::explore_graph(view, 1000, 0, std::size_t{1} << 30);
  REQUIRE(g.states.size() == 10);  // as the check counts them
  REQUIRE(g.initial_count == 1);   // (5, 0) is dropped
  detail::SimulateOptions so;
  so.threads = 1;
  so.runs = 50;
  const detail::SimulateResult sim = detail::simulate(ops, so);
  REQUIRE(sim.outcome == statecheck::Outcome::ok);  // no walk starts at (5, 0) or reports a deadlock at x + y = 3
}

TEST_CASE("tlc_constraint: one that drops every initial state is named, not the init function", "[constraint]") {
  namespace detail = statecheck::detail;
  // Both initial states, (0, 0) and (5, 0), lie outside x + y < 0.
  const auto spec = grid(statecheck::tlc_constraint([](const Point& p) { return p.x + p.y < 0; }), true);
  const std::string message =
      "spec 'grid' has no initial state inside its tlc_constraint: init made 2 states and the constraint drops every "
      "one (a tlc_constraint applies to initial states too); loosen the constraint, or use constraint(...) to keep and "
      "check the states outside it";
  for (unsigned threads : {1u, 2u}) {
    statecheck::CheckOptions o;
    o.threads = threads;
    REQUIRE_THROWS_WITH(statecheck::check(spec, o), message);
  }
  const detail::Model<decltype(spec)> m(spec);
  detail::SimulateOptions so;
  so.threads = 1;
  REQUIRE_THROWS_WITH(detail::simulate(m.ops(), so), message);
}
