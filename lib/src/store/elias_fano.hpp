// lib/src/store/elias_fano.hpp - the Elias-Fano code of an ascending sequence,
// shared by the trace log's parent ranks (trace_log.hpp) and the ranks a
// process holds of a past level (search/rank_set.hpp). Value i is split into
// its low `low_bits` bits, packed apart, and its high part, written in unary as
// bit (value >> low_bits) + i of a bit vector: about 2 + log2(universe / count)
// bits a value. These functions are the layout; the callers own the storage.
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <vector>

namespace statecheck::detail::elias_fano {

/// log2(universe / count), rounded down (0 when the values are dense).
inline unsigned low_bits(std::uint64_t count, std::uint64_t universe) {
  return count == 0 || universe <= count ? 0u : static_cast<unsigned>(std::bit_width(universe / count) - 1);
}

/// Words of the high parts' bit vector for `count` values below `universe`.
inline std::uint64_t high_words(std::uint64_t count, std::uint64_t universe, unsigned low_bits) {
  return (count + (universe >> low_bits) + 1) / 64 + 1;
}

/// The high parts' bit that stands for `value` at index `i`.
inline std::uint64_t high_bit(std::uint64_t value, std::uint64_t i, unsigned low_bits) { return (value >> low_bits) + i; }

/// Value `i`, from the position of its high parts' bit and its low bits.
inline std::uint64_t value(std::uint64_t position, std::uint64_t i, unsigned low_bits, std::uint64_t low) {
  return ((position - i) << low_bits) | low;
}

/// The position of the bit of value `i` (the (i + 1)-th set bit), or nothing
/// when fewer bits are set.
inline std::optional<std::uint64_t> select(const std::vector<std::uint64_t>& high, std::uint64_t i) {
  std::uint64_t seen = 0;
  for (std::size_t word = 0; word < high.size(); ++word) {
    const auto ones = static_cast<std::uint64_t>(std::popcount(high[word]));
    if (seen + ones <= i) {
      seen += ones;
      continue;
    }
    std::uint64_t bits = high[word];
    for (std::uint64_t skip = i - seen; skip > 0; --skip) bits &= bits - 1;  // drop lower set bits
    return word * 64 + static_cast<std::uint64_t>(std::countr_zero(bits));
  }
  return std::nullopt;
}

/// Calls visit(i, position) for the first `count` set bits in order, until it
/// returns false; returns how many it visited.
template <class Visit>
std::uint64_t for_each_position(const std::vector<std::uint64_t>& high, std::uint64_t count, Visit visit) {
  std::uint64_t i = 0;
  for (std::size_t word = 0; word < high.size() && i < count; ++word)
    for (std::uint64_t bits = high[word]; bits != 0 && i < count; bits &= bits - 1, ++i)
      if (!visit(i, word * 64 + static_cast<std::uint64_t>(std::countr_zero(bits)))) return i + 1;
  return i;
}

}  // namespace statecheck::detail::elias_fano
