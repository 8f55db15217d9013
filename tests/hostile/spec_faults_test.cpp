// Spec-author mistakes through a real checker (hostile-faults): spec code
// that throws in init or in a property ends the run with exit 3 and says
// where (a choice's enumerator and a tlc_constraint too, hostile-choice_throws);
// a spec with no initial state is refused in one line, exit 2; and the
// suite tells a run that matches its documented verdict from one that does
// not, or that documents none.
#include <catch2/catch.hpp>
#include <string>

#include "fixture.hpp"
#include "support/run_binary.hpp"
#include "support/temp_dir.hpp"

namespace {

const std::string faults = hostile::fixture("faults");
const std::string choice = hostile::fixture("choice_throws");

}  // namespace

TEST_CASE("spec faults: init that throws, exit 3 naming init", "[hostile][spec-faults]") {
  for (const char* command : {"check", "simulate"}) {
    INFO(command);
    const test::Run r = test::run(faults, std::string(command) + " --set fault=1 --threads 2");
    INFO(r.out);
    REQUIRE(r.code == 3);
    REQUIRE_THAT(r.out, Catch::Contains("error: spec error in init (combination 0): init blew up"));
  }
  // No state stored: nothing can have been confused (this printed "<= -0").
  REQUIRE_THAT(test::run(faults, "--set fault=1").out, Catch::Contains(", omission probability <= 0\n"));
}

TEST_CASE("spec faults: an invariant that throws, exit 3 naming it, with the trace", "[hostile][spec-faults]") {
  const test::Run r = test::run(faults, "--set fault=2 --threads 2");
  INFO(r.out);
  REQUIRE(r.code == 3);
  REQUIRE_THAT(r.out, Catch::Contains("error: spec error in property check: Small: Small blew up"));
  REQUIRE_THAT(r.out, Catch::Contains("trace to the state where it happened (2 steps)"));
  const test::Run walk = test::run(faults, "simulate --set fault=2 --runs 5 --depth 10");
  INFO(walk.out);
  REQUIRE(walk.code == 3);
  REQUIRE_THAT(walk.out, Catch::Contains("Small blew up"));
}

TEST_CASE("spec faults: spec code that throws what is not a std::exception is a spec error, not a crash",
          "[hostile][spec-faults]") {
  // Both ended the process through std::terminate (SIGABRT) before.
  for (const char* command : {"check", "simulate", "check --dump-graph /dev/null"}) {
    INFO(command);
    const test::Run init = test::run(faults, std::string(command) + " --set fault=4 --threads 2");
    INFO(init.out);
    REQUIRE(init.code == 3);
    REQUIRE_THAT(init.out, Catch::Contains("error: spec error in init (combination 0): an exception that is not a "
                                           "std::exception"));
    const test::Run property = test::run(faults, std::string(command) + " --set fault=5 --threads 2");
    INFO(property.out);
    REQUIRE(property.code == 3);
    REQUIRE_THAT(property.out, Catch::Contains("error: spec error in property check: "));
    REQUIRE_THAT(property.out, Catch::Contains("an exception that is not a std::exception"));
  }
}

TEST_CASE("spec faults: no initial state is refused in one line, exit 2", "[hostile][spec-faults]") {
  for (const char* command : {"check", "simulate"}) {
    INFO(command);
    const test::Run r = test::run(faults, std::string(command) + " --set fault=3");
    INFO(r.out);
    REQUIRE(r.code == 2);
    REQUIRE(r.out == "statecheck: error: spec 'faults' has no initial state: check its init function\n");
  }
}

