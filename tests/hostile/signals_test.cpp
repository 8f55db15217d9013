// Signals with no timing in them: the fixture hostile-signal_blocking blocks in
// an effect (after writing a "ready" file) until the run is asked to stop, so
// each signal here lands while the search or the walks are certainly running.
#include <signal.h>

#include <catch2/catch.hpp>
#include <regex>
#include <string>
#include <vector>

#include "fixture.hpp"
#include "support/json.hpp"
#include "support/process.hpp"
#include "support/run_binary.hpp"
#include "support/temp_dir.hpp"

namespace {

const std::string blocking = hostile::fixture("signal_blocking");

/// A marker directory for the fixture, named in SIGNAL_MARKER_DIR while it lives
/// (children started meanwhile block; later ones do not).
struct Markers : test::TempDir {
  Markers() : test::TempDir("signals") { setenv("SIGNAL_MARKER_DIR", path.c_str(), 1); }
  ~Markers() { unsetenv("SIGNAL_MARKER_DIR"); }
};

/// Runs the fixture with `args`, sends `sig` once it blocks, and returns how it ended.
test::Child::End stopped_by(int sig, const std::vector<std::string>& args) {
  const Markers dir;
  test::Child child(blocking, args, dir.sub("out"));
  child.wait_for_file(dir.sub("ready"));
  child.signal(sig);
  return child.wait();
}

}  // namespace

TEST_CASE("signals: SIGINT during check stops with the partial summary, exit 3", "[hostile][signals]") {
  const auto end = stopped_by(SIGINT, {"--threads", "2", "--progress", "0"});
  INFO(end.out);
  REQUIRE(end.code == 3);
  REQUIRE_THAT(end.out, Catch::Contains("stopped: interrupted while expanding level 2 (0 of 2 states expanded); "
                                        "the statistics cover the levels before it"));
  // Levels 1 (n = 0) and 2 (n = 1, 2): the self-check of level 2 runs Step from n = 2 and blocks there.
  REQUIRE_THAT(end.out, Catch::Contains("  distinct states   3\n"));
}

TEST_CASE("signals: SIGTERM stops a check like Ctrl-C, exit 3", "[hostile][signals]") {
  const auto end = stopped_by(SIGTERM, {"--threads", "2", "--progress", "0"});
  INFO(end.out);
  REQUIRE(end.code == 3);
  REQUIRE_THAT(end.out, Catch::Contains("stopped: interrupted while expanding level 2 (0 of 2 states expanded)"));
}

TEST_CASE("signals: SIGINT and SIGTERM stop simulate with the walks so far, exit 3", "[hostile][signals]") {
  for (const int sig : {SIGINT, SIGTERM}) {
    INFO("signal " << sig);
    const auto end = stopped_by(sig, {"simulate", "--threads", "1", "--depth", "1000", "--runs", "1000000"});
    INFO(end.out);
    REQUIRE(end.code == 3);
    // The first walk blocks at its third step, so no walk is complete.
    REQUIRE_THAT(end.out, Catch::Contains("stopped: interrupted after 0 complete walks"));
    REQUIRE_THAT(end.out, Catch::Contains("  walks             0\n"));
  }
}

// Issue 43 item 14a: suite ignored SIGINT, and SIGTERM ended it with no summary.
TEST_CASE("signals: SIGINT and SIGTERM stop a suite with the rows of the runs done, exit 3", "[hostile][signals][suite]") {
  for (const int sig : {SIGINT, SIGTERM}) {
    INFO("signal " << sig);
    // The first of the fixture's two runs (top=1) never blocks; the second does, and is stopped.
    const auto end = stopped_by(sig, {"suite", "--threads", "2"});
    INFO(end.out);
    REQUIRE(end.code == 3);
    // One row, the first run's: the stopped run is not done and has none.
    REQUIRE_THAT(end.out, Catch::StartsWith("spec "));
    REQUIRE_THAT(end.out, Catch::Contains("\nsignal-blocking top=1   "));
    REQUIRE(end.out.find("signal-blocking") == end.out.rfind("signal-blocking"));
    REQUIRE_THAT(end.out, Catch::Contains(" ok                    2             2      2     "));
    REQUIRE_THAT(end.out, Catch::EndsWith("s  \n1 runs, 1 as documented, 0 unexpected\nstopped after 1 of 2 runs\n"));
  }
}

TEST_CASE("signals: a second Ctrl-C ends a run that does not stop, at once", "[hostile][signals]") {
  const Markers dir;
  test::Child child(blocking, {"--set", "hold=true", "--progress", "0"}, dir.sub("out"));
  child.wait_for_file(dir.sub("ready"));
  child.signal(SIGINT);
  // The first one was handled (the stop is requested, SIGINT has its default action back).
  child.wait_for_file(dir.sub("stopping"));
  child.signal(SIGINT);
  const auto end = child.wait();
  INFO(end.out);
  REQUIRE(end.signal == SIGINT);
  REQUIRE_THAT(end.out, !Catch::Contains("stopped:"));
}

