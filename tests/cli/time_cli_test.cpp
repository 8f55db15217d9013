// Timed specs through the real binary: bad durations refused with one line,
// time steps in text and JSON, replay, simulate, the disk frontier, and
// `statecheck sweep` (its table, its JSON, Ctrl-C keeping finished rows).
#include <signal.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "support/json.hpp"
#include "support/process.hpp"
#include "support/run_binary.hpp"
#include "support/temp_dir.hpp"

using test::Run;
using test::statecheck;

TEST_CASE("durations that do not fit the spec's timing are refused with one line (exit 2)", "[time][cli]") {
  struct Case {
    const char* args;
    const char* message;
  };
  for (const Case& c : {
           Case{"--set unit=700ms",
                "statecheck: error: bound 'set_within' = 2s is not a multiple of the time unit 700ms; choose a unit "
                "that divides every bound, or round the bound\n"},
           Case{"--set unit=1ms --set set_within=40s",
                "statecheck: error: bound 'set_within' = 40s is 40000 units of 1ms; a clock holds at most 32000: "
                "choose a coarser unit\n"},
           Case{"--set set_within=0s",
                "statecheck: error: constant set_within=0s is out of range; use a duration in 1s..1h\n"},
           Case{"--set set_within=2x",
                "statecheck: error: constant set_within takes a duration in 1s..1h: '2x' is not a duration such as "
                "500ms, 30s, 12m, 2h or 1h30m (a number, then ms, s, m or h)\n"},
       }) {
    INFO(c.args);
    const Run r = statecheck(std::string("check fischer ") + c.args);
    REQUIRE(r.code == 2);
    REQUIRE(r.out == c.message);
  }
}

TEST_CASE("a time step is a step of its own: +2 s, t = 4 s, in text and JSON, and replays", "[time][cli]") {
  const Run text = statecheck("check fischer --set wait_at_least=2s --quiet");
  REQUIRE(text.code == 1);
  REQUIRE_THAT(text.out, Catch::Contains("  4: +2 s  (t = 2 s)\n"));
  REQUIRE_THAT(text.out, Catch::Contains("  7: +2 s  (t = 4 s)\n"));
  test::TempDir dir("time-cli");
  const std::string trace = dir.path + "/fischer.json";
  const Run json = statecheck("check fischer --set wait_at_least=2s --format json > " + trace);
  REQUIRE(json.code == 1);
  std::ifstream in(trace);
  const auto doc = nlohmann::json::parse(in);
  const auto& steps = doc["violation"]["trace"];
  REQUIRE(steps[0]["time_ms"] == 0);
  REQUIRE(steps[4]["label"] == "+2 s");
  REQUIRE(steps[4]["action"] == "time");
  REQUIRE(steps[4]["delay_ms"] == 2000);
  REQUIRE(steps[8]["time_ms"] == 4000);
  REQUIRE(!steps[5].contains("delay_ms"));
  const Run replay = statecheck("replay fischer " + trace);
  REQUIRE(replay.code == 0);
  REQUIRE_THAT(replay.out, Catch::Contains("reproduces: invariant MutualExclusion fails after 8 steps"));
}

TEST_CASE("a timelock is reported, replayed and allowed", "[time][cli]") {
  const Run r = statecheck("check watchdog --quiet");
  REQUIRE(r.code == 1);
  REQUIRE_THAT(r.out, Catch::Contains("violation: timelock after 2 steps: no action is enabled and deadline KickInTime "
                                      "keeps time from passing"));
  test::TempDir dir("time-cli");
  const std::string trace = dir.path + "/watchdog.json";
  REQUIRE(statecheck("check watchdog --format json > " + trace).code == 1);
  const Run replay = statecheck("replay watchdog " + trace);
  REQUIRE(replay.code == 0);
  REQUIRE_THAT(replay.out, Catch::Contains("reproduces: timelock after 2 steps"));
  REQUIRE(statecheck("check watchdog --set allow_timelock=true --quiet").code == 0);
  const Run walks = statecheck("simulate watchdog --runs 20 --seed 1");
  REQUIRE(walks.code == 1);
  REQUIRE_THAT(walks.out, Catch::Contains("timelock"));
}

TEST_CASE("simulate and the disk frontier work on timed specs", "[time][cli]") {
  const Run walks = statecheck("simulate fischer --set wait_at_least=2s --runs 3000 --seed 7");
  REQUIRE(walks.code == 1);
  REQUIRE_THAT(walks.out, Catch::Contains("MutualExclusion"));
  test::TempDir dir("time-cli");
  const std::string args = "check fischer --set processes=4 --threads 2 --format json --progress 0";
  const auto plain = test::parse_json(statecheck(args).out);
  // Every level streamed to --workdir in batches of 64 states (store/fault.hpp).
  const auto streamed = test::parse_json(
      test::run("STATECHECK_FAULT=frontier-stream " STATECHECK_BIN, args + " --workdir " + dir.path).out);
  REQUIRE(plain["outcome"] == "ok");
  REQUIRE(streamed["outcome"] == "ok");
  REQUIRE(streamed["stats"]["distinct"] == plain["stats"]["distinct"]);
  REQUIRE(streamed["stats"]["generated"] == plain["stats"]["generated"]);
  REQUIRE(streamed["stats"]["frontier_spilled_levels"] > 0);
}