TEST_CASE("suite: a documented verdict that differs, or none at all, is unexpected, exit 1", "[hostile][suite]") {
  const test::Run r = test::run(faults, "suite --threads 2");
  INFO(r.out);
  REQUIRE(r.code == 1);
  REQUIRE(test::lines(r.out) == 6);  // header, four runs, the total
  REQUIRE_THAT(r.out, Catch::Contains("UNEXPECTED: the README says violation Small 2\n"));
  REQUIRE_THAT(r.out, Catch::Contains("UNEXPECTED: no verdict is documented for this run"));
  // Parsed strictly, once, at registration: a verdict with more words is none.
  REQUIRE_THAT(r.out, Catch::Contains("UNEXPECTED: the README's verdict 'ok, 6 states' is neither \"ok\" nor "
                                      "\"violation PROPERTY LENGTH\"\n"));
  REQUIRE_THAT(r.out, Catch::EndsWith("4 runs, 1 as documented, 3 unexpected\n"));
}

// What check and simulate both say when choice-throws' enumerator throws (items 12a, 16c).
const std::string pick_threw =
    "\nerror: spec error in the choice of action Pick: no values at n = 2\ntrace to the state where it happened (";

// Issue 43 item 12a: an enumerator that throws ended simulate through std::terminate (exit 134).
TEST_CASE("spec faults: simulate reports a choice enumerator that throws as a spec error, exit 3", "[hostile][spec-faults]") {
  const test::Run walk = test::run(choice, "simulate choice-throws --runs 5 --depth 10 --threads 1");
  INFO(walk.out);
  REQUIRE(walk.code == 3);
  REQUIRE_THAT(walk.out, Catch::Contains(pick_threw));
  REQUIRE_THAT(walk.out, Catch::Contains("found by walk 1 of seed 1; to repeat it: "));
}

// Issue 43 item 16c: check blamed "the constraint" of a spec that has none (Pick is the first action).
TEST_CASE("spec faults: check names the action whose choice enumerator threw", "[hostile][spec-faults]") {
  const test::Run check = test::run(choice, "check choice-throws --threads 2");
  INFO(check.out);
  REQUIRE(check.code == 3);
  REQUIRE_THAT(check.out, Catch::Contains(pick_threw + "1 steps), then the choice of action Pick threw:\n"));
}

// Issue 43 item 16f: replay blamed the step's action for a tlc_constraint that threw.
TEST_CASE("spec faults: replay names a tlc_constraint that throws, not the step's action", "[hostile][spec-faults][replay]") {
  const test::TempDir dir("spec-faults");
  const std::string trace = dir.sub("t.json");
  REQUIRE(test::run(choice, "check tlc-constraint-throws --format json > " + trace).code == 1);  // BelowFour, 4 steps
  const test::Run r = test::run(choice, "replay tlc-constraint-throws " + trace + " --set at=2");
  INFO(r.out);
  REQUIRE(r.code == 3);
  REQUIRE_THAT(r.out, Catch::Contains("then the constraint threw:\n"));
  REQUIRE_THAT(r.out, Catch::EndsWith("\nerror: spec error at step 3 in the constraint: tlc_constraint threw at n = 2\n"));
}

// Issue 43 item 16: simulate blamed "action (none threw again: the spec is not deterministic)" for a
// choice that offers more values than its bound: stepping one witness never enumerates past the bound.
TEST_CASE("spec faults: simulate names a choice over its bound as check does", "[hostile][spec-faults]") {
  const std::string over =
      "\nerror: spec error in action Pick(by=3): action 'Pick': choice 'by' offers more than 2 values in this state; "
      "raise its bound in each(\"by\", bound, ...)\ntrace to the state where it happened (";
  const test::Run walk = test::run(choice, "simulate choice-throws --set over_bound=true --runs 5 --depth 10 --threads 1");
  INFO(walk.out);
  REQUIRE(walk.code == 3);
  REQUIRE_THAT(walk.out, Catch::Contains(over + "2 steps), then action Pick(by=3) threw:\n"));
  const test::Run check = test::run(choice, "check choice-throws --set over_bound=true --threads 2");
  INFO(check.out);
  REQUIRE(check.code == 3);
  REQUIRE_THAT(check.out, Catch::Contains(over + "1 steps), then action Pick(by=3) threw:\n"));
}
