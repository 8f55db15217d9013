// Exact visited set of --exact runs; guarantees in detail/exact_set.hpp.
#include "statecheck/detail/exact_set.hpp"

namespace statecheck::detail {

ExactSet::ExactSet(std::size_t encoding_size) : size_(encoding_size) { rebuild(1u << 12, 0); }

void ExactSet::rebuild(std::uint64_t capacity, std::uint64_t ids) {
  slots_ = std::make_unique<std::atomic<std::uint64_t>[]>(static_cast<std::size_t>(capacity));
  mask_ = capacity - 1;
  for (std::uint64_t id = 0; id < ids; ++id) {
    const std::byte* enc = arena_.data() + id * size_;
    const Hash128 h = hash_bytes(enc, size_);
    std::uint64_t i = h.lo & mask_;
    while (slots_[i].load(std::memory_order_relaxed) != 0) i = (i + 1) & mask_;
    slots_[i].store(((h.hi >> 40) << 40) | (id + 1), std::memory_order_relaxed);
  }
}

void ExactSet::reserve(std::uint64_t total) {
  arena_.resize(static_cast<std::size_t>(total) * size_);
  std::uint64_t capacity = mask_ + 1;
  while (total * 2 > capacity) capacity *= 2;
  if (capacity != mask_ + 1) rebuild(capacity, count_.load(std::memory_order_relaxed));
}

void ExactSet::restore(const std::byte* encodings, std::uint64_t count) {
  reserve(count);
  if (count != 0) std::memcpy(arena_.data(), encodings, static_cast<std::size_t>(count) * size_);
  for (std::uint64_t id = 0; id < count; ++id) insert(id, hash_bytes(arena_.data() + id * size_, size_));
}

void ExactSet::insert_uncounted(std::uint64_t id, const Hash128& h) {
  const std::uint64_t word = ((h.hi >> 40) << 40) | (id + 1);
  for (std::uint64_t i = h.lo & mask_;; i = (i + 1) & mask_) {
    std::uint64_t seen = 0;
    if (slots_[i].compare_exchange_strong(seen, word, std::memory_order_relaxed)) return;
  }
}

}  // namespace statecheck::detail
