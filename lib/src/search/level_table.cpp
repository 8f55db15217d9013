// The per-level table of newly found states; guarantees in detail/level_table.hpp.
#include "statecheck/detail/level_table.hpp"

#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

#include "search/parallel_loops.hpp"
#include "store/table_memory.hpp"

namespace statecheck::detail {

namespace {

// Slots a task handles when the table is made, grown, compacted or zeroed.
constexpr std::uint64_t block_slots = std::uint64_t{1} << 14;
// Memory is given back in whole huge pages (table_memory.hpp maps the table on one).
constexpr std::size_t huge_page = std::size_t{2} << 20;

/// body(b, e) over [begin, end) in blocks, in parallel; a small range in this
/// thread (a new search's first table must not start the thread pool).
template <class Body>
void for_blocks(std::uint64_t begin, std::uint64_t end, const Body& body) {
  if (end - begin <= block_slots) {
    if (begin < end) body(begin, end);
    return;
  }
  parallel(begin, end, block_slots, [&](const auto& r) { body(r.begin(), r.end()); });
}

}  // namespace

LevelTable::LevelTable() { allocate(1u << 12); }
LevelTable::~LevelTable() { release(); }

void LevelTable::allocate(std::uint64_t capacity) {
  // Probed at random like the visited set: huge pages save the page walks.
  void* memory = allocate_table_memory(static_cast<std::size_t>(capacity) * sizeof(Slot));
  slots_ = static_cast<Slot*>(memory);
  // In parallel: the first touch of a big table is the kernel zeroing its pages.
  for_blocks(0, capacity, [&](std::uint64_t b, std::uint64_t e) {
    std::uninitialized_value_construct_n(slots_ + b, static_cast<std::size_t>(e - b));
  });
  mask_ = capacity - 1;
  limit_ = static_cast<std::uint64_t>(max_load * static_cast<double>(capacity));
  taken_ = false;
  scratch_lent_ = false;
}

void LevelTable::release() {
  if (slots_ == nullptr) return;
  free_table_memory(slots_, static_cast<std::size_t>(capacity()) * sizeof(Slot));  // trivially destructible slots
  slots_ = nullptr;
}

void LevelTable::reserve(std::uint64_t total) {
  const std::uint64_t capacity = bytes_for(total, this->capacity()) / sizeof(Slot);
  if (capacity == this->capacity()) return;
  if (taken_) throw std::logic_error("the level table grows while its entries are taken");
  Slot* old = slots_;
  const std::uint64_t old_capacity = this->capacity();
  allocate(capacity);
  for_blocks(0, old_capacity, [&](std::uint64_t b, std::uint64_t e) {
    for (std::uint64_t i = b; i < e; ++i) {
      const std::uint64_t tag = old[i].tag.load(std::memory_order_relaxed);
      if (tag != 0) place(tag, old[i]);
    }
  });
  free_table_memory(old, static_cast<std::size_t>(old_capacity) * sizeof(Slot));
  set_size(size_);
}

void LevelTable::place(std::uint64_t tag, const Slot& from) {
  for (std::uint64_t i = tag & mask_;; i = (i + 1) & mask_) {
    std::uint64_t empty = 0;
    if (!slots_[i].tag.compare_exchange_strong(empty, tag, std::memory_order_relaxed)) continue;
    Slot& s = slots_[i];  // read only after the parallel loop: relaxed is enough
    s.hi = from.hi;
    s.worker = from.worker;
    s.record = from.record;
    s.key.store(from.key.load(std::memory_order_relaxed), std::memory_order_relaxed);
    return;
  }
}

std::uint64_t LevelTable::compact(std::uint64_t begin, std::uint64_t end) {
  std::uint64_t kept = begin;
  for (std::uint64_t i = begin; i < end; ++i) {
    const Slot& s = slots_[i];
    const std::uint64_t tag = s.tag.load(std::memory_order_relaxed);
    if (tag == 0) continue;
    // Slot i is read whole before entry `kept` (<= i) is written over it; a
    // slot left behind is emptied, so only the entries' slots need zeroing later.
    const Entry e{s.key.load(std::memory_order_relaxed), tag, s.hi, s.worker, s.record};
    if (kept != i) ::new (static_cast<void*>(slots_ + i)) Slot();
    ::new (static_cast<void*>(entries() + kept)) Entry(e);
    ++kept;
  }
  return kept - begin;
}

std::span<LevelTable::Entry> LevelTable::take_entries(Pages pages) {
  if (taken_) throw std::logic_error("the level table's entries are taken twice");
  const std::uint64_t blocks = (capacity() + block_slots - 1) / block_slots;
  std::vector<std::uint64_t> kept(static_cast<std::size_t>(blocks));
  // Each block first packs its own entries at its start, in parallel...
  parallel(0, blocks, 1, [&](const auto& r) {
    for (std::uint64_t b = r.begin(); b != r.end(); ++b)
      kept[b] = compact(b * block_slots, std::min(capacity(), (b + 1) * block_slots));
  });
  // ...then the packed runs slide down in block order: each lands below its
  // own start, on runs already moved, so none is overwritten before it moves.
  // The part of a run's old place that its new place does not cover is emptied.
  std::uint64_t n = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::uint64_t from = b * block_slots;
    if (n != from) {
      std::memmove(entries() + n, entries() + from, kept[b] * sizeof(Entry));
      const std::uint64_t clean = std::max(from, n + kept[b]);
      std::uninitialized_value_construct_n(slots_ + clean, static_cast<std::size_t>(from + kept[b] - clean));
    }
    n += kept[b];
  }
  if (n != size_) throw std::logic_error("the level table holds another number of entries than counted");
  // Everything beyond the entries is an empty slot now (a level of a few
  // states in a big table costs no sweep of it). Memory short: whole huge
  // pages past the entries go back to the system, zero when touched again.
  const std::size_t used = static_cast<std::size_t>(n) * sizeof(Entry);
  const std::size_t page_end = std::min(bytes(), (used + huge_page - 1) / huge_page * huge_page);
  auto* memory = static_cast<std::byte*>(static_cast<void*>(slots_));
  pages_given_back_ = pages == Pages::give_back && release_table_pages(memory + page_end, bytes() - page_end);
  taken_ = true;
  return {entries(), static_cast<std::size_t>(n)};
}

std::span<LevelTable::Entry> LevelTable::scratch() {
  if (!taken_ || pages_given_back_ || 2 * size_ > capacity()) return {};
  scratch_lent_ = true;
  return {entries() + size_, static_cast<std::size_t>(size_)};
}

void LevelTable::clear() {
  if (taken_) {
    // Only the entries' slots (and a lent scratch) hold anything: value-constructed slots are empty.
    for_blocks(0, scratch_lent_ ? 2 * size_ : size_, [&](std::uint64_t b, std::uint64_t e) {
      std::uninitialized_value_construct_n(slots_ + b, static_cast<std::size_t>(e - b));
    });
    taken_ = false;
    scratch_lent_ = false;
  } else if (size_ != 0) {
    for_blocks(0, capacity(), [&](std::uint64_t b, std::uint64_t e) {
      for (std::uint64_t i = b; i < e; ++i) slots_[i].tag.store(0, std::memory_order_relaxed);
    });
  }
  set_size(0);
}

std::size_t LevelTable::resident_bytes() const {
  if (!taken_ || !pages_given_back_) return bytes();
  const std::size_t used = static_cast<std::size_t>(size_) * sizeof(Entry);
  return std::min(bytes(), (used + huge_page - 1) / huge_page * huge_page);
}

}  // namespace statecheck::detail
