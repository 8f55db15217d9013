// The level data and sets: how they are laid out and sized; see level_data.hpp.
#include "search/level_data.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <thread>

namespace statecheck::detail {

namespace {

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

}  // namespace

LevelData::LevelData(const ModelOps& model_ops, const CheckOptions& opts, MemoryBudget& budget)
    : ops(model_ops), options(opts) {
  invariant_mask = detail::invariant_mask(ops, options.invariants);
  threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  options.memory = budget.limit();  // --memory 0 means the default
  layout.state_size = ops.state_size;
  layout.encoding_size = ops.encoding_size;
  // sizeof(State) is a multiple of alignof(State): states packed at that
  // stride stay aligned in buffers that are (new and mmap align to 16 and
  // more). A record that holds an encoding after the state rounds to 8, the
  // largest alignof(State) there is (model.hpp). Rounding the raw states to 8
  // as well cost two-phase 4 bytes of its 20 and filter 5 of its 27 in every
  // frontier state and record.
  layout.stride = ops.encoding_size == 0 ? ops.state_size : round_up(ops.state_size + ops.encoding_size, 8);
  frontier_stride = ops.state_size;
  tid_bits = static_cast<unsigned>(std::bit_width(std::max<std::uint32_t>(ops.transitions, 2) - 1));
  log.set_workdir(options.workdir);
  record_blocks = std::make_unique<RecordBlocks>(layout.found_stride());
  ctx = {nullptr, nullptr, table.get(), layout, tid_bits, record_blocks.get()};  // the set comes below, once the overhead is known
  // Successors staged per flush: a state's whole fan-out when small, else
  // what fits in staging_bytes (the staging area flushes when full).
  constexpr std::size_t staging_bytes = std::size_t{256} << 10;
  const std::size_t staging = std::clamp<std::size_t>(ops.transitions, 1, std::max<std::size_t>(16, staging_bytes / layout.stride));
  for (unsigned i = 0; i < threads; ++i) {
    workers.push_back(std::make_unique<Worker>(i, ctx, ops.transitions, staging));
    peers.push_back(workers.back().get());
  }
  // --memory bounds the whole process: what is resident now (the program, its
  // libraries, the workers' fixed buffers) and a slack are not the search's.
  if (options.memory_bounds_process) budget.set_aside_program();
  // A frontier on disk goes through a window of 8 MiB, or 1/256 of --memory when that is less (64 KiB at least).
  const std::size_t window = std::clamp<std::size_t>(budget.data_budget() / 256, std::size_t{64} << 10, std::size_t{8} << 20);
  const bool compress = options.workdir_compression == CheckOptions::WorkdirCompression::zstd;
  frontier.configure(frontier_stride, options.workdir, window, compress);
  next_level.configure(frontier_stride, options.workdir, window, compress);
  // A streamed level's keys go to disk beside it (read back in order into the trace log at the level's
  // end): 8 B a state would otherwise stay in RAM, unbounded by --memory's plan. Raw, not compressed:
  // a codec's contexts and buffers (0.7 MiB and more) would take more of --memory than the keys'
  // disk is worth (8 B a state beside the states' 20 to 400).
  streamed_keys.configure(sizeof(std::uint64_t), options.workdir, window, false);
  if (options.exact) {
    exact = std::make_unique<ExactSet>(layout.encoded_bytes());
    table = std::make_unique<LevelTable>(true);  // its inserts compare encodings
    ctx.table = table.get();
  } else {
    visited = std::make_unique<VisitedSet>(budget.data_budget());
  }
  ctx.visited = visited.get();
  ctx.exact = exact.get();
  for (auto& w : workers) w->peers = &peers;
}

std::uint64_t LevelData::generated_so_far() const {
  std::uint64_t g = 0;
  for (const auto& w : workers) g += w->generated;
  return g;
}

std::vector<std::uint64_t> LevelData::enabled_so_far() const {
  std::vector<std::uint64_t> enabled(ops.transitions, 0);
  for (const auto& w : workers)
    for (std::size_t t = 0; t < w->enabled.size(); ++t) enabled[t] += w->enabled[t];
  return enabled;
}

std::uint64_t LevelData::found_records() const {
  std::uint64_t n = 0;
  for (const auto& w : workers) n += w->found.size();
  return n;
}

void LevelData::drop_found() {
  const std::uint64_t records = found_records();
  for (auto& w : workers) w->found.clear();
  record_blocks->settle(records);
}

std::size_t LevelData::set_bytes(std::uint64_t more) const {
  if (!visited) return exact->bytes();
  // The table is calloc'd: a page becomes resident when the first entry lands
  // on it, and entries land uniformly, so a fresh 8 MiB table holding a small
  // spec costs little (--memory 16M still checks one). A loaded one: all of it.
  const double pages = static_cast<double>(visited->bytes()) / 4096;
  const double touched = -pages * std::expm1(-static_cast<double>(visited->size() + more) / pages);
  return std::min(visited->bytes(), (static_cast<std::size_t>(touched) + 1) * 4096);
}

}  // namespace statecheck::detail
