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
// * Ordered (Robin Hood) probing: the entries of a run of used slots stay in
//   the order of their homes, and at one home in descending signature order.
//   A lookup stops at the first slot whose entry is closer to its home than
//   the probe is to its own (or as close, with a smaller signature): a miss
//   reads about as few slots as a hit, which keeps a full table cheap, and
//   most lookups of a level are misses (two-phase's: all of them). The layout
//   is a function of the set alone, not of the order of inserts, so a
//   checkpoint of it is the same bytes for any thread count.
// * A level that would load the table beyond 0.9 grows it to what the total
//   needs at 0.75, one segment more at least, any number of segments: a big
//   run ends between 0.75 and 0.9 full (8.9 to 10.7 bytes a state). Below 8
//   segments (64 MiB), where bytes a state matter little and a fuller table
//   costs hit-heavy specs 10%, it doubles past 0.75 instead. Short of room it
//   grows as far as the room allows and holds up to 0.95. Growth keeps
//   every entry's home and signature and recomputes its segment from the
//   signature. It builds the new segments one at a time, in order, each from
//   the one or two old segments its range of lo overlaps, and frees an old
//   segment once every new segment it feeds is built: its peak is the new
//   table plus the segments in flight, not the old and the new table at once.
// * contains() may run concurrently with other contains() calls. An insert
//   moves the entries after its slot along, so inserts into one segment must
//   not overlap: the level end inserts a group of whole segments per task
//   (group_of()), and migrate() builds each new segment on one thread. The
//   search is level-synchronous: lookups happen while a level expands,
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
  static constexpr unsigned segment_bits = 20;  // 2^20 slots of 8 bytes: 8 MiB, four huge pages
  static constexpr unsigned home_bits = segment_bits;
  static constexpr unsigned signature_bits = 52;
  static constexpr unsigned displacement_bits = 64 - signature_bits;
  static constexpr std::uint64_t displacement_mask = 0xFFF;  // the word's low 12 bits: displacement + 1
  static constexpr std::uint64_t max_displacement = 4094;
  static constexpr double max_load = 0.9;     // a level that would load the table beyond this grows it,
  static constexpr double grown_load = 0.75;  // to this load (one segment more at least), or as far as the room allows
  static constexpr double hold_load = 0.95;   // the most it takes when it cannot grow
  static constexpr std::uint64_t small_segments = 8;  // below this many, it grows beyond small_load,
  static constexpr double small_load = 0.75;          // to twice its size at least
  static constexpr std::uint64_t max_segments = std::uint64_t{1} << 24;  // 128 TiB
  static constexpr std::uint64_t segment_mask = (std::uint64_t{1} << segment_bits) - 1;
  static constexpr std::size_t segment_bytes = sizeof(std::uint64_t) << segment_bits;
  static constexpr std::uint64_t slots_per_line = 64 / sizeof(std::uint64_t);
  static constexpr std::uint64_t insert_prefetch_lines = 3;  // 3 to 6 measured alike, 2 a little slower (PROFILE.md)
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
    std::uint64_t mine = order_rank((h.lo & ~displacement_mask) | 1);  // its word at displacement 0
    for (std::uint64_t d = 0; d <= max_displacement; ++d, mine += rank_step) {
      const std::uint64_t seen = order_rank(segment[(home + d) & segment_mask].load(std::memory_order_relaxed));
      if (seen <= mine) return seen == mine;  // an empty slot ranks 0, below every entry
    }
    return false;
  }

  /// Hint the cache about the slot `contains(h)` will read first.
  void prefetch(const Hash128& h) const {
    __builtin_prefetch(&segments_[segment_of(h.lo, segment_count_)][h.hi & segment_mask]);
  }
  /// Hint the cache about the slots `insert(h)` will read and write: its
  /// home's line and the two after it. An insert reads on from where its word
  /// goes to the first empty slot (at the 0.75 to 0.9 a big run keeps, some
  /// 10 to 50 slots), and without this those lines came one after the other:
  /// half of place()'s samples waited on them (filter N=7, 2026-12-03). A
  /// read prefetch, as measured: one task inserts into a segment, so its
  /// lines arrive unshared and are written without a further fetch.
  void prefetch_for_insert(const Hash128& h) const {
    const std::atomic<std::uint64_t>* segment = segments_[segment_of(h.lo, segment_count_)];
    for (std::uint64_t line = 0; line < insert_prefetch_lines; ++line)
      __builtin_prefetch(&segment[(h.hi + line * slots_per_line) & segment_mask]);
  }

  /// Inserts one state; not concurrent with other inserts (see group_of()).
  Insert insert(const Hash128& h);
  /// insert() without counting it: the level end's tasks add up their own
  /// results and report them with add_counts() once. A shared counter bumped
  /// per insert, on the cache line every insert reads the segments from,
  /// tripled the level end's insert time on two threads. Concurrent calls
  /// must insert into different groups (group_of()).
  Insert insert_uncounted(const Hash128& h) {
    return place(segments_[segment_of(h.lo, segment_count_)], h.hi & segment_mask, h.lo & ~displacement_mask);
  }
  void add_counts(std::uint64_t added, std::uint64_t present) {
    size_.fetch_add(added, std::memory_order_relaxed);
    collisions_.fetch_add(present, std::memory_order_relaxed);
  }
  /// Which of `groups` (at most segment_count()) runs of whole segments a
  /// state with this `lo` lands in: inserts into different groups may run at
  /// once, inserts into one group may not.
  std::uint64_t group_of(std::uint64_t lo, std::uint64_t groups) const {
    return segment_of(lo, segment_count_) * groups / segment_count_;
  }

  /// Growth in three steps so the caller can migrate in parallel:
  /// begin_growth(S), then migrate() on any number of threads at once, then
  /// end_growth(); each old segment is freed as soon as it has moved.
  /// True when `total` entries would load the table beyond max_load
  /// (small_load below small_segments).
  bool needs_growth(std::uint64_t total) const;
  /// The segments growth aims at for `total` entries: what they need at
  /// grown_load, one more at least (twice as many below small_segments),
  /// within the budget (segment_count() when not one more fits).
  std::uint64_t wanted_segments(std::uint64_t total) const;
  /// The fewest segments worth growing to for `total` entries: max_load, one
  /// more at least; capped by the budget like wanted_segments().
  std::uint64_t least_segments(std::uint64_t total) const;
  /// The most segments of a growth whose peak fits in `room` bytes (0 if none).
  std::uint64_t segments_within(std::size_t room, unsigned concurrency) const;
  /// True when one more segment stays within the budget.
  bool can_grow() const { return segment_count() < budget_segments(); }
  /// True when `total` entries fit at all (load at most hold_load).
  bool can_hold(std::uint64_t total) const;
  /// The most bytes the table holds while it grows to `segments` with
  /// `concurrency` threads building new segments: the new table, and the old
  /// segments that feed a new segment not yet built (old segments are at
  /// least as wide as new ones, so those are the in-flight ones' and one
  /// each they share with the next). Measured (doubling, old-segment order):
  /// 13 -> 14 segments holding 10.9 M entries peaked at 131 MiB, this says 144.
  std::size_t growth_peak_bytes(std::uint64_t segments, unsigned concurrency) const {
    const std::uint64_t in_flight = std::min<std::uint64_t>(concurrency, segment_count_);
    const std::uint64_t shared = std::min<std::uint64_t>(concurrency, segment_count_ - 1);
    return static_cast<std::size_t>(segments + in_flight + shared) * segment_bytes;
  }
  void begin_growth(std::uint64_t segments);
  /// Builds new segments, the lowest not yet taken first, until none is left:
  /// run it on every thread that helps. Overflow when an entry did not fit.
  Insert migrate();
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
  /// Replaces the table with one of `segments` segments holding the states
  /// of a compact form, each inserted again (a table written in another
  /// order, by an older statecheck, comes back ordered); false (table
  /// unchanged) when it is not a table this class could have built.
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
  /// A word's place in the order of a run (banner): displacement first, then
  /// signature; a probe passes every slot that ranks above its own word at
  /// that distance. An empty slot ranks 0.
  static std::uint64_t order_rank(std::uint64_t word) { return (word << signature_bits) | (word >> displacement_bits); }
  static constexpr std::uint64_t rank_step = std::uint64_t{1} << signature_bits;  // one slot further from home
  std::uint64_t budget_segments() const { return std::min<std::uint64_t>(max_segments, budget_ / segment_bytes); }
  using Slot = std::atomic<std::uint64_t>;
  static Insert place(Slot* segment, std::uint64_t home, std::uint64_t signature);
  /// `count` zeroed segments, in a new directory.
  static std::unique_ptr<Slot*[]> allocate_segments(std::uint64_t count);
  static void free_segments(std::unique_ptr<Slot*[]>& directory, std::uint64_t count);
  /// The old segments that feed new segment `j`: [first, last].
  std::uint64_t first_feeding(std::uint64_t j) const;
  std::uint64_t last_feeding(std::uint64_t j) const;
  Insert build_segment(std::uint64_t j);

  std::unique_ptr<Slot*[]> directory_;   // owns segments_'s array
  Slot* const* segments_ = nullptr;      // segment i: slots [i * 2^20, (i + 1) * 2^20)
  std::uint64_t segment_count_ = 1;
  std::atomic<std::uint64_t> size_{0};
  std::atomic<std::uint64_t> collisions_{0};
  std::size_t budget_ = 0;
  // While growing: the old segments, how many unbuilt new segments each
  // still feeds (freed at 0), and the next new segment to build.
  std::unique_ptr<Slot*[]> old_directory_;
  std::unique_ptr<std::atomic<std::uint32_t>[]> old_readers_;
  std::uint64_t old_segment_count_ = 0;
  std::atomic<std::uint64_t> next_to_build_{0};
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