TEST_CASE("signals: SIGINT with --checkpoint, resumed, gives the uninterrupted counts", "[hostile][signals]") {
  const test::TempDir keep("signals-checkpoint");
  const std::string ckpt = keep.sub("ckpt");
  {
    const Markers dir;
    test::Child child(blocking, {"--checkpoint", ckpt, "--threads", "2", "--progress", "0"}, dir.sub("out"));
    child.wait_for_file(dir.sub("ready"));
    child.signal(SIGINT);
    const auto end = child.wait();
    INFO(end.out);
    REQUIRE(end.code == 3);
    REQUIRE_THAT(end.out, Catch::Contains("stopped: interrupted while expanding level "));
    // The hint names the binary that ran (a one-spec checker takes no subcommand or spec name).
    REQUIRE_THAT(end.out, Catch::Contains("; checkpoint written to " + ckpt + "; continue with: hostile-signal_blocking "
                                          "--set hold=false --set top=1000 --resume " + ckpt));
  }
  const test::Run resumed = test::run(blocking, "--resume " + ckpt + " --format json --quiet");
  const test::Run whole = test::run(blocking, "--format json --quiet");
  REQUIRE(resumed.code == 0);
  REQUIRE(whole.code == 0);
  const auto a = test::parse_json(whole.out);
  const auto b = test::parse_json(resumed.out);
  REQUIRE(test::field(a, "stats/distinct") == 1001);  // n = 0..1000
  REQUIRE(test::field(a, "stats/depth") == 501);      // levels: 500 steps of 2 reach n = 1000
  REQUIRE(test::field(b, "resumed_from_level").get<int>() > 0);
  for (const char* key : {"distinct", "generated", "depth", "states_per_level", "actions"}) {
    INFO(key);
    REQUIRE(test::field(a, std::string("stats/") + key) == test::field(b, std::string("stats/") + key));
  }
}

namespace {
/// Whether a progress line shows a self-check of at least 20,000 states not
/// yet half done: a signal sent now lands inside it (it runs for a while yet).
bool inside_a_long_self_check(const std::string& out) {
  static const std::regex running("self-check ([0-9]+)/([0-9]+) states of this level");
  for (auto m = std::sregex_iterator(out.begin(), out.end(), running); m != std::sregex_iterator(); ++m) {
    const unsigned long checked = std::stoul((*m)[1]), planned = std::stoul((*m)[2]);
    if (planned >= 20000 && checked * 2 < planned) return true;
  }
  return false;
}
}  // namespace

// Issue 43 item 1: the self-check of a symmetric spec ignored SIGINT and SIGTERM.
TEST_CASE("signals: SIGINT and SIGTERM stop a running self-check like the search, exit 3", "[hostile][signals][self-check]") {
  for (const int sig : {SIGINT, SIGTERM}) {
    INFO("signal " << sig);
    const test::TempDir dir("self-check-signal");
    test::Child child(hostile::fixture("safe_mode"),
                      {"check", "--set", "datanodes=6", "--self-check", "all", "--progress", "0.02", "--threads", "2"},
                      dir.path + "/out");
    child.wait_for_output(inside_a_long_self_check);
    child.signal(sig);
    const auto end = child.wait();
    INFO(end.out);
    REQUIRE(end.code == 3);
    // Stopped before a state of the level was expanded: in its self-check.
    REQUIRE(std::regex_search(end.out, std::regex("stopped: interrupted while expanding level [0-9]+ \\(0 of [0-9,]+ states expanded\\)")));
    // The distinct states are those found, the stopped level's too; with `all` every state of the
    // levels before it was checked, and only part of that level (the last progress line's total).
    std::smatch planned, checked, distinct;
    static const std::regex running("self-check [0-9]+/([0-9]+) states of this level");
    for (auto m = std::sregex_iterator(end.out.begin(), end.out.end(), running); m != std::sregex_iterator(); ++m) planned = *m;
    REQUIRE(std::regex_search(end.out, checked, std::regex("  self-check        ([0-9,]+) states")));
    REQUIRE(std::regex_search(end.out, distinct, std::regex("  distinct states   ([0-9,]+)")));
    const auto number = [](std::string text) {
      std::erase(text, ',');
      return std::stoull(text);
    };
    REQUIRE(number(checked[1]) < number(distinct[1]));
    REQUIRE(number(checked[1]) + number(planned[1]) > number(distinct[1]));
  }
}
