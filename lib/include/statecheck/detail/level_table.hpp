// statecheck/detail/level_table.hpp - the states first found in the level being
// expanded, each with the smallest discovery key seen so far.
//
// ============================== guarantees ==================================
// * insert() is lock-free and may run on every worker at once. The first
//   inserter of a state learns its slot; every inserter lowers the
//   entry's key (parent rank << tid bits | transition id) with an atomic min.
//   After the level, each new state carries the smallest key among all its
//   discoverers, whatever the thread timing: what one thread would find.
// * States are equal when their lo hashes are equal and so are the hash bits
//   that a slot keeps beside the key (set_key_bits: 64 less the key's bits, at
//   least min_hash_bits), or, in exact mode, when their encodings are equal
//   (the caller's comparison). So within a level two states are compared on at
//   least 72 hash bits, as many as the visited set stores; the search adds
//   these pairs to its omission bound (search/level_keys.cpp).
// * A slot is 16 bytes: the lo hash and one word, key << hash bits | hash bits.
//   Every inserter of a state has the same hash bits, so an atomic min of the
//   word is a min of the key. Where the state's bytes live is not in the slot:
//   the first inserter is told the slot's index and keeps it with its record,
//   and at the level's end locate() writes the record's place into the slot
//   before take_entries() (a growth mid-level moves the slots: reserve()
//   tells the records their new ones). In exact mode, comparisons need the first
//   inserter's record during the level: a side array holds it.
// * The table never fills past max_load: a worker claims room for its new
//   states in small blocks (claim(), one atomic per block, not per state)
//   before it inserts them. When no room is left the table says full(); the
//   search then grows it and expands the batch again. What the first try
//   inserted stays (inserting a state again only lowers its key to the same
//   minimum), so the level's entries and keys are what one try would give.
//   Batches are sized from the fan-out observed so far, not from the number
//   of transition ids (a choice's bound or a static superset domain would
//   otherwise size the table for successors that never come).
//   reserve() and set_size() are not concurrent with insert() or claim().
// ============================================================================
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>

#include "statecheck/detail/hash.hpp"

namespace statecheck::detail {

/// Whether this CPU has PREFETCHW, which fetches a line owned, ready to be
/// written (x86's CPUID; false elsewhere, where a prefetch for a write is the
/// compiler's). Asked once.
bool cpu_prefetches_for_write();

/// Prefetches the line at `p`, which the caller is about to write: owned when
/// `owned` (cpu_prefetches_for_write), else as for a read. Written out for x86:
/// compilers emit PREFETCHW for a write prefetch only when the build targets a
/// CPU that has it, so a portable build would prefetch for a read.
inline void prefetch_for_write(const void* p, bool owned) {
#if defined(__x86_64__) || defined(__i386__)
  if (owned) asm volatile("prefetchw %0" : : "m"(*static_cast<const char*>(p)));
  else __builtin_prefetch(p);
#else
  (void)owned;
  __builtin_prefetch(p, 1);
#endif
}

class LevelTable {
 public:
  /// Linear probing stays short at 3/4 full; the table is the largest level's
  /// biggest cost (16 bytes a slot), so it is not kept emptier.
  static constexpr double max_load = 0.75;
  /// The fewest hash bits a slot keeps beside the key: with lo's 64, a level's
  /// states are told apart on 72 bits at least (the visited set's width).
  static constexpr unsigned min_hash_bits = 8;
  /// What insert() returns for a state already in the level.
  static constexpr std::uint64_t no_slot = ~std::uint64_t{0};

  /// A level's state at its end: its key and where its bytes live (ref()).
  struct Entry {
    std::uint64_t key;
    std::uint64_t ref;
  };
  static std::uint64_t ref(std::uint32_t worker, std::uint32_t record) {
    return (std::uint64_t{worker} << 32) | record;
  }
  static std::uint32_t worker_of(std::uint64_t ref) { return static_cast<std::uint32_t>(ref >> 32); }
  static std::uint32_t record_of(std::uint64_t ref) { return static_cast<std::uint32_t>(ref); }

  /// `exact`: inserts compare encodings, so the table keeps each slot's first record beside it.
  explicit LevelTable(bool exact = false);
  ~LevelTable();
  LevelTable(const LevelTable&) = delete;
  LevelTable& operator=(const LevelTable&) = delete;

  /// Keys of the level to come have at most `bits` bits; a slot keeps 64 less
  /// that many hash bits beside the key. Only while the table is empty.
  void set_key_bits(unsigned bits);
  /// Whether keys of `bits` bits leave min_hash_bits in a slot.
  static bool key_bits_fit(unsigned bits) { return bits >= 1 && bits <= 64 - min_hash_bits; }
  /// Hash bits a slot keeps beside keys of `bits` bits.
  static unsigned hash_bits_for(unsigned bits) { return 64 - bits; }

