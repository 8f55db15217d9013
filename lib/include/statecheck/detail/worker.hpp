// statecheck/detail/worker.hpp - one search thread's view of a level.
//
// The spec's expand code writes each successor straight into a staging slot and
// stages its hash (prefetching the visited-set slot). The staging area spans
// several expanded states and is flushed when full or at the end of a chunk, so
// a prefetch has the time of many successors to arrive: a successor is looked
// up in the visited set and, when it is not there, offered to the level table
// (whose slot is prefetched only then: most successors of a big level are
// visited already). Everything on this path is inline, with no locks, virtual
// calls or allocation (buffers grow by whole blocks).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "statecheck/detail/exact_set.hpp"
#include "statecheck/detail/hash.hpp"
#include "statecheck/detail/level_table.hpp"
#include "statecheck/detail/record_buffer.hpp"
#include "statecheck/detail/visited_set.hpp"

namespace statecheck::detail {

/// Layout of one state record: the state, then its encoding unless the raw
/// bytes are canonical.
struct RecordLayout {
  std::size_t state_size = 0;
  std::size_t encoding_size = 0;  // 0: raw bytes are the encoding
  std::size_t stride = 0;
  const std::byte* encoding(const std::byte* record) const {
    return encoding_size == 0 ? record : record + state_size;
  }
  std::size_t encoded_bytes() const { return encoding_size == 0 ? state_size : encoding_size; }
  /// The hash the spec's expand staged for the state of `record`.
  Hash128 hash(const std::byte* record) const { return hash_bytes(encoding(record), encoded_bytes()); }
  /// A found record: the state record, then the index of its level-table slot.
  std::size_t found_stride() const { return stride + sizeof(std::uint32_t); }
};

/// Lookup structures shared by all workers during one level.
struct LevelContext {
  const VisitedSet* visited = nullptr;  // fingerprint mode
  const ExactSet* exact = nullptr;      // --exact mode
  LevelTable* table = nullptr;
  RecordLayout layout;
  unsigned tid_bits = 1;
  RecordBlocks* blocks = nullptr;  // the found records' blocks, shared out to the workers
};

// On cache-line pairs of its own (its size rounds up to the alignment): the
// fields written for every successor (the staging counts, the found records'
// count) must not share a line, or an adjacent-line prefetch, with another
// thread's worker or its buffers. Unaligned, two-phase N=9's expansion took
// 13% more CPU on two threads than on one; aligned, 9% (measured 2026-12-03).
class alignas(128) Worker {
 public:
  static constexpr std::uint64_t none = ~std::uint64_t{0};

  Worker(std::uint32_t id, const LevelContext& ctx, std::size_t transitions, std::size_t staging)
      : id_(id), ctx_(&ctx), found(*ctx.blocks), enabled(transitions, 0),
        staging_(window(staging, ctx.layout.stride) * ctx.layout.stride), hashes_(window(staging, ctx.layout.stride)),
        keys_(hashes_.size()), unseen_(hashes_.size()), parent_encoding_(ctx.layout.encoding_size) {}

  /// Where the next successor's state (and encoding) is to be written. A
  /// full staging area is flushed first: it holds a bounded number of
  /// successors, not a state's whole fan-out (which may be millions).
  std::byte* stage_slot() {
    if (staged_ == hashes_.size()) flush();
    return staging_.data() + staged_ * ctx_->layout.stride;
  }
  std::size_t staging_capacity() const { return hashes_.size(); }
  /// The initial states are made by this worker alone, one combination at a
  /// time: the level table grows before the next one could find it full
  /// (expansion sizes it between batches instead). Without this, more initial
  /// states than the table's first 4096 slots probed for ever.
  void make_room_for_initial_state() {
    LevelTable& table = *ctx_->table;
    table.set_size(found.size());
    room_ = 0;
    if (!table.has_room(1)) table.reserve(2 * (found.size() + 1), [&](const auto& new_slot) { follow_moved_slots(new_slot); });
  }
  std::size_t staged() const { return staged_; }
  /// Returns how many successors were staged (or were stuttering steps) since
  /// the last call; they stay staged until the next flush() (the spec's expand
  /// flushes per chunk).
  std::size_t end_state() {
    state_begin_ = staged_;
    const std::size_t n = successors_;
    successors_ = 0;
    return n;
  }

