// lib/src/store/frontier_store.hpp - the states of one BFS level, in rank
// order: the frontier being checked and expanded, then (refilled) the next.
//
// In RAM the level is one array and every access is a pointer into it: no
// copy, as before there was a store. When --memory cannot hold it beside the
// visited set and the level table, the level goes to a sequential file in
// --workdir (unlinked at creation, so it is removed with the process however
// the run ends) and is read and written through one window buffer of fixed
// size, block by block in rank order. A level can also be appended to a file
// a window at a time before its size is known (the next level, streamed while
// it is made; search/level_writer.hpp). Only bytes, no search logic:
// the search decides when a level goes to disk (search/memory_plan.hpp).
//
// Each committed block is one record: a 24-byte header (stored bytes, states,
// XXH3-64 of the stored bytes) and the states, as a zstd frame
// (--workdir-compression zstd, the default; store/frontier_codec.hpp) or raw
// (none). An index in RAM (one entry a block, with its checksum) finds the
// block holding a rank, so that a view may start anywhere (a trace's last
// state, a self-check) and blocks may be shorter than a window (the streamed
// level's last batch of each flush). A view reads whole blocks from the one
// holding its first state, each checked against its checksum before a byte
// of it is decoded or handed out (a damaged disk stops the run, naming the
// block, never feeds it other states), so the decoded window holds 3 blocks'
// worth of states: blocks and views span at most a third of it.
//
// I/O failures throw FrontierIoError: one line naming the file and the fix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include <vector>

#include "statecheck/result.hpp"
#include "store/frontier_codec.hpp"

namespace statecheck::detail {

/// A run_error: across processes it ends them all as one (cli.cpp), labelled an error, not an internal one.
struct FrontierIoError : run_error {
  using run_error::run_error;
};

class FrontierStore {
 public:
  FrontierStore() = default;
  FrontierStore(const FrontierStore&) = delete;
  FrontierStore& operator=(const FrontierStore&) = delete;
  ~FrontierStore();

  /// `stride` bytes a state; `workdir` empty: the level never leaves RAM;
  /// `window_bytes`: what a level on disk is read and written through;
  /// `compress`: its blocks go to disk as zstd frames.
  void configure(std::size_t stride, std::string workdir, std::size_t window_bytes, bool compress);
  bool can_spill() const { return !workdir_.empty(); }

  /// Drops the level held and starts one of `n` states, filled by block() and
  /// commit() in rank order; on disk, in a fresh file.
  void start(std::uint64_t n, bool on_disk);
  /// The most states one block() or view() may span: the whole level in RAM.
  std::uint64_t window() const;
  /// Where states [begin, end) are to be written (end - begin <= window()).
  std::byte* block(std::uint64_t begin, std::uint64_t end);
  /// States [begin, end) are written: on disk, appends them to the file.
  void commit(std::uint64_t begin, std::uint64_t end);

  /// States [begin, end) (end - begin <= window()); on disk, read into the
  /// window, valid until the next call. Logically const: the level is unchanged.
  const std::byte* view(std::uint64_t begin, std::uint64_t end) const;
  /// Starts a level on disk whose size is not known yet (the next level,
  /// streamed while it is made): append_block() and append_commit() add
  /// states at its end, a window at a time.
  void start_appending();
  /// Where the next `n` states go (n <= window()); append_commit(n) writes them.
  std::byte* append_block(std::uint64_t n);
  void append_commit(std::uint64_t n);
  /// Exchanges the levels (not the configuration or the run's counters) with
  /// `other`: the streamed next level becomes the frontier.
  void swap_level(FrontierStore& other) noexcept;
  /// Moves a level held in RAM to a file (--memory needs the room).
  void spill();
  /// Drops the level (its array or file): it has been expanded.
  void release() { start(0, false); }

  bool on_disk() const { return fd_ >= 0; }
  std::uint64_t size() const { return count_; }
  std::size_t stride() const { return stride_; }
  /// What the level holds resident: the array, or the window.
  std::size_t ram_bytes() const;
  /// What a level of `n` states would hold resident on disk (its window).
  std::size_t window_ram_bytes(std::uint64_t n) const;
  /// Over the run: levels that went to disk, bytes written there (compressed
  /// or not), and the states' bytes those hold.
  std::uint32_t spilled_levels() const { return spilled_levels_; }
  std::uint64_t disk_bytes() const { return disk_bytes_; }
  std::uint64_t raw_bytes() const { return raw_bytes_; }

 private:
  void open_file();
  void close_file();
  [[noreturn]] void fail(const std::string& what) const;
  /// Block `k` read back is not what was written: exit 3 naming the file and the block.
  [[noreturn]] void fail_corrupt(std::size_t k, const std::string& why) const;
  /// States a block or view spans at most, for a level of `n` states on disk.
  std::uint64_t span(std::uint64_t n) const;
  void write_block(std::uint64_t begin, std::uint64_t end);
  std::size_t block_holding(std::uint64_t rank) const;
  void load_blocks(std::uint64_t begin, std::uint64_t end) const;
  void read_block(std::size_t k, std::byte* out) const;

  std::size_t stride_ = 8;
  std::string workdir_;
  std::size_t window_bytes_ = 0;
  bool compress_ = false;
  std::uint64_t count_ = 0;
  // From the table allocator, not the heap: a level array (tens of MiB) freed
  // by release() goes back to the system at once, where malloc may keep it
  // resident, uncounted, while the level table and sort keys peak beside it.
  struct Unmap {
    std::size_t bytes;  // no initializer: unique_ptr's default constructor wants one usable in this class
    void operator()(std::byte* p) const noexcept;
  };
  using Buffer = std::unique_ptr<std::byte[], Unmap>;
  static Buffer allocate(std::size_t bytes);
  Buffer states_;                        // in RAM: the level; on disk: the (decoded) window
  std::size_t window_states_ = 0;        // on disk: the window's capacity
  std::uint64_t span_ = 0;               // on disk: the most states a block or view spans
  // Compressed: a block's header and frame, as written and read. The blocks written so far.
  struct Block {
    std::uint64_t first;     // its first state's rank
    std::uint64_t offset;    // where its header starts in the file
    std::uint64_t packed;    // its stored bytes (the frame, or the raw states)
    std::uint64_t checksum;  // XXH3-64 of those
  };
  Buffer packed_;
  std::size_t packed_capacity_ = 0;
  std::vector<Block> blocks_;
  std::uint64_t written_ = 0;  // states in blocks_
  std::uint64_t file_end_ = 0;
  mutable FrontierCodec codec_;  // per store, not swapped: its contexts serve any level
  int fd_ = -1;
  std::string file_;
  mutable std::uint64_t window_begin_ = 0, window_end_ = 0;  // on disk: what the window holds (read back)
  std::uint32_t spilled_levels_ = 0;
  std::uint64_t disk_bytes_ = 0;
  std::uint64_t raw_bytes_ = 0;
};

}  // namespace statecheck::detail
