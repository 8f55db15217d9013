// `statecheck replay`: traces saved by `check --format json` re-executed by the
// real binaries: reproduced (0), diverging at a named step (1), refused with
// one line (2), or stopped by spec code that throws (3).
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/json.hpp"
#include "support/run_binary.hpp"
#include "support/temp_dir.hpp"

namespace {

using nlohmann::json;
using test::lines;
using test::Run;
using test::run;
using test::statecheck;

/// A fresh directory for the saved traces of one test case, removed after it.
class TraceDir {
 public:
  std::string write_text(const std::string& name, const std::string& text) const {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::string write(const std::string& name, const json& doc) const { return write_text(name, doc.dump(2)); }
  /// Runs `check ARGS --format json` and saves its document.
  json save_check(const std::string& name, const std::string& args, int expected_code) const {
    const Run r = statecheck("check " + args + " --format json --progress 0");
    REQUIRE(r.code == expected_code);
    write_text(name, r.out);
    return test::parse_json(r.out);
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }

 private:
  test::TempDir temp_{"replay"};
  const std::string& dir_ = temp_.path;
};

void require_usage_error(const Run& r, const std::string& message) {
  INFO(r.out);
  REQUIRE(r.code == 2);
  REQUIRE(lines(r.out) == 1);
  REQUIRE_THAT(r.out, Catch::StartsWith("statecheck: error: ") && Catch::Contains(message));
}

/// A hand-written trace of the faulty spec (tests/cli/faulty_spec.cpp): n
/// grows by each `by`, from 0.
json faulty_trace(const std::string& kind, const std::string& crash_at, const std::vector<int>& steps) {
  json trace = json::array({{{"label", nullptr}, {"action", nullptr}, {"params", json::object()}, {"state", {{"n", 0}}}}});
  int n = 0;
  for (int by : steps) {
    n += by;
    trace.push_back({{"label", "Step(by=" + std::to_string(by) + ")"},
                     {"action", "Step"},
                     {"params", {{"by", by}}},
                     {"state", {{"n", n}}}});
  }
  return {{"format", "statecheck-trace"},
          {"version", 1},
          {"run", {{"spec", "faulty"}, {"constants", {{"crash_at", crash_at}, {"safe", "false"}}}}},
          {"outcome", "violation"},
          {"violation", {{"kind", kind}, {"property", kind == "deadlock" ? "Deadlock" : kind}, {"trace", trace}}}};
}

}  // namespace

TEST_CASE("replay: die-hard's saved trace reproduces, in text and JSON", "[cli][replay]") {
  const TraceDir dir;
  dir.save_check("die-hard.json", "die-hard", 1);
  const Run r = statecheck("replay die-hard " + dir.path("die-hard.json"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  REQUIRE_THAT(r.out, Catch::StartsWith("statecheck: replay of " + dir.path("die-hard.json") + " on die-hard\n"));
  REQUIRE_THAT(r.out, Catch::Contains("trace (6 steps):\n  0: initial state\n       big = 0\n       small = 0\n"));
  REQUIRE_THAT(r.out, Catch::EndsWith("  6: BigToSmall\n       big: 5 -> 4\n       small: 2 -> 3\n"
                                      "reproduces: invariant NotSolved fails after 6 steps\n"));

  const Run quiet = statecheck("replay die-hard " + dir.path("die-hard.json") + " --quiet");
  REQUIRE(quiet.code == 0);
  REQUIRE(lines(quiet.out) == 2);

  const Run as_json = statecheck("replay die-hard " + dir.path("die-hard.json") + " --format json");
  REQUIRE(as_json.code == 0);
  const json doc = test::parse_json(as_json.out);
  REQUIRE(doc["format"] == "statecheck-replay");
  REQUIRE(doc["verdict"] == "reproduces");
  REQUIRE(doc["step"].is_null());
  REQUIRE(doc["trace"].size() == 7);
  REQUIRE(doc["trace"][6]["label"] == "BigToSmall");
}

TEST_CASE("replay: the traces of 1 and 4 threads are the same and reproduce, constants from the run record",
          "[cli][replay]") {
  const TraceDir dir;
  const json one = dir.save_check("one.json", "hanoi --set disks=3 --threads 1", 1);
  const json four = dir.save_check("four.json", "hanoi --set disks=3 --threads 4", 1);
  REQUIRE(one["violation"]["trace"] == four["violation"]["trace"]);
  REQUIRE(one["violation"]["length"] == 7);
  for (const char* name : {"one.json", "four.json"}) {
    const Run r = statecheck(std::string("replay hanoi ") + dir.path(name));
    INFO(r.out);
    REQUIRE(r.code == 0);
    REQUIRE_THAT(r.out, Catch::Contains(" on hanoi (disks=3)\n"));  // the default is 4
    REQUIRE_THAT(r.out, Catch::Contains("reproduces: invariant NotSolved fails after 7 steps\n"));
  }
}

TEST_CASE("replay: an HDDS counterexample from the suite reproduces", "[cli][replay]") {
  const TraceDir dir;
  // om-membership variant=as-is scenario=resurrection removed_om=running: "violation NoResurrection 4" in the suite.
  dir.save_check("om.json",
                 "om-membership --set variant=as-is --set scenario=resurrection --set removed_om=running "
                 "--invariant NoResurrection",
                 1);
  const Run r = statecheck("replay om-membership " + dir.path("om.json"));
  INFO(r.out);
  REQUIRE(r.code == 0);
  REQUIRE_THAT(r.out, Catch::Contains(" on om-membership (variant=as-is, scenario=resurrection,"));
  REQUIRE_THAT(r.out, Catch::Contains("  1: Decommission(c=c1, om=o2)\n"));
  REQUIRE_THAT(r.out, Catch::EndsWith("reproduces: invariant NoResurrection fails after 4 steps\n"));
}

TEST_CASE("replay: a tampered trace does not reproduce, naming the first difference", "[cli][replay]") {
  const TraceDir dir;
  const json saved = dir.save_check("die-hard.json", "die-hard", 1);
  struct Case {
    const char* name;
    void (*tamper)(json& trace);
    const char* message;
  };
  const Case cases[] = {
      {"value changed", [](json& t) { t[3]["state"]["small"] = 1; },
       "does not reproduce: step 3 (EmptySmall) leads to a different state: small = 0, recorded 1\n"},
      {"step dropped", [](json& t) { t.erase(3); },
       "does not reproduce: step 3 (BigToSmall) leads to a different state: big = 2, recorded 0\n"},
      {"action renamed", [](json& t) { t[2]["label"] = t[2]["action"] = "BigToLarge"; },
       "does not reproduce: step 2 (BigToLarge) names no transition of the spec\n"},
      {"action field alone renamed", [](json& t) { t[2]["action"] = "SmallToBig"; },
       "does not reproduce: step 2 (BigToSmall) records action 'SmallToBig', its label names 'BigToSmall'\n"},
      {"initial state changed", [](json& t) { t[0]["state"]["big"] = 5; },
       "does not reproduce: step 0 (initial state) is not an initial state of the spec: big = 0, recorded 5\n"},
      {"last step dropped", [](json& t) { t.erase(6); },
       "does not reproduce: invariant NotSolved holds in the last state (step 5)\n"},
  };
  for (const Case& c : cases) {
    INFO(c.name);
    json doc = saved;
    c.tamper(doc["violation"]["trace"]);
    const Run r = statecheck("replay die-hard " + dir.write("tampered.json", doc));
    INFO(r.out);
    REQUIRE(r.code == 1);
    REQUIRE_THAT(r.out, Catch::EndsWith(c.message));
  }

  // Parameters that disagree with the label; a transition whose guard fails (peg 1 is empty).
  const json hanoi = dir.save_check("hanoi.json", "hanoi --set disks=3", 1);
  json params = hanoi;
  params["violation"]["trace"][1]["params"]["to"] = 1;
  const Run wrong_params = statecheck("replay hanoi " + dir.write("params.json", params));
  REQUIRE(wrong_params.code == 1);
  REQUIRE_THAT(wrong_params.out, Catch::EndsWith("does not reproduce: step 1 (Move(from=0, to=2)) records other "
                                                 "parameters than its label names: to = 2, recorded 1\n"));
  json disabled = hanoi;
  disabled["violation"]["trace"][1]["label"] = "Move(from=1, to=2)";
  disabled["violation"]["trace"][1]["params"]["from"] = 1;
  const Run not_enabled = statecheck("replay hanoi " + dir.write("disabled.json", disabled));
  REQUIRE(not_enabled.code == 1);
  REQUIRE_THAT(not_enabled.out,
               Catch::EndsWith("does not reproduce: step 1 (Move(from=1, to=2)) is not enabled in the state before it\n"));
}

TEST_CASE("replay: --set changing a recorded constant so the trace no longer fits, exit 1", "[cli][replay]") {
  const TraceDir dir;
  dir.save_check("hanoi.json", "hanoi --set disks=3", 1);
  const Run r = statecheck("replay hanoi " + dir.path("hanoi.json") + " --set disks=4");
  INFO(r.out);
  REQUIRE(r.code == 1);
  REQUIRE_THAT(r.out, Catch::Contains(" on hanoi (disks=4)\n--set disks=4 overrides the recorded disks=3\n"));
  REQUIRE_THAT(r.out, Catch::EndsWith("does not reproduce: step 0 (initial state) is not an initial state of the spec: "
                                      "peg = [0,0,0,0], recorded [0,0,0]\n"));
  // Setting a constant to its recorded value changes nothing and says nothing.
  const Run same = statecheck("replay hanoi " + dir.path("hanoi.json") + " --set disks=3");
  REQUIRE(same.code == 0);
  REQUIRE_THAT(same.out, !Catch::Contains("overrides"));
}

TEST_CASE("replay: files that are not a replayable trace are refused with one line, exit 2", "[cli][replay]") {
  const TraceDir dir;
  const json saved = dir.save_check("die-hard.json", "die-hard", 1);
  const std::string die_hard = dir.path("die-hard.json");
  require_usage_error(statecheck("replay two-phase " + die_hard),
                      die_hard + " is a trace of spec 'die-hard', not 'two-phase'");

  const std::string text = saved.dump();
  require_usage_error(statecheck("replay die-hard " + dir.write_text("cut.json", text.substr(0, text.size() / 2))),
                      "cut.json: not JSON: parse error");
  require_usage_error(statecheck("replay die-hard " + dir.write_text("empty.json", "")), "empty.json is empty");
  require_usage_error(statecheck("replay die-hard " + dir.path("missing.json")), "cannot read " + dir.path("missing.json"));
  require_usage_error(statecheck("replay die-hard " + dir.path("")), "it is a directory");
  require_usage_error(statecheck("replay die-hard " + dir.write_text("array.json", "[1, 2]")),
                      "not a statecheck trace: the document is an array");

  json other = saved;
  other["format"] = "tlc-trace";
  require_usage_error(statecheck("replay die-hard " + dir.write("other.json", other)), "field 'format' must be \"statecheck-trace\"");
  json newer = saved;
  newer["version"] = 2;
  require_usage_error(statecheck("replay die-hard " + dir.write("newer.json", newer)),
                      "trace format version 2 is not supported; this statecheck reads version 1");
  json stateless = saved;
  stateless["violation"]["trace"][2].erase("state");
  require_usage_error(statecheck("replay die-hard " + dir.write("stateless.json", stateless)),
                      "missing field 'violation.trace[2].state'");
  json no_run = saved;
  no_run.erase("run");
  require_usage_error(statecheck("replay die-hard " + dir.write("no-run.json", no_run)), "missing field 'run'");
  json bad_type = saved;
  bad_type["violation"]["trace"][1]["label"] = 7;
  require_usage_error(statecheck("replay die-hard " + dir.write("bad-type.json", bad_type)),
                      "field 'violation.trace[1].label' must be a string, not a number");

  dir.save_check("goal.json", "two-phase --max-depth 10", 1);
  require_usage_error(statecheck("replay two-phase " + dir.path("goal.json")),
                      "goal AllCommitted was never reached: a goal violation has no trace to replay");
  dir.save_check("ok.json", "two-phase", 0);
  require_usage_error(statecheck("replay two-phase " + dir.path("ok.json")),
                      "the run's outcome is 'ok', not 'violation': there is no counterexample to replay");
  json unknown = saved;
  unknown["run"]["constants"]["jugs"] = "3";
  require_usage_error(statecheck("replay die-hard " + dir.write("unknown.json", unknown)),
                      "unknown.json: recorded unknown constant 'jugs' for spec 'die-hard'");
}

TEST_CASE("replay: deadlocks, and spec code that throws (exit 3 with the step)", "[cli][replay]") {
  const TraceDir dir;
  // Five steps of 2 reach n = 10, where Step's guard (n < 10) fails for both parameters.
  const std::string dead = dir.write("dead.json", faulty_trace("deadlock", "100", {2, 2, 2, 2, 2}));
  const Run r = run(FAULTY_BIN, "replay " + dead + " --quiet");
  INFO(r.out);
  REQUIRE(r.code == 0);
  REQUIRE_THAT(r.out, Catch::EndsWith("reproduces: deadlock after 5 steps\n"));
  // The README's form, `replay SPEC FILE`, works in a one-spec checker too (issue 14).
  const Run named = run(FAULTY_BIN, "replay faulty " + dead + " --quiet");
  INFO(named.out);
  REQUIRE(named.code == 0);
  REQUIRE(named.out == r.out);

  const std::string live = dir.write("live.json", faulty_trace("deadlock", "100", {2, 2, 2, 2}));
  const Run alive = run(FAULTY_BIN, "replay " + live + " --quiet");
  REQUIRE(alive.code == 1);
  REQUIRE_THAT(alive.out, Catch::EndsWith("does not reproduce: no deadlock in the last state (step 4): Step(by=1) is enabled\n"));

  const std::string crash = dir.write("crash.json", faulty_trace("deadlock", "3", {1, 2}));
  const Run thrown = run(FAULTY_BIN, "replay " + crash);
  INFO(thrown.out);
  REQUIRE(thrown.code == 3);
  REQUIRE_THAT(thrown.out, Catch::Contains("trace to the state where it happened (1 steps), then action Step(by=2) threw:\n"
                                           "  0: initial state\n       n = 0\n  1: Step(by=1)\n       n: 0 -> 1\n"));
  REQUIRE_THAT(thrown.out, Catch::EndsWith("error: spec error at step 2 in action Step(by=2): counter hit crash_at\n"));
}