  /// Inserts or lowers the key; returns the slot when the state is new to the
  /// level, no_slot when it was there. `same(worker, record)` compares a
  /// stored state with the inserted one in exact mode (hashes suffice otherwise).
  template <class Same>
  std::uint64_t insert(const Hash128& h, std::uint64_t key, std::uint32_t worker, std::uint32_t record, Same&& same) {
    const std::uint64_t tag = h.lo;  // >= 2 (hash.hpp); 0 = empty, 1 = being written
    const std::uint64_t check = h.hi & check_mask_;
    const std::uint64_t word = (key << hash_bits_) | check;
    for (std::uint64_t i = h.lo & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      std::uint64_t t = s.tag.load(std::memory_order_acquire);
      if (t == 0) {
        if (s.tag.compare_exchange_strong(t, 1, std::memory_order_acquire)) {
          if (first_ != nullptr) first_[i] = ref(worker, record);
          s.word.store(word, std::memory_order_relaxed);
          s.tag.store(tag, std::memory_order_release);
          return i;
        }
      }
      while (t == 1) t = s.tag.load(std::memory_order_acquire);
      if (t != tag) continue;
      std::uint64_t old = s.word.load(std::memory_order_relaxed);
      if ((old & check_mask_) != check) continue;
      if (first_ != nullptr && !same(worker_of(first_[i]), record_of(first_[i]))) continue;
      while (word < old && !s.word.compare_exchange_weak(old, word, std::memory_order_relaxed)) {
      }
      return no_slot;
    }
  }

  /// At the level's end: slot `slot` holds the state stored at `ref`. Every
  /// entry is located before take_entries(); each slot by one caller.
  void locate(std::uint64_t slot, std::uint64_t ref) {
    slots_[slot].tag.store(located | ref, std::memory_order_relaxed);
  }

  /// Room for up to `want` more entries: how many were granted (0 when the
  /// table is at its load limit, which then reads as full()).
  std::uint64_t claim(std::uint64_t want) {
    std::uint64_t taken = claimed_.load(std::memory_order_relaxed);
    for (;;) {
      const std::uint64_t granted = taken >= limit_ ? 0 : std::min(want, limit_ - taken);
      if (granted == 0) {
        full_.store(true, std::memory_order_relaxed);
        return 0;
      }
      if (claimed_.compare_exchange_weak(taken, taken + granted, std::memory_order_relaxed)) return granted;
    }
  }
  /// A claim failed since the last set_size(): some successors were not inserted.
  bool full() const { return full_.load(std::memory_order_relaxed); }

  /// For insert(h). With two threads, a slot's line is often in the other
  /// core's cache, shared: a prefetch for a read left the claim's locked
  /// compare-exchange to take it over, and that stall was the largest cost
  /// two threads had over one (two-phase N=9: 0.08 CPU-seconds on one thread,
  /// 0.48 on two).
  void prefetch(const Hash128& h) const { prefetch_for_write(&slots_[h.lo & mask_], owned_prefetch_); }

  /// Room for `extra` more inserts under max_load?
  bool has_room(std::uint64_t extra) const {
    return static_cast<double>(size() + extra) <= max_load * static_cast<double>(capacity());
  }
  /// Grows so that `total` entries fit under max_load (not concurrent with
  /// insert): the entries move straight into the new table, in parallel, so
  /// growing holds the old and the new table and nothing else. Before the old
  /// table goes, moved(new_slot) lets the records follow their entries:
  /// new_slot(s) is the slot now holding the entry that was in slot s (each
  /// old slot says it, so no state is hashed or looked up again).
  template <class Moved>
  void reserve(std::uint64_t total, const Moved& moved) {
    const OldSlots old = move_to(total);
    if (old.slots == nullptr) return;
    moved([&old](std::uint64_t s) { return old.slots[s].word.load(std::memory_order_relaxed); });
  }
  /// reserve() of a table that holds no entry yet.
  void reserve(std::uint64_t total);
  /// Bytes of a table of `capacity` slots after reserve(total).
  std::size_t bytes_for(std::uint64_t total, std::uint64_t capacity) const {
    while (static_cast<double>(total) > max_load * static_cast<double>(capacity)) capacity *= 2;
    return static_cast<std::size_t>(capacity) * slot_bytes();
  }
  /// What take_entries() does with the table beyond the entries.
  enum class Pages {
    keep,      // kept resident (already empty): the next level finds them there
    give_back  // whole huge pages go back to the system for the level's end (memory short)
  };
  /// The level's entries (any order; every one located), moved to the front of the table's own
  /// memory in parallel. So the level's end holds its entries in the table's
  /// place, with no second copy beside it and no fresh memory for the kernel
  /// to zero. Pages given back are zeroed again by the kernel when the next
  /// level touches them: on filter N=7 that was half the run's kernel time.
  /// No insert until clear(); the span lives until then.
  std::span<Entry> take_entries(Pages pages);
  /// After take_entries(keep): the free, resident slots right after the
  /// entries, as many as there are entries or all of them when fewer (at
  /// least a third of the entries, at max_load), for the sort (clear() zeroes
  /// them again); empty when the table gave its pages back.
  std::span<Entry> scratch();
  /// Empties the table for the next level, keeping its capacity (after
  /// take_entries, only what the entries occupied is zeroed).
  void clear();
  /// What the table holds resident: all of it, or after take_entries(give_back)
  /// the entries' pages (the rest is given back until the next level touches it).
  std::size_t resident_bytes() const;

