// The engine at run time under hostile use (issue 13 items 10, 15, 17, 18 and
// 14): signals in every phase, unbounded specs, huge states and fan-outs, and
// --memory as a bound on the whole process's peak RSS, measured in the child
// with wait4. Signals are sent when the spec says "ready" from inside the
// phase (it blocks until the stop is requested): no sleeps, no timing.
#include <signal.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "fixture.hpp"
#include "support/files.hpp"
#include "support/process.hpp"
#include "support/run_binary.hpp"
#include "support/sanitized.hpp"
#include "support/temp_dir.hpp"

namespace {

const std::string blocking = hostile::fixture("phase_blocking");
const std::string tree = hostile::fixture("tree");
const std::string huge = hostile::fixture("huge");
const std::string fanout = hostile::fixture("fanout");
const std::string long_trace = hostile::fixture("long_trace");

constexpr std::size_t mib = std::size_t{1} << 20;

}  // namespace

TEST_CASE("engine: SIGTERM during a long init stops it (exit 3)", "[hostile]") {
  // 2^31 combinations, one initial state; the init blocks on the first one.
  // Was: the signal waited for every combination to run.
  for (const int sig : {SIGTERM, SIGINT}) {
    const test::Finished c = test::run_to_end(blocking, "check --set in_init=true --set ahi=65535 --set bhi=32767 -q", sig);
    INFO(c.out);
    REQUIRE(c.code == 3);
    REQUIRE_THAT(c.out, Catch::Contains("stopped: interrupted while making the initial states (2147483648 "
                                        "combinations); nothing was checked\n"));
  }
}

TEST_CASE("engine: a signal while the counterexample is rebuilt and printed lets the answer out", "[hostile]") {
  // Printing n = 3 blocks until the stop is requested: the search is over and its
  // answer is complete, so the run prints it whole and ends with its verdict.
  for (const int sig : {SIGINT, SIGTERM}) {
    for (const std::string format : {"text", "json"}) {
      const test::Finished c = test::run_to_end(blocking, "check --set in_trace=true --self-check 0 --quiet --format " + format, sig);
      INFO(c.out);
      REQUIRE_THAT(c.out, Catch::Contains("ready\n"));  // it blocked, and the signal came while it did
      REQUIRE(c.code == 1);
      if (format == "text") {
        REQUIRE_THAT(c.out, Catch::Contains("violation: invariant Below3 fails after 3 steps\n"));
        REQUIRE_THAT(c.out, Catch::Contains("  3: Inc\n       n: 2 -> 3\n"));
      } else {
        REQUIRE_THAT(c.out, Catch::Contains("\"property\": \"Below3\""));
      }
    }
  }
}

TEST_CASE("engine: SIGTERM while expanding a level stops it (exit 3)", "[hostile]") {
  const test::Finished c = test::run_to_end(blocking, "check --self-check 0 -q", SIGTERM);
  INFO(c.out);
  REQUIRE(c.code == 3);
  REQUIRE_THAT(c.out, Catch::Contains("stopped: interrupted while expanding level 4 (1 of 1 states expanded)"));
}

TEST_CASE("engine: SIGTERM during the --dump-graph exploration stops it, file untouched", "[hostile]") {
  // Was: lost; the exploration of this unbounded spec went on to --graph-limit.
  const std::string dot = std::filesystem::temp_directory_path() / ("engine-graph-" + std::to_string(getpid()) + ".dot");
  std::ofstream(dot) << "keep\n";
  const test::Finished c = test::run_to_end(blocking, "check --dump-graph " + dot + " --graph-limit 16777216", SIGTERM);
  INFO(c.out);
  REQUIRE(c.code == 3);
  REQUIRE_THAT(c.out, Catch::EndsWith("ready\nstatecheck: stopped: interrupted while exploring the graph for "
                                      "--dump-graph (level 4, 4 states); no graph was written and nothing was "
                                      "checked\n"));
  REQUIRE(test::read_text(dot) == "keep\n");
  std::filesystem::remove(dot);
}

TEST_CASE("engine: --dump-graph honours --memory (exit 3, one line)", "[hostile]") {
  // Was: --memory ignored (24 GB on two-phase rms=9 with --memory 16M).
  const test::Finished c = test::run_to_end(tree, "check --dump-graph /dev/null --graph-limit 16777216 --memory 16M");
  INFO(c.out);
  REQUIRE(c.code == 3);
  REQUIRE(test::lines(c.out) == 1);
  REQUIRE_THAT(c.out, Catch::StartsWith("statecheck: stopped: the graph for --dump-graph outgrew --memory 16 MiB (level "));
  REQUIRE(c.peak_rss < 16 * mib + 48 * mib);
}

