// lib/src/search/level_writer.hpp - turns the level table's entries into the
// next frontier: sorted whole at the level's end (in RAM, or written to
// --workdir a window at a time), or streamed to --workdir while the level is
// made, when even its table and records would not fit in --memory.
//
// Why streaming gives the same level (issue 18 part 1): the frontier is
// expanded in batches of increasing rank, and a state's key (parent rank,
// transition id) is the smallest among its discoverers. A state first found
// in batch j has its final key once batch j is done (later batches find it
// again only with larger keys), and every key of batch j is below every key
// of batch j+1. So the level in rank order is the concatenation of the
// entries new since the last flush, each run sorted by key; once flushed,
// they are in the visited set, and a later batch sees them as visited, which
// is what the level table's min would have decided. The visited set grows
// between batches only, when no lookup runs. The level table then holds only
// what was found since the last flush.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "search/distribution.hpp"
#include "search/findings.hpp"
#include "search/level_data.hpp"
#include "search/memory_plan.hpp"

namespace statecheck::detail {

/// A streamed level's keys in rank order, read back a window at a time (record_level asks in order).
class StreamedKeyReader {
 public:
  StreamedKeyReader(const FrontierStore& keys, std::uint64_t n) : keys_(keys), n_(n) {}
  std::uint64_t operator()(std::uint64_t i) const {
    if (i < begin_ || i >= end_) {
      begin_ = i;
      end_ = std::min(n_, i + keys_.window());
      window_ = keys_.view(begin_, end_);
    }
    std::uint64_t key = 0;
    std::memcpy(&key, window_ + (i - begin_) * sizeof key, sizeof key);
    return key;
  }

 private:
  const FrontierStore& keys_;
  std::uint64_t n_;
  mutable std::uint64_t begin_ = 0, end_ = 0;
  mutable const std::byte* window_ = nullptr;
};

class LevelWriter {
 public:
  /// `stats`: the run's (distinct states so far; with symmetry, the concrete states counted).
  LevelWriter(LevelData& data, MemoryPlan& memory, Findings& findings, Stats& stats)
      : d_(data), memory_(memory), findings_(findings), stats_(stats) {}

  /// The level table's entries (any order), in its own memory: each worker
  /// first tells the table where its states live (LevelTable::locate).
  std::span<LevelTable::Entry> take_level_entries(LevelTable::Pages pages);
  /// Grows the level table mid-level for `total` entries; the workers' records learn their new slots.
  void grow_table(std::uint64_t total);
  /// States [begin, end) of the sorted level into `out` (their rank order),
  /// each inserted into the visited (or exact) set; with symmetry, counts the
  /// concrete states they stand for. Each entry of [begin, end) becomes its
  /// state's hash (the keys must be read before).
  void store_states(std::span<LevelTable::Entry> entries, std::uint64_t begin, std::uint64_t end, std::byte* out);
  /// The level's fingerprints into the visited set, a group of segments per task.
  void insert_fingerprints(std::span<const Hash128> hashes);
  /// The level table's entries (any order) with their hashes, for the exchange
  /// across processes; the table keeps them (taken) until the level is recorded.
  std::vector<SharedEntry> collect_entries();
  /// The new level's `n` keys (entries[i].key for rank i, read from any
  /// thread) into the trace log; returns the new states per transition id,
  /// for the statistics. Blocks of records are written at once: on one
  /// thread this took 0.23 s of filter N=7's level ends.
  std::vector<std::uint64_t> log_keys(std::uint64_t n, std::uint64_t parent_count, bool initial,
                                      std::span<const LevelTable::Entry> entries);
  /// The same for a streamed level: its keys are read back in order from streamed_keys.
  std::vector<std::uint64_t> log_streamed_keys(std::uint64_t n, std::uint64_t parent_count, bool initial);
  /// Grows the visited set for `n` more states, within the memory budget
  /// (what the rest holds plus `extra` bytes about to be allocated).
  bool make_room(std::uint64_t n, std::size_t extra);

  /// Streaming: appends the level table's entries (sorted by key) to
  /// next_level and the visited set, then empties the table and the workers'
  /// records; false (and a stop) when --memory or the visited set cannot take them.
  bool flush_stream();
  /// Streaming, at the level's end: the last flush, then next_level becomes
  /// the frontier (the expanded one is dropped); its `n` keys stay in streamed_keys (on disk).
  bool end_stream(std::uint64_t& n);
  /// Streaming, with the table and the records empty: gives back what they
  /// grew to for earlier levels made in RAM (the visited set may need that
  /// room to double); they grow again only to what a flush holds.
  void shed_level_memory();
  /// Whether the table holds enough to flush now (or a test asks for a flush after every batch).
  bool flush_due() const;
  /// The frontier-stream-interrupt test hook (store/fault.hpp): a Ctrl-C
  /// once part of level 4 or later is streamed and `expanded` leaves more to do.
  void interrupt_hook(std::uint64_t expanded) const;

 private:
  template <class Key>
  std::vector<std::uint64_t> log_level(std::uint64_t n, std::uint64_t parent_count, bool initial, const Key& key_of,
                                       bool in_parallel);
  /// With symmetry: adds the concrete states that the n new representatives
  /// stand for to the stats (once per new state, never per successor).
  void count_orbit_states(const std::byte* states, std::uint64_t n);

  LevelData& d_;
  MemoryPlan& memory_;
  Findings& findings_;
  Stats& stats_;
  bool shed_ = false;  // shed_level_memory() ran for the level being streamed
};

}  // namespace statecheck::detail
