// The parts of the search, each on its own (docs/design.md, "The search"):
// the level keys, the level data, the memory plan, result assembly, the
// level writer's trace-log records, the expansion batches, the distribution
// (over a loopback exchange of one process) and the checkpoints. The search
// tests (search_test, checkpoint_test, the mpi tests) run them together.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "search/checkpoints.hpp"
#include "search/distribution.hpp"
#include "search/expansion_batches.hpp"
#include "search/findings.hpp"
#include "search/level_data.hpp"
#include "search/level_keys.hpp"
#include "search/level_writer.hpp"
#include "search/memory_plan.hpp"
#include "search/run_clock.hpp"
#include "statecheck/statecheck.hpp"
#include "support/fixture_specs.hpp"
#include "support/temp_dir.hpp"

using namespace statecheck::detail;
using statecheck::CheckOptions;
using statecheck::CheckResult;
using statecheck::Outcome;
using statecheck::Violation;

namespace {

using test::Counter;

/// Two actions (two transition ids: one tid bit) and two goals, one never reached.
auto two_counters() {
  return statecheck::spec<Counter>(
      "two_counters", statecheck::init([](Counter&) {}),
      statecheck::actions(statecheck::action("IncX", [](const Counter& s) { return s.x < 2; }, [](Counter& s) { ++s.x; }),
                          statecheck::action("IncY", [](const Counter& s) { return s.y < 2; }, [](Counter& s) { ++s.y; })),
      statecheck::reachable(statecheck::goal("Corner", [](const Counter& s) { return s.x == 2 && s.y == 2; }),
                            statecheck::goal("Never", [](const Counter& s) { return s.x == 3; })));
}

CheckOptions small_options(std::size_t memory) {
  CheckOptions o;
  o.threads = 2;
  o.memory = memory;
  o.memory_bounds_process = false;  // the budget is the data's alone: exact figures
  return o;
}

/// The spec's model and one search's parts below the pipeline, as Search composes them.
struct Parts {
  explicit Parts(CheckOptions o = small_options(std::size_t{64} << 20))
      : model(two_counters()), ops(model.ops()), budget(o.memory), data(ops, o, budget),
        memory(budget, data, nullptr, result.stats), findings(data, nullptr, memory, result) {}

  statecheck::detail::Model<decltype(two_counters())> model;
  ModelOps ops;
  MemoryBudget budget;
  LevelData data;
  CheckResult result;
  MemoryPlan memory;
  Findings findings;
};

/// One process that exchanges with itself: every collective call returns what it was given.
class LoopbackExchange final : public Exchange {
 public:
  void sum(std::vector<std::uint64_t>&) override {}
  void min(std::vector<std::uint64_t>&) override {}
  std::vector<std::byte> all_to_all(const std::vector<std::vector<std::byte>>& out,
                                    std::vector<std::uint64_t>* from) override {
    if (from != nullptr) *from = {out[0].size()};
    return out[0];
  }
  std::vector<std::uint64_t> all_gather(const std::vector<std::uint64_t>& mine,
                                        std::vector<std::uint64_t>& counts) override {
    counts = {mine.size()};
    return mine;
  }
  void broadcast(std::vector<std::byte>&, int) override {}
};

}  // namespace

