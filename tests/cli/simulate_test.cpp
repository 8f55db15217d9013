// `statecheck simulate`: seeded random walks, the same output for any thread
// count, the trace of the lowest-numbered failing walk, exit codes.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/json.hpp"
#include "support/run_binary.hpp"

using test::Run;
using test::statecheck;

namespace {

/// The output without its timing line (seconds, threads, steps/s).
std::string without_timing(const std::string& out) {
  std::istringstream in(out);
  std::string kept, line;
  while (std::getline(in, line))
    if (line.rfind("  time ", 0) != 0) kept += line + "\n";
  return kept;
}

}  // namespace

TEST_CASE("simulate die-hard: the lowest failing walk of seed 3, its trace as check prints it", "[cli][simulate]") {
  const Run r = statecheck("simulate die-hard --seed 3 --depth 10 --runs 2000 --threads 2");
  REQUIRE(r.code == 1);
  REQUIRE_THAT(r.out, Catch::Contains("violation: invariant NotSolved fails after 8 steps\ntrace (8 steps):\n"
                                      "  0: initial state\n       big = 0\n       small = 0\n  1: SmallToBig\n"));
  REQUIRE_THAT(r.out, Catch::Contains("  8: BigToSmall\n       big: 5 -> 4\n       small: 2 -> 3\n"));
  REQUIRE_THAT(r.out, Catch::Contains("found by walk 1421 of seed 3; to repeat it: statecheck simulate die-hard "
                                      "--seed 3 --depth 10 --runs 1421\n"));
  // Walks 1..1420 ran their 10 steps each (no earlier one fails), then 8 steps of walk 1421.
  REQUIRE_THAT(r.out, Catch::Contains("  walks             1421\n  steps             14208\n"
                                      "  longest walk      10 steps\n"));

  const Run json = statecheck("simulate die-hard --seed 3 --depth 10 --runs 2000 --format json");
  REQUIRE(json.code == 1);
  const auto doc = test::parse_json(json.out);
  REQUIRE(doc["outcome"] == "violation");
  REQUIRE(doc["violation"]["property"] == "NotSolved");
  REQUIRE(doc["violation"]["length"] == 8);
  REQUIRE(doc["violation"]["trace"].size() == 9);
  REQUIRE(doc["violation"]["trace"][8]["state"]["big"] == 4);
  REQUIRE(doc["simulation"]["failing_walk"] == 1421);
  REQUIRE(doc["simulation"]["walks"] == 1421);
  REQUIRE(doc["simulation"]["steps"] == 14208);
  REQUIRE(doc["simulation"]["seed"] == 3);
  REQUIRE_FALSE(doc.contains("stats"));
}

TEST_CASE("simulate: the same seed gives the same output with 1 and 4 threads", "[cli][simulate]") {
  for (const std::string args : {"die-hard --seed 3 --depth 10 --runs 2000", "die-hard --seed 11 --depth 40 --runs 5000",
                                 "filter --set procs=3 --seed 2 --depth 60 --runs 1500"}) {
    INFO(args);
    const Run one = statecheck("simulate " + args + " --threads 1");
    const Run four = statecheck("simulate " + args + " --threads 4");
    REQUIRE(one.code == four.code);
    REQUIRE(without_timing(one.out) == without_timing(four.out));
    REQUIRE_THAT(one.out, Catch::Contains(", 1 threads, "));
    REQUIRE_THAT(four.out, Catch::Contains(", 4 threads, "));
  }
  // Another seed takes other walks: seed 2 finds no solution within these bounds.
  const Run other = statecheck("simulate die-hard --seed 2 --depth 10 --runs 2000 --threads 4");
  REQUIRE(other.code == 0);
  REQUIRE_THAT(other.out, Catch::Contains("ok\nsimulation (seed 2, up to 2000 walks of up to 10 steps):\n"
                                          "  walks             2000\n  steps             20000\n"));
}

TEST_CASE("simulate specs that hold: exit 0, every walk counted", "[cli][simulate]") {
  const Run two_phase = statecheck("simulate two-phase --set rms=3 --seed 5 --depth 50 --runs 300");
  REQUIRE(two_phase.code == 0);
  // Two-phase always has an enabled action (a resent message), so each walk takes its 50 steps.
  REQUIRE_THAT(two_phase.out, Catch::Contains("statecheck: two-phase (rms=3)\nok\n"
                                              "simulation (seed 5, up to 300 walks of up to 50 steps):\n"
                                              "  walks             300\n  steps             15000\n"
                                              "  longest walk      50 steps\n"));
  // Walks of finalization-fencing end in states without successors (the spec allows them).
  const Run fencing = statecheck("simulate finalization-fencing --set variant=patched --seed 1 --depth 200 --runs 200");
  REQUIRE(fencing.code == 0);
  REQUIRE_THAT(fencing.out, Catch::Contains("  walks             200\n  steps             1823\n"
                                            "  longest walk      16 steps\n"));
  // Default seed, said in the output.
  REQUIRE_THAT(statecheck("simulate two-phase --runs 3 --depth 5").out, Catch::Contains("(seed 1, up to 3 walks"));
}

TEST_CASE("simulate: spec code that throws is reported with its trace, exit 3", "[cli][simulate]") {
  const Run r = test::run(FAULTY_BIN, "simulate --set crash_at=3 --seed 1 --runs 10 --depth 20");
  REQUIRE(r.code == 3);
  REQUIRE_THAT(r.out, Catch::Contains("error: spec error in action Step(by="));
  REQUIRE_THAT(r.out, Catch::Contains("counter hit crash_at"));
  REQUIRE_THAT(r.out, Catch::Contains("trace to the state where it happened"));
  REQUIRE_THAT(r.out, Catch::Contains("found by walk 1 of seed 1"));
}

TEST_CASE("simulate usage errors: one line, exit 2", "[cli][simulate]") {
  for (const char* args : {"simulate two-phase --runs 0", "simulate two-phase --depth 0", "simulate two-phase --seed x",
                           "simulate no-such-spec", "simulate two-phase --invariant Nope"}) {
    INFO(args);
    const Run r = statecheck(args);
    REQUIRE(r.code == 2);
    REQUIRE(test::lines(r.out) == 1);
    REQUIRE_THAT(r.out, Catch::StartsWith("statecheck: error: "));
  }
}

// simulate stopped by SIGINT and SIGTERM: tests/hostile/signals_test.cpp.