  /// A successor equal to the state being expanded (a stuttering step): it
  /// counts as generated and is not looked up, since that state is visited.
  void stutter() { ++successors_; }
  /// Room for the encoding of the state being expanded (empty when raw bytes
  /// are canonical): the spec's expand compares each successor's with it.
  std::byte* parent_encoding() { return parent_encoding_.data(); }

  void stage(const Hash128& h, std::uint64_t key) {
    if (ctx_->exact != nullptr) ctx_->exact->prefetch(h);
    else ctx_->visited->prefetch(h);
    hashes_[staged_] = h;
    keys_[staged_] = key;
    ++staged_;
    ++successors_;
  }

  /// Offers every staged successor that is not yet visited to the level
  /// table. When the table has no room left (full()), the rest is dropped: the
  /// search grows the table and expands the batch again.
  void flush() {
    const RecordLayout& layout = ctx_->layout;
    std::size_t unseen = 0;
    for (std::size_t i = 0; i < staged_; ++i) {
      const std::byte* record = staging_.data() + i * layout.stride;
      const bool seen = ctx_->exact != nullptr ? ctx_->exact->contains(hashes_[i], layout.encoding(record))
                                               : ctx_->visited->contains(hashes_[i]);
      if (seen) continue;
      ctx_->table->prefetch(hashes_[i]);
      unseen_[unseen++] = static_cast<std::uint32_t>(i);
    }
    for (std::size_t u = 0; u < unseen; ++u) {
      const std::size_t i = unseen_[u];
      const std::byte* record = staging_.data() + i * layout.stride;
      if (room_ == 0 && (room_ = ctx_->table->claim(room_block)) == 0) break;
      std::byte* slot = found.next();
      std::uint64_t at = LevelTable::no_slot;
      if (ctx_->exact != nullptr) {
        // Others compare encodings as soon as the entry is published: copy first.
        std::memcpy(slot, record, layout.stride);
        auto same = [&](std::uint32_t worker, std::uint32_t index) { return same_encoding(worker, index, slot); };
        at = ctx_->table->insert(hashes_[i], keys_[i], id_, found.size(), same);
      } else {
        at = ctx_->table->insert(hashes_[i], keys_[i], id_, found.size(), [](std::uint32_t, std::uint32_t) { return true; });
        if (at != LevelTable::no_slot) std::memcpy(slot, record, layout.stride);  // read only after the level
      }
      if (at != LevelTable::no_slot) {
        set_slot(slot, at);
        found.commit();
        --room_;
      }
    }
    staged_ = 0;
    state_begin_ = 0;
  }
  /// The table grew (its slots moved): each found record learns its state's
  /// new slot, new_slot(old slot) (LevelTable::reserve).
  template <class NewSlot>
  void follow_moved_slots(const NewSlot& new_slot) {
    for (std::uint32_t r = 0; r < found.size(); ++r) {
      std::byte* record = found.at(r);
      set_slot(record, new_slot(slot_of(record)));
    }
  }
  /// The level's end: the table learns where the states this worker found
  /// first, records [begin, end), live. (Prefetching the slots a few records
  /// ahead was slower: these are stores, which do not stall.)
  void locate_found(std::uint32_t begin, std::uint32_t end) const {
    for (std::uint32_t r = begin; r < end; ++r) ctx_->table->locate(slot_of(found.at(r)), LevelTable::ref(id_, r));
  }

  /// The table ran out of room in this batch: the rest of it is skipped.
  bool table_full() const { return ctx_->table->full(); }

