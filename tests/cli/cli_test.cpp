// The checker binaries as a user runs them: exit codes, one-line errors that
// say what to do, JSON output, and a one-spec binary.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "run_binary.hpp"

using test::lines;
using test::run;
using test::Run;
using test::statecheck;

TEST_CASE("exit codes: 0 holds, 1 violated", "[cli]") {
  REQUIRE(statecheck("check two-phase --quiet").code == 0);
  const Run r = statecheck("check die-hard --quiet");
  REQUIRE(r.code == 1);
  REQUIRE_THAT(r.out, Catch::Contains("violation: invariant NotSolved fails after 6 steps"));
  REQUIRE_THAT(r.out, Catch::Contains("  6: BigToSmall\n       big = 4\n       small = 3\n"));
}

// Usage errors (exit 2, one line): tests/cli/bad_input_test.cpp covers every flag.

TEST_CASE("json format: one document with stats and the trace", "[cli]") {
  const Run r = statecheck("check die-hard --format json --threads 2");
  REQUIRE(r.code == 1);
  const auto doc = nlohmann::json::parse(r.out);
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
  const auto okdoc = nlohmann::json::parse(ok.out);
  REQUIRE(okdoc["run"]["constants"]["rms"] == "4");
  REQUIRE(okdoc["outcome"] == "ok");
  REQUIRE(okdoc["run"]["visited_set"]["hash"] == "XXH3-128");
  REQUIRE(okdoc["run"]["visited_set"]["fingerprint_bits"] == 72);  // 20 initial home bits + 52 stored
  // Peer tools' counts for two-phase N=4: 1,568 states, 8,257 transitions + the initial state (docs/peers.md).
  REQUIRE(okdoc["stats"]["distinct"] == 1568);
  REQUIRE(okdoc["stats"]["generated"] == 8258);
  REQUIRE(okdoc["stats"]["depth"] == 14);
}

TEST_CASE("a spec whose effect throws: exit 3 with the action and the trace", "[cli]") {
  const Run r = run(FAULTY_BIN, "--set crash_at=3 --quiet");
  REQUIRE(r.code == 3);
  REQUIRE_THAT(r.out, Catch::Contains("error: spec error in action Step(by=2): counter hit crash_at"));
  REQUIRE_THAT(r.out, Catch::Contains("trace to the state where it happened (1 steps)"));
  REQUIRE_THAT(r.out, Catch::Contains("  1: Step(by=1)\n       n = 1\n"));
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

TEST_CASE("SIGINT stops a long run with the partial summary, exit 3", "[cli]") {
  // Interrupt once the search is under way (its first progress line), however loaded the machine.
  char path[] = "/tmp/statecheck-sigint-XXXXXX";
  const int fd = mkstemp(path);
  REQUIRE(fd >= 0);
  close(fd);
  const std::string log = path;
  const Run r = run("sh", std::string("-c '") + STATECHECK_BIN + " check two-phase --set rms=10 --progress 0.2 2>" +
                              log + " & pid=$!; for i in $(seq 300); do grep -q depth " + log +
                              " && break; sleep 0.1; done; kill -INT $pid; wait $pid'");
  std::remove(log.c_str());
  REQUIRE(r.code == 3);
  REQUIRE_THAT(r.out, Catch::Contains("stopped: interrupted while expanding level"));
  REQUIRE_THAT(r.out, Catch::Contains("distinct states"));
}

namespace {

/// Counts that a resumed run must reproduce exactly.
void require_same_counts(const nlohmann::json& a, const nlohmann::json& b) {
  for (const char* key : {"distinct", "generated", "depth", "states_per_level", "actions"}) {
    INFO(key);
    REQUIRE(a["stats"][key] == b["stats"][key]);
  }
}

}  // namespace

TEST_CASE("SIGINT with --checkpoint: resuming gives the uninterrupted counts", "[cli][checkpoint]") {
  char dir_template[] = "/tmp/statecheck-cli-ckpt-XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const std::string base = dir_template;
  const std::string dir = base + "/ckpt";
  const std::string log = base + "/stderr";
  // Interrupt once the search is under way (its first progress line), about half a second in.
  const Run stopped = run("sh", std::string("-c '") + STATECHECK_BIN + " check two-phase --set rms=8 --checkpoint " + dir +
                                    " --progress 0.2 2>" + log + " & pid=$!; for i in $(seq 300); do grep -q depth " +
                                    log + " && break; sleep 0.1; done; sleep 0.3; kill -INT $pid; wait $pid'");
  REQUIRE(stopped.code == 3);
  REQUIRE_THAT(stopped.out, Catch::Contains("stopped: interrupted while expanding level"));
  REQUIRE_THAT(stopped.out, Catch::Contains("checkpoint written to " + dir +
                                            "; continue with: statecheck check two-phase --set rms=8 --resume " + dir));
  const Run resumed = statecheck("check two-phase --set rms=8 --resume " + dir + " --format json --quiet");
  const Run whole = statecheck("check two-phase --set rms=8 --format json --quiet");
  std::filesystem::remove_all(base);
  REQUIRE(resumed.code == 0);
  REQUIRE(whole.code == 0);
  const auto a = nlohmann::json::parse(whole.out);
  REQUIRE(a["stats"]["distinct"] == 1745408);
  require_same_counts(a, nlohmann::json::parse(resumed.out));
}

TEST_CASE("a usage error writes nothing to the --checkpoint directory", "[cli][checkpoint]") {
  char dir_template[] = "/tmp/statecheck-cli-ckpt-XXXXXX";
  REQUIRE(mkdtemp(dir_template) != nullptr);
  const std::string dir = std::string(dir_template) + "/ckpt";
  for (const char* bad : {"--set rms=99", "--invariant Nope", "--set rms=3 --resume /no/such/dir"}) {
    INFO(bad);
    REQUIRE(statecheck("check two-phase --checkpoint " + dir + " " + bad).code == 2);
    REQUIRE(!std::filesystem::exists(dir));
  }
  // A checkpoint of another spec is refused before anything is written next to it.
  REQUIRE(statecheck("check die-hard --checkpoint " + dir + " --checkpoint-every 0.000000001 --quiet").code == 1);
  REQUIRE(std::filesystem::exists(dir + "/checkpoint.sckp"));
  const Run other = statecheck("check two-phase --resume " + dir + " --checkpoint " + dir);
  std::filesystem::remove_all(dir_template);
  REQUIRE(other.code == 2);
  REQUIRE_THAT(other.out, Catch::Contains("was written by spec 'die-hard', not 'two-phase'"));
}
