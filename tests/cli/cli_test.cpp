// The checker binaries as a user runs them: exit codes, one-line errors that
// say what to do, JSON output, and a one-spec binary.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/json.hpp"
#include "support/run_binary.hpp"
#include "support/temp_dir.hpp"

using test::lines;
using test::run;
using test::Run;
using test::statecheck;

TEST_CASE("exit codes: 0 holds, 1 violated", "[cli]") {
  REQUIRE(statecheck("check two-phase --quiet").code == 0);
  const Run r = statecheck("check die-hard --quiet");
  REQUIRE(r.code == 1);
  REQUIRE_THAT(r.out, Catch::Contains("violation: invariant NotSolved fails after 6 steps"));
  REQUIRE_THAT(r.out, Catch::Contains("  6: BigToSmall\n       big: 5 -> 4\n       small: 2 -> 3\n"));
}

// Usage errors (exit 2, one line): tests/cli/bad_input_test.cpp covers every flag.

TEST_CASE("json format: one document with stats and the trace", "[cli]") {
  const Run r = statecheck("check die-hard --format json --threads 2");
  REQUIRE(r.code == 1);
  const auto doc = test::parse_json(r.out);
  REQUIRE(doc["format"] == "statecheck-trace");
  REQUIRE(doc["version"] == 1);
  REQUIRE(doc["run"]["spec"] == "die-hard");
  REQUIRE(doc["run"]["options"]["threads"] == 2);
  REQUIRE(doc["outcome"] == "violation");
  REQUIRE(doc["stats"]["distinct"] == 14);  // levels 1..7; the search stops at the violating level
  REQUIRE(doc["stats"]["threads"] == 2);
  REQUIRE(doc["violation"]["kind"] == "invariant");
  REQUIRE(doc["violation"]["property"] == "NotSolved");
  const auto& trace = doc["violation"]["trace"];
  REQUIRE(trace.size() == 7);
  REQUIRE(trace[0]["action"].is_null());
  REQUIRE(trace[6]["action"] == "BigToSmall");
  REQUIRE(trace[6]["state"]["big"] == 4);

  const Run ok = statecheck("check two-phase --set rms=4 --format json");
  REQUIRE(ok.code == 0);
  const auto okdoc = test::parse_json(ok.out);
  REQUIRE(okdoc["run"]["constants"]["rms"] == "4");
  REQUIRE(okdoc["outcome"] == "ok");
  REQUIRE(okdoc["run"]["visited_set"]["hash"] == "XXH3-128");
  REQUIRE(okdoc["run"]["visited_set"]["fingerprint_bits"] == 72);  // 20 initial home bits + 52 stored
  // Peer tools' counts for two-phase N=4: 1,568 states, 8,257 transitions + the initial state (docs/peers.md).
  REQUIRE(okdoc["stats"]["distinct"] == 1568);
  REQUIRE(okdoc["stats"]["generated"] == 8258);
  REQUIRE(okdoc["stats"]["depth"] == 14);
}

TEST_CASE("symmetry: text and JSON say which, --no-symmetry turns it off", "[cli][symmetry]") {
  const Run reduced = statecheck("check voting --progress 0");
  REQUIRE(reduced.code == 0);
  // TLC's counts for MCVoting.cfg with SYMMETRY (tests/specs/tla_symmetry_test.cpp).
  REQUIRE_THAT(reduced.out, Catch::Contains("  distinct states   77\n"));
  REQUIRE_THAT(reduced.out, Catch::Contains("  symmetry          a1..a3 x v1..v2 interchangeable: 12 renamings"));
  const auto doc = test::parse_json(statecheck("check voting --format json").out);
  REQUIRE(doc["run"]["options"]["symmetry"] == true);
  REQUIRE(doc["stats"]["symmetry"]["kinds"] == nlohmann::json::array({"a1..a3", "v1..v2"}));
  REQUIRE(doc["stats"]["symmetry"]["group_size"] == 12);
  const auto plain = test::parse_json(statecheck("check voting --no-symmetry --format json").out);
  REQUIRE(plain["run"]["options"]["symmetry"] == false);
  REQUIRE(plain["stats"]["symmetry"].is_null());
  REQUIRE(plain["stats"]["distinct"] > 77);
  REQUIRE(plain["stats"]["depth"] == 11);  // renaming keeps distances
}