  /// A batch is about to be expanded: its counts can be taken back (undo_batch)
  /// when the table fills and the batch is expanded again.
  void begin_batch() {
    generated_before_ = generated;
    enabled_before_ = enabled;  // same size each time: no allocation after the first
  }
  void undo_batch() {
    generated = generated_before_;
    enabled = enabled_before_;
  }
  /// The search set the table's size: rooms claimed before are void.
  void drop_room() { room_ = 0; }
  void discard_staged() {
    staged_ = 0;
    state_begin_ = 0;
    successors_ = 0;
  }
  /// The spec threw on the state being expanded: the successors it staged are
  /// dropped (those not flushed yet); earlier states' stay staged.
  void discard_state() {
    staged_ = state_begin_;
    successors_ = 0;
  }

  std::uint64_t key(std::uint64_t rank, std::uint32_t tid) const { return (rank << ctx_->tid_bits) | tid; }

  void deadlock(std::uint64_t rank) {
    if (rank < deadlock_rank) deadlock_rank = rank;
  }
  void error(std::uint64_t rank, std::uint32_t tid, const char* what) {
    if (rank < error_rank || (rank == error_rank && tid < error_tid)) {
      error_rank = rank;
      error_tid = tid;
      error_message = what;
    }
  }
  void reset_level() {
    deadlock_rank = none;
    error_rank = none;
    error_tid = 0;
    error_message.clear();
    discard_staged();
    room_ = 0;  // the table was cleared since (the initial level claims room too)
  }

  std::uint32_t id() const { return id_; }
  /// Other workers' buffers, for exact comparisons (set by the search).
  const std::vector<Worker*>* peers = nullptr;

 private:
  void set_slot(std::byte* record, std::uint64_t slot) const {
    const auto index = static_cast<std::uint32_t>(slot);  // a table has at most 2^32 slots (level_table.cpp)
    std::memcpy(record + ctx_->layout.stride, &index, sizeof index);
  }
  std::uint32_t slot_of(const std::byte* record) const {
    std::uint32_t index = 0;
    std::memcpy(&index, record + ctx_->layout.stride, sizeof index);
    return index;
  }

  bool same_encoding(std::uint32_t worker, std::uint32_t index, const std::byte* mine) const {
    const RecordLayout& layout = ctx_->layout;
    const std::byte* other = (*peers)[worker]->found.at(index);
    return std::memcmp(layout.encoding(other), layout.encoding(mine), layout.encoded_bytes()) == 0;
  }

  /// Successors the staging area holds: a state's whole fan-out when it is
  /// small, and at least `least_window` (within 256 KiB) so that small
  /// fan-outs of consecutive states share one flush and the prefetches issued
  /// while staging have arrived when the flush reads them.
  static std::size_t window(std::size_t staging, std::size_t stride) {
    constexpr std::size_t least_window = 64, most_bytes = std::size_t{256} << 10;
    return std::max(staging, std::min(least_window, std::max<std::size_t>(1, most_bytes / stride)));
  }

  std::uint32_t id_;
  const LevelContext* ctx_;

 public:
  RecordBuffer found;                  // states this worker found first in the level, with their slots
  std::vector<std::uint64_t> enabled;  // per transition id: times enabled
  std::uint64_t generated = 0;         // successors produced (duplicates included)
  std::uint64_t expanded = 0;
  std::uint64_t deadlock_rank = none;  // smallest rank without enabled transitions
  std::uint64_t error_rank = none;     // smallest (rank, tid) whose spec code threw
  std::uint32_t error_tid = 0;
  std::string error_message;

 private:
  std::vector<std::byte> staging_;
  std::vector<Hash128> hashes_;
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> unseen_;  // flush(): staged successors not in the visited set
  std::vector<std::byte> parent_encoding_;
  std::size_t staged_ = 0;
  std::size_t state_begin_ = 0;  // where the successors of the state being expanded start
  std::size_t successors_ = 0;  // staged or stuttering (stutter()) since the last end_state()
  /// Table entries claimed and not yet used; claimed a block at a time so that
  /// workers meet on the table's counter once per block, not once per state.
  static constexpr std::uint64_t room_block = 64;
  std::uint64_t room_ = 0;
  std::uint64_t generated_before_ = 0;
  std::vector<std::uint64_t> enabled_before_;
};

}  // namespace statecheck::detail
