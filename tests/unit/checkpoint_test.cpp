// Checkpoints and the memory total: a run stopped at a level boundary and
// resumed (once or several times, with other thread counts) ends exactly as
// an uninterrupted run; checkpoints of another spec, constants or options,
// and damaged ones, are refused with one line; a trace log that outgrows
// --memory spills to --workdir and still gives the same counterexample.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include "support/check_helpers.hpp"
#include "support/files.hpp"
#include "support/fixture_specs.hpp"
#include "support/temp_dir.hpp"
#include "examples/die_hard.hpp"
#include "examples/two_phase.hpp"
#include "specs/hdds/finalization_fencing/finalization_fencing.hpp"
#include "store/checkpoint.hpp"
#include "report/coverage.hpp"
#include "statecheck/statecheck.hpp"

using statecheck::CheckOptions;
using statecheck::CheckResult;
using statecheck::Outcome;

namespace {

using test::Grid;
using test::read_bytes;
using test::TempDir;
using test::write_bytes;

/// Counts and the counterexample, plus the statistics a resume must carry over.
void require_identical(const CheckResult& a, const CheckResult& b) {
  test::require_same(a, b);
  REQUIRE(a.stats.transition_enabled == b.stats.transition_enabled);
  REQUIRE(a.stats.transition_new == b.stats.transition_new);  // --coverage after --resume (issue 13 item 1)
  REQUIRE(a.stats.actions.size() == b.stats.actions.size());
  for (std::size_t i = 0; i < a.stats.actions.size(); ++i) {
    REQUIRE(a.stats.actions[i].enabled == b.stats.actions[i].enabled);
    REQUIRE(a.stats.actions[i].new_states == b.stats.actions[i].new_states);
  }
  REQUIRE(a.warnings == b.warnings);
}

/// Stops after each level in `stops` (a checkpoint each time, resuming from the
/// previous one with `threads[k]` threads), then resumes to the end.
template <class Spec>
CheckResult run_in_pieces(const Spec& spec, CheckOptions o, const std::vector<std::uint32_t>& stops,
                          const std::vector<unsigned>& threads, const std::string& dir) {
  o.checkpoint.dir = dir;
  for (std::size_t k = 0; k <= stops.size(); ++k) {
    o.threads = threads[k % threads.size()];
    o.stop_after_level = k < stops.size() ? stops[k] : 0;
    o.checkpoint.resume = k == 0 ? "" : dir;
    const CheckResult r = statecheck::check(spec, o);
    REQUIRE(r.resumed_from_level == (k == 0 ? 0 : stops[k - 1]));
    if (k == stops.size()) return r;
    INFO("stopped after level " << stops[k]);
    REQUIRE(r.outcome == Outcome::limit);
    REQUIRE(r.stats.depth == stops[k]);
    REQUIRE(r.checkpoint_written == dir + "/checkpoint.sckp");
    REQUIRE_THAT(r.limit_message, Catch::Contains("checkpoint written to " + dir + "; continue with: statecheck check " +
                                                  r.spec));
  }
  return {};
}

/// The one-line refusal parse_checkpoint gives `bytes`.
std::string refusal(const std::vector<std::byte>& bytes) {
  statecheck::detail::TraceLog log;
  try {
    statecheck::detail::parse_checkpoint(bytes, "C", log);
  } catch (const statecheck::config_error& e) {
    return e.what();
  }
  return "accepted";
}

/// A 400 x 400 grid whose corner (300, 300) breaks an invariant 600 levels deep.
auto grid_spec() {
  return statecheck::spec<Grid>(
      "grid", statecheck::init([](Grid&) {}),
      statecheck::actions(statecheck::action("Right", [](const Grid& s) { return s.x < 399; }, [](Grid& s) { ++s.x; }),
                          statecheck::action("Up", [](const Grid& s) { return s.y < 399; }, [](Grid& s) { ++s.y; })),
      statecheck::invariants(statecheck::invariant("NotCorner", [](const Grid& s) { return s.x != 300 || s.y != 300; })));
}

}  // namespace