TEST_CASE("engine: an unbounded spec ends at --max-depth, or at --memory with exit 3", "[hostile]") {
  const test::Finished bounded = test::run_to_end(tree, "check --max-depth 12");
  INFO(bounded.out);
  REQUIRE(bounded.code == 1);  // the goal Far is out of reach within 12 levels
  REQUIRE_THAT(bounded.out, Catch::Contains("distinct states   4,095\n"));

  const test::Finished unbounded = test::run_to_end(tree, "check --memory 32M -q");
  INFO(unbounded.out);
  REQUIRE(unbounded.code == 3);
  REQUIRE_THAT(unbounded.out, Catch::Contains("stopped: "));
  REQUIRE_THAT(unbounded.out, Catch::Contains("raise --memory"));
}

// Issue 43 item 16: the program's share of --memory was its resident size at
// start, which the page cache moves by a few hundred KiB from one run to the
// next ("less the 15 MiB" / "16 MiB"), so one command stopped at different
// levels. The share now counts the heap in whole MiB and a fixed allowance for
// the code: one command, one stop.
TEST_CASE("engine: a --memory stop is the same for every run of one command", "[hostile]") {
  for (const char* threads : {"1", "2"}) {
    std::string first;
    for (int run = 0; run < 6; ++run) {
      const test::Finished c = test::run_to_end(tree, std::string("check -q --memory 40M --threads ") + threads);
      INFO("threads " << threads << ", run " << run << ": " << c.out);
      REQUIRE(c.code == 3);
      const std::size_t at = c.out.find("stopped: ");
      REQUIRE(at != std::string::npos);
      const std::string stop = c.out.substr(at, c.out.find('\n', at) - at);
      if (run == 0) first = stop;
      REQUIRE(stop == first);
    }
    REQUIRE_THAT(first, Catch::StartsWith("stopped: expanding level "));
  }
}

TEST_CASE("engine: --memory bounds the peak RSS of the whole process", "[hostile]") {
  SKIP_PEAK_RSS_IN_SANITIZED_BUILD();
  // Was: 64M -> 109 MiB, 256M -> 384 MiB before the clean stop. The README
  // documents the bound: --memory plus 16 MiB (the program itself).
  const char* rounds = std::getenv("HOSTILE_ROUNDS");
  std::vector<std::string> budgets = {"48M", "64M", "96M"};
  if (rounds != nullptr && std::atoi(rounds) > 1) budgets.insert(budgets.end(), {"256M", "512M"});
  for (const std::string& m : budgets) {
    for (const std::string threads : {"1", "2"}) {
      const test::Finished c = test::run_to_end(tree, "check -q --memory " + m + " --threads " + threads);
      INFO(m << " " << threads << " threads: " << c.out << "peak RSS " << c.peak_rss / mib << " MiB");
      REQUIRE(c.code == 3);
      const std::size_t budget = static_cast<std::size_t>(std::atoi(m.c_str())) * mib;
      REQUIRE(c.peak_rss <= budget + 16 * mib);
    }
  }
}

TEST_CASE("engine: short of --memory, the visited set packs instead of doubling, and the run completes", "[hostile]") {
  SKIP_PEAK_RSS_IN_SANITIZED_BUILD();
  // two-phase rms=8: 1,745,408 states. Doubling the table to 32 MiB would
  // take more than half of what --memory 72M leaves the search: it grows by
  // 8 MiB segments instead, to 24 MiB (1 thread) or 16 MiB 0.83 full (2
  // threads: two segments in flight leave less room). Was: stopped at level 17
  // (1,579,947 states) with a doubled 32 MiB table.
  for (const std::string threads : {"1", "2"}) {
    const test::Finished c = test::run_to_end(STATECHECK_BIN, "check two-phase --set rms=8 --memory 72M --threads " + threads);
    INFO(threads << " threads: " << c.out << "peak RSS " << c.peak_rss / mib << " MiB");
    REQUIRE(c.code == 0);
    REQUIRE_THAT(c.out, Catch::Contains("distinct states   1,745,408\n"));
    const bool packed = c.out.find("visited set       16.0 MiB") != std::string::npos ||
                        c.out.find("visited set       24.0 MiB") != std::string::npos;
    REQUIRE(packed);
    REQUIRE(c.peak_rss <= 72 * mib + 16 * mib);
  }
}

TEST_CASE("engine: the smallest --memory (16M) still checks a small spec", "[hostile]") {
  SKIP_PEAK_RSS_IN_SANITIZED_BUILD();
  // The program's own memory is set aside from --memory; the fresh visited
  // set's untouched pages are not counted, or nothing would fit in 16M.
  const test::Finished c = test::run_to_end(tree, "check --max-depth 5 --memory 16M");
  INFO(c.out);
  REQUIRE(c.code == 1);  // Far is not reached within depth 5
  REQUIRE_THAT(c.out, Catch::Contains("distinct states   31\n"));
  REQUIRE(c.peak_rss <= 16 * mib);
}

