// lib/src/search/parallel_loops.hpp - the search's two parallel loops over
// oneTBB (a level's chunks, the level's sort), written so that ThreadSanitizer
// sees how they order memory. Included by the search's own sources only.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>

#include "statecheck/detail/level_table.hpp"

namespace statecheck::detail {

#if defined(__SANITIZE_THREAD__)
inline constexpr bool thread_sanitizer = true;
#else
inline constexpr bool thread_sanitizer = false;
#endif

/// tbb::parallel_for over [begin, end). Debian's oneTBB library is not built for
/// ThreadSanitizer, which then cannot see how a parallel loop orders its tasks
/// after the code before it and before the code after it; under TSan each task
/// passes through an atomic so that those edges are visible (and real races in
/// our code are still reported).
template <class Body>
void parallel(std::uint64_t begin, std::uint64_t end, std::uint64_t grain, const Body& body) {
  const tbb::blocked_range<std::uint64_t> range(begin, end, grain);
  if constexpr (thread_sanitizer) {
    std::atomic<std::uint64_t> edge{0};
    edge.store(0, std::memory_order_release);
    tbb::parallel_for(range, [&](const tbb::blocked_range<std::uint64_t>& r) {
      (void)edge.load(std::memory_order_acquire);
      body(r);
      edge.fetch_add(1, std::memory_order_acq_rel);
    });
    (void)edge.load(std::memory_order_acquire);
  } else {
    tbb::parallel_for(range, body);
  }
}

/// Sorts the level by discovery key (level_sort.cpp): bucketed through
/// `scratch` when it holds as many entries, in runs bucketed through it and
/// then merged when it holds a quarter, else a parallel comparison sort
/// (sequential under TSan, which cannot see how tbb::parallel_sort orders memory).
void sort_by_key(std::span<LevelTable::Entry> entries, std::span<LevelTable::Entry> scratch);

}  // namespace statecheck::detail
