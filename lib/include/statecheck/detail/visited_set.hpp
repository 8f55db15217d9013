// statecheck/detail/visited_set.hpp - the hash-compacted visited set.
//
// ============================== guarantees ==================================
// * Stores one 64-bit word per state: a 52-bit signature and a 12-bit probe
//   displacement, in an open-addressing table of 2^k words (linear probing).
// * Think of a state's XXH3-128 hash as a 128-bit string B. The home slot is
//   B[0, k); the signature is B[k0, k0 + 52) for the table's initial size
//   2^k0. The displacement gives back an entry's home, so the table can double
//   without the states (the next home bit is read from the signature), and two
//   different states are confused only when B[0, k0 + 52) is equal: a
//   (k0 + 52)-bit fingerprint of which only 52 bits are stored.
// * The table is cut into segments of 2^18 slots (2 MiB, one huge page): the
//   home's top bits pick the segment, probing wraps inside it. A doubling
//   maps old segment i onto new segments 2i and 2i + 1 alone, so it runs a
//   segment at a time, freeing each old one once moved: its peak is the new
//   table plus the segments in flight, not the old and the new table at once.
// * contains() may run concurrently with other contains() calls; insert() may
//   run concurrently with other insert() calls (lock-free CAS on empty slots).
//   The search is level-synchronous: lookups happen while a level expands,
//   inserts and growth at level boundaries, so the two never overlap.
// * Never silently degrades: a displacement beyond 4094 or a budget that
//   cannot hold the next level is reported to the caller.
// ============================================================================
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>

#include "statecheck/detail/hash.hpp"

namespace statecheck::detail {

class VisitedSet {
 public:
  static constexpr unsigned initial_bits = 20;
  static constexpr unsigned signature_bits = 52;
  static constexpr std::uint64_t max_displacement = 4094;
  static constexpr double max_load = 0.75;
  static constexpr unsigned segment_bits = 18;  // 2^18 slots of 8 bytes: one 2 MiB huge page
  static constexpr std::uint64_t segment_mask = (std::uint64_t{1} << segment_bits) - 1;
  static constexpr std::size_t segment_bytes = sizeof(std::uint64_t) << segment_bits;
  static_assert(initial_bits >= segment_bits && max_displacement < segment_mask, "a probe stays in its segment");

  enum class Insert { added, present, overflow };

  /// `budget_bytes` caps the table; it starts at 2^initial_bits words.
  explicit VisitedSet(std::size_t budget_bytes);
  ~VisitedSet();
  VisitedSet(const VisitedSet&) = delete;
  VisitedSet& operator=(const VisitedSet&) = delete;

  /// Was a state with this hash inserted before? (compacted: see banner)
  bool contains(const Hash128& h) const {
    const std::uint64_t home = h.lo >> (64 - bits_);
    const std::atomic<std::uint64_t>* segment = segments_[home >> segment_bits];
    const std::uint64_t sig = signature(h);
    for (std::uint64_t d = 0; d <= max_displacement; ++d) {
      const std::uint64_t w = segment[(home + d) & segment_mask].load(std::memory_order_relaxed);
      if (w == 0) return false;
      if (w == make_word(sig, d)) return true;
    }
    return false;
  }

  /// Hint the cache about the slot `contains(h)` will read first.
  void prefetch(const Hash128& h) const {
    const std::uint64_t home = h.lo >> (64 - bits_);
    __builtin_prefetch(&segments_[home >> segment_bits][home & segment_mask]);
  }

  Insert insert(const Hash128& h);

  /// Growth in three steps so the caller can migrate in parallel:
  /// begin_growth() then migrate() over the old segments [0, old_segments())
  /// then end_growth(); each old segment is freed as soon as it has moved.
  /// True when `total` entries would load the table beyond max_load.
  bool needs_growth(std::uint64_t total) const;
  /// True when one more doubling stays within the budget.
  bool can_grow() const;
  /// True when `total` entries fit at all (load at most 0.92).
  bool can_hold(std::uint64_t total) const;
  /// The most bytes the table holds while it doubles with `concurrency`
  /// segments moving at once: the new table and the old segments in flight.
  std::size_t growth_peak_bytes(unsigned concurrency) const {
    return 2 * bytes() + std::min<std::size_t>(concurrency, segment_count()) * segment_bytes;
  }
  void begin_growth();
  Insert migrate(std::uint64_t begin, std::uint64_t end);
  void end_growth();
  std::uint64_t old_segments() const { return old_segment_count_; }

