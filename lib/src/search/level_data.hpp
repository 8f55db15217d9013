// lib/src/search/level_data.hpp - the level data and the sets of one search:
// the frontier being checked and expanded, the level table and the workers
// filling it, the next level while it streams to --workdir, the visited (or
// exact) set and the trace log. Every part of the search (search.hpp's class
// map in docs/design.md) reads and writes these through one LevelData that
// the search owns; none of them owns a copy.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "model/model_view.hpp"
#include "search/memory_budget.hpp"
#include "statecheck/detail/exact_set.hpp"
#include "statecheck/detail/level_table.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "statecheck/detail/visited_set.hpp"
#include "statecheck/detail/worker.hpp"
#include "statecheck/result.hpp"
#include "store/frontier_store.hpp"
#include "store/trace_log.hpp"

namespace statecheck::detail {

/// A state of the search: `rank` within BFS level `level` (1-based).
struct Location {
  std::uint32_t level;
  std::uint64_t rank;
};

struct LevelData {
  /// Builds the workers, then (what is resident now is the program's:
  /// MemoryBudget::set_aside_program) the frontier's windows and the set,
  /// sized from what is left of `budget`.
  LevelData(const ModelOps& model_ops, const CheckOptions& opts, MemoryBudget& budget);
  LevelData(const LevelData&) = delete;  // the workers hold &ctx
  LevelData& operator=(const LevelData&) = delete;

  std::uint64_t generated_so_far() const;
  /// Each transition id's enabled count over the workers.
  std::vector<std::uint64_t> enabled_so_far() const;
  double table_load() const { return visited ? visited->load() : 0.0; }
  /// What the visited (or exact) set holds resident, with `more` states in it.
  std::size_t set_bytes(std::uint64_t more = 0) const;
  /// New states of the level being made: in the table, or streamed already.
  std::uint64_t level_found() const { return table->size() + streamed; }
  /// The records the workers hold together, and what they and the spare
  /// blocks take at most (the same for every run of one command).
  std::uint64_t found_records() const;
  std::size_t found_bytes() const { return record_blocks->bytes_bound(found_records(), workers.size()); }
  /// The workers' records are dropped (the level is stored or streamed).
  void drop_found();

  const ModelOps& ops;
  CheckOptions options;  // as the run uses them: --memory resolved, per-process checkpoint paths
  unsigned threads = 1;
  std::uint64_t invariant_mask = 0;
  RecordLayout layout;
  std::size_t frontier_stride = 0;
  unsigned tid_bits = 1;
  unsigned level_key_bits = 1;  // of the level being made (level_keys.hpp)
  std::unique_ptr<VisitedSet> visited;  // fingerprint mode
  std::unique_ptr<ExactSet> exact;      // --exact
  std::unique_ptr<LevelTable> table = std::make_unique<LevelTable>();  // replaced, smaller, by LevelWriter::shed_level_memory
  std::unique_ptr<RecordBlocks> record_blocks;  // before the workers, whose buffers take from it
  LevelContext ctx;
  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<Worker*> peers;
  TraceLog log;
  FrontierStore frontier;  // the level being checked and expanded, in RAM or in --workdir
  std::uint64_t frontier_count = 0;  // frontier.size()
  std::uint32_t level = 0;  // the frontier's BFS level
  // The next level streamed to --workdir while it is made (level_writer.hpp).
  bool streaming = false;               // this level streams
  FrontierStore next_level;             // its states so far, in rank order
  std::uint64_t streamed = 0;           // next_level.size(): in the visited set already
  FrontierStore streamed_keys;          // their discovery keys (8 B each), for the trace log: on disk too
  std::atomic<bool> overflow{false};    // a visited-set insert ran past its probe limit
};

}  // namespace statecheck::detail