TEST_CASE("level keys: widths, the too-wide stop, and the omission bound", "[search_parts]") {
  CHECK(key_bits_of_level(0, 1, 3) == 1);         // one combination: one bit
  CHECK(key_bits_of_level(0, 5, 3) == 3);         // combinations 0..4
  CHECK(key_bits_of_level(2, 1000, 4) == 14);     // parents 0..999 (10 bits) and 4 tid bits
  CHECK_FALSE(keys_too_wide(2, 1000, 16, 4).has_value());
  const std::optional<std::string> wide = keys_too_wide(3, std::uint64_t{1} << 60, 256, 8);
  REQUIRE(wide.has_value());
  CHECK(*wide == "BFS level 3 has 1152921504606846976 parents and 256 transition ids: its keys (68 bits) leave the "
                 "level table fewer than " + std::to_string(LevelTable::min_hash_bits) +
                 " hash bits; split the spec's actions or bound the level");
  // One state a level: no pair to confuse in one process's tables; across two
  // processes level 1's tables may hold level 0's state too (one pair, twice).
  CHECK(level_table_omission({1, 1}, 1, 1, 1) == 0.0);
  const double pair = std::ldexp(1.0, -static_cast<int>(64 + LevelTable::hash_bits_for(key_bits_of_level(1, 1, 1))));
  CHECK(level_table_omission({1, 1}, 1, 1, 2) == 2 * pair);
}

TEST_CASE("level data: the layout and the sets follow the spec and the options", "[search_parts]") {
  Parts p;
  CHECK(p.data.threads == 2);
  CHECK(p.data.workers.size() == 2);
  CHECK(p.data.tid_bits == 1);  // two transition ids
  CHECK(p.data.frontier_stride == sizeof(Counter));
  CHECK(p.data.options.memory == std::size_t{64} << 20);
  CHECK(p.data.visited != nullptr);
  CHECK(p.data.exact == nullptr);
  CHECK(p.data.generated_so_far() == 0);
  CHECK(p.data.enabled_so_far() == std::vector<std::uint64_t>{0, 0});
  CheckOptions exact = small_options(std::size_t{64} << 20);
  exact.exact = true;
  Parts e(exact);
  CHECK(e.data.visited == nullptr);
  CHECK(e.data.exact != nullptr);
}

TEST_CASE("memory plan: what is held, what fits, and the stop when it does not", "[search_parts]") {
  Parts p;
  const MemoryUse use = p.memory.memory_use();
  CHECK(use.set == p.data.set_bytes());
  CHECK(p.memory.room() == p.budget.data_budget() - use.total());
  CHECK_FALSE(p.memory.fit(0, "level 1").has_value());
  const std::optional<std::string> stop = p.memory.fit(std::size_t{1} << 40, "level 9 (12 states)");
  REQUIRE(stop.has_value());
  CHECK(stop->find("level 9 (12 states)") != std::string::npos);
  CHECK(stop->find("raise --memory") != std::string::npos);
  CHECK_FALSE(p.memory.stream_possible());  // no --workdir: nowhere to stream to
  CHECK_FALSE(MemoryPlan::stream_forced());
  bool on_disk = true;
  CHECK(p.memory.plan_next_level(10, on_disk) >= 10 * sizeof(Counter));
  CHECK_FALSE(on_disk);
  test::TempDir dir;
  CheckOptions o = small_options(std::size_t{64} << 20);
  o.workdir = dir.path;
  Parts w(o);
  CHECK(w.memory.stream_possible());
  CHECK_FALSE(w.memory.stream_wanted(10));  // ten states fit in 64 MiB
}