TEST_CASE("checkpoint: two-phase N=5 stopped at several levels and resumed equals one run", "[checkpoint]") {
  const auto spec = examples::two_phase::make_spec({5});
  const CheckResult whole = statecheck::check(spec, test::options(1));
  REQUIRE(whole.outcome == Outcome::ok);
  REQUIRE(whole.stats.distinct == 8832);  // peer tools' count for two-phase N=5 (docs/peers.md)
  for (std::uint32_t stop : {1u, 2u, 7u, whole.stats.depth}) {
    for (unsigned threads : {1u, 4u}) {
      INFO("stop after level " << stop << ", " << threads << " threads");
      TempDir dir;
      const CheckResult r = run_in_pieces(spec, test::options(1), {stop}, {threads}, dir.sub("ckpt"));
      require_identical(whole, r);
    }
  }
  // Resumed twice, checkpointing again while resumed, changing threads each time.
  TempDir dir;
  require_identical(whole, run_in_pieces(spec, test::options(1), {3, 6, 11}, {4, 1, 2}, dir.path));
}

TEST_CASE("checkpoint: --coverage of a resumed run equals the uninterrupted run's", "[checkpoint][hostile]") {
  // Issue 13 item 1: the per-transition new-state counts were not in the
  // checkpoint, so a resumed run's coverage said 0 new states for every value.
  const auto spec = examples::two_phase::make_spec({4});
  const statecheck::detail::Model<decltype(spec)> m(spec);
  const CheckResult whole = statecheck::check(spec, test::options(1));
  TempDir dir;
  const CheckResult resumed = run_in_pieces(spec, test::options(1), {4}, {2}, dir.sub("ckpt"));
  const auto rows = [&](const CheckResult& r) {
    std::vector<std::tuple<std::string, std::string, std::string, std::uint64_t, std::uint64_t>> out;
    for (const auto& row : statecheck::detail::coverage_of(m.ops(), r.stats).rows)
      out.emplace_back(row.action, row.param, row.value, row.enabled, row.new_states);
    return out;
  };
  const auto expected = rows(whole);
  REQUIRE(rows(resumed) == expected);
  std::uint64_t fresh = 0;
  for (const auto& row : expected) fresh += std::get<1>(row).empty() ? std::get<4>(row) : 0;
  REQUIRE(fresh + 1 == whole.stats.distinct);  // every state but the initial one is some transition's new state
}

TEST_CASE("checkpoint: a file of another format version is refused with its own line", "[checkpoint][hostile]") {
  const auto spec = examples::two_phase::make_spec({3});
  TempDir dir;
  CheckOptions o = test::options(1);
  o.checkpoint.dir = dir.path;
  o.stop_after_level = 2;
  REQUIRE(statecheck::check(spec, o).outcome == Outcome::limit);
  // 1: before the per-transition counts were saved; 2: the whole visited table, not its compact form;
  // 3: visited-set probes wrapped around the whole table, not inside a segment.
  for (const std::uint32_t old_version : {1u, 2u, 3u}) {
    std::vector<std::byte> bytes = read_bytes(dir.sub("checkpoint.sckp"));
    std::memcpy(bytes.data() + 8, &old_version, 4);
    REQUIRE(refusal(bytes) == "checkpoint C has format version " + std::to_string(old_version) +
                                  "; this statecheck reads version 5 only, so it cannot be "
                                  "resumed: start a new run (or resume with the statecheck that wrote it)");
  }
}

TEST_CASE("checkpoint: the visited table is saved in compact form, so a small run's file is small", "[checkpoint]") {
  const auto spec = examples::two_phase::make_spec({3});
  TempDir dir;
  CheckOptions o = test::options(1);
  o.checkpoint.dir = dir.path;
  o.stop_after_level = 4;
  const CheckResult first = statecheck::check(spec, o);
  REQUIRE(first.outcome == Outcome::limit);
  // The fresh table has 2^20 slots: 2^20 / 64 masks of 8 bytes (128 KiB), then
  // 8 bytes per state, where the whole table took 8 MiB (format version 2).
  const std::size_t size = read_bytes(dir.sub("checkpoint.sckp")).size();
  INFO(size << " bytes for " << first.stats.distinct << " states");
  REQUIRE(size > (std::size_t{1} << 17) + 8 * first.stats.distinct);
  REQUIRE(size < (std::size_t{1} << 17) + 8 * first.stats.distinct + 16384);
  CheckOptions resumed = test::options(2);
  resumed.checkpoint.resume = dir.path;
  const CheckResult rest = statecheck::check(spec, resumed);
  REQUIRE(rest.outcome == Outcome::ok);
  REQUIRE(rest.stats.distinct == 288);  // two-phase N=3, as without the stop (TLC's count, docs/peers.md)
}

