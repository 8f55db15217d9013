// Bit-packed per-level trace records; see detail/trace_log.hpp.
#include "statecheck/detail/trace_log.hpp"

#include <algorithm>
#include <bit>

namespace statecheck::detail {

namespace {
unsigned bits_for(std::uint64_t limit) {  // bits to store values 0..limit-1
  return limit <= 1 ? 0u : static_cast<unsigned>(std::bit_width(limit - 1));
}
}  // namespace

void TraceLog::begin_level(std::uint64_t count, std::uint64_t parent_count, std::uint64_t tid_limit) {
  Level l;
  l.count = count;
  l.tid_bits = bits_for(tid_limit);
  l.width = std::max(1u, bits_for(parent_count) + l.tid_bits);
  l.bits.assign(static_cast<std::size_t>((count * l.width + 63) / 64 + 1), 0);
  levels_.push_back(std::move(l));
}

TraceLog::Step TraceLog::get(std::uint32_t level, std::uint64_t rank) const {
  const Level& l = levels_[level - 1];
  const std::uint64_t bit = rank * l.width;
  const std::uint64_t word = bit / 64;
  const unsigned shift = static_cast<unsigned>(bit % 64);
  std::uint64_t value = l.bits[word] >> shift;
  if (shift + l.width > 64) value |= l.bits[word + 1] << (64 - shift);
  if (l.width < 64) value &= (std::uint64_t{1} << l.width) - 1;
  const std::uint64_t tid_mask = (std::uint64_t{1} << l.tid_bits) - 1;
  return {value >> l.tid_bits, static_cast<std::uint32_t>(value & tid_mask)};
}

std::vector<std::uint32_t> TraceLog::path(std::uint32_t level, std::uint64_t rank) const {
  std::vector<std::uint32_t> ids(level);
  for (std::uint32_t l = level; l >= 1; --l) {
    const Step s = get(l, rank);
    ids[l - 1] = s.tid;
    rank = s.parent_rank;
  }
  return ids;
}

std::size_t TraceLog::bytes() const {
  std::size_t total = 0;
  for (const Level& l : levels_) total += l.bits.size() * sizeof(std::uint64_t);
  return total;
}

}  // namespace statecheck::detail
