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

std::unique_ptr<VisitedSet::Slot*[]> VisitedSet::allocate_segments(std::uint64_t count) {
  auto directory = std::make_unique<Slot*[]>(count);  // null: freeing a half-built one is safe
  try {
    // Zero pages handed out lazily (an untouched part costs no resident
    // memory), huge where the kernel allows (table_memory.hpp) once the table
    // has grown: the first segment of a small run stays a few 4 KiB pages.
    for (std::uint64_t i = 0; i < count; ++i)
      directory[i] = static_cast<Slot*>(allocate_table_memory(segment_bytes, count > 1));
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
  directory_ = allocate_segments(segment_count_);
  segments_ = directory_.get();
}

VisitedSet::~VisitedSet() {
  free_segments(directory_, segment_count_);
  free_segments(old_directory_, old_segment_count_);
}

VisitedSet::Insert VisitedSet::place(Slot* segment, std::uint64_t home, std::uint64_t signature) {
  for (std::uint64_t d = 0; d <= max_displacement; ++d) {
    Slot& slot = segment[(home + d) & segment_mask];
    const std::uint64_t word = signature | (d + 1);
    std::uint64_t seen = slot.load(std::memory_order_relaxed);
    if (seen == 0 && slot.compare_exchange_strong(seen, word, std::memory_order_relaxed)) return Insert::added;
    if (seen == word) return Insert::present;
  }
  return Insert::overflow;
}

VisitedSet::Insert VisitedSet::insert(const Hash128& h) {
  const Insert r = insert_uncounted(h);
  add_counts(r == Insert::added, r == Insert::present);
  return r;
}

bool VisitedSet::needs_growth(std::uint64_t total) const {
  return static_cast<double>(total) > max_load * static_cast<double>(capacity());
}

namespace {

/// Segments of 2^20 slots that hold `total` entries at `load`.
std::uint64_t segments_at(std::uint64_t total, double load) {
  return static_cast<std::uint64_t>(
      std::ceil(static_cast<double>(total) / (load * static_cast<double>(std::uint64_t{1} << VisitedSet::segment_bits))));
}

}  // namespace

std::uint64_t VisitedSet::wanted_segments(std::uint64_t total) const {
  const std::uint64_t doubled = std::max(2 * segment_count_, segments_at(total, max_load));
  // Beyond half the budget the table is most of what --memory holds: it packs
  // rather than doubles, and leaves the rest to the levels still to come.
  if (doubled * segment_bytes > budget_ / 2) return least_segments(total);
  return std::max(std::min(budget_segments(), doubled), segment_count_);
}

std::uint64_t VisitedSet::least_segments(std::uint64_t total) const {
  const std::uint64_t least = std::max(segment_count_ + 1, segments_at(total, packed_load));
  return std::max(std::min(budget_segments(), least), segment_count_);
}

std::uint64_t VisitedSet::segments_within(std::size_t room, unsigned concurrency) const {
  const std::size_t in_flight = growth_peak_bytes(0, concurrency);
  return room > in_flight ? (room - in_flight) / segment_bytes : 0;
}

bool VisitedSet::can_hold(std::uint64_t total) const {
  return static_cast<double>(total) <= hold_load * static_cast<double>(capacity());
}

void VisitedSet::begin_growth(std::uint64_t segments) {
  // All new segments at once, as untouched zero pages: an old segment's
  // entries land in up to three of them, and two old segments may share one.
  std::unique_ptr<Slot*[]> grown = allocate_segments(segments);
  old_segment_count_ = segment_count_;
  old_directory_ = std::move(directory_);
  directory_ = std::move(grown);
  segments_ = directory_.get();
  segment_count_ = segments;
}

VisitedSet::Insert VisitedSet::migrate(std::uint64_t begin, std::uint64_t end) {
  for (std::uint64_t i = begin; i < end; ++i)
    if (migrate_segment(i) == Insert::overflow) return Insert::overflow;
  return Insert::added;
}

// An entry keeps its home and signature; its segment is recomputed from the
// signature, which holds lo's top 52 bits. Another old segment's entries may
// land in the same new segment at once, so placing takes the CAS path.
VisitedSet::Insert VisitedSet::migrate_segment(std::uint64_t i) {
  Slot*& old = old_directory_[i];
  Insert result = Insert::added;
  for (std::uint64_t j = 0; j <= segment_mask && result != Insert::overflow; ++j) {
    const std::uint64_t w = old[j].load(std::memory_order_relaxed);
    if (w == 0) continue;
    const std::uint64_t home = (j - ((w & displacement_mask) - 1)) & segment_mask;
    const std::uint64_t signature = w & ~displacement_mask;
    result = place(directory_[segment_of(signature, segment_count_)], home, signature);
  }
  free_table_memory(old, segment_bytes);
  old = nullptr;
  return result;
}

void VisitedSet::end_growth() {
  free_segments(old_directory_, old_segment_count_);  // none left unless a migration stopped early
  old_segment_count_ = 0;
}

namespace {

std::uint64_t load_word(const std::byte* p) {
  std::uint64_t w;
  std::memcpy(&w, p, sizeof w);  // the checkpoint's bytes need not be aligned
  return w;
}

}  // namespace

std::uint64_t VisitedSet::compact_size_if_valid(std::uint64_t segments, std::span<const std::byte> bytes, std::uint64_t size) {
  if (segments == 0 || segments > max_segments) return 0;
  const std::uint64_t groups = (segments << segment_bits) / 64;
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

bool VisitedSet::restore(std::uint64_t segments, std::span<const std::byte> compact, std::uint64_t size,
                         std::uint64_t collisions) {
  if (compact_size_if_valid(segments, compact, size) == 0) return false;
  const std::uint64_t slots = segments << segment_bits;
  std::unique_ptr<Slot*[]> directory = allocate_segments(segments);  // zeroed
  const std::byte* p = compact.data();
  for (std::uint64_t base = 0; base < slots; base += 64) {
    Slot* group = directory[base >> segment_bits] + (base & segment_mask);
    std::uint64_t mask = load_word(p);
    p += 8;
    for (; mask != 0; mask &= mask - 1, p += 8)
      group[std::countr_zero(mask)].store(load_word(p), std::memory_order_relaxed);
  }
  free_segments(directory_, segment_count_);
  directory_ = std::move(directory);
  segments_ = directory_.get();
  segment_count_ = segments;
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
