// Who takes each step of a trace (issue 19): the parameter declared with
// action(...).actor(), else the first named id, else none. The --html page
// draws its lanes from it, so a wrong actor is a wrong picture.
#include <catch2/catch.hpp>
#include <string_view>

#include "statecheck/statecheck.hpp"
#include "support/check_helpers.hpp"

namespace {

struct Node {
  static constexpr std::string_view prefix = "n";
};
using NodeId = statecheck::id<Node>;

struct State {
  BOOST_HANA_DEFINE_STRUCT(State, (int, sent), (int, got));
  friend bool operator==(const State&, const State&) = default;
};

// Send(by=n1, to=n2) then Receive(at=1, node=n2) breaks Quiet: the trace has
// one step of each action, so each of the three rules shows once.
auto make_spec(std::string_view send_actor) {
  const auto by = statecheck::ids<Node>("by", 2);
  const auto to = statecheck::ids<Node>("to", 2);
  const auto at = statecheck::param("at", 1, 1);
  const auto node = statecheck::ids<Node>("node", 2);
  return statecheck::spec<State>(
      "actors", statecheck::init([](State&) {}),
      statecheck::actions(
          statecheck::action("Send", by, to, [](const State& s, NodeId, NodeId) { return s.sent == 0; },
                             [](State& s, NodeId, NodeId) { s.sent = 1; })
              .actor(send_actor),
          statecheck::action("Receive", at, node, [](const State& s, int, NodeId) { return s.sent == 1 && s.got == 0; },
                             [](State& s, int, NodeId) { s.got = 1; }),
          statecheck::action("Tick", [](const State& s) { return s.got == 1; }, [](State& s) { s.got = 2; })),
      statecheck::invariants(statecheck::invariant("Quiet", [](const State& s) { return s.got < 2; })));
}

}  // namespace

TEST_CASE("actor: declared, else the first named id, else none", "[actor]") {
  const statecheck::CheckResult r = test::check_all_threads(make_spec("to"));
  REQUIRE(r.violation);
  const auto& trace = r.violation->trace;
  // Hand derivation: Send, Receive, Tick, each the first enabled combination.
  REQUIRE(test::labels(trace) == std::vector<std::string>{"Send(by=n1, to=n1)", "Receive(at=1, node=n1)", "Tick"});
  CHECK(trace[0].actor.empty());      // the initial state: nobody acted
  CHECK(trace[1].actor == "to");      // declared, though "by" is the first id
  CHECK(trace[2].actor == "node");    // undeclared: the first named id, not the int "at"
  CHECK(trace[3].actor.empty());      // no parameters: a lane of its own on the page
}

TEST_CASE("actor: without a declaration the first named id acts", "[actor]") {
  const statecheck::CheckResult r = statecheck::check(make_spec(""), test::options(2));
  REQUIRE(r.violation);
  CHECK(r.violation->trace[1].actor == "by");
}

TEST_CASE("actor: a name that is no parameter is refused with the fix", "[actor]") {
  CHECK_THROWS_WITH(statecheck::check(make_spec("from"), test::options(1)),
                    Catch::Contains("Send") && Catch::Contains("actor(\"from\")") &&
                        Catch::Contains("not one of its parameters"));
}

namespace {

// Send(by, to) declared to reach `to`: the --html page draws an arrow by->to.
auto sending_spec(std::string_view target) {
  const auto by = statecheck::ids<Node>("by", 2);
  const auto to = statecheck::ids<Node>("to", 2);
  return statecheck::spec<State>(
      "sends", statecheck::init([](State&) {}),
      statecheck::actions(
          statecheck::action("Send", by, to, [](const State& s, NodeId, NodeId) { return s.sent == 0; },
                             [](State& s, NodeId, NodeId) { s.sent = 1; })
              .actor("by")
              .sends(target),
          statecheck::action("Tick", [](const State& s) { return s.sent == 1; }, [](State& s) { s.sent = 2; })),
      statecheck::invariants(statecheck::invariant("Quiet", [](const State& s) { return s.sent < 2; })));
}

}  // namespace

TEST_CASE("sends: the declared target is carried on each step of its action only", "[actor]") {
  const statecheck::CheckResult r = test::check_all_threads(sending_spec("to"));
  REQUIRE(r.violation);
  const auto& trace = r.violation->trace;
  REQUIRE(test::labels(trace) == std::vector<std::string>{"Send(by=n1, to=n1)", "Tick"});
  CHECK(trace[0].target.empty());
  CHECK(trace[1].actor == "by");
  CHECK(trace[1].target == "to");
  CHECK(trace[2].target.empty());  // Tick declares none
}

TEST_CASE("sends: a name that is no parameter is refused with the fix", "[actor]") {
  CHECK_THROWS_WITH(statecheck::check(sending_spec("peer"), test::options(1)),
                    Catch::Contains("Send") && Catch::Contains("sends(\"peer\")") &&
                        Catch::Contains("not one of its parameters"));
}
