// The level's sort by discovery key (parallel_loops.hpp).
//
// With scratch room the size of the level, the entries are first scattered
// into buckets by their key's top bits (one pass, in parallel over chunks of
// the entries), then each bucket goes back to its place sorted, in parallel
// over buckets: about two thousand entries each, placed by their next bits
// into sub-buckets of a few entries, all in the core's cache (sort_bucket).
// Keys are distinct (parent rank, transition id), so the result is the one
// order whatever the chunking. Without room, a parallel comparison sort of
// the whole level.
#include <tbb/parallel_sort.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <vector>

#include "search/parallel_loops.hpp"

namespace statecheck::detail {

namespace {

using Entry = LevelTable::Entry;

constexpr auto by_key = [](const Entry& a, const Entry& b) { return a.key < b.key; };

// Entries a bucket should hold on average: 32 KiB, sorted in the core's cache.
constexpr std::uint64_t bucket_entries = 2048;
// Chunks the scatter is cut into (each counts and moves its own entries).
constexpr std::uint64_t scatter_chunks = 64;

std::uint64_t largest_key(std::span<const Entry> entries) {
  std::uint64_t most = 0;
  for (const Entry& e : entries) most = std::max(most, e.key);
  return most;
}

/// Sorts `run` in place: by insertion when it is short (what a sub-bucket
/// mostly is), else std::sort.
void sort_run(std::span<Entry> run) {
  if (run.size() > 32) {
    std::sort(run.begin(), run.end(), by_key);
    return;
  }
  for (std::size_t i = 1; i < run.size(); ++i) {
    const Entry e = run[i];
    std::size_t j = i;
    for (; j > 0 && run[j - 1].key > e.key; --j) run[j] = run[j - 1];
    run[j] = e;
  }
}

/// One bucket, from `from` into `to` in key order: its keys agree above bit
/// `low_bits`, so they are counted and placed by the bits just below, into
/// sub-buckets of a few entries each, and each of those is sorted by
/// insertion; all of it in the core's cache. A comparison sort of the whole
/// bucket was most of the sort's time.
void sort_bucket(std::span<const Entry> from, std::span<Entry> to, unsigned low_bits) {
  constexpr unsigned most_bits = 11;
  std::array<std::uint32_t, (std::size_t{1} << most_bits) + 1> at{};
  const auto n = from.size();
  const auto width = static_cast<unsigned>(std::bit_width(n));  // sub-buckets of about four entries
  const unsigned bits = std::min({low_bits, most_bits, width > 3 ? width - 2 : 1u});
  const unsigned shift = low_bits - bits;
  const std::uint64_t mask = (std::uint64_t{1} << bits) - 1;
  for (const Entry& e : from) ++at[((e.key >> shift) & mask) + 1];
  for (std::size_t d = 1; d <= mask + 1; ++d) at[d] += at[d - 1];  // at[d]: where sub-bucket d starts
  for (const Entry& e : from) to[at[(e.key >> shift) & mask]++] = e;
  // Sub-bucket d now ends at at[d], and starts where d - 1 ended.
  std::uint32_t start = 0;
  for (std::size_t d = 0; d <= mask; ++d) {
    sort_run(to.subspan(start, at[d] - start));
    start = at[d];
  }
}

void bucket_sort(std::span<Entry> entries, std::span<Entry> scratch) {
  const std::uint64_t n = entries.size();
  const auto bucket_bits = static_cast<unsigned>(std::clamp<std::uint64_t>(std::bit_width(n / bucket_entries), 1, 16));
  const auto key_bits = static_cast<unsigned>(std::bit_width(largest_key(entries)));
  const unsigned shift = key_bits > bucket_bits ? key_bits - bucket_bits : 0;
  const std::uint64_t buckets = std::uint64_t{1} << bucket_bits;
  const std::uint64_t chunk = (n + scatter_chunks - 1) / scatter_chunks;
  // counts[c * buckets + b]: chunk c's entries in bucket b, then where they go.
  std::vector<std::uint64_t> at(static_cast<std::size_t>(scatter_chunks * buckets), 0);
  parallel(0, scatter_chunks, 1, [&](const auto& r) {
    for (std::uint64_t c = r.begin(); c != r.end(); ++c) {
      std::uint64_t* count = at.data() + c * buckets;
      for (std::uint64_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) ++count[entries[i].key >> shift];
    }
  });
  std::vector<std::uint64_t> bucket_begin(static_cast<std::size_t>(buckets + 1), 0);
  std::uint64_t sum = 0;
  for (std::uint64_t b = 0; b < buckets; ++b) {
    bucket_begin[b] = sum;
    for (std::uint64_t c = 0; c < scatter_chunks; ++c) {
      const std::uint64_t k = at[c * buckets + b];
      at[c * buckets + b] = sum;
      sum += k;
    }
  }
  bucket_begin[buckets] = sum;
  parallel(0, scatter_chunks, 1, [&](const auto& r) {
    for (std::uint64_t c = r.begin(); c != r.end(); ++c) {
      std::uint64_t* to = at.data() + c * buckets;
      for (std::uint64_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) scratch[to[entries[i].key >> shift]++] = entries[i];
    }
  });
  parallel(0, buckets, 1, [&](const auto& r) {
    for (std::uint64_t b = r.begin(); b != r.end(); ++b) {
      const std::uint64_t begin = bucket_begin[b], end = bucket_begin[b + 1];
      sort_bucket(scratch.subspan(begin, end - begin), entries.subspan(begin, end - begin), shift);
    }
  });
}

/// `entries`, whose first `sorted` are in key order and the rest too, all in
/// key order: the rest (at most scratch's size) is copied out and merged
/// with the first part from the top down, so no entry is overwritten before
/// it is read. Without a branch on which side an entry comes from.
void merge_back(std::span<Entry> entries, std::size_t sorted, std::span<Entry> scratch) {
  const std::size_t rest = entries.size() - sorted;
  std::memcpy(scratch.data(), entries.data() + sorted, rest * sizeof(Entry));
  std::size_t left = sorted, right = rest, out = entries.size();
  while (right != 0) {
    const bool from_left = left != 0 && entries[left - 1].key > scratch[right - 1].key;
    entries[--out] = from_left ? entries[left - 1] : scratch[right - 1];
    left -= from_left ? 1 : 0;
    right -= from_left ? 0 : 1;
  }
}

/// Scratch smaller than the level (the table more than half full): the level
/// is cut into runs of at most scratch's size, each bucket-sorted through it,
/// and each run is merged onto the runs before it (merge_back). The table
/// keeps a third of its slots free at least, so there are at most three runs
/// from the search; the merges are sequential, a few ns an entry.
void sort_in_runs(std::span<Entry> entries, std::span<Entry> scratch) {
  const std::size_t n = entries.size();
  const std::size_t runs = (n + scratch.size() - 1) / scratch.size();
  const std::size_t run = (n + runs - 1) / runs;
  for (std::size_t begin = 0; begin < n; begin += run) {
    const std::span<Entry> part = entries.subspan(begin, std::min(run, n - begin));
    if (part.size() >= 2 * bucket_entries) bucket_sort(part, scratch);
    else std::sort(part.begin(), part.end(), by_key);
  }
  for (std::size_t begin = run; begin < n; begin += run) merge_back(entries.first(std::min(n, begin + run)), begin, scratch);
}

}  // namespace

void sort_by_key(std::span<LevelTable::Entry> entries, std::span<LevelTable::Entry> scratch) {
  if (entries.size() >= 2 * bucket_entries && scratch.size() >= entries.size()) {
    bucket_sort(entries, scratch);
    return;
  }
  if (entries.size() >= 2 * bucket_entries && scratch.size() >= std::max(entries.size() / 4, 2 * bucket_entries)) {
    sort_in_runs(entries, scratch);
    return;
  }
  if constexpr (thread_sanitizer) std::sort(entries.begin(), entries.end(), by_key);
  else tbb::parallel_sort(entries.begin(), entries.end(), by_key);
}

}  // namespace statecheck::detail