TEST_CASE("engine: a 64 KiB state costs what is found, not state size x fan-out", "[hostile]") {
  SKIP_PEAK_RSS_IN_SANITIZED_BUILD();
  // Was: 4 states of 64 KiB peaked at 1.08 GB (a record block of 16384 states).
  const test::Finished c = test::run_to_end(huge, "check -q --set fanout=4096");
  INFO(c.out << "peak RSS " << c.peak_rss / mib << " MiB");
  REQUIRE(c.code == 0);
  REQUIRE(c.peak_rss < 96 * mib);
}

TEST_CASE("engine: 2,000,000 transitions between 2 states cost what is found", "[hostile]") {
  SKIP_PEAK_RSS_IN_SANITIZED_BUILD();
  // Was: 2.6 GB for 2 states (staging and level table sized by the fan-out
  // times thousands of states). Now: a staging area of 256 KiB, and a level
  // table for one state's fan-out (32 bytes a transition).
  const test::Finished c = test::run_to_end(fanout, "check -q --self-check 0");
  INFO(c.out << "peak RSS " << c.peak_rss / mib << " MiB");
  REQUIRE(c.code == 0);
  REQUIRE(c.peak_rss < 384 * mib);
}

TEST_CASE("engine: --coverage of a million parameter values is linear", "[hostile]") {
  // Was: quadratic (0.14 s at 10,000 values, over 14 minutes at 2,000,000), and
  // deaf to SIGTERM (see exploration_test). HOSTILE_ROUNDS > 1: 2,000,000.
  const char* rounds = std::getenv("HOSTILE_ROUNDS");
  const int values = rounds != nullptr && std::atoi(rounds) > 1 ? 2000000 : 1000000;
  const test::Finished c = test::run_to_end(fanout, "check --coverage --set fanout=" + std::to_string(values));
  INFO(c.out.substr(0, 2000));
  REQUIRE(c.code == 0);
  REQUIRE_THAT(c.out, Catch::Contains("distinct states   2\n"));
  // Rows are aligned to the longest name, the last value's.
  const std::string last = "v=" + std::to_string(values - 1);
  REQUIRE_THAT(c.out, Catch::Contains("\n    v=0" + std::string(15 + last.size() - 3, ' ') + "1               1\n"));
  REQUIRE_THAT(c.out, Catch::Contains("\n    " + last + std::string(15, ' ') + "1               0\n"));
}

// Issue 43 item 15: a 60,000-step counterexample peaked at 70 MiB as text and
// 137 MiB as JSON under --memory 28M: the whole trace was held as printed
// values, and the JSON as one tree. It is now walked from its path a step at a
// time as it is written. (Under 28M the chain's 60,000 levels no longer fit:
// their records are counted now, and the run stops cleanly; 48M holds them.)
TEST_CASE("engine: --memory bounds the process while it prints a long counterexample", "[hostile]") {
  SKIP_PEAK_RSS_IN_SANITIZED_BUILD();
  const test::TempDir dir("long-trace");
  for (const std::string& format : std::vector<std::string>{"--format text", "--format json", "--html " + dir.sub("t.html") + " -q"}) {
    const test::Finished c = test::run_to_end(long_trace, "--set length=60000 --memory 48M --threads 2 " + format);
    INFO(format << ": peak RSS " << c.peak_rss / mib << " MiB");
    REQUIRE(c.code == 1);
    REQUIRE(c.peak_rss <= 48 * mib + 16 * mib);
    if (format == "--format json") {
      REQUIRE_THAT(c.out, Catch::Contains("\"length\": 60000,"));
      REQUIRE_THAT(c.out, Catch::Contains("\"n\": 60000,"));  // the last step's state
    } else {
      REQUIRE_THAT(c.out, Catch::Contains("trace (60000 steps):\n"));
      REQUIRE_THAT(c.out, Catch::Contains("\n  60000: Step\n       n: 59999 -> 60000\n       seen[7]: 59991 -> 59999\n"));
    }
  }
  const test::Finished small = test::run_to_end(long_trace, "--set length=60000 --memory 28M --threads 2 -q");
  INFO(small.out);
  REQUIRE(small.code == 3);
  // Which part gives out first moved when the workers' record blocks came to
  // be counted as at most one partly filled block per worker (record_buffer.hpp):
  // here the trace log, which has no --workdir to spill to.
  REQUIRE_THAT(small.out, Catch::Contains("stopped: the trace log (1 MiB in RAM) no longer fits in --memory 28 MiB"));
  REQUIRE_THAT(small.out, Catch::Contains("raise --memory, or give --workdir DIR"));
}
