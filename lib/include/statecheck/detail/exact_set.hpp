// statecheck/detail/exact_set.hpp - the visited set of --exact runs: full
// state encodings, compared byte for byte, so no two states are ever confused.
//
// ============================== guarantees ==================================
// * State n (global id in BFS order) has its encoding at arena offset n * size.
// * contains() may run concurrently with other contains() calls; insert() of
//   distinct ids may run concurrently with each other (CAS on empty slots).
//   As for the fingerprint set, lookups and inserts never overlap.
// * Costs size + 8 / load bytes a state: a validation mode for small models.
// ============================================================================
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "statecheck/detail/hash.hpp"

namespace statecheck::detail {

class ExactSet {
 public:
  explicit ExactSet(std::size_t encoding_size);

  bool contains(const Hash128& h, const std::byte* encoding) const {
    const std::uint64_t tag = h.hi >> 40;
    for (std::uint64_t i = h.lo & mask_;; i = (i + 1) & mask_) {
      const std::uint64_t w = slots_[i].load(std::memory_order_relaxed);
      if (w == 0) return false;
      if ((w >> 40) == tag &&
          std::memcmp(arena_.data() + ((w & id_mask) - 1) * size_, encoding, size_) == 0)
        return true;
    }
  }
  void prefetch(const Hash128& h) const { __builtin_prefetch(&slots_[h.lo & mask_]); }

  /// Makes room for ids below `total` (arena and table); not concurrent.
  void reserve(std::uint64_t total);
  /// Stores state `id` (whose encoding the caller wrote at encoding_slot(id)).
  void insert(std::uint64_t id, const Hash128& h) {
    insert_uncounted(id, h);
    add_counts(1);
  }
  /// insert() without counting it: a loop of inserts on several threads adds
  /// up its own count and reports it with add_counts() once, as the
  /// fingerprint set's inserts do (a counter bumped per insert by every thread
  /// is a cache line the threads fight over).
  void insert_uncounted(std::uint64_t id, const Hash128& h);
  void add_counts(std::uint64_t added) { count_.fetch_add(added, std::memory_order_relaxed); }
  std::byte* encoding_slot(std::uint64_t id) { return arena_.data() + id * size_; }
  /// The encodings of states [0, size()), for a checkpoint.
  const std::byte* encodings() const { return arena_.data(); }
  /// Takes `count` encodings (from a checkpoint) as states [0, count).
  void restore(const std::byte* encodings, std::uint64_t count);

  std::uint64_t size() const { return count_.load(std::memory_order_relaxed); }
  std::size_t bytes() const { return arena_.size() + (mask_ + 1) * sizeof(std::uint64_t); }

 private:
  static constexpr std::uint64_t id_mask = (std::uint64_t{1} << 40) - 1;
  void rebuild(std::uint64_t capacity, std::uint64_t ids);

  std::size_t size_;
  std::vector<std::byte> arena_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> slots_;
  std::uint64_t mask_ = 0;
  std::atomic<std::uint64_t> count_{0};
};

}  // namespace statecheck::detail