TEST_CASE("checkpoint: die-hard and an HDDS violation resumed give the same counterexample", "[checkpoint]") {
  const auto die_hard = examples::die_hard::make_spec({});
  const CheckResult whole = statecheck::check(die_hard, test::options(1));
  test::require_violation(whole, "NotSolved", 6);
  for (std::uint32_t stop : {1u, 4u, 6u}) {
    TempDir dir;
    require_identical(whole, run_in_pieces(die_hard, test::options(1), {stop}, {4, 1}, dir.path));
  }
  namespace ff = specs::hdds::finalization_fencing;
  ff::Config c;
  c.variant = ff::Variant::as_is;
  c.scenario = ff::Scenario::leader_change;
  const auto fencing = ff::make_spec(c);
  const CheckResult hdds = statecheck::check(fencing, test::options(1));
  test::require_violation(hdds, "NoFinalizedDatanodeFenced", 5);
  TempDir dir;
  require_identical(hdds, run_in_pieces(fencing, test::options(1), {2, 4}, {1, 4}, dir.path));
}

TEST_CASE("checkpoint: --exact runs are checkpointed and resumed too", "[checkpoint]") {
  const auto spec = examples::two_phase::make_spec({4});
  auto o = test::options(2);
  o.exact = true;
  const CheckResult whole = statecheck::check(spec, o);
  REQUIRE(whole.stats.distinct == 1568);  // peer tools' count for two-phase N=4 (docs/peers.md)
  TempDir dir;
  require_identical(whole, run_in_pieces(spec, o, {5, 9}, {2, 1}, dir.path));
}

TEST_CASE("checkpoint: --checkpoint-every writes one at level boundaries", "[checkpoint]") {
  TempDir dir;
  auto o = test::options(2);
  o.checkpoint.dir = dir.sub("every");
  o.checkpoint.every_minutes = 1e-9;  // due at every boundary
  const auto spec = examples::two_phase::make_spec({4});
  const CheckResult r = statecheck::check(spec, o);
  REQUIRE(r.outcome == Outcome::ok);
  REQUIRE(r.checkpoint_written == o.checkpoint.dir + "/checkpoint.sckp");
  // The last one is at the last boundary: resuming it finishes with the same counts.
  auto again = test::options(1);
  again.checkpoint.resume = o.checkpoint.dir;
  const CheckResult resumed = statecheck::check(spec, again);
  REQUIRE(resumed.resumed_from_level == r.stats.depth);
  require_identical(r, resumed);
}

TEST_CASE("checkpoint: another spec, constants or options are refused with one line", "[checkpoint]") {
  TempDir dir;
  auto o = test::options(1);
  o.checkpoint.dir = dir.path;
  o.checkpoint.constants = {{"rms", "4"}};
  o.stop_after_level = 3;
  REQUIRE(statecheck::check(examples::two_phase::make_spec({4}), o).outcome == Outcome::limit);
  auto resume = test::options(1);
  resume.checkpoint.resume = dir.path;
  resume.checkpoint.constants = {{"rms", "4"}};
  const auto refused = [&](auto spec, const CheckOptions& with, const std::string& why) {
    try {
      statecheck::check(spec, with);
      FAIL("resumed");
    } catch (const statecheck::config_error& e) {
      REQUIRE_THAT(e.what(), Catch::Contains(why) && Catch::Contains("; "));  // the problem; what to do
    }
  };
  refused(examples::die_hard::make_spec({}), resume, "was written by spec 'two-phase', not 'die-hard'");
  auto other = resume;
  other.checkpoint.constants = {{"rms", "5"}};
  refused(examples::two_phase::make_spec({5}), other, "was written with constants (rms=4), not (rms=5)");
  other = resume;
  other.invariants = {"TCConsistent"};  // the only one: the same set as all
  REQUIRE(statecheck::check(examples::two_phase::make_spec({4}), other).stats.distinct == 1568);
  other = resume;
  other.check_deadlock = false;
  refused(examples::two_phase::make_spec({4}), other, "deadlock checking on; resume without --no-deadlock");
  other = resume;
  other.max_depth = 9;
  refused(examples::two_phase::make_spec({4}), other, "--max-depth 0 (0: none)");
  other = resume;
  other.exact = true;
  refused(examples::two_phase::make_spec({4}), other, "without --exact; resume without --exact");
  other = resume;
  other.checkpoint.resume = dir.sub("missing");
  REQUIRE_THROWS_WITH(statecheck::check(examples::two_phase::make_spec({4}), other),
                      Catch::StartsWith("no checkpoint to resume in " + dir.sub("missing")));
}

