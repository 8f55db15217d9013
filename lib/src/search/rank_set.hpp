// lib/src/search/rank_set.hpp - the global ranks a process holds in one past
// level of a search across processes (distributed_level.cpp): ascending, so
// Elias-Fano coded, about 2 + log2(level size / ranks held) bits a rank
// (2 + log2 K with K processes) instead of 8 bytes. Only a counterexample's
// trace looks a rank up, once per level, so a lookup scans the level.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "store/elias_fano.hpp"
#include "store/trace_log.hpp"  // PackedBits

namespace statecheck::detail {

class RankSet {
 public:
  /// `ranks` ascending, each below `universe`.
  RankSet(const std::vector<std::uint64_t>& ranks, std::uint64_t universe)
      : count_(ranks.size()), universe_(universe), low_bits_(elias_fano::low_bits(count_, universe)) {
    low_.assign(count_, low_bits_);
    high_.assign(static_cast<std::size_t>(elias_fano::high_words(count_, universe, low_bits_)), 0);
    for (std::uint64_t i = 0; i < count_; ++i) {
      low_.set(i, ranks[i] & ((std::uint64_t{1} << low_bits_) - 1));
      const std::uint64_t bit = elias_fano::high_bit(ranks[i], i, low_bits_);
      high_[static_cast<std::size_t>(bit / 64)] |= std::uint64_t{1} << (bit % 64);
    }
  }

  /// The index of `rank` among the ranks held, if held.
  std::optional<std::uint64_t> find(std::uint64_t rank) const {
    std::optional<std::uint64_t> found;
    elias_fano::for_each_position(high_, count_, [&](std::uint64_t i, std::uint64_t position) {
      const std::uint64_t value = elias_fano::value(position, i, low_bits_, low_.get(i));
      if (value == rank) found = i;
      return value < rank;
    });
    return found;
  }

  std::size_t bytes() const { return low_.bytes() + high_.size() * sizeof(std::uint64_t); }
  std::uint64_t universe() const { return universe_; }
  /// Every rank held, ascending (for a checkpoint).
  std::vector<std::uint64_t> values() const {
    std::vector<std::uint64_t> out;
    out.reserve(static_cast<std::size_t>(count_));
    elias_fano::for_each_position(high_, count_, [&](std::uint64_t i, std::uint64_t position) {
      out.push_back(elias_fano::value(position, i, low_bits_, low_.get(i)));
      return true;
    });
    return out;
  }

 private:
  std::uint64_t count_;
  std::uint64_t universe_;
  unsigned low_bits_;
  PackedBits low_;
  std::vector<std::uint64_t> high_;
};

}  // namespace statecheck::detail
