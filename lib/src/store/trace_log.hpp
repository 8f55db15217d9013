// lib/src/store/trace_log.hpp - how each visited state was first reached.
//
// One record per state: the rank of its parent in the previous level and the
// transition id taken (a level-1 record holds the initial-state combination).
// A level is sorted by (parent rank, transition id), so its parent ranks never
// decrease: they are stored Elias-Fano coded (about 2 + log2(parents/records)
// bits a record) and the transition ids in bits(transitions) each. Kept apart
// from the visited set (which holds only signatures), so that traces cost
// about one byte a state. Reading a record scans its level's bit vector: fine
// for the few records a trace needs.
//
// Older levels can be spilled to an unlinked file in a work directory when
// the log outgrows its share of --memory; they are read back only to build a
// counterexample trace or to write a checkpoint. Each spilled level (a block
// of the file) keeps the checksum of its words in RAM: one read back other
// than written stops the run, naming the file and the block, not a trace.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "store/elias_fano.hpp"

namespace statecheck::detail {

/// Fixed-width unsigned fields packed into 64-bit words.
class PackedBits {
 public:
  void assign(std::uint64_t count, unsigned width) {
    width_ = width;
    words_.assign(static_cast<std::size_t>((count * width + 63) / 64 + 1), 0);
  }
  void set(std::uint64_t index, std::uint64_t value) {
    if (width_ == 0) return;
    const std::uint64_t bit = index * width_;
    const auto word = static_cast<std::size_t>(bit / 64);
    const unsigned shift = static_cast<unsigned>(bit % 64);
    words_[word] |= value << shift;
    if (shift + width_ > 64) words_[word + 1] |= value >> (64 - shift);
  }
  std::uint64_t get(std::uint64_t index) const {
    if (width_ == 0) return 0;
    const std::uint64_t bit = index * width_;
    const auto word = static_cast<std::size_t>(bit / 64);
    const unsigned shift = static_cast<unsigned>(bit % 64);
    std::uint64_t value = words_[word] >> shift;
    if (shift + width_ > 64) value |= words_[word + 1] << (64 - shift);
    return width_ < 64 ? value & ((std::uint64_t{1} << width_) - 1) : value;
  }
  std::size_t bytes() const { return words_.size() * sizeof(std::uint64_t); }
  unsigned width() const { return width_; }
  const std::vector<std::uint64_t>& words() const { return words_; }
  std::vector<std::uint64_t>& words() { return words_; }
  /// Words for `count` fields of `width` bits (what assign() allocates).
  static std::uint64_t words_for(std::uint64_t count, unsigned width) { return (count * width + 63) / 64 + 1; }
  void restore(unsigned width, std::vector<std::uint64_t> words) {
    width_ = width;
    words_ = std::move(words);
  }

 private:
  unsigned width_ = 0;
  std::vector<std::uint64_t> words_;
};

class TraceLog {
 public:
  struct Step {
    std::uint64_t parent_rank;
    std::uint32_t tid;
  };
  /// One level's records. A spilled level keeps only its shape in RAM; its
  /// words (low, then high, then tids) lie at `offset` in the spill file.
  struct Level {
    std::uint64_t count = 0;
    std::uint64_t tid_limit = 0;
    unsigned low_bits = 0;             // Elias-Fano: low bits of each parent rank
    PackedBits low;
    std::vector<std::uint64_t> high;   // unary-coded high parts: bit (parent >> low_bits) + rank
    PackedBits tids;
    bool spilled = false;
    std::uint64_t offset = 0;
    std::uint64_t low_words = 0, high_words = 0, tid_words = 0;  // sizes, kept when spilled
    std::uint64_t checksum = 0;  // spilled: XXH3-64 of its words as written, checked before they are decoded
    std::size_t ram_bytes() const { return (low.words().size() + high.size() + tids.words().size()) * 8; }
  };

  TraceLog() = default;
  ~TraceLog();
  TraceLog(const TraceLog&) = delete;
  TraceLog& operator=(const TraceLog&) = delete;

