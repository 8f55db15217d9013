// The next level streamed to --workdir while it is made (issue 18 part 1,
// search/level_writer.hpp), as a user runs it: the same JSON document as in
// RAM (its blocks compressed or not), with 1 and 2 threads, with symmetry, on a violation found on a
// streamed level and on a spec error met while one streams; a --memory that
// cannot hold the level completes; a stop while a level streams writes no
// checkpoint of a boundary it no longer has, and a resume from the one
// written before is exact; a failed write is exit 3 and one line.
// The frontier-stream test hooks (store/fault.hpp) stream every expanded
// level in batches of at most 64 states, each flushed on its own.
#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/json.hpp"
#include "support/search_facts.hpp"
#include "support/sanitized.hpp"
#include "support/shell.hpp"
#include "support/temp_dir.hpp"

using test::search_facts;
using test::sh;
namespace fs = std::filesystem;

namespace {

const std::string bin = STATECHECK_BIN;

std::uint64_t spilled(const std::string& out) {
  return test::field(test::parse_json(out), "stats/frontier_spilled_levels").get<std::uint64_t>();
}

}  // namespace

TEST_CASE("next level streamed while made: the same result as in RAM, any threads", "[cli][frontier][stream]") {
  const test::TempDir dir("stream");
  const std::string work = dir.sub("w");
  fs::create_directory(work);
  // Verdicts as their own tests pin them: die-hard's NotSolved is violated at
  // depth 7 (on a streamed level), voting is symmetric (orbit counts compared),
  // the faulty spec throws while level 3 is expanded (exit 3, with its trace).
  const std::string faulty = std::string(FAULTY_BIN) + " --set crash_at=5";
  for (const std::string& run : {bin + " check die-hard", bin + " check two-phase --set rms=5", bin + " check voting",
                                bin + " check paxos --set acceptors=3 --set values=2",
                                bin + " check filter --set procs=3 --max-depth 7", faulty}) {
    for (const char* threads : {"1", "2"}) {
      INFO(run << ", " << threads << " threads");
      const std::string cmd = run + " --threads " + threads + " --progress 0 --format json";
      const auto ram = sh(cmd);
      const auto streamed = sh("STATECHECK_FAULT=frontier-stream " + cmd + " --workdir " + work);
      const auto raw = sh("STATECHECK_FAULT=frontier-stream " + cmd + " --workdir " + work + " --workdir-compression none");
      CHECK(streamed.code == ram.code);
      CHECK(raw.code == ram.code);
      CHECK(search_facts(raw.out) == search_facts(ram.out));
      CHECK(ram.code == (run == faulty ? 3 : run == bin + " check die-hard" ? 1 : 0));
      CHECK(spilled(streamed.out) > 0);
      CHECK(search_facts(streamed.out) == search_facts(ram.out));
      CHECK(fs::is_empty(work));
    }
  }
}

TEST_CASE("next level streamed while made: a --memory that cannot hold the level completes", "[cli][frontier][stream]") {
  // --memory bounds the process: a sanitizer's own memory would change where the run stops.
  if (test::sanitized_build) return;
  const test::TempDir dir("stream");
  const std::string work = dir.sub("w");
  fs::create_directory(work);
  // two-phase rms=7: 296,448 states, levels of up to ~38,000 states (measured
  // by statecheck). At 30 MiB (16 MiB of them the program) the levels cannot
  // be made in RAM: without --workdir the run stops; with it, the frontier
  // and the next level go to disk and the run completes with the RAM result.
  const std::string run = bin + " check two-phase --set rms=7 --progress 0 --format json";
  CHECK(sh(run + " --memory 30M").code == 3);
  for (const char* threads : {"1", "2"}) {
    INFO(threads << " threads");
    const auto ram = sh(run + " --threads " + threads);
    const auto disk = sh(run + " --threads " + threads + " --memory 30M --workdir " + work);
    CHECK(disk.code == 0);
    CHECK(spilled(disk.out) > 0);
    // Within --memory plus the 16 MiB of process slack the README allows.
    CHECK(test::field(test::parse_json(disk.out), "stats/peak_rss_bytes").get<std::uint64_t>() <= (30u + 16u) << 20);
    CHECK(search_facts(disk.out) == search_facts(ram.out));
    CHECK(fs::is_empty(work));
  }
}

TEST_CASE("next level streamed while made: a stop saves no half level, a resume is exact", "[cli][frontier][stream]") {
  const test::TempDir dir("stream");
  const std::string work = dir.sub("w");
  fs::create_directory(work);
  const std::string run = bin + " check two-phase --set rms=5 --progress 0 --format json --workdir " + work;
  // The hook stops (as Ctrl-C) once part of level 5 is on disk and in the visited set.
  const std::string ckpt = dir.sub("ckpt");
  const auto stopped = sh("STATECHECK_FAULT=frontier-stream-interrupt " + run + " --checkpoint " + ckpt);
  CHECK(stopped.code == 3);
  const std::string message = test::field(test::parse_json(stopped.out), "limit/message").get<std::string>();
  CHECK(message.find("interrupted while expanding level 4 (64 of 170 states expanded)") == 0);
  CHECK(message.find("; no checkpoint was written: the visited set already holds 192 states of level 5 (streamed to "
                     "--workdir while it was made), so the last level boundary cannot be saved; give "
                     "--checkpoint-every to have boundaries saved") != std::string::npos);
  CHECK(!fs::exists(ckpt + "/checkpoint.sckp"));
  CHECK(sh(run + " --resume " + ckpt).code == 2);  // nothing to resume from
  // With checkpoints at every boundary, the one before the stop stays, and resuming it is exact.
  const auto every = sh("STATECHECK_FAULT=frontier-stream-interrupt " + run + " --checkpoint " + ckpt +
                        " --checkpoint-every 0.000001");
  CHECK(every.code == 3);
  CHECK(test::field(test::parse_json(every.out), "limit/message").get<std::string>().find(
            "; the checkpoint written before is still valid: continue with: ") != std::string::npos);
  const auto resumed = sh("STATECHECK_FAULT=frontier-stream " + run + " --resume " + ckpt);
  CHECK(test::field(test::parse_json(resumed.out), "resumed_from_level").get<int>() == 4);
  nlohmann::json expected = search_facts(sh(run).out), got = search_facts(resumed.out);
  for (nlohmann::json* doc : {&got, &expected}) {  // what a resume does not carry over
    doc->erase("resumed_from_level");
    (*doc)["stats"].erase("self_checked");
    (*doc)["stats"].erase("self_checked_by_depth");
  }
  CHECK(got == expected);
  CHECK(fs::is_empty(work));
}

TEST_CASE("next level streamed while made: a failed write is exit 3, one line naming the file", "[cli][frontier][stream][fault]") {
  const test::TempDir dir("stream");
  const std::string work = dir.sub("w");
  fs::create_directory(work);
  const auto written = sh("STATECHECK_FAULT=frontier-stream-write " + bin + " check two-phase --set rms=4 --quiet --workdir " + work);
  CHECK(written.code == 3);
  CHECK(written.out.find("stopped: cannot write the frontier spill file " + work + "/statecheck-frontier-") != std::string::npos);
  CHECK(written.out.find(" (deleted, in --workdir): No space left on device; free space in --workdir, give another "
                         "--workdir, or raise --memory\n") != std::string::npos);
  CHECK(fs::is_empty(work));
}
