// A counterexample as the search hands it over: its path, replayed a step at
// a time whenever it is walked (model/replayed_trace.hpp), so that printing a
// long trace holds two states, not all of them. Walked, it must be exactly the
// trace held whole: the same steps, the same JSON document (streamed, indented
// or compact), the same HTML page. And once its model is gone it refuses to be
// read instead of reading freed memory.
#include <catch2/catch.hpp>
#include <stdexcept>
#include <string>

#include "examples/die_hard.hpp"
#include "examples/watchdog.hpp"
#include "report/json_value.hpp"
#include "report/report_html.hpp"
#include "statecheck/detail/search.hpp"
#include "statecheck/statecheck.hpp"
#include "support/check_helpers.hpp"
#include "support/fixture_specs.hpp"

namespace detail = statecheck::detail;
using statecheck::CheckResult;

namespace {

/// x counts up; Inc throws at x = 2 (a spec error with a 2-step trace).
auto throws_at_two() {
  return statecheck::spec<test::Counter>(
      "throws-at-two", statecheck::init([](test::Counter&) {}),
      statecheck::actions(statecheck::action("Inc", [](const test::Counter& s) { return s.x < 5; },
                                             [](test::Counter& s) {
                                               if (s.x == 2) throw std::runtime_error("Inc at two");
                                               ++s.x;
                                             })),
      statecheck::allow_deadlock);
}

std::string streamed(const CheckResult& r, const statecheck::RunInfo& info, int indent) {
  std::string text;
  detail::write_document(detail::check_document(r, info, true), r, indent, [&](std::string_view part) { text += part; });
  return text;
}

std::string page(const CheckResult& r, const statecheck::RunInfo& info) {
  std::string text;
  detail::write_trace_page(detail::check_document(r, info, true), r, [&](std::string_view part) { text += part; });
  return text;
}

/// Everything printed from the replayed result equals what its materialized copy prints.
template <class Spec>
void require_streamed_equals_held(const Spec& spec, statecheck::Outcome expected) {
  const detail::Model<Spec> m(spec);
  const CheckResult replayed = detail::run_search(m.ops(), test::options(2));
  REQUIRE(replayed.outcome == expected);
  CheckResult held = replayed;
  statecheck::materialize_traces(held);
  const statecheck::RunInfo info{std::string(spec.name), {}, test::options(2)};
  const statecheck::Trace& trace = replayed.violation ? replayed.violation->trace : replayed.error->trace;
  const statecheck::Trace& kept = held.violation ? held.violation->trace : held.error->trace;
  REQUIRE(trace.size() > 2);
  REQUIRE(trace.steps() == kept.steps());
  REQUIRE(trace[2] == kept[2]);
  REQUIRE(trace.back() == kept.back());
  const std::string whole = detail::json_text(detail::check_document(held, info));
  REQUIRE(streamed(replayed, info, 2) == whole);
  REQUIRE(streamed(held, info, 2) == whole);
  REQUIRE(streamed(replayed, info, -1) == detail::check_document(held, info).dump(-1));
  REQUIRE(page(replayed, info) == detail::trace_page(detail::check_document(held, info)));
  REQUIRE(statecheck::to_json(replayed, info) == whole);
}

}  // namespace

TEST_CASE("streamed trace: an invariant's trace walked from its path is the trace held whole", "[report]") {
  require_streamed_equals_held(examples::die_hard::make_spec({}), statecheck::Outcome::violation);
}

TEST_CASE("streamed trace: a timed trace keeps its delays and times", "[report]") {
  require_streamed_equals_held(examples::watchdog::make_spec({}), statecheck::Outcome::violation);
  const CheckResult r = statecheck::check(examples::watchdog::make_spec({}), test::options(1));
  const std::string doc = statecheck::to_json(r, {"watchdog", {}, test::options(1)});
  // Break, then time runs 3 s into the deadline (a timelock): the last step's delay and time.
  REQUIRE_THAT(doc, Catch::Contains("\"label\": \"+3 s\",\n        \"action\": \"time\",\n        \"params\": {\n"
                                    "          \"delay\": \"3 s\"\n        },\n        \"delay_ms\": 3000,\n"
                                    "        \"time_ms\": 3000,\n"));
}

TEST_CASE("streamed trace: a spec error's trace too", "[report]") {
  require_streamed_equals_held(throws_at_two(), statecheck::Outcome::error);
}

TEST_CASE("streamed trace: read after its model is gone, it refuses instead of reading freed memory", "[report]") {
  CheckResult r;
  {
    const auto spec = examples::die_hard::make_spec({});
    const detail::Model<decltype(spec)> m(spec);
    r = detail::run_search(m.ops(), test::options(1));
  }
  REQUIRE(r.violation);
  REQUIRE(r.violation->trace.size() == 7);  // its size is its path's: no replay needed
  REQUIRE_THROWS_WITH(r.violation->trace.steps(),
                      "statecheck: a trace was read after the model of its spec was destroyed; call "
                      "Trace::materialize() while the model lives (statecheck::check does)");
  // check() hands back traces that stand alone.
  const CheckResult checked = statecheck::check(examples::die_hard::make_spec({}), test::options(1));
  REQUIRE(checked.violation->trace.back().label == test::labels(checked.violation->trace).back());
}
