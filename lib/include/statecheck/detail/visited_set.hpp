// statecheck/detail/visited_set.hpp - the hash-compacted visited set.
//
// ============================== guarantees ==================================
// * Stores one 64-bit word per state: a 52-bit signature and a 12-bit probe
//   displacement, in an open-addressing table of S segments of 2^20 slots
//   (8 MiB, four huge pages) each; probing is linear and wraps inside a segment.
// * Of a state's XXH3-128 hash (lo, hi): the signature is lo's top 52 bits;
//   the segment is a fixed-point scaling of lo's top 32 bits to [0, S); the
//   home slot in the segment is hi's low 20 bits. The slot's position gives
//   back the home (slot minus displacement), so two different states are
//   confused only when those 72 bits agree: a 72-bit fingerprint of which 52
//   bits are stored. (hi's top bits pick a state's process under MPI: unused here.)
// * A level that would load the table beyond 0.75 grows it. While the doubled
//   table stays within half the budget it doubles (load 0.375 to 0.75: short
//   probes, few growths); beyond, or short of room, it grows to what the total
//   needs at 0.85, or as far as the room allows, any number of segments,
//   holding up to 0.92 (packed, probes run longer: bench/PROFILE.md). Growth keeps every entry's home and
//   signature and recomputes its segment from the signature; an old segment's
//   entries go to the one to three new segments its range of lo maps onto. It
//   runs an old segment at a time, freeing each once moved: its peak is the new
//   table plus the segments in flight, not the old and the new table at once.
// * contains() may run concurrently with other contains() calls; insert() and
//   migrate() may run concurrently with other insert()/migrate() calls
//   (lock-free CAS on empty slots). The search is level-synchronous: lookups
//   happen while a level expands, inserts and growth at level boundaries, so
//   the two never overlap.
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
  static constexpr unsigned segment_bits = 20;  // 2^20 slots of 8 bytes: 8 MiB, four huge pages
  static constexpr unsigned home_bits = segment_bits;
  static constexpr unsigned signature_bits = 52;
  static constexpr std::uint64_t displacement_mask = 0xFFF;  // the word's low 12 bits: displacement + 1
  static constexpr std::uint64_t max_displacement = 4094;
  static constexpr double max_load = 0.75;     // a level that would load the table beyond this grows it,
  static constexpr double packed_load = 0.85;  // to twice its size, or, short of room, to as much as fits (this load at least if it can)
  static constexpr double hold_load = 0.92;    // the most it takes when it cannot grow
  static constexpr std::uint64_t max_segments = std::uint64_t{1} << 24;  // 128 TiB
  static constexpr std::uint64_t segment_mask = (std::uint64_t{1} << segment_bits) - 1;
  static constexpr std::size_t segment_bytes = sizeof(std::uint64_t) << segment_bits;
  static_assert(max_displacement < segment_mask && max_displacement < displacement_mask, "a probe stays in its segment");

  enum class Insert { added, present, overflow };

  /// `budget_bytes` caps the table; it starts as one segment.
  explicit VisitedSet(std::size_t budget_bytes);
  ~VisitedSet();
  VisitedSet(const VisitedSet&) = delete;
  VisitedSet& operator=(const VisitedSet&) = delete;

  /// Was a state with this hash inserted before? (compacted: see banner)
  bool contains(const Hash128& h) const {
    const std::atomic<std::uint64_t>* segment = segments_[segment_of(h.lo, segment_count_)];
    const std::uint64_t home = h.hi & segment_mask;
    const std::uint64_t signature = h.lo & ~displacement_mask;
    for (std::uint64_t d = 0; d <= max_displacement; ++d) {
      const std::uint64_t w = segment[(home + d) & segment_mask].load(std::memory_order_relaxed);
      if (w == 0) return false;
      if (w == (signature | (d + 1))) return true;
    }
    return false;
  }

  /// Hint the cache about the slot `contains(h)` will read first.
  void prefetch(const Hash128& h) const {
    __builtin_prefetch(&segments_[segment_of(h.lo, segment_count_)][h.hi & segment_mask]);
  }

  Insert insert(const Hash128& h);
  /// insert() without counting it: a loop of inserts on several threads adds
  /// up its own results and reports them with add_counts() once. A shared
  /// counter bumped per insert, on the cache line every insert reads the
  /// segments from, tripled the level end's insert time on two threads.
  Insert insert_uncounted(const Hash128& h) {
    return place(segments_[segment_of(h.lo, segment_count_)], h.hi & segment_mask, h.lo & ~displacement_mask);
  }
  void add_counts(std::uint64_t added, std::uint64_t present) {
    size_.fetch_add(added, std::memory_order_relaxed);
    collisions_.fetch_add(present, std::memory_order_relaxed);
  }

  /// Growth in three steps so the caller can migrate in parallel:
  /// begin_growth(S) then migrate() over the old segments [0, old_segments())
  /// then end_growth(); each old segment is freed as soon as it has moved.
  /// True when `total` entries would load the table beyond max_load.
  bool needs_growth(std::uint64_t total) const;
  /// The segments growth aims at for `total` entries: twice as many, more if
  /// `total` needs them at max_load, while that stays within half the budget;
  /// beyond, least_segments(). segment_count() when not one more fits the budget.
  std::uint64_t wanted_segments(std::uint64_t total) const;
  /// The fewest segments worth growing to for `total` entries: packed_load,
  /// one more at least; capped by the budget like wanted_segments().
  std::uint64_t least_segments(std::uint64_t total) const;
  /// The most segments of a growth whose peak fits in `room` bytes (0 if none).
  std::uint64_t segments_within(std::size_t room, unsigned concurrency) const;
  /// True when one more segment stays within the budget.
  bool can_grow() const { return segment_count() < budget_segments(); }
  /// True when `total` entries fit at all (load at most hold_load).
  bool can_hold(std::uint64_t total) const;
  /// The most bytes the table holds while it grows to `segments` with
  /// `concurrency` old segments moving at once: the new table, the old
  /// segments in flight, and the new segments they share with old ones not yet
  /// moved (none when there is one old segment). Measured: 13 -> 14 segments
  /// holding 10.9 M entries peaked at 131 MiB, this says 144.
  std::size_t growth_peak_bytes(std::uint64_t segments, unsigned concurrency) const {
    const std::uint64_t in_flight = std::min<std::uint64_t>(concurrency, segment_count_);
    const std::uint64_t shared = std::min<std::uint64_t>(concurrency, segment_count_ - 1);
    return static_cast<std::size_t>(segments + in_flight + shared) * segment_bytes;
  }
  void begin_growth(std::uint64_t segments);
  Insert migrate(std::uint64_t begin, std::uint64_t end);
  void end_growth();
  std::uint64_t old_segments() const { return old_segment_count_; }

  std::uint64_t size() const { return size_.load(std::memory_order_relaxed); }
  std::uint64_t capacity() const { return segment_count_ << segment_bits; }
  std::uint64_t segment_count() const { return segment_count_; }
  std::size_t bytes() const { return static_cast<std::size_t>(capacity()) * sizeof(std::uint64_t); }
  std::size_t budget() const { return budget_; }
  double load() const { return static_cast<double>(size()) / static_cast<double>(capacity()); }

  // The table in compact form, for checkpoints: for each group of 64 slots, a
  // 64-bit mask of the used ones, then their words in slot order. A table of
  // S segments holding n states takes S * 2^20 / 8 + 8n bytes instead of
  // 8 * S * 2^20 (a small run's checkpoint is kilobytes, not the 8 MiB table).
  /// Hands the compact form to `put(const void*, std::size_t)` in pieces.
  template <class Put>
  void write_compact(Put&& put) const;
  /// The size of the compact form of `segments` segments when `bytes` is one
  /// holding exactly `size` states (every mask's words present, none zero), else 0.
  static std::uint64_t compact_size_if_valid(std::uint64_t segments, std::span<const std::byte> bytes, std::uint64_t size);
  /// Replaces the table with one of `segments` segments from its compact form;
  /// false (table unchanged) when it is not a table this class could have built.
  bool restore(std::uint64_t segments, std::span<const std::byte> compact, std::uint64_t size, std::uint64_t collisions);
  /// Compaction collisions seen while inserting (two new states with one word).
  std::uint64_t collisions() const { return collisions_.load(std::memory_order_relaxed); }
  /// Upper bound on the probability that some reachable state was wrongly
  /// taken as visited: n(n-1)/2 pairs, each confused with 2^-72.
  double omission_probability() const;
  /// Effective fingerprint width in bits: the stored signature and the home.
  static constexpr unsigned fingerprint_bits() { return signature_bits + home_bits; }

 private:
  /// lo's top 32 bits scaled to [0, segments): monotone in lo, so growth maps
  /// an old segment onto a run of consecutive new ones.
  static std::uint64_t segment_of(std::uint64_t lo, std::uint64_t segments) { return ((lo >> 32) * segments) >> 32; }
  std::uint64_t budget_segments() const { return std::min<std::uint64_t>(max_segments, budget_ / segment_bytes); }
  using Slot = std::atomic<std::uint64_t>;
  static Insert place(Slot* segment, std::uint64_t home, std::uint64_t signature);
  /// `count` zeroed segments, in a new directory.
  static std::unique_ptr<Slot*[]> allocate_segments(std::uint64_t count);
  static void free_segments(std::unique_ptr<Slot*[]>& directory, std::uint64_t count);
  Insert migrate_segment(std::uint64_t old_segment);

  std::unique_ptr<Slot*[]> directory_;   // owns segments_'s array
  Slot* const* segments_ = nullptr;      // segment i: slots [i * 2^20, (i + 1) * 2^20)
  std::uint64_t segment_count_ = 1;
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