// A --memory stop at one place for one command (CI saw "needs 39 MiB" in one
// run and "needs 40 MiB" in the next with --threads 2): the found records'
// blocks are counted from how many records there are, not from how they
// spread over the workers, and the count is never below what exists.
TEST_CASE("level data: the found records' blocks count the same however the workers share them", "[search_parts]") {
  constexpr std::size_t stride = 100;
  const auto fill = [](RecordBuffer& b, std::uint32_t n) {
    for (std::uint32_t i = 0; i < n; ++i) {
      std::memset(b.next(), static_cast<int>(i & 0xFF), stride);
      b.commit();
    }
  };
  struct Spread {
    std::uint32_t first, second;
  };
  std::vector<std::size_t> bounds, settled;
  for (const Spread spread : {Spread{50000, 0}, Spread{25000, 25000}, Spread{1, 49999}, Spread{16384, 33616}}) {
    RecordBlocks pool(stride);
    RecordBuffer a(pool), b(pool);
    fill(a, spread.first);
    fill(b, spread.second);
    const std::uint64_t records = a.size() + b.size();
    REQUIRE(records == 50000);
    const std::size_t bound = pool.bytes_bound(records, 2);
    CHECK(bound >= pool.blocks() * pool.block_size());
    bounds.push_back(bound);
    a.clear();
    b.clear();
    pool.settle(records);
    settled.push_back(pool.blocks());
    // The next level takes the kept blocks first: no new ones while they last.
    fill(b, 20000);
    CHECK(pool.blocks() == settled.back());
    CHECK(pool.bytes_bound(b.size(), 2) >= pool.blocks() * pool.block_size());
    b.clear();
    pool.settle(20000);
    CHECK(pool.blocks() == settled.back());  // the most blocks a level filled
  }
  CHECK(bounds == std::vector<std::size_t>(bounds.size(), bounds.front()));
  CHECK(settled == std::vector<std::size_t>(settled.size(), settled.front()));
  const std::size_t per_block = RecordBlocks(stride).block_size() / stride;  // records a block holds: 2^13 at 100 B
  CHECK(per_block == 8192);
  CHECK(settled.front() == (50000 + per_block - 1) / per_block);

  Parts p;  // the workers of a search share one pool
  REQUIRE(p.data.record_blocks != nullptr);
  CHECK(p.data.found_records() == 0);
  CHECK(p.data.found_bytes() == 2 * p.data.record_blocks->block_size());  // at most a block each before the first level
}

TEST_CASE("findings: stops, the first outcome, init errors and unreached goals", "[search_parts]") {
  Parts p;
  CHECK(p.result.spec == "two_counters");
  CHECK(p.result.stats.actions.size() == 2);
  CHECK(p.findings.goals.level == std::vector<std::uint64_t>{0, 0});
  CHECK(p.findings.go_on(std::nullopt));
  CHECK(p.result.outcome == Outcome::ok);
  CHECK_FALSE(p.findings.go_on(std::string("the disk is full")));
  CHECK(p.result.outcome == Outcome::limit);
  CHECK(p.result.limit_message == "the disk is full");

  CheckOutcome best, part;
  best.goal_ranks = {CheckOutcome::none, 4};
  part.goal_ranks = {7, 9};
  part.violation_rank = 3;
  part.violated = 1;
  part.error_rank = 5;
  part.error = "boom";
  Findings::merge_outcome(best, part);
  CHECK(best.violation_rank == 3);
  CHECK(best.violated == 1);
  CHECK(best.error == "boom");
  CHECK(best.goal_ranks == std::vector<std::uint64_t>{7, 4});

  Parts init;
  init.findings.fail_in_init(3, "bad init");
  CHECK(init.result.outcome == Outcome::error);
  CHECK(init.result.error->where == "init (combination 3)");

  Parts goals;
  goals.findings.goals.level = {2, 0};  // Corner reached, Never not
  goals.findings.report_unreached_goals();
  REQUIRE(goals.result.violation.has_value());
  CHECK(goals.result.violation->kind == Violation::Kind::goal);
  CHECK(goals.result.violation->property == "Never");
  CHECK(goals.result.warnings.empty());
}

TEST_CASE("level writer: a level's keys become trace-log records and counts per transition id", "[search_parts]") {
  Parts p;
  LevelWriter writer(p.data, p.memory, p.findings, p.result.stats);
  const std::vector<LevelTable::Entry> initial{{0, 0}};
  CHECK(writer.log_keys(1, 1, true, initial).empty());  // the initial level counts no transition
  // Level 2 from the one initial state: keys (parent 0 << 1) | tid for tids 0 and 1.
  const std::vector<LevelTable::Entry> next{{0, 0}, {1, 0}};
  CHECK(writer.log_keys(2, 1, false, next) == std::vector<std::uint64_t>{1, 1});
  REQUIRE(p.data.log.levels() == 2);
  CHECK(p.data.log.get(2, 0).tid == 0);
  CHECK(p.data.log.get(2, 1).tid == 1);
  CHECK(p.data.log.get(2, 1).parent_rank == 0);
  CHECK(p.data.log.path(2, 1) == std::vector<std::uint32_t>{0, 1});
}

