// statecheck/detail/record_buffer.hpp - the records of the states a level
// finds, in blocks shared out to the workers.
//
// How a level's new states spread over the workers changes from run to run.
// If each worker kept the blocks it once filled, the memory they hold together
// would change with it, and so would where --memory stops one command. So the
// blocks belong to one RecordBlocks for all workers: a worker takes one when
// its buffer fills, and they all go back when the level's records are dropped.
// What is counted (RecordBlocks::bytes_bound) depends only on how many records
// there are, and is never less than what is held.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace statecheck::detail {

/// The blocks of one search's found records. take() runs on any worker,
/// without a lock; the rest runs between batches, on one thread.
class RecordBlocks {
 public:
  /// A block holds up to 2^14 records and about block_bytes: a 64 KiB state
  /// must not cost a 1 GiB block for the few states a level finds.
  static constexpr std::size_t block_bytes = std::size_t{1} << 20;
  using Block = std::unique_ptr<std::byte[]>;

  explicit RecordBlocks(std::size_t stride) : stride_(stride), shift_(block_shift(stride)) {}
  RecordBlocks(const RecordBlocks&) = delete;  // the buffers hold a reference
  RecordBlocks& operator=(const RecordBlocks&) = delete;

  std::size_t stride() const { return stride_; }
  unsigned shift() const { return shift_; }

  /// A spare block, or a new one (not zeroed: only what is written becomes resident).
  Block take() {
    const std::size_t i = taken_.fetch_add(1, std::memory_order_relaxed);
    if (i < spare_.size()) return std::move(spare_[i]);
    allocated_.fetch_add(1, std::memory_order_relaxed);
    return Block(new std::byte[(std::size_t{1} << shift_) * stride_]);
  }

  /// A buffer's blocks come back.
  void give_back(std::vector<Block>& blocks) {
    if (taken_ != 0) {  // the spare blocks taken so far are the first ones
      spare_.erase(spare_.begin(), spare_.begin() + static_cast<std::ptrdiff_t>(std::min(taken_.load(), spare_.size())));
      taken_ = 0;
    }
    for (Block& b : blocks) spare_.push_back(std::move(b));
    blocks.clear();
  }

  /// Every buffer gave its blocks back after holding `records` records
  /// together: the blocks kept are a number that depends on the records of
  /// each level only (the most blocks they ever filled), not on how they
  /// were spread. There are at least that many: nothing was freed since it
  /// was last settled, and the records needed them.
  void settle(std::uint64_t records) {
    kept_ = std::max(kept_, blocks_for(records));
    if (spare_.size() > kept_) {
      allocated_ -= spare_.size() - kept_;
      spare_.resize(kept_);
    }
  }

  /// All blocks freed (the level's memory is shed).
  void free_all() {
    spare_.clear();
    spare_.shrink_to_fit();
    taken_ = 0;
    kept_ = 0;
    allocated_ = 0;  // every buffer gave its blocks back first
  }

  /// What `workers` buffers holding `records` records together, and the
  /// spare blocks, hold at most: each buffer takes a block only when its
  /// blocks are full, so it holds at most one that is not.
  /// The blocks that exist (held or spare): what bytes_bound bounds.
  std::uint64_t blocks() const { return allocated_.load(std::memory_order_relaxed); }
  std::size_t block_size() const { return (std::size_t{1} << shift_) * stride_; }

  std::size_t bytes_bound(std::uint64_t records, std::size_t workers) const {
    const std::uint64_t held = (records >> shift_) + workers;
    return static_cast<std::size_t>(std::max<std::uint64_t>(kept_, held)) * (std::size_t{1} << shift_) * stride_;
  }

 private:
  /// log2 of the records a block holds: 2^14, fewer for big records.
  static unsigned block_shift(std::size_t stride) {
    unsigned shift = 14;
    while (shift > 0 && (std::size_t{1} << shift) * stride > block_bytes) --shift;
    return shift;
  }
  std::uint64_t blocks_for(std::uint64_t records) const {
    return (records + (std::uint64_t{1} << shift_) - 1) >> shift_;
  }

  std::size_t stride_;
  unsigned shift_;
  std::vector<Block> spare_;  // [taken_, size) not taken yet
  std::atomic<std::size_t> taken_{0};
  std::uint64_t kept_ = 0;  // blocks kept when settled
  std::atomic<std::uint64_t> allocated_{0};
};

/// One worker's found records: fixed stride, in blocks that never move (other
/// workers may read them).
class RecordBuffer {
 public:
  explicit RecordBuffer(RecordBlocks& blocks) : pool_(&blocks), stride_(blocks.stride()), shift_(blocks.shift()) {
    blocks_.reserve(1u << 18);
  }
  RecordBuffer(const RecordBuffer&) = delete;
  RecordBuffer& operator=(const RecordBuffer&) = delete;

  std::byte* at(std::uint32_t i) const {
    return blocks_[i >> shift_].get() + (i & ((std::uint32_t{1} << shift_) - 1)) * stride_;
  }
  /// The slot the next push would fill (taking a block when needed).
  std::byte* next() {
    if (size_ == blocks_.size() << shift_) blocks_.push_back(pool_->take());
    return at(size_);
  }
  void commit() { ++size_; }
  std::uint32_t size() const { return size_; }
  /// The records are dropped and their blocks go back (then RecordBlocks::settle).
  void clear() {
    size_ = 0;
    pool_->give_back(blocks_);
  }

 private:
  RecordBlocks* pool_;
  std::size_t stride_;
  unsigned shift_;
  std::vector<RecordBlocks::Block> blocks_;
  std::uint32_t size_ = 0;
};

}  // namespace statecheck::detail
