// The per-level table of newly found states; guarantees in detail/level_table.hpp.
#include "statecheck/detail/level_table.hpp"

#include <bit>
#include <memory>

#include "store/table_memory.hpp"

namespace statecheck::detail {

LevelTable::LevelTable() { allocate(1u << 12); }
LevelTable::~LevelTable() { release(); }

void LevelTable::allocate(std::uint64_t capacity) {
  // Probed at random like the visited set: huge pages save the page walks.
  void* memory = allocate_table_memory(static_cast<std::size_t>(capacity) * sizeof(Slot));
  slots_ = static_cast<Slot*>(memory);
  std::uninitialized_value_construct_n(slots_, static_cast<std::size_t>(capacity));
  mask_ = capacity - 1;
  limit_ = static_cast<std::uint64_t>(max_load * static_cast<double>(capacity));
}

void LevelTable::release() {
  if (slots_ == nullptr) return;
  std::destroy_n(slots_, static_cast<std::size_t>(capacity()));
  free_table_memory(slots_, static_cast<std::size_t>(capacity()) * sizeof(Slot));
  slots_ = nullptr;
}

void LevelTable::clear() {
  if (!pages_released_)
    for (std::uint64_t i = 0; i < capacity(); ++i) slots_[i].tag.store(0, std::memory_order_relaxed);
  pages_released_ = false;
  set_size(0);
}

void LevelTable::release_pages() {
  // A table too small for its own mapping is only emptied (it costs little).
  pages_released_ = release_table_pages(slots_, bytes());
  if (!pages_released_) clear();
  set_size(0);
}

void LevelTable::reserve(std::uint64_t total) {
  const std::uint64_t capacity = bytes_for(total, this->capacity()) / sizeof(Slot);
  if (capacity == this->capacity()) return;
  std::vector<Entry> entries;
  entries.reserve(static_cast<std::size_t>(size()));
  collect(0, this->capacity(), entries);
  release();
  allocate(capacity);
  set_size(size_);
  for (const Entry& e : entries) {
    std::uint64_t i = e.lo & mask_;
    while (slots_[i].tag.load(std::memory_order_relaxed) != 0) i = (i + 1) & mask_;
    Slot& s = slots_[i];
    s.hi = e.hi;
    s.worker = e.worker;
    s.record = e.record;
    s.key.store(e.key, std::memory_order_relaxed);
    s.tag.store(e.lo, std::memory_order_relaxed);
  }
}

void LevelTable::collect(std::uint64_t begin, std::uint64_t end, std::vector<Entry>& out) const {
  for (std::uint64_t i = begin; i < end; ++i) {
    const Slot& s = slots_[i];
    const std::uint64_t tag = s.tag.load(std::memory_order_relaxed);
    if (tag == 0) continue;
    out.push_back({s.key.load(std::memory_order_relaxed), tag, s.hi, s.worker, s.record});
  }
}

}  // namespace statecheck::detail