TEST_CASE("expansion batches: the fan-out guess and the predicted level", "[search_parts]") {
  Parts p;
  LevelWriter writer(p.data, p.memory, p.findings, p.result.stats);
  ExpansionBatches batches(p.data, p.memory, writer, p.findings);
  p.data.frontier_count = 10;
  CHECK(batches.predicted_level(0) == 10);     // no level expanded yet: 1 new state a state
  CHECK(batches.expected_fanout(0, 1) == 2);   // (2 * 1 + 1), capped by the 2 transition ids
  p.data.frontier_count = 4;
  p.data.streamed = 8;                         // as if 4 states had found 8 new ones
  batches.level_expanded();
  CHECK(batches.predicted_level(0) == 8);      // the last level's 2 a state, over 4 states
  CHECK(batches.predicted_level(2) == 16);     // 8 found by 2 states: 4 a state
  CHECK(batches.expected_fanout(0, 1) == 2);   // (2 * 2 + 1), capped
}

TEST_CASE("distribution over one process: stops, ranks and sums come back unchanged", "[search_parts]") {
  Parts p;
  Distribution dist(p.data, std::make_unique<LoopbackExchange>());
  CHECK_FALSE(dist.first_stop(true, "", false).has_value());
  const std::optional<Distribution::Stop> stop = dist.first_stop(false, "out of memory", true);
  REQUIRE(stop.has_value());
  CHECK(stop->message == "out of memory");
  CHECK(stop->checkpointed);
  CHECK(dist.global_rank(CheckOutcome::none) == CheckOutcome::none);
  CHECK(dist.rank_bytes() == 0);
  // The statistics are packed into one vector and unpacked again: in the same order.
  statecheck::Stats s;
  s.distinct = 5;
  s.generated = 7;
  s.level_table_retries = 2;
  s.level_sizes = {1, 4};
  s.actions = {{"IncX", 6, 3}, {"IncY", 2, 1}};
  s.transition_new = {3, 1};
  s.transition_enabled = {6, 2};
  dist.reduce_stats(s);
  CHECK(s.distinct == 5);
  CHECK(s.generated == 7);
  CHECK(s.level_table_retries == 2);
  CHECK(s.level_sizes == std::vector<std::uint64_t>{1, 4});
  CHECK(s.actions[0].new_states == 3);
  CHECK(s.actions[1].new_states == 1);
  CHECK(s.transition_new == std::vector<std::uint64_t>{3, 1});
  CHECK(s.transition_enabled == std::vector<std::uint64_t>{6, 2});
}

TEST_CASE("checkpoints: nothing is written without --checkpoint; another process count is refused", "[search_parts]") {
  Parts p;
  RunClock clock;
  Checkpoints none(p.data, nullptr, p.memory, p.result, p.findings.goals, clock);
  none.mark_boundary();
  CHECK_FALSE(none.checkpoint_if_due().has_value());
  CHECK(none.on_stop().empty());
  CHECK_FALSE(none.written_on_stop());

  test::TempDir dir;
  std::filesystem::create_directory(dir.path + "/process-0-of-3");
  CheckOptions o = small_options(std::size_t{64} << 20);
  o.checkpoint.resume = dir.path;
  Parts resumed(o);
  CHECK_THROWS_WITH(Checkpoints(resumed.data, nullptr, resumed.memory, resumed.result, resumed.findings.goals, clock),
                    "checkpoint " + dir.path + " was written by 3 processes (each holds the states its fingerprints "
                    "give it); resume it with mpirun -np 3");
}
