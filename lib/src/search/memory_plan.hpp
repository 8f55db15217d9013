// lib/src/search/memory_plan.hpp - the search's memory planning: it describes
// what the search holds to the budget (memory_budget.hpp decides), plans
// where the next level goes (RAM or --workdir, made whole or streamed), and
// carries out the budget's decision (spilling the frontier and the trace log).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "search/distribution.hpp"
#include "search/level_data.hpp"
#include "search/memory_budget.hpp"

namespace statecheck::detail {

class MemoryPlan {
 public:
  /// `dist`: null for one process; `stats`: the run's counts (distinct states so far).
  MemoryPlan(MemoryBudget& budget, LevelData& data, const Distribution* dist, const Stats& stats)
      : budget_(budget), d_(data), dist_(dist), stats_(stats) {}

  const MemoryBudget& budget() const { return budget_; }
  MemoryUse memory_use() const;
  /// Bytes of --memory not held now.
  std::size_t room() const;
  /// Keeps what the search holds plus `extra` within --memory, spilling trace
  /// levels to --workdir when that suffices, and when that is not enough and
  /// --workdir is given, the frontier first. Otherwise, or when a spill file
  /// cannot be written, the stop message (`what` says what was growing).
  std::optional<std::string> fit(std::size_t extra, const std::string& what);
  /// Whether the next level, of `n` states, goes to --workdir: it does when
  /// holding it in RAM (`extra_in_ram` beside what is held now) would stop the
  /// search or keep the visited set from growing, and a workdir is given.
  bool next_level_on_disk(std::uint64_t n, std::size_t extra_in_ram) const;
  /// What making the next level of `n` states adds to what is held now (the
  /// sort keys, the next frontier or its window on disk, the visited set's
  /// pages the new states touch; the expanded frontier is dropped first), and
  /// whether it goes to disk.
  std::size_t plan_next_level(std::uint64_t n, bool& on_disk) const;
  /// Whether the level being made goes to --workdir while it is made
  /// (level_writer.hpp): it does when, grown to the `n` states expected, it
  /// could not be finished in RAM. Fingerprint mode only (--exact compares
  /// encodings held in RAM). Not concurrent with expansion.
  bool stream_wanted(std::uint64_t n) const;
  /// Processes share whole levels: one process only.
  bool stream_possible() const { return !d_.exact && dist_ == nullptr && d_.frontier.can_spill(); }
  /// The test hook (store/fault.hpp) streams every expanded level, in batches
  /// of at most 64 states flushed one by one, so that the tests meet many flushes.
  static bool stream_forced();
  /// Whether holding `extra` more bytes (for a next level of `n` states)
  /// would stop the search or keep the visited set from growing.
  bool ram_short(std::uint64_t n, std::size_t extra) const;
  /// Whether the end of a level of `n` new states may keep the level table's
  /// pages resident: with the whole table, the next frontier and the visited
  /// set's growth, it stays within half of --memory (the visited set's own
  /// doubling rule). Otherwise they are given back for the level's end.
  bool keep_table_pages(std::uint64_t n) const;
  std::size_t room_for_visited(std::size_t extra) const { return budget_.room_for_visited(memory_use(), extra); }
  /// Why the visited set cannot take `n` more states: how full it is, and
  /// what keeps it from doubling (its own cap, or the rest of --memory).
  std::string visited_full_message(std::uint64_t n, std::size_t extra) const;

 private:
  MemoryBudget& budget_;
  LevelData& d_;
  const Distribution* dist_;
  const Stats& stats_;
};

}  // namespace statecheck::detail
