// statecheck/detail/trace_log.hpp - how each visited state was first reached.
//
// One bit-packed array per BFS level. The record of state r of level L+1 is
// (rank of its parent in level L, transition id), using just enough bits for
// the parent level's size and the spec's transition count; a level-1 record is
// the initial-state combination. Kept apart from the visited set (which holds
// only signatures) so that traces cost a few bytes a state.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace statecheck::detail {

class TraceLog {
 public:
  struct Step {
    std::uint64_t parent_rank;
    std::uint32_t tid;
  };

  /// Starts level `levels() + 1` with `count` records; parents come from a
  /// level of `parent_count` states and ids are below `tid_limit`.
  void begin_level(std::uint64_t count, std::uint64_t parent_count, std::uint64_t tid_limit);
  /// Writes record `rank` of the level begun last (ranks in ascending order).
  void set(std::uint64_t rank, std::uint64_t parent_rank, std::uint32_t tid) {
    Level& l = levels_.back();
    const std::uint64_t value = (parent_rank << l.tid_bits) | tid;
    const std::uint64_t bit = rank * l.width;
    const std::uint64_t word = bit / 64;
    const unsigned shift = static_cast<unsigned>(bit % 64);
    l.bits[word] |= value << shift;
    if (shift + l.width > 64) l.bits[word + 1] |= value >> (64 - shift);
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
    unsigned tid_bits = 0;
    unsigned width = 0;
    std::vector<std::uint64_t> bits;
  };
  std::vector<Level> levels_;
};

}  // namespace statecheck::detail
