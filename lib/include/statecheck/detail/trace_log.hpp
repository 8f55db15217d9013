// statecheck/detail/trace_log.hpp - how each visited state was first reached.
//
// One record per state: the rank of its parent in the previous level and the
// transition id taken (a level-1 record holds the initial-state combination).
// A level is sorted by (parent rank, transition id), so its parent ranks never
// decrease: they are stored Elias-Fano coded (about 2 + log2(parents/records)
// bits a record) and the transition ids in bits(transitions) each. Kept apart
// from the visited set (which holds only signatures), so that traces cost
// about one byte a state. Reading a record scans its level's bit vector: fine
// for the few records a trace needs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

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

  /// Starts level `levels() + 1` with `count` records; parents come from a
  /// level of `parent_count` states and ids are below `tid_limit`.
  void begin_level(std::uint64_t count, std::uint64_t parent_count, std::uint64_t tid_limit);
  /// Writes record `rank` of the level begun last. Records come in rank order
  /// with non-decreasing parent ranks (the level's sort order).
  void set(std::uint64_t rank, std::uint64_t parent_rank, std::uint32_t tid) {
    Level& l = levels_.back();
    l.tids.set(rank, tid);
    l.low.set(rank, parent_rank & ((std::uint64_t{1} << l.low_bits) - 1));
    const std::uint64_t bit = (parent_rank >> l.low_bits) + rank;
    l.high[static_cast<std::size_t>(bit / 64)] |= std::uint64_t{1} << (bit % 64);
  }
  Step get(std::uint32_t level, std::uint64_t rank) const;

  /// The path to state `rank` of `level` (1-based): the initial combination,
  /// then the transition ids in order.
  std::vector<std::uint32_t> path(std::uint32_t level, std::uint64_t rank) const;

  std::uint32_t levels() const { return static_cast<std::uint32_t>(levels_.size()); }
  std::uint64_t level_size(std::uint32_t level) const { return levels_[level - 1].count; }
  std::size_t bytes() const;

 private:
  struct Level {
    std::uint64_t count = 0;
    unsigned low_bits = 0;             // Elias-Fano: low bits of each parent rank
    PackedBits low;
    std::vector<std::uint64_t> high;   // unary-coded high parts: bit (parent >> low_bits) + rank
    PackedBits tids;
  };
  std::vector<Level> levels_;
};

}  // namespace statecheck::detail