  /// Entries so far. Workers count their own inserts (a shared counter would
  /// be contended on every new state); the search adds them up between batches.
  /// Setting it ends every claim: the workers must drop what they hold.
  std::uint64_t size() const { return size_; }
  void set_size(std::uint64_t n) {
    size_ = n;
    claimed_.store(n, std::memory_order_relaxed);
    full_.store(false, std::memory_order_relaxed);
  }
  std::uint64_t capacity() const { return mask_ + 1; }
  std::size_t bytes() const { return static_cast<std::size_t>(capacity()) * slot_bytes(); }

 private:
  struct Slot {
    std::atomic<std::uint64_t> tag{0};   // the lo hash; after locate(), located | ref
    std::atomic<std::uint64_t> word{0};  // key << hash_bits_ | the hash bits kept
  };
  static_assert(sizeof(Entry) == sizeof(Slot), "take_entries() turns slots into entries in place");
  // Set on a located slot's tag (a worker id stays below 2^31).
  static constexpr std::uint64_t located = std::uint64_t{1} << 63;
  /// A slot, with its first record's place in exact mode.
  std::size_t slot_bytes() const { return sizeof(Slot) + (exact_ ? sizeof(std::uint64_t) : 0); }
  void allocate(std::uint64_t capacity);
  void release();
  /// Moves the entries of slots [begin, end) to slot `begin` on, as Entry records; returns how many.
  std::uint64_t compact(std::uint64_t begin, std::uint64_t end);
  /// The slots a growth moved out of (freed with it); each used one holds its entry's new slot.
  struct OldSlots {
    Slot* slots = nullptr;
    std::uint64_t capacity = 0;
    OldSlots() = default;
    OldSlots(const OldSlots&) = delete;
    OldSlots& operator=(const OldSlots&) = delete;
    OldSlots(OldSlots&& o) noexcept : slots(std::exchange(o.slots, nullptr)), capacity(o.capacity) {}
    ~OldSlots();
  };
  /// Moves the entries into a table big enough for `total` (reserve()); empty when it already is.
  OldSlots move_to(std::uint64_t total);
  /// Puts a moved entry into this table (reserve(): entries are distinct, so no comparison); returns its slot.
  std::uint64_t place(std::uint64_t tag, std::uint64_t word, std::uint64_t first);
  Entry* entries() { return reinterpret_cast<Entry*>(static_cast<void*>(slots_)); }

  Slot* slots_ = nullptr;  // huge-page table memory (store/table_memory.hpp)
  std::uint64_t* first_ = nullptr;  // exact mode: each slot's first record (ref())
  bool exact_ = false;
  bool owned_prefetch_ = cpu_prefetches_for_write();
  std::uint64_t mask_ = 0;
  unsigned hash_bits_ = min_hash_bits;
  std::uint64_t check_mask_ = (std::uint64_t{1} << min_hash_bits) - 1;
  std::uint64_t size_ = 0;
  std::uint64_t limit_ = 0;  // entries under max_load
  std::atomic<bool> full_{false};
  bool taken_ = false;             // take_entries() ran since the last clear()
  bool pages_given_back_ = false;  // and gave back the pages beyond the entries
  std::uint64_t scratch_lent_ = 0;  // slots after the entries that scratch() handed out
  // On a cache line of its own: every insert reads slots_ and mask_, and a
  // claim by one worker would otherwise take that line from the others.
  alignas(64) std::atomic<std::uint64_t> claimed_{0};
};

}  // namespace statecheck::detail
