// statecheck/detail/search.hpp - the level-synchronous parallel BFS (oneTBB).
//
// Level L is a contiguous array of states in a canonical order. Expanding it
// fills a LevelTable with states not seen before, each keyed by its smallest
// (parent rank, transition id); sorting them by key gives level L+1 in the
// order one thread would have found it. Properties are checked on the ordered
// level, so the reported violation (the smallest rank) and every count are the
// same for any number of threads.
#pragma once

#include <atomic>
#include <cstddef>
#include <stdexcept>

#include "statecheck/detail/model_ops.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

/// Runs the whole check of one spec: search, then trace reconstruction.
CheckResult run_search(const ModelOps& ops, const CheckOptions& options);

/// --memory when not given: half the physical memory.
std::size_t default_memory();

/// The flag statecheck::request_stop() sets, for other long-running commands
/// (simulate) to poll and clear; each check clears it when it starts.
std::atomic<bool>& stop_flag() noexcept;

/// A phase outside the search (the --dump-graph exploration, the coverage
/// table) stopped short on a stop request or its memory budget: one line
/// saying where and what to do; the CLI reports it with exit code 3.
struct stopped_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace statecheck::detail