TEST_CASE("checkpoint: a truncated or corrupted file is refused cleanly", "[checkpoint]") {
  TempDir dir;
  auto o = test::options(1);
  o.checkpoint.dir = dir.path;
  o.stop_after_level = 4;
  REQUIRE(statecheck::check(examples::die_hard::make_spec({}), o).outcome == Outcome::limit);
  const std::string file = dir.sub("checkpoint.sckp");
  const std::vector<std::byte> good = read_bytes(file);
  REQUIRE(refusal(good) == "accepted");
  REQUIRE(good.size() > 128u << 10);  // the 2^20-slot visited set's masks (compact form)
  // Every cut: in the header, in each section header and inside each payload.
  for (std::size_t cut : {std::size_t{0}, std::size_t{7}, std::size_t{15}, std::size_t{16}, std::size_t{30},
                          std::size_t{100}, good.size() / 2, good.size() - 1000, good.size() - 1}) {
    INFO("cut to " << cut << " bytes");
    const std::vector<std::byte> cut_bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(cut));
    REQUIRE_THAT(refusal(cut_bytes), Catch::StartsWith("checkpoint C is truncated/corrupt (") &&
                                         Catch::EndsWith("); it cannot be resumed"));
  }
  // A flipped byte in the middle of the meta, visited, trace and frontier sections.
  std::size_t section = 16;  // after the header; each section: tag, length, checksum, payload
  for (const char* name : {"meta", "visited", "trace", "frontier"}) {
    std::uint64_t length = 0;
    std::memcpy(&length, good.data() + section + 8, 8);
    const std::size_t at = section + 24 + static_cast<std::size_t>(length / 2);
    INFO("byte " << at << " flipped");
    std::vector<std::byte> bad = good;
    bad[at] ^= std::byte{0x10};
    REQUIRE(refusal(bad) == "checkpoint C is truncated/corrupt (section " + std::string(name) +
                                " checksum mismatch); it cannot be resumed");
    section += 24 + static_cast<std::size_t>(length);
  }
  REQUIRE(section == good.size());
  std::vector<std::byte> bad = good;
  bad[0] = std::byte{'X'};
  REQUIRE_THAT(refusal(bad), Catch::Contains("(it does not start with the checkpoint magic)"));
  bad = good;
  bad[8] = std::byte{9};
  REQUIRE_THAT(refusal(bad), Catch::Contains("has format version 9; this statecheck reads version 5 only"));
  // Through a resume: the same line, and the search never starts.
  write_bytes(file, std::vector<std::byte>(good.begin(), good.begin() + 5000));  // inside the visited section
  auto resume = test::options(1);
  resume.checkpoint.resume = dir.path;
  REQUIRE_THROWS_WITH(statecheck::check(examples::die_hard::make_spec({}), resume),
                      "checkpoint " + file + " is truncated/corrupt (section visited is cut short); it cannot be resumed");
}

TEST_CASE("checkpoint: damage behind valid checksums is refused, never read out of bounds", "[checkpoint]") {
  TempDir dir;
  auto o = test::options(1);
  o.checkpoint.dir = dir.path;
  o.stop_after_level = 5;
  REQUIRE(statecheck::check(examples::die_hard::make_spec({}), o).outcome == Outcome::limit);
  const std::vector<std::byte> good = read_bytes(dir.sub("checkpoint.sckp"));
  // Section offsets (the format of store/checkpoint.hpp); the visited set is skipped (any bits are a table).
  std::vector<std::pair<std::size_t, std::size_t>> sections;
  for (std::size_t at = 16; at < good.size();) {
    std::uint64_t length = 0;
    std::memcpy(&length, good.data() + at + 8, 8);
    sections.emplace_back(at, static_cast<std::size_t>(length));
    at += 24 + static_cast<std::size_t>(length);
  }
  REQUIRE(sections.size() == 4);
  std::mt19937_64 rng(5);
  std::size_t refused = 0;
  for (int round = 0; round < 3000; ++round) {
    const auto [at, length] = sections[std::array<std::size_t, 3>{0, 2, 3}[static_cast<std::size_t>(round % 3)]];
    std::vector<std::byte> bad = good;
    bad[at + 24 + rng() % length] ^= static_cast<std::byte>(1u << (rng() % 8));
    const std::uint64_t sum = XXH3_64bits(bad.data() + at + 24, length);
    std::memcpy(bad.data() + at + 16, &sum, 8);
    const std::string why = refusal(bad);
    if (why == "accepted") continue;  // a frontier state's bytes, say: only a resume can tell
    REQUIRE_THAT(why, Catch::StartsWith("checkpoint C is truncated/corrupt (") && Catch::EndsWith("); it cannot be resumed"));
    ++refused;
  }
  REQUIRE(refused > 1000);
}