TEST_CASE("a spec whose effect throws: exit 3 with the action and the trace", "[cli]") {
  const Run r = run(FAULTY_BIN, "--set crash_at=3 --quiet");
  REQUIRE(r.code == 3);
  REQUIRE_THAT(r.out, Catch::Contains("error: spec error in action Step(by=2): counter hit crash_at"));
  REQUIRE_THAT(r.out, Catch::Contains("trace to the state where it happened (1 steps)"));
  REQUIRE_THAT(r.out, Catch::Contains("  1: Step(by=1)\n       n: 0 -> 1\n"));
  // The same one-spec binary without a spec name, holding when it cannot throw.
  REQUIRE(run(FAULTY_BIN, "--set safe=true --quiet").code == 0);
  REQUIRE(run(FAULTY_BIN, "list").code == 0);
}

TEST_CASE("a memory budget that fills: clean stop, exit 3", "[cli]") {
  const Run r = statecheck("check two-phase --set rms=9 --memory 16M --quiet");
  REQUIRE(r.code == 3);
  REQUIRE_THAT(r.out, Catch::Contains("more than --memory 16 MiB"));
  REQUIRE_THAT(r.out, Catch::Contains("raise --memory"));
}

// Signals (SIGINT, SIGTERM, a second Ctrl-C, SIGINT with --checkpoint then --resume):
// tests/hostile/signals_test.cpp, on a fixture spec that blocks until signalled.

TEST_CASE("a usage error writes nothing to the --checkpoint directory", "[cli][checkpoint]") {
  const test::TempDir temp("cli-ckpt");
  const std::string dir = temp.sub("ckpt");
  for (const char* bad : {"--set rms=99", "--invariant Nope", "--set rms=3 --resume /no/such/dir"}) {
    INFO(bad);
    REQUIRE(statecheck("check two-phase --checkpoint " + dir + " " + bad).code == 2);
    REQUIRE(!std::filesystem::exists(dir));
  }
  // A checkpoint of another spec is refused before anything is written next to it.
  REQUIRE(statecheck("check die-hard --checkpoint " + dir + " --checkpoint-every 0.000000001 --quiet").code == 1);
  REQUIRE(std::filesystem::exists(dir + "/checkpoint.sckp"));
  const Run other = statecheck("check two-phase --resume " + dir + " --checkpoint " + dir);
  REQUIRE(other.code == 2);
  REQUIRE_THAT(other.out, Catch::Contains("was written by spec 'die-hard', not 'two-phase'"));
}

TEST_CASE("self-check: `all` checks every state, and the summary says at which depths", "[cli][self-check]") {
  const Run all = statecheck("check voting --progress 0 --self-check all");
  REQUIRE(all.code == 0);
  // Every one of the 77 orbits' representatives (TLC's count, as above), at each of the 11 depths.
  REQUIRE_THAT(all.out, Catch::Contains("  self-check        77 states at depths 1-11: transitions deterministic"));
  const auto doc = test::parse_json(statecheck("check voting --self-check all --format json").out);
  REQUIRE(doc["stats"]["self_checked"] == 77);
  std::uint64_t sum = 0;
  for (const auto& n : doc["stats"]["self_checked_by_depth"]) sum += n.get<std::uint64_t>();
  REQUIRE(sum == 77);
  REQUIRE(doc["stats"]["self_checked_by_depth"] == doc["stats"]["states_per_level"]);
  const Run first = statecheck("check voting --progress 0 --self-check 5");
  REQUIRE_THAT(first.out, Catch::Contains("  self-check        "));
  REQUIRE_THAT(first.out, Catch::Contains(" at depths 1-11: "));  // the first 5, then one a level
}
