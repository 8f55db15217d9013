// lib/src/search/rank_set.hpp - the global ranks a process holds in one past
// level of a search across processes (distributed_level.cpp): ascending, so
// Elias-Fano coded, about 2 + log2(level size / ranks held) bits a rank
// (2 + log2 K with K processes) instead of 8 bytes. Only a counterexample's
// trace looks a rank up, once per level, so a lookup scans the level.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

#include "store/trace_log.hpp"

namespace statecheck::detail {

class RankSet {
 public:
  /// `ranks` ascending, each below `universe`.
  RankSet(const std::vector<std::uint64_t>& ranks, std::uint64_t universe) : count_(ranks.size()), universe_(universe) {
    const std::uint64_t per = count_ == 0 ? 0 : universe / count_;
    low_bits_ = per <= 1 ? 0 : static_cast<unsigned>(std::bit_width(per) - 1);
    low_.assign(count_, low_bits_);
    high_.assign(static_cast<std::size_t>(((universe >> low_bits_) + count_) / 64 + 1), 0);
    for (std::uint64_t i = 0; i < count_; ++i) {
      low_.set(i, ranks[i] & ((std::uint64_t{1} << low_bits_) - 1));
      const std::uint64_t bit = (ranks[i] >> low_bits_) + i;
      high_[static_cast<std::size_t>(bit / 64)] |= std::uint64_t{1} << (bit % 64);
    }
  }

  /// The index of `rank` among the ranks held, if held.
  std::optional<std::uint64_t> find(std::uint64_t rank) const {
    std::uint64_t i = 0;
    for (std::size_t w = 0; w < high_.size() && i < count_; ++w) {
      for (std::uint64_t bits = high_[w]; bits != 0 && i < count_; bits &= bits - 1, ++i) {
        const std::uint64_t high = w * 64 + static_cast<std::uint64_t>(std::countr_zero(bits)) - i;
        const std::uint64_t value = (high << low_bits_) | low_.get(i);
        if (value == rank) return i;
        if (value > rank) return std::nullopt;
      }
    }
    return std::nullopt;
  }

  std::size_t bytes() const { return low_.bytes() + high_.size() * sizeof(std::uint64_t); }
  std::uint64_t universe() const { return universe_; }
  /// Every rank held, ascending (for a checkpoint).
  std::vector<std::uint64_t> values() const {
    std::vector<std::uint64_t> out;
    out.reserve(static_cast<std::size_t>(count_));
    for (std::size_t w = 0; w < high_.size() && out.size() < count_; ++w)
      for (std::uint64_t bits = high_[w]; bits != 0 && out.size() < count_; bits &= bits - 1) {
        const std::uint64_t high = w * 64 + static_cast<std::uint64_t>(std::countr_zero(bits)) - out.size();
        out.push_back((high << low_bits_) | low_.get(out.size()));
      }
    return out;
  }

 private:
  std::uint64_t count_;
  std::uint64_t universe_;
  unsigned low_bits_ = 0;
  PackedBits low_;
  std::vector<std::uint64_t> high_;
};

}  // namespace statecheck::detail