  std::uint64_t size() const { return size_.load(std::memory_order_relaxed); }
  std::uint64_t capacity() const { return std::uint64_t{1} << bits_; }
  std::uint64_t segment_count() const { return capacity() >> segment_bits; }
  std::size_t bytes() const { return static_cast<std::size_t>(capacity()) * sizeof(std::uint64_t); }
  std::size_t budget() const { return budget_; }
  double load() const { return static_cast<double>(size()) / static_cast<double>(capacity()); }
  unsigned bits() const { return bits_; }

  // The table in compact form, for checkpoints: for each group of 64 slots, a
  // 64-bit mask of the used ones, then their words in slot order. A table of
  // 2^bits slots holding n states takes 2^bits / 8 + 8n bytes instead of
  // 8 * 2^bits (a small run's checkpoint is kilobytes, not the 8 MiB table).
  /// Hands the compact form to `put(const void*, std::size_t)` in pieces.
  template <class Put>
  void write_compact(Put&& put) const;
  /// The size of the compact form of 2^bits slots when `bytes` is one holding
  /// exactly `size` states (every mask's words present, none zero), else 0.
  static std::uint64_t compact_size_if_valid(unsigned bits, std::span<const std::byte> bytes, std::uint64_t size);
  /// Replaces the table with one of 2^bits slots from its compact form; false
  /// (table unchanged) when it is not a table this class could have built.
  bool restore(unsigned bits, std::span<const std::byte> compact, std::uint64_t size, std::uint64_t collisions);
  /// Compaction collisions seen while inserting (two new states with one word).
  std::uint64_t collisions() const { return collisions_.load(std::memory_order_relaxed); }
  /// Upper bound on the probability that some reachable state was wrongly
  /// taken as visited: n(n-1)/2 pairs, each confused with 2^-(k0 + 52).
  double omission_probability() const;
  /// Effective fingerprint width in bits (k0 + 52).
  static constexpr unsigned fingerprint_bits() { return initial_bits + signature_bits; }

 private:
  static std::uint64_t signature(const Hash128& h) {
    // B[k0, k0 + 52): the low bits of `lo` after the first k0, then `hi`.
    const std::uint64_t window = (h.lo << initial_bits) | (h.hi >> (64 - initial_bits));
    return window >> (64 - signature_bits);
  }
  static std::uint64_t make_word(std::uint64_t sig, std::uint64_t displacement) {
    return (sig << 12) | (displacement + 1);
  }
  using Slot = std::atomic<std::uint64_t>;
  static Insert place(Slot* segment, std::uint64_t home, std::uint64_t sig);
  static Insert place_alone(Slot* segment, std::uint64_t home, std::uint64_t sig);
  /// 2^bits slots as zeroed segments, in a new directory.
  static std::unique_ptr<Slot*[]> allocate_segments(unsigned bits);
  static void free_segments(std::unique_ptr<Slot*[]>& directory, std::uint64_t count);
  Insert migrate_segment(std::uint64_t old_segment);

  std::unique_ptr<Slot*[]> directory_;   // owns segments_'s array
  Slot* const* segments_ = nullptr;      // segment i: slots [i * 2^18, (i + 1) * 2^18)
  unsigned bits_ = initial_bits;
  std::atomic<std::uint64_t> size_{0};
  std::atomic<std::uint64_t> collisions_{0};
  std::size_t budget_ = 0;
  std::unique_ptr<Slot*[]> old_directory_;  // while growing: the segments not yet moved
  std::uint64_t old_segment_count_ = 0;
};

template <class Put>
void VisitedSet::write_compact(Put&& put) const {
  std::uint64_t group[65];  // the mask, then up to 64 words
  for (std::uint64_t base = 0; base < capacity(); base += 64) {
    const Slot* segment = segments_[base >> segment_bits];
    std::uint64_t mask = 0;
    std::size_t n = 1;
    for (std::uint64_t i = 0; i < 64; ++i) {
      const std::uint64_t w = segment[(base & segment_mask) + i].load(std::memory_order_relaxed);
      if (w == 0) continue;
      mask |= std::uint64_t{1} << i;
      group[n++] = w;
    }
    group[0] = mask;
    put(group, n * sizeof(std::uint64_t));
  }
}

}  // namespace statecheck::detail