  /// Starts level `levels() + 1` with `count` records; parents come from a
  /// level of `parent_count` states and ids are below `tid_limit`.
  void begin_level(std::uint64_t count, std::uint64_t parent_count, std::uint64_t tid_limit);
  /// Ranges of records that set_range() may write at once from several threads start at multiples of this.
  static constexpr std::uint64_t concurrent_range_step = 64;
  /// Writes records [begin, end) of the level begun last: step_of(rank) gives
  /// record `rank`'s Step. Parent ranks do not decrease with the rank (the
  /// level's sort order). Ranges that start at multiples of
  /// concurrent_range_step may be written at once from several threads: their
  /// ids and low parts then fill whole words of their own, and the high parts'
  /// words, which neighbouring ranges share at their ends, are ORed in
  /// atomically, once per word (so a level's records are written in parallel).
  template <class StepOf>
  void set_range(std::uint64_t begin, std::uint64_t end, const StepOf& step_of) {
    Level& l = levels_.back();
    const std::uint64_t low_mask = (std::uint64_t{1} << l.low_bits) - 1;
    std::uint64_t word_index = 0, word = 0;  // the high parts' word being filled
    const auto put_word = [&] {
      if (word != 0) std::atomic_ref<std::uint64_t>(l.high[static_cast<std::size_t>(word_index)]).fetch_or(word, std::memory_order_relaxed);
    };
    for (std::uint64_t rank = begin; rank != end; ++rank) {
      const Step step = step_of(rank);
      l.tids.set(rank, step.tid);
      l.low.set(rank, step.parent_rank & low_mask);
      const std::uint64_t bit = elias_fano::high_bit(step.parent_rank, rank, l.low_bits);
      if (bit / 64 != word_index) {
        put_word();
        word_index = bit / 64;
        word = 0;
      }
      word |= std::uint64_t{1} << (bit % 64);
    }
    put_word();
  }
  /// Writes record `rank` of the level begun last (set_range() of one).
  void set(std::uint64_t rank, std::uint64_t parent_rank, std::uint32_t tid) {
    set_range(rank, rank + 1, [&](std::uint64_t) { return Step{parent_rank, tid}; });
  }
  /// Record `rank` of `level` (1-based); std::runtime_error when inconsistent.
  Step get(std::uint32_t level, std::uint64_t rank) const;

  /// Every record of `level` (1-based) in rank order, decoded in one sweep
  /// (the second pass of the most readable trace reads whole levels).
  std::vector<Step> records(std::uint32_t level) const;

  /// The path to state `rank` of `level` (1-based): the initial combination,
  /// then the transition ids in order. Throws std::runtime_error when the
  /// records are inconsistent (a damaged spill file).
  std::vector<std::uint32_t> path(std::uint32_t level, std::uint64_t rank) const;

  std::uint32_t levels() const { return static_cast<std::uint32_t>(levels_.size()); }
  std::uint64_t level_size(std::uint32_t level) const { return levels_[level - 1].count; }
  /// Bytes in RAM, and bytes spilled to the work directory.
  std::size_t bytes() const { return ram_bytes_; }
  /// What every level keeps in RAM, spilled or not: its Level record, and the
  /// allocator's header and rounding of the three blocks of one in RAM (about
  /// 250 bytes a level: a chain of 600,000 levels holds 150 MB of them).
  std::size_t shape_bytes() const {
    return levels_.capacity() * sizeof(Level) + (levels_.size() - spilled_levels_) * 3 * allocation_overhead;
  }
  std::size_t disk_bytes() const { return disk_bytes_; }

  /// Level `level` (1-based) as kept: its words are empty when spilled.
  const Level& stored(std::uint32_t level) const { return levels_[level - 1]; }
  /// A copy of level `level` (1-based) with its words, read back when spilled.
  Level load(std::uint32_t level) const;
  /// Appends a complete level (from a checkpoint) after checking that its
  /// coding is consistent with `parent_count`; false when it is not.
  bool add_level(Level l, std::uint64_t parent_count);

  /// Spill older levels to an unlinked file in `dir` (empty: never spill).
  void set_workdir(std::string dir) { workdir_ = std::move(dir); }
  bool can_spill() const { return !workdir_.empty(); }
  /// Spills levels, oldest first, until at most `ram_target` bytes stay in
  /// RAM or none is left; throws std::runtime_error when the file cannot be written.
  void spill(std::size_t ram_target);

 private:
  Step decode(const Level& l, std::uint64_t rank) const;
  static constexpr std::size_t allocation_overhead = 24;  // glibc: an 8-byte header, 16-byte rounding
  std::vector<Level> levels_;
  std::size_t ram_bytes_ = 0;
  std::size_t disk_bytes_ = 0;
  std::string workdir_;
  int spill_fd_ = -1;
  std::string spill_name_;  // for messages
  std::uint32_t spilled_levels_ = 0;  // levels [0, spilled_levels_) are on disk
};

}  // namespace statecheck::detail
