// Hash-compacted visited set: insertion, growth and the omission bound.
// Guarantees are stated in detail/visited_set.hpp.
#include "statecheck/detail/visited_set.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>

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

// The probe walks past every entry that ranks above the new word at its
// distance (banner); the new word takes the first slot that does not, and the
// run of entries from there to the next empty slot moves one slot along, each
// one slot further from its home. Checked before anything moves: an entry
// pushed beyond max_displacement is an overflow, with the table unchanged.
VisitedSet::Insert VisitedSet::place(Slot* segment, std::uint64_t home, std::uint64_t signature) {
  std::uint64_t word = signature | 1;  // displacement + 1 in the low bits
  std::uint64_t at = home;
  for (std::uint64_t d = 0;; ++d, ++word, at = (at + 1) & segment_mask) {
    if (d > max_displacement) return Insert::overflow;
    const std::uint64_t seen = order_rank(segment[at].load(std::memory_order_relaxed));
    if (seen == order_rank(word)) return Insert::present;
    if (seen < order_rank(word)) break;
  }
  std::uint64_t empty = at;
  for (std::uint64_t n = 0;; ++n, empty = (empty + 1) & segment_mask) {
    const std::uint64_t w = segment[empty].load(std::memory_order_relaxed);
    if (w == 0) break;
    if ((w & displacement_mask) == max_displacement + 1 || n == segment_mask) return Insert::overflow;
  }
  for (std::uint64_t k = empty; k != at; k = (k - 1) & segment_mask)
    segment[k].store(segment[(k - 1) & segment_mask].load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  segment[at].store(word, std::memory_order_relaxed);
  return Insert::added;
}

VisitedSet::Insert VisitedSet::insert(const Hash128& h) {
  const Insert r = insert_uncounted(h);
  add_counts(r == Insert::added, r == Insert::present);
  return r;
}

bool VisitedSet::needs_growth(std::uint64_t total) const {
  const double load = segment_count_ < small_segments ? small_load : max_load;
  return static_cast<double>(total) > load * static_cast<double>(capacity());
}

namespace {

/// Segments of 2^20 slots that hold `total` entries at `load`.
std::uint64_t segments_at(std::uint64_t total, double load) {
  return static_cast<std::uint64_t>(
      std::ceil(static_cast<double>(total) / (load * static_cast<double>(std::uint64_t{1} << VisitedSet::segment_bits))));
}

}  // namespace

// Growing by a fifth or so at a time, not doubling, is what keeps a big run's
// table between 0.75 and 0.9 full; the entries it moves again (about six
// times each over a run) stream through in run order, and ordered probing
// keeps lookups short at 0.9 (bench/PROFILE.md, "ordered probing").
std::uint64_t VisitedSet::wanted_segments(std::uint64_t total) const {
  const std::uint64_t step = segment_count_ < small_segments ? segment_count_ : 1;
  const std::uint64_t wanted = std::max(segment_count_ + step, segments_at(total, grown_load));
  return std::max(std::min(budget_segments(), wanted), segment_count_);
}

std::uint64_t VisitedSet::least_segments(std::uint64_t total) const {
  const std::uint64_t least = std::max(segment_count_ + 1, segments_at(total, max_load));
  return std::max(std::min(budget_segments(), least), segment_count_);
}

std::uint64_t VisitedSet::segments_within(std::size_t room, unsigned concurrency) const {
  const std::size_t in_flight = growth_peak_bytes(0, concurrency);
  return room > in_flight ? (room - in_flight) / segment_bytes : 0;
}

bool VisitedSet::can_hold(std::uint64_t total) const {
  return static_cast<double>(total) <= hold_load * static_cast<double>(capacity());
}

// New segment j takes the lo-tops t with j <= t * S' / 2^32 < j + 1, from the
// first to the last of them; each old segment index is t * S / 2^32.
std::uint64_t VisitedSet::first_feeding(std::uint64_t j) const {
  const std::uint64_t first_top = ((j << 32) + segment_count_ - 1) / segment_count_;
  return (first_top * old_segment_count_) >> 32;
}

std::uint64_t VisitedSet::last_feeding(std::uint64_t j) const {
  const std::uint64_t last_top = (((j + 1) << 32) + segment_count_ - 1) / segment_count_ - 1;
  return (last_top * old_segment_count_) >> 32;
}

void VisitedSet::begin_growth(std::uint64_t segments) {
  // All new segments at once, as untouched zero pages: each becomes resident
  // as it is built, while the old segments it empties are freed.
  std::unique_ptr<Slot*[]> grown = allocate_segments(segments);
  old_segment_count_ = segment_count_;
  old_directory_ = std::move(directory_);
  directory_ = std::move(grown);
  segments_ = directory_.get();
  segment_count_ = segments;
  old_readers_ = std::make_unique<std::atomic<std::uint32_t>[]>(old_segment_count_);
  for (std::uint64_t j = 0; j < segment_count_; ++j)
    for (std::uint64_t i = first_feeding(j); i <= last_feeding(j); ++i) old_readers_[i].fetch_add(1, std::memory_order_relaxed);
  next_to_build_.store(0, std::memory_order_relaxed);
}

VisitedSet::Insert VisitedSet::migrate() {
  for (;;) {
    const std::uint64_t j = next_to_build_.fetch_add(1, std::memory_order_relaxed);
    if (j >= segment_count_) return Insert::added;
    if (build_segment(j) == Insert::overflow) return Insert::overflow;
  }
}

namespace {

/// An entry on its way into a new segment: where its run starts, and its signature.
struct Moving {
  std::uint64_t home, signature;
};
/// The home of a feed that has no entry left: beyond every slot.
constexpr std::uint64_t no_home = ~std::uint64_t{0};

/// One old segment's entries for new segment j, in the order of a run: home
/// ascending, then signature descending. Entries whose run wrapped past the
/// segment's end sit at its first slots, before their homes: they are left
/// for last (VisitedSet::build_segment). The segment is read a batch of slots
/// at a time into a buffer, without a branch per slot: whether a slot holds
/// one of j's entries is as good as random (an old segment feeds two new
/// ones), and a branch on it was most of a growth's time (filter N=7: 3.3 of
/// 28 CPU-seconds in build_segment, its samples on the mispredicted tests).
class Feed {
 public:
  /// `old` null: a feed with no entries.
  Feed(const std::atomic<std::uint64_t>* old, std::uint64_t j, std::uint64_t segments)
      : old_(old), j_(j), segments_(segments), next_slot_(old == nullptr ? VisitedSet::segment_mask + 1 : 0) {
    refill();
  }
  /// The next entry; its home is no_home when there is none.
  const Moving& head() const { return buffer_[at_]; }
  /// Moves past head() when `taken` (so a merge need not branch on which feed it took).
  void pop_if(bool taken) {
    at_ += taken ? 1 : 0;
    if (at_ == count_) refill();
  }

 private:
  static constexpr std::uint64_t batch = 256;
  void refill() {
    at_ = count_ = 0;
    while (count_ == 0 && next_slot_ <= VisitedSet::segment_mask) {
      const std::uint64_t end = std::min(next_slot_ + batch, VisitedSet::segment_mask + 1);
      // The next batch's lines are asked for now: read in order, a segment's
      // loads still waited on memory (filter N=7, 2 threads: build_segment
      // took 2,453 samples, most right after those loads; 1,512 with this).
      for (std::uint64_t s = end; s < std::min(end + batch, VisitedSet::segment_mask + 1); s += VisitedSet::slots_per_line)
        __builtin_prefetch(&old_[s]);
      for (std::uint64_t s = next_slot_; s < end; ++s) {
        const std::uint64_t w = old_[s].load(std::memory_order_relaxed);
        // An empty slot's word is 0: its "displacement" wraps to 2^64 - 1, beyond every slot.
        const std::uint64_t displacement = (w & VisitedSet::displacement_mask) - 1;
        const std::uint64_t signature = w & ~VisitedSet::displacement_mask;
        buffer_[count_] = {s - displacement, signature};
        count_ += static_cast<std::uint64_t>(displacement <= s) & static_cast<std::uint64_t>(((signature >> 32) * segments_) >> 32 == j_);
      }
      next_slot_ = end;
    }
    buffer_[count_] = {no_home, 0};  // head() once the segment is read to its end
  }

  const std::atomic<std::uint64_t>* old_;
  std::uint64_t j_, segments_;
  std::uint64_t next_slot_;
  std::uint64_t at_ = 0, count_ = 0;
  Moving buffer_[batch + 1];
};

/// Whether `a` comes before `b` in a run (home ascending, then signature descending).
bool runs_before(const Moving& a, const Moving& b) {
  return a.home < b.home || (a.home == b.home && a.signature > b.signature);
}

}  // namespace

// An entry keeps its home and signature; its segment is recomputed from the
// signature, which holds lo's top 52 bits. A new segment is never wider than
// an old one, so one or two old segments feed it; their entries are merged in
// run order and laid down one after another, each at its home or right after
// the one before: the new segment is written once, front to back. Only entries
// that wrap (past the end, or at the feeders' first slots from runs that
// wrapped) go in by place(), which moves what they land on.
VisitedSet::Insert VisitedSet::build_segment(std::uint64_t j) {
  Slot* target = directory_[j];
  const std::uint64_t first = first_feeding(j), last = last_feeding(j);
  if (last > first + 1) throw std::logic_error("a new visited-set segment is fed by more than two old ones");
  Feed a(old_directory_[first], j, segment_count_);
  Feed b(last == first ? nullptr : old_directory_[last], j, segment_count_);
  std::uint64_t next_free = 0;
  for (;;) {
    const bool from_a = runs_before(a.head(), b.head());
    const Moving m = from_a ? a.head() : b.head();
    if (m.home == no_home) break;  // both feeds are done
    const std::uint64_t at = std::max(m.home, next_free);
    if (at > segment_mask) {
      if (place(target, m.home, m.signature) == Insert::overflow) return Insert::overflow;
    } else {
      if (at - m.home > max_displacement) return Insert::overflow;
      target[at].store(m.signature | (at - m.home + 1), std::memory_order_relaxed);
      next_free = at + 1;
    }
    a.pop_if(from_a);
    b.pop_if(!from_a);
  }
  for (std::uint64_t i = first; i <= last; ++i) {
    const Slot* old = old_directory_[i];
    for (std::uint64_t s = 0; s < max_displacement; ++s) {  // the wrapped entries: displacement beyond the slot
      const std::uint64_t w = old[s].load(std::memory_order_relaxed);
      const std::uint64_t displacement = (w & displacement_mask) - 1;
      if (w == 0 || displacement <= s || segment_of(w & ~displacement_mask, segment_count_) != j) continue;
      if (place(target, (s - displacement) & segment_mask, w & ~displacement_mask) == Insert::overflow) return Insert::overflow;
    }
    // The last new segment it feeds frees it (acq_rel: after every reader's reads).
    if (old_readers_[i].fetch_sub(1, std::memory_order_acq_rel) == 1) {
      free_table_memory(old_directory_[i], segment_bytes);
      old_directory_[i] = nullptr;
    }
  }
  return Insert::added;
}

void VisitedSet::end_growth() {
  free_segments(old_directory_, old_segment_count_);  // none left unless a migration stopped early
  old_readers_.reset();
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
    std::uint64_t mask = load_word(p);
    p += 8;
    for (; mask != 0; mask &= mask - 1, p += 8) {
      // Each word goes in again at its home: whatever order the table was
      // written in, it comes back ordered. A word that names no displacement,
      // sits in a segment its signature does not map to, or repeats another
      // is from no table this class built.
      const std::uint64_t w = load_word(p);
      const std::uint64_t signature = w & ~displacement_mask;
      const std::uint64_t slot = (base & segment_mask) + static_cast<std::uint64_t>(std::countr_zero(mask));
      if ((w & displacement_mask) == 0 || segment_of(signature, segments) != base >> segment_bits ||
          place(directory[base >> segment_bits], (slot - ((w & displacement_mask) - 1)) & segment_mask, signature) !=
              Insert::added) {
        free_segments(directory, segments);
        return false;
      }
    }
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