TEST_CASE("sweep: one row per configuration in order, in JSON and as a table", "[time][cli][sweep]") {
  test::TempDir dir("sweep");
  const std::string file = dir.path + "/sweep.json";
  REQUIRE(statecheck("sweep fischer --vary wait_at_least=1s..4s/1s --vary processes=2,3 --format json -o " + file).code == 0);
  std::ifstream in(file);
  const auto doc = nlohmann::json::parse(in);
  REQUIRE(doc["format"] == "statecheck-sweep");
  REQUIRE(doc["interrupted"] == false);
  struct Row {
    const char* wait;
    const char* processes;
    const char* verdict;
    std::uint64_t distinct;
  };
  const Row rows[] = {{"1s", "2", "violation", 48}, {"1s", "3", "violation", 112}, {"2s", "2", "violation", 45},
                      {"2s", "3", "violation", 99},  {"3s", "2", "ok", 45},          {"3s", "3", "ok", 133},
                      {"4s", "2", "ok", 50},         {"4s", "3", "ok", 148}};
  REQUIRE(doc["rows"].size() == 8);
  for (std::size_t i = 0; i < 8; ++i) {
    INFO("row " << i);
    const auto& row = doc["rows"][i];
    REQUIRE(row["constants"]["wait_at_least"] == rows[i].wait);
    REQUIRE(row["constants"]["processes"] == rows[i].processes);
    REQUIRE(row["verdict"] == rows[i].verdict);
    REQUIRE(row["distinct"] == rows[i].distinct);
    if (std::string(rows[i].verdict) == "violation") {
      REQUIRE(row["property"] == "MutualExclusion");
      REQUIRE(row["length"] == 8);
    }
  }
  const std::string text = dir.path + "/sweep.txt";
  REQUIRE(statecheck("sweep fischer --vary wait_at_least=1s..4s/1s --jobs 1 -o " + text).code == 0);
  std::ifstream table_file(text);
  const Run table{0, std::string(std::istreambuf_iterator<char>(table_file), {})};
  REQUIRE_THAT(table.out, Catch::StartsWith("statecheck: sweep of fischer over 4 configurations, 1 at a time"));
  REQUIRE_THAT(table.out, Catch::Contains("\n2s             violation  MutualExclusion (8)                        45"));
  REQUIRE_THAT(table.out, Catch::EndsWith("verdict changes at wait_at_least=3s: it holds there (MutualExclusion failed "
                                          "at 2s)\n"));
}

TEST_CASE("sweep: bad --vary values are refused before anything runs", "[time][cli][sweep]") {
  struct Case {
    const char* vary;
    const char* message;
  };
  for (const Case& c : {Case{"wait=1s", "--vary: spec 'fischer' has no constant 'wait'; vary one of: processes, "
                                        "set_within, wait_at_least, unit"},
                        Case{"wait_at_least=1s..5s", "--vary wait_at_least=1s..5s: give a duration range its step: "
                                                     "1s..5s/30s"},
                        Case{"processes=1..3", "--vary processes=1..3: constant processes=1 is out of range; use a "
                                               "value in 2..4"},
                        Case{"processes=*", "--vary processes=*: * stands for every value of a boolean or a choice; "
                                            "give processes a range (lo..hi) or a list (a,b)"}}) {
    INFO(c.vary);
    const Run r = statecheck(std::string("sweep fischer --vary ") + c.vary);
    REQUIRE(r.code == 2);
    REQUIRE(r.out == std::string("statecheck: error: ") + c.message + "\n");
  }
}

TEST_CASE("sweep: Ctrl-C stops the running check and keeps the finished rows", "[time][cli][sweep]") {
  // The second configuration (a 10 ms unit: 200-unit bounds, four processes) runs for minutes.
  const test::TempDir dir("sweep");
  test::Child sweep(STATECHECK_BIN, {"sweep", "fischer", "--set", "processes=4", "--vary", "unit=1s,10ms", "--jobs", "1"},
                    dir.sub("out"));
  sweep.wait_for_output([](const std::string& out) { return out.find("sweep: 1/2 done") != std::string::npos; });
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the second check is under way
  sweep.signal(SIGINT);
  const test::Child::End end = sweep.wait();
  REQUIRE(end.code == 3);
  const std::string& out = end.out;
  REQUIRE_THAT(out, Catch::Contains("\n1s    ok                                                   317"));
  REQUIRE_THAT(out, Catch::Contains("\n10ms  stopped"));
  REQUIRE_THAT(out, Catch::Contains("interrupted: the rows not run say so"));
}
