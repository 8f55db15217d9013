// `check --dump-graph` (the DOT of a small spec, pinned byte for byte) and
// `check --coverage` (per action and parameter value) through the real binary.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/files.hpp"
#include "support/json.hpp"
#include "support/run_binary.hpp"
#include "support/temp_dir.hpp"

using test::Run;
using test::statecheck;

namespace {

using test::read_text;

/// A fresh path for an output file (not created), removed when the test ends.
struct TempFile {
  test::TempDir dir{"graph"};
  std::string path = dir.sub("graph.dot");
};

}  // namespace

TEST_CASE("dump-graph: the DOT of die-hard, byte for byte, with its counterexample in red", "[cli][graph]") {
  const TempFile dot;
  const Run r = statecheck("check die-hard --threads 3 --quiet --dump-graph " + dot.path);
  REQUIRE(r.code == 1);  // the check's own verdict
  REQUIRE_THAT(r.out, Catch::Contains("violation: invariant NotSolved fails after 6 steps"));
  REQUIRE_THAT(r.out, Catch::Contains("graph: 16 states, 96 transitions written to " + dot.path));
  REQUIRE(read_text(dot.path) == read_text(GOLDEN_DIR "/die_hard.dot"));
}

TEST_CASE("dump-graph: --max-depth bounds the graph as it bounds the check", "[cli][graph]") {
  const TempFile dot;
  const Run graph = statecheck("check two-phase --set rms=5 --max-depth 3 --quiet --dump-graph " + dot.path);
  const Run check = statecheck("check two-phase --set rms=5 --max-depth 3 --format json");
  const auto doc = test::parse_json(check.out);
  REQUIRE(doc["stats"]["distinct"] == 67);
  // Every successor of the expanded levels is one edge: generated minus the initial state.
  REQUIRE_THAT(graph.out, Catch::Contains("graph: 67 states, 121 transitions written to"));
  REQUIRE(doc["stats"]["generated"] == 122);
  const Run json = statecheck("check two-phase --set rms=5 --max-depth 3 --format json --dump-graph " + dot.path);
  REQUIRE(test::parse_json(json.out)["graph"] ==
          nlohmann::json({{"file", dot.path}, {"states", 67}, {"transitions", 121}}));
  const std::string text = read_text(dot.path);
  REQUIRE_THAT(text, Catch::StartsWith("// statecheck --dump-graph: 67 states, 121 transitions."));
  REQUIRE_THAT(text, Catch::Contains("  s66 [label=") && !Catch::Contains("  s67 ["));
}

TEST_CASE("dump-graph: a state space above the limit is refused before anything is written", "[cli][graph]") {
  const TempFile dot;
  const Run r = statecheck("check two-phase --set rms=5 --dump-graph " + dot.path);
  REQUIRE(r.code == 2);
  REQUIRE(r.out ==
          "statecheck: error: the state space has more than 2000 states; --dump-graph is for small specs: raise "
          "--graph-limit or use --max-depth\n");
  REQUIRE_FALSE(std::ifstream(dot.path).good());
  REQUIRE_THAT(statecheck("check die-hard --graph-limit 15 --dump-graph " + dot.path).out,
               Catch::Contains("more than 15 states"));
  REQUIRE(statecheck("check die-hard --quiet --graph-limit 16 --dump-graph " + dot.path).code == 1);
  const Run unwritable = statecheck("check die-hard --dump-graph /nonexistent-dir/g.dot");
  REQUIRE(unwritable.code == 2);
  REQUIRE(unwritable.out ==
          "statecheck: error: cannot write --dump-graph file /nonexistent-dir/g.dot (No such file or directory); give a "
          "writable path\n");
}

TEST_CASE("coverage of two-phase rms=3: per action and per parameter value", "[cli][coverage]") {
  for (const char* threads : {"1", "3"}) {
    INFO(threads);
    const Run r = statecheck(std::string("check two-phase --set rms=3 --coverage --format json --threads ") + threads);
    REQUIRE(r.code == 0);
    const auto doc = test::parse_json(r.out);
    const auto& actions = doc["coverage"]["actions"];
    REQUIRE(actions.size() == 7);
    const auto row = [&](const std::string& name) {
      for (const auto& a : actions)
        if (a["action"] == name) return a;
      FAIL("no coverage row for " << name);
      return nlohmann::json{};
    };
    REQUIRE(row("TMCommit")["enabled"] == 1);
    REQUIRE(row("TMCommit")["new_states"] == 1);
    REQUIRE(row("TMCommit")["params"].empty());
    REQUIRE(row("TMAbort")["enabled"] == 64);
    REQUIRE(row("TMAbort")["new_states"] == 14);
    // Enabled as often for every resource manager (the spec is symmetric); the
    // new states go to the first that reaches them in BFS order (lowest id, then parent).
    const auto rms = row("RMChooseToAbort")["params"];
    REQUIRE(row("RMChooseToAbort")["enabled"] == 156);
    REQUIRE(row("RMChooseToAbort")["new_states"] == 74);
    REQUIRE(rms.size() == 3);
    const int fresh[] = {18, 24, 32};
    for (std::size_t i = 0; i < 3; ++i) {
      REQUIRE(rms[i]["param"] == "rm");
      REQUIRE(rms[i]["value"] == std::to_string(i));
      REQUIRE(rms[i]["enabled"] == 52);
      REQUIRE(rms[i]["new_states"] == fresh[i]);
    }
    const auto abort_msg = row("RMRcvAbortMsg")["params"];
    REQUIRE(abort_msg[2]["enabled"] == 216);
    REQUIRE(abort_msg[2]["new_states"] == 72);
    // Every state but the initial one was new for exactly one transition.
    std::uint64_t fresh_total = 0;
    for (const auto& a : actions) fresh_total += a["new_states"].get<std::uint64_t>();
    REQUIRE(fresh_total == doc["stats"]["distinct"].get<std::uint64_t>() - 1);
    REQUIRE(doc["coverage"]["never_enabled"].empty());
  }
  const Run text = statecheck("check two-phase --set rms=3 --coverage --quiet");
  REQUIRE_THAT(text.out, Catch::Contains("  RMChooseToAbort             156              74\n"
                                         "    rm=0                       52              18\n"));
  REQUIRE_THAT(text.out, Catch::Contains("every action and parameter value was enabled\n"));
}
