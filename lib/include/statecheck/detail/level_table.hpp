// statecheck/detail/level_table.hpp - the states first found in the level being
// expanded, each with the smallest discovery key seen so far.
//
// ============================== guarantees ==================================
// * insert() is lock-free and may run on every worker at once. The first
//   inserter of a state stores where its copy lives; every inserter lowers the
//   entry's key (parent rank << tid bits | transition id) with an atomic min.
//   After the level, each new state carries the smallest key among all its
//   discoverers, whatever the thread timing: what one thread would find.
// * States are equal when their 128-bit hashes are equal or, in exact mode,
//   when their encodings are equal (the caller's comparison).
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

#include "statecheck/detail/hash.hpp"

namespace statecheck::detail {

class LevelTable {
 public:
  /// Linear probing stays short at 3/4 full; the table is the largest level's
  /// biggest cost (32 bytes a slot), so it is not kept emptier.
  static constexpr double max_load = 0.75;

  /// Where a new state's bytes live: (worker, record index).
  struct Entry {
    std::uint64_t key;
    std::uint64_t lo;
    std::uint64_t hi;
    std::uint32_t worker;
    std::uint32_t record;
  };

  LevelTable();
  ~LevelTable();
  LevelTable(const LevelTable&) = delete;
  LevelTable& operator=(const LevelTable&) = delete;

  /// Inserts or lowers the key; returns true when the state is new to the
  /// level. `same(worker, record)` compares a stored state with the inserted
  /// one in exact mode (a hash match suffices otherwise).
  template <class Same>
  bool insert(const Hash128& h, std::uint64_t key, std::uint32_t worker, std::uint32_t record, Same&& same) {
    const std::uint64_t tag = h.lo;  // >= 2 (hash.hpp); 0 = empty, 1 = being written
    for (std::uint64_t i = h.lo & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      std::uint64_t t = s.tag.load(std::memory_order_acquire);
      if (t == 0) {
        if (s.tag.compare_exchange_strong(t, 1, std::memory_order_acquire)) {
          s.hi = h.hi;
          s.worker = worker;
          s.record = record;
          s.key.store(key, std::memory_order_relaxed);
          s.tag.store(tag, std::memory_order_release);
          return true;
        }
      }
      while (t == 1) t = s.tag.load(std::memory_order_acquire);
      if (t == tag && s.hi == h.hi && same(s.worker, s.record)) {
        std::uint64_t old = s.key.load(std::memory_order_relaxed);
        while (key < old && !s.key.compare_exchange_weak(old, key, std::memory_order_relaxed)) {
        }
        return false;
      }
    }
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

  void prefetch(const Hash128& h) const { __builtin_prefetch(&slots_[h.lo & mask_]); }

  /// Room for `extra` more inserts under max_load?
  bool has_room(std::uint64_t extra) const {
    return static_cast<double>(size() + extra) <= max_load * static_cast<double>(capacity());
  }
  /// Grows so that `total` entries fit under max_load (not concurrent with
  /// insert): the entries move straight into the new table, in parallel, so
  /// growing holds the old and the new table and nothing else.
  void reserve(std::uint64_t total);
  /// Bytes of a table of `capacity` slots after reserve(total).
  static std::size_t bytes_for(std::uint64_t total, std::uint64_t capacity) {
    while (static_cast<double>(total) > max_load * static_cast<double>(capacity)) capacity *= 2;
    return static_cast<std::size_t>(capacity) * sizeof(Slot);
  }
  /// What take_entries() does with the table beyond the entries.
  enum class Pages {
    keep,      // kept resident (already empty): the next level finds them there
    give_back  // whole huge pages go back to the system for the level's end (memory short)
  };
  /// The level's entries (any order), moved to the front of the table's own
  /// memory in parallel. So the level's end holds its entries in the table's
  /// place, with no second copy beside it and no fresh memory for the kernel
  /// to zero. Pages given back are zeroed again by the kernel when the next
  /// level touches them: on filter N=7 that was half the run's kernel time.
  /// No insert until clear(); the span lives until then.
  std::span<Entry> take_entries(Pages pages);
  /// After take_entries(keep): as many free, resident slots as there are
  /// entries, right after them, for an out-of-place sort (clear() zeroes
  /// them again); empty when the table lacks them or gave its pages back.
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
  std::size_t bytes() const { return static_cast<std::size_t>(capacity()) * sizeof(Slot); }

 private:
  struct Slot {
    std::atomic<std::uint64_t> tag{0};
    std::uint64_t hi = 0;
    std::atomic<std::uint64_t> key{0};
    std::uint32_t worker = 0;
    std::uint32_t record = 0;
  };
  static_assert(sizeof(Entry) == sizeof(Slot), "take_entries() turns slots into entries in place");
  void allocate(std::uint64_t capacity);
  void release();
  /// Moves the entries of slots [begin, end) to slot `begin` on, as Entry records; returns how many.
  std::uint64_t compact(std::uint64_t begin, std::uint64_t end);
  /// Puts a moved entry into this table (reserve(): entries are distinct, so no comparison).
  void place(std::uint64_t tag, const Slot& from);
  Entry* entries() { return reinterpret_cast<Entry*>(static_cast<void*>(slots_)); }

  Slot* slots_ = nullptr;  // huge-page table memory (store/table_memory.hpp)
  std::uint64_t mask_ = 0;
  std::uint64_t size_ = 0;
  std::uint64_t limit_ = 0;  // entries under max_load
  std::atomic<bool> full_{false};
  bool taken_ = false;             // take_entries() ran since the last clear()
  bool pages_given_back_ = false;  // and gave back the pages beyond the entries
  bool scratch_lent_ = false;      // scratch() handed out the slots after the entries
  // On a cache line of its own: every insert reads slots_ and mask_, and a
  // claim by one worker would otherwise take that line from the others.
  alignas(64) std::atomic<std::uint64_t> claimed_{0};
};

}  // namespace statecheck::detail
