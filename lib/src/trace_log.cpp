// Per-level trace records, Elias-Fano coded parents; see detail/trace_log.hpp.
#include "statecheck/detail/trace_log.hpp"

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
  // Elias-Fano: log2(universe / count) low bits; the high parts in unary.
  l.low_bits = count == 0 || parent_count <= count
                   ? 0u
                   : static_cast<unsigned>(std::bit_width(parent_count / count) - 1);
  l.low.assign(count, l.low_bits);
  l.high.assign(static_cast<std::size_t>((count + (parent_count >> l.low_bits) + 1) / 64 + 1), 0);
  l.tids.assign(count, bits_for(tid_limit));
  levels_.push_back(std::move(l));
}

TraceLog::Step TraceLog::get(std::uint32_t level, std::uint64_t rank) const {
  const Level& l = levels_[level - 1];
  // Position of the (rank + 1)-th set bit of the high parts (select).
  std::uint64_t seen = 0;
  std::size_t word = 0;
  for (;; ++word) {
    const auto ones = static_cast<std::uint64_t>(std::popcount(l.high[word]));
    if (seen + ones > rank) break;
    seen += ones;
  }
  std::uint64_t bits = l.high[word];
  for (std::uint64_t skip = rank - seen; skip > 0; --skip) bits &= bits - 1;  // drop lower set bits
  const std::uint64_t position = word * 64 + static_cast<std::uint64_t>(std::countr_zero(bits));
  const std::uint64_t parent = ((position - rank) << l.low_bits) | l.low.get(rank);
  return {parent, static_cast<std::uint32_t>(l.tids.get(rank))};
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
  for (const Level& l : levels_) total += l.low.bytes() + l.high.size() * sizeof(std::uint64_t) + l.tids.bytes();
  return total;
}

}  // namespace statecheck::detail