TEST_CASE("memory: a trace log beyond --memory spills to --workdir, same answer", "[checkpoint][memory]") {
  const auto spec = grid_spec();
  const CheckResult whole = statecheck::check(spec, test::options(1));
  test::require_violation(whole, "NotCorner", 600);
  REQUIRE(whole.stats.trace_disk_bytes == 0);
  REQUIRE(whole.stats.trace_bytes > 10000);
  // A budget that holds everything but half of the trace log.
  auto o = test::options(1);
  o.memory = whole.stats.memory_peak - whole.stats.trace_bytes / 2;
  TempDir work;
  o.workdir = work.path;
  const CheckResult spilled = statecheck::check(spec, o);
  require_identical(whole, spilled);
  // A spilled level gives back its words and its share of the per-level
  // records (TraceLog::shape_bytes), so less than half of the words go to disk
  // (17,472 of 67,224 bytes here); at least some must.
  REQUIRE(spilled.stats.trace_disk_bytes > whole.stats.trace_bytes / 8);
  REQUIRE(spilled.stats.trace_bytes < whole.stats.trace_bytes);
  REQUIRE(spilled.stats.trace_bytes + spilled.stats.trace_disk_bytes >= whole.stats.trace_bytes);
  REQUIRE(spilled.stats.memory_peak <= o.memory);
  // A checkpoint taken while spilled holds every level; resumed, it ends the same.
  TempDir ckpt;
  require_identical(whole, run_in_pieces(spec, o, {450}, {1}, ckpt.path));
  // Without --workdir: a clean stop naming both remedies.
  o.workdir.clear();
  const CheckResult stopped = statecheck::check(spec, o);
  REQUIRE(stopped.outcome == Outcome::limit);
  REQUIRE_THAT(stopped.limit_message,
               Catch::Contains("raise --memory, or give --workdir DIR to spill the trace log to disk"));
  REQUIRE(stopped.stats.distinct < whole.stats.distinct);
}

TEST_CASE("memory: a frontier beyond --memory goes to --workdir, same answer, resumable", "[checkpoint][memory]") {
  const auto spec = examples::two_phase::make_spec({7});
  const CheckResult whole = statecheck::check(spec, test::options(2));
  REQUIRE(whole.stats.distinct == 296448);  // peer tools' count for two-phase N=7 (docs/peers.md)
  REQUIRE(whole.stats.frontier_spilled_levels == 0);
  // A budget half a widest frontier short of the in-RAM peak: only the frontier on disk makes it fit.
  const auto widest = std::max_element(whole.stats.level_sizes.begin(), whole.stats.level_sizes.end());
  const std::size_t frontier_bytes = *widest * ((sizeof(examples::two_phase::State) + 7) / 8 * 8);
  auto o = test::options(1);
  o.memory = whole.stats.memory_peak - frontier_bytes / 2;
  TempDir work;
  o.workdir = work.path;
  for (unsigned threads : {1u, 2u}) {
    o.threads = threads;
    const CheckResult spilled = statecheck::check(spec, o);
    require_identical(whole, spilled);
    REQUIRE(spilled.stats.frontier_spilled_levels > 0);
    REQUIRE(spilled.stats.frontier_disk_bytes > 0);
    REQUIRE(spilled.stats.memory_peak <= o.memory);
  }
  REQUIRE(std::filesystem::is_empty(work.path));  // the spill files are gone
  // Resuming a checkpoint whose frontier was on disk: tests/cli/frontier_test.cpp (every level
  // forced to disk). Not here: at a budget sized to the byte, a resumed piece's memory varies from
  // run to run (it stopped one level early about half the time).
  // Without --workdir the same budget stops the run.
  o.workdir.clear();
  REQUIRE(statecheck::check(spec, o).outcome == Outcome::limit);
}
