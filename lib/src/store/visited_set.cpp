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

std::unique_ptr<VisitedSet::Slot*[]> VisitedSet::allocate_segments(unsigned bits) {
  const std::uint64_t count = std::uint64_t{1} << (bits - segment_bits);
  auto directory = std::make_unique<Slot*[]>(count);  // null: freeing a half-built one is safe
  try {
    // Zero pages handed out lazily (an untouched part costs no resident
    // memory), huge where the kernel allows: table_memory.hpp.
    for (std::uint64_t i = 0; i < count; ++i) directory[i] = static_cast<Slot*>(allocate_table_memory(segment_bytes));
  } catch (...) {
    free_segments(directory, count);
    throw;
  }
  return directory;
}

void VisitedSet::free_segments(std::unique_ptr<Slot*[]>& directory, std::uint64_t count) {
  if (!directory) return;
  for (std::uint64_t i = 0; i < count; ++i) free_table_memory(directory[i], segment_bytes);
  directory.reset();
}

VisitedSet::VisitedSet(std::size_t budget_bytes) : budget_(budget_bytes) {
  directory_ = allocate_segments(bits_);
  segments_ = directory_.get();
}

VisitedSet::~VisitedSet() {
  free_segments(directory_, segment_count());
  free_segments(old_directory_, old_segment_count_);
}

VisitedSet::Insert VisitedSet::place(Slot* segment, std::uint64_t home, std::uint64_t sig) {
  for (std::uint64_t d = 0; d <= max_displacement; ++d) {
    Slot& slot = segment[(home + d) & segment_mask];
    const std::uint64_t word = make_word(sig, d);
    std::uint64_t seen = slot.load(std::memory_order_relaxed);
    if (seen == 0 && slot.compare_exchange_strong(seen, word, std::memory_order_relaxed)) return Insert::added;
    if (seen == word) return Insert::present;
  }
  return Insert::overflow;
}

// Growth writes each new segment from one thread only: no CAS needed.
VisitedSet::Insert VisitedSet::place_alone(Slot* segment, std::uint64_t home, std::uint64_t sig) {
  for (std::uint64_t d = 0; d <= max_displacement; ++d) {
    Slot& slot = segment[(home + d) & segment_mask];
    if (slot.load(std::memory_order_relaxed) != 0) continue;
    slot.store(make_word(sig, d), std::memory_order_relaxed);
    return Insert::added;
  }
  return Insert::overflow;
}

VisitedSet::Insert VisitedSet::insert(const Hash128& h) {
  const std::uint64_t home = h.lo >> (64 - bits_);
  const Insert r = place(directory_[home >> segment_bits], home & segment_mask, signature(h));
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
  old_segment_count_ = segment_count();
  old_directory_ = std::move(directory_);
  directory_ = std::make_unique<Slot*[]>(2 * old_segment_count_);  // filled by migrate()
  segments_ = directory_.get();
  ++bits_;
}

VisitedSet::Insert VisitedSet::migrate(std::uint64_t begin, std::uint64_t end) {
  for (std::uint64_t i = begin; i < end; ++i)
    if (migrate_segment(i) == Insert::overflow) return Insert::overflow;
  return Insert::added;
}

// Old segment i holds the homes with prefix i; doubled, they are the homes of
// new segments 2i and 2i + 1, which no other segment's states reach.
VisitedSet::Insert VisitedSet::migrate_segment(std::uint64_t i) {
  Slot*& old = old_directory_[i];
  directory_[2 * i] = static_cast<Slot*>(allocate_table_memory(segment_bytes));
  directory_[2 * i + 1] = static_cast<Slot*>(allocate_table_memory(segment_bytes));
  const unsigned old_bits = bits_ - 1;
  Insert result = Insert::added;
  for (std::uint64_t j = 0; j <= segment_mask && result == Insert::added; ++j) {
    const std::uint64_t w = old[j].load(std::memory_order_relaxed);
    if (w == 0) continue;
    const std::uint64_t displacement = (w & 0xFFF) - 1;
    const std::uint64_t sig = w >> 12;
    const std::uint64_t old_home = (i << segment_bits) | ((j - displacement) & segment_mask);
    // B[old_bits] is signature bit (old_bits - k0), counted from its top.
    const std::uint64_t next_bit = (sig >> (signature_bits - 1 - (old_bits - initial_bits))) & 1u;
    const std::uint64_t home = (old_home << 1) | next_bit;
    result = place_alone(directory_[home >> segment_bits], home & segment_mask, sig);
  }
  free_table_memory(old, segment_bytes);
  old = nullptr;
  return result;
}

void VisitedSet::end_growth() {
  free_segments(old_directory_, old_segment_count_);  // none left unless a migration stopped early
  old_segment_count_ = 0;
  // A segment never migrated (overflow stopped its range) is still null: give
  // it zero pages so the table stays well formed for the report and trace.
  for (std::uint64_t s = 0; s < segment_count(); ++s)
    if (directory_[s] == nullptr) directory_[s] = static_cast<Slot*>(allocate_table_memory(segment_bytes));
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
  std::unique_ptr<Slot*[]> directory = allocate_segments(bits);  // zeroed
  const std::byte* p = compact.data();
  for (std::uint64_t base = 0; base < slots; base += 64) {
    Slot* group = directory[base >> segment_bits] + (base & segment_mask);
    std::uint64_t mask = load_word(p);
    p += 8;
    for (; mask != 0; mask &= mask - 1, p += 8)
      group[std::countr_zero(mask)].store(load_word(p), std::memory_order_relaxed);
  }
  free_segments(directory_, segment_count());
  directory_ = std::move(directory);
  segments_ = directory_.get();
  bits_ = bits;
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
