// Hash-compacted visited set: insertion, growth and the omission bound.
// Guarantees are stated in detail/visited_set.hpp.
#include "statecheck/detail/visited_set.hpp"

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>

#include "store/table_memory.hpp"

namespace statecheck::detail {

namespace {
// Zero pages handed out lazily (an untouched part of the table costs no
// resident memory), huge where the kernel allows: table_memory.hpp.
std::atomic<std::uint64_t>* allocate_table(std::uint64_t slots) {
  return static_cast<std::atomic<std::uint64_t>*>(allocate_table_memory(static_cast<std::size_t>(slots) * sizeof(std::uint64_t)));
}
void free_table(std::atomic<std::uint64_t>* table, std::uint64_t slots) {
  free_table_memory(table, static_cast<std::size_t>(slots) * sizeof(std::uint64_t));
}
}  // namespace

VisitedSet::VisitedSet(std::size_t budget_bytes) : budget_(budget_bytes) {
  table_ = allocate_table(std::uint64_t{1} << bits_);
  mask_ = (std::uint64_t{1} << bits_) - 1;
}

VisitedSet::~VisitedSet() {
  free_table(table_, capacity());
  free_table(old_table_, old_capacity_);
}

VisitedSet::Insert VisitedSet::place(std::atomic<std::uint64_t>* table, std::uint64_t mask,
                                     std::uint64_t home, std::uint64_t sig) {
  for (std::uint64_t d = 0; d <= max_displacement; ++d) {
    std::atomic<std::uint64_t>& slot = table[(home + d) & mask];
    const std::uint64_t word = make_word(sig, d);
    std::uint64_t seen = slot.load(std::memory_order_relaxed);
    if (seen == 0 && slot.compare_exchange_strong(seen, word, std::memory_order_relaxed)) return Insert::added;
    if (seen == word) return Insert::present;
  }
  return Insert::overflow;
}

VisitedSet::Insert VisitedSet::insert(const Hash128& h) {
  const Insert r = place(table_, mask_, h.lo >> (64 - bits_), signature(h));
  if (r == Insert::added) size_.fetch_add(1, std::memory_order_relaxed);
  if (r == Insert::present) collisions_.fetch_add(1, std::memory_order_relaxed);
  return r;
}

bool VisitedSet::needs_growth(std::uint64_t total) const {
  return static_cast<double>(total) > max_load * static_cast<double>(capacity());
}

bool VisitedSet::can_grow() const {
  // The next home bit is read from the signature, which holds 52 of them.
  return bits_ + 1 - initial_bits < signature_bits && bytes() * 2 <= budget_;
}

bool VisitedSet::can_hold(std::uint64_t total) const {
  return static_cast<double>(total) <= 0.92 * static_cast<double>(capacity());
}

void VisitedSet::begin_growth() {
  old_table_ = table_;
  old_capacity_ = capacity();
  ++bits_;
  table_ = allocate_table(std::uint64_t{1} << bits_);
  mask_ = (std::uint64_t{1} << bits_) - 1;
}

VisitedSet::Insert VisitedSet::migrate(std::uint64_t begin, std::uint64_t end) {
  const std::uint64_t old_mask = old_capacity_ - 1;
  const unsigned old_bits = bits_ - 1;
  for (std::uint64_t i = begin; i < end; ++i) {
    const std::uint64_t w = old_table_[i].load(std::memory_order_relaxed);
    if (w == 0) continue;
    const std::uint64_t displacement = (w & 0xFFF) - 1;
    const std::uint64_t sig = w >> 12;
    const std::uint64_t old_home = (i - displacement) & old_mask;
    // B[old_bits] is signature bit (old_bits - k0), counted from its top.
    const std::uint64_t next_bit = (sig >> (signature_bits - 1 - (old_bits - initial_bits))) & 1u;
    if (place(table_, mask_, (old_home << 1) | next_bit, sig) == Insert::overflow) return Insert::overflow;
  }
  return Insert::added;
}

void VisitedSet::end_growth() {
  free_table(old_table_, old_capacity_);
  old_table_ = nullptr;
  old_capacity_ = 0;
}

namespace {

std::uint64_t load_word(const std::byte* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);  // the checkpoint's bytes need not be aligned
  return w;
}

}  // namespace

std::uint64_t VisitedSet::compact_size_if_valid(unsigned bits, std::span<const std::byte> bytes, std::uint64_t size) {
  if (bits < initial_bits || bits - initial_bits >= signature_bits || bits > 40) return 0;
  const std::uint64_t groups = (std::uint64_t{1} << bits) / 64;
  std::uint64_t at = 0, used = 0;
  for (std::uint64_t g = 0; g < groups; ++g) {
    if (bytes.size() - at < 8) return 0;
    const std::uint64_t mask = load_word(bytes.data() + at);
    const auto n = static_cast<std::uint64_t>(std::popcount(mask));
    if ((bytes.size() - at - 8) / 8 < n) return 0;
    for (std::uint64_t i = 0; i < n; ++i)
      if (load_word(bytes.data() + at + 8 + 8 * i) == 0) return 0;  // a used slot holds a nonzero word
    at += 8 + 8 * n;
    used += n;
  }
  return at == bytes.size() && used == size ? at : 0;
}

bool VisitedSet::restore(unsigned bits, std::span<const std::byte> compact, std::uint64_t size, std::uint64_t collisions) {
  if (compact_size_if_valid(bits, compact, size) == 0) return false;
  const std::uint64_t slots = std::uint64_t{1} << bits;
  std::atomic<std::uint64_t>* table = allocate_table(slots);  // zeroed
  const std::byte* p = compact.data();
  for (std::uint64_t base = 0; base < slots; base += 64) {
    std::uint64_t mask = load_word(p);
    p += 8;
    for (; mask != 0; mask &= mask - 1, p += 8)
      table[base + static_cast<std::uint64_t>(std::countr_zero(mask))].store(load_word(p), std::memory_order_relaxed);
  }
  free_table(table_, capacity());
  table_ = table;
  bits_ = bits;
  mask_ = slots - 1;
  size_.store(size, std::memory_order_relaxed);
  collisions_.store(collisions, std::memory_order_relaxed);
  return true;
}

double VisitedSet::omission_probability() const {
  if (size() < 2) return 0;  // no pair to confuse (and n(n-1)/2 would be -0 for n = 0)
  const double n = static_cast<double>(size());
  const double p = n * (n - 1) / 2 * std::ldexp(1.0, -static_cast<int>(fingerprint_bits()));
  return p > 1 ? 1 : p;
}

}  // namespace statecheck::detail
