// The per-level table of newly found states; guarantees in detail/level_table.hpp.
#include "statecheck/detail/level_table.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
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

bool cpu_prefetches_for_write() {
#if defined(__x86_64__) || defined(__i386__)
  static const bool has = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_PRFCHW) != 0;
  }();
  return has;
#else
  return false;
#endif
}

LevelTable::LevelTable(bool exact) : exact_(exact) { allocate(1u << 12); }
LevelTable::~LevelTable() { release(); }

void LevelTable::set_key_bits(unsigned bits) {
  if (size_ != 0 || taken_) throw std::logic_error("the level table's key width changes while it holds entries");
  if (!key_bits_fit(bits)) throw std::logic_error("level-table keys of " + std::to_string(bits) + " bits leave too few hash bits");
  hash_bits_ = hash_bits_for(bits);
  check_mask_ = (std::uint64_t{1} << hash_bits_) - 1;
}

void LevelTable::allocate(std::uint64_t capacity) {
  // A found record keeps its slot's index in 32 bits (worker.hpp).
  if (capacity > (std::uint64_t{1} << 32))
    throw std::length_error("a level of more than 3 billion new states: the level table's slots are numbered in 32 bits");
  // Probed at random like the visited set: huge pages save the page walks.
  void* memory = allocate_table_memory(static_cast<std::size_t>(capacity) * sizeof(Slot));
  slots_ = static_cast<Slot*>(memory);
  if (exact_) first_ = new std::uint64_t[static_cast<std::size_t>(capacity)];  // written before a slot is published
  // In parallel: the first touch of a big table is the kernel zeroing its pages.
  for_blocks(0, capacity, [&](std::uint64_t b, std::uint64_t e) {
    std::uninitialized_value_construct_n(slots_ + b, static_cast<std::size_t>(e - b));
  });
  mask_ = capacity - 1;
  limit_ = static_cast<std::uint64_t>(max_load * static_cast<double>(capacity));
  taken_ = false;
  scratch_lent_ = 0;
}

void LevelTable::release() {
  if (slots_ == nullptr) return;
  free_table_memory(slots_, static_cast<std::size_t>(capacity()) * sizeof(Slot));  // trivially destructible slots
  slots_ = nullptr;
  delete[] first_;
  first_ = nullptr;
}

LevelTable::OldSlots::~OldSlots() {
  if (slots != nullptr) free_table_memory(slots, static_cast<std::size_t>(capacity) * sizeof(Slot));
}

void LevelTable::reserve(std::uint64_t total) {
  if (size_ != 0) throw std::logic_error("the level table grows without telling its entries' records their new slots");
  (void)move_to(total);
}

LevelTable::OldSlots LevelTable::move_to(std::uint64_t total) {
  const std::uint64_t capacity = bytes_for(total, this->capacity()) / slot_bytes();
  if (capacity == this->capacity()) return {};
  if (taken_) throw std::logic_error("the level table grows while its entries are taken");
  OldSlots old;
  old.slots = slots_;
  old.capacity = this->capacity();
  const std::unique_ptr<std::uint64_t[]> old_first(first_);
  first_ = nullptr;
  allocate(capacity);
  for_blocks(0, old.capacity, [&](std::uint64_t b, std::uint64_t e) {
    for (std::uint64_t i = b; i < e; ++i) {
      Slot& from = old.slots[i];
      const std::uint64_t tag = from.tag.load(std::memory_order_relaxed);
      if (tag == 0) continue;
      const std::uint64_t to = place(tag, from.word.load(std::memory_order_relaxed), old_first ? old_first[i] : 0);
      from.word.store(to, std::memory_order_relaxed);  // the old slot now says where its entry went
    }
  });
  set_size(size_);
  return old;
}

std::uint64_t LevelTable::place(std::uint64_t tag, std::uint64_t word, std::uint64_t first) {
  for (std::uint64_t i = tag & mask_;; i = (i + 1) & mask_) {
    std::uint64_t empty = 0;
    if (!slots_[i].tag.compare_exchange_strong(empty, tag, std::memory_order_relaxed)) continue;
    // Read only after the parallel loop: relaxed is enough.
    slots_[i].word.store(word, std::memory_order_relaxed);
    if (first_ != nullptr) first_[i] = first;
    return i;
  }
}

std::uint64_t LevelTable::compact(std::uint64_t begin, std::uint64_t end) {
  std::uint64_t kept = begin;
  for (std::uint64_t i = begin; i < end; ++i) {
    const Slot& s = slots_[i];
    const std::uint64_t tag = s.tag.load(std::memory_order_relaxed);
    if (tag == 0) continue;
    if ((tag & located) == 0) throw std::logic_error("a level-table entry was not located before the level's end");
    // Slot i is read whole before entry `kept` (<= i) is written over it; a
    // slot left behind is emptied, so only the entries' slots need zeroing later.
    const Entry e{s.word.load(std::memory_order_relaxed) >> hash_bits_, tag & ~located};
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
  const std::size_t slots_bytes = static_cast<std::size_t>(capacity()) * sizeof(Slot);
  const std::size_t page_end = std::min(slots_bytes, (used + huge_page - 1) / huge_page * huge_page);
  auto* memory = static_cast<std::byte*>(static_cast<void*>(slots_));
  pages_given_back_ = pages == Pages::give_back && release_table_pages(memory + page_end, slots_bytes - page_end);
  taken_ = true;
  return {entries(), static_cast<std::size_t>(n)};
}

std::span<LevelTable::Entry> LevelTable::scratch() {
  if (!taken_ || pages_given_back_) return {};
  scratch_lent_ = std::min(size_, capacity() - size_);
  return {entries() + size_, static_cast<std::size_t>(scratch_lent_)};
}

void LevelTable::clear() {
  if (taken_) {
    // Only the entries' slots (and a lent scratch) hold anything: value-constructed slots are empty.
    for_blocks(0, size_ + scratch_lent_, [&](std::uint64_t b, std::uint64_t e) {
      std::uninitialized_value_construct_n(slots_ + b, static_cast<std::size_t>(e - b));
    });
    taken_ = false;
    scratch_lent_ = 0;
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
  const std::size_t slots_bytes = static_cast<std::size_t>(capacity()) * sizeof(Slot);
  return std::min(slots_bytes, (used + huge_page - 1) / huge_page * huge_page) + (bytes() - slots_bytes);
}

}  // namespace statecheck::detail
