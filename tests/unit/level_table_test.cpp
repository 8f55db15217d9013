// The level table's own guarantees, apart from any spec: concurrent inserts
// keep each state once with its smallest key; growing mid-level (entries move
// to the new table in parallel) loses none; take_entries() hands back exactly
// the level's entries in the table's memory, whether it keeps the pages beyond
// them or gives them back; the free slots after kept entries are lent once as
// a sort's scratch; clear() leaves an empty table that a next level fills from
// scratch; and the level's sort orders by key with or without that scratch.
#include <tbb/global_control.h>

#include <catch2/catch.hpp>
#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <span>
#include <vector>

#include "search/parallel_loops.hpp"
#include "statecheck/detail/level_table.hpp"

using statecheck::detail::Hash128;
using statecheck::detail::LevelTable;

namespace {

struct Want {
  std::uint64_t key;
  std::uint64_t hi;
};

/// `n` distinct states with random hashes (lo >= 2: 0 and 1 mark empty and busy slots).
std::vector<Hash128> states(std::uint64_t n, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::map<std::uint64_t, bool> seen;
  std::vector<Hash128> out;
  while (out.size() < n) {
    const Hash128 h{rng() | 2, rng()};
    if (seen.emplace(h.lo, true).second) out.push_back(h);
  }
  return out;
}

/// Inserts every state `rounds` times from two threads, each time with another
/// key; returns the smallest key each state was given.
std::map<std::uint64_t, Want> insert_all(LevelTable& table, const std::vector<Hash128>& hs, unsigned rounds) {
  std::map<std::uint64_t, Want> want;
  for (std::size_t i = 0; i < hs.size(); ++i)
    for (unsigned r = 0; r < rounds; ++r) {
      const std::uint64_t key = (i * 7919 + r * 104729) % 1000003 + r;
      auto [it, added] = want.emplace(hs[i].lo, Want{key, hs[i].hi});
      if (!added && key < it->second.key) it->second.key = key;
    }
  const tbb::global_control two(tbb::global_control::max_allowed_parallelism, 2);
  std::vector<std::uint32_t> added(2, 0);
  // The search's parallel loop: under TSan it makes the loop's ordering visible (parallel_loops.hpp).
  statecheck::detail::parallel(0, 2, 1, [&](const auto& range) {
    for (auto t = static_cast<std::uint32_t>(range.begin()); t != range.end(); ++t)
      for (unsigned r = 0; r < rounds; ++r)
        for (std::size_t i = t; i < hs.size() * 2; i += 2) {
          const std::size_t s = (i + r * 3) % hs.size();
          const std::uint64_t key = (s * 7919 + r * 104729) % 1000003 + r;
          if (table.insert(hs[s], key, t, added[t], [](std::uint32_t, std::uint32_t) { return true; })) ++added[t];
        }
  });
  table.set_size(table.size() + added[0] + added[1]);
  return want;
}

void require_entries(std::span<const LevelTable::Entry> got, const std::map<std::uint64_t, Want>& want) {
  REQUIRE(got.size() == want.size());
  std::map<std::uint64_t, int> seen;
  for (const LevelTable::Entry& e : got) {
    REQUIRE(++seen[e.lo] == 1);
    const auto it = want.find(e.lo);
    REQUIRE(it != want.end());
    REQUIRE(e.key == it->second.key);
    REQUIRE(e.hi == it->second.hi);
  }
}

}  // namespace

TEST_CASE("level table: take_entries hands back each state once, with its smallest key", "[level-table]") {
  const auto mode = GENERATE(LevelTable::Pages::keep, LevelTable::Pages::give_back);
  // 3,000 states fit the first 4,096 slots (calloc'd); 300,000 need 16 MiB of huge-page memory.
  const std::uint64_t n = GENERATE(3000u, 300000u);
  LevelTable table;
  table.reserve(n);
  const std::vector<Hash128> hs = states(n, 7);
  const auto want = insert_all(table, hs, 3);
  REQUIRE(table.size() == n);
  const std::size_t whole = table.bytes();
  require_entries(table.take_entries(mode), want);
  if (mode == LevelTable::Pages::keep || whole < (std::size_t{2} << 20)) {
    REQUIRE(table.resident_bytes() == whole);
  } else {
    REQUIRE(table.resident_bytes() >= n * sizeof(LevelTable::Entry));
    REQUIRE(table.resident_bytes() < whole);
  }

  // Cleared, the table is empty: the same states are all new again, and
  // another level's states come back alone.
  table.clear();
  REQUIRE(table.size() == 0);
  REQUIRE(table.resident_bytes() == whole);
  const std::vector<Hash128> next = states(n / 2, 11);
  const auto want_next = insert_all(table, next, 1);
  REQUIRE(table.size() == n / 2);
  require_entries(table.take_entries(mode), want_next);
  table.clear();
  for (const Hash128& h : hs) REQUIRE(table.insert(h, 5, 0, 0, [](std::uint32_t, std::uint32_t) { return true; }));
}

TEST_CASE("level table: growing mid-level keeps every entry and lowers keys after the move", "[level-table]") {
  LevelTable table;
  const std::uint64_t first = table.capacity() / 2;
  const std::vector<Hash128> hs = states(200000, 3);
  const std::vector<Hash128> early(hs.begin(), hs.begin() + static_cast<std::ptrdiff_t>(first));
  insert_all(table, early, 1);
  const std::uint64_t before = table.capacity();
  table.reserve(hs.size());  // 4,096 slots to 2^18: the early entries move in parallel
  REQUIRE(table.capacity() > before);
  REQUIRE(table.size() == first);
  // All states, the early ones again with (some) smaller keys.
  const auto want = insert_all(table, hs, 2);
  std::map<std::uint64_t, Want> merged = want;
  for (std::size_t i = 0; i < early.size(); ++i) {
    const std::uint64_t key = (i * 7919) % 1000003;  // what insert_all gave them the first time
    Want& w = merged.at(early[i].lo);
    if (key < w.key) w.key = key;
  }
  REQUIRE(table.size() == hs.size());
  require_entries(table.take_entries(LevelTable::Pages::keep), merged);
}

TEST_CASE("level table: the scratch after kept entries is lent once and zeroed by clear", "[level-table]") {
  LevelTable table;
  table.reserve(100000);  // 2^18 slots
  const std::vector<Hash128> hs = states(50000, 5);
  insert_all(table, hs, 1);
  const std::span<LevelTable::Entry> entries = table.take_entries(LevelTable::Pages::keep);
  const std::span<LevelTable::Entry> scratch = table.scratch();
  REQUIRE(scratch.size() == entries.size());
  REQUIRE(scratch.data() == entries.data() + entries.size());
  for (LevelTable::Entry& e : scratch) e = {1, 99, 99, 0, 0};  // a sort leaves entries behind
  table.clear();
  for (const Hash128& h : states(50000, 9)) REQUIRE(table.insert(h, 5, 0, 0, [](std::uint32_t, std::uint32_t) { return true; }));

  // No scratch when the pages beyond the entries were given back, or fewer than the entries are free.
  LevelTable given;
  given.reserve(100000);
  insert_all(given, hs, 1);
  (void)given.take_entries(LevelTable::Pages::give_back);
  REQUIRE(given.scratch().empty());
  LevelTable full;
  full.reserve(3000);  // 4,096 slots
  insert_all(full, states(3000, 4), 1);
  (void)full.take_entries(LevelTable::Pages::keep);
  REQUIRE(full.scratch().empty());
}

TEST_CASE("level sort: bucketed through scratch or not, the order is by key", "[level-table]") {
  const std::uint64_t n = GENERATE(10u, 5000u, 300000u);
  const bool with_scratch = GENERATE(true, false);
  // Keys like the search's: parent rank << 5 | transition id, distinct, parents dense.
  std::mt19937_64 rng(n);
  std::vector<LevelTable::Entry> entries;
  for (std::uint64_t parent = 0; entries.size() < n; ++parent)
    for (std::uint64_t tid = 0; tid < 32 && entries.size() < n; ++tid)
      if (rng() % 3 == 0) entries.push_back({parent << 5 | tid, rng() | 2, rng(), 0, static_cast<std::uint32_t>(entries.size())});
  std::vector<LevelTable::Entry> want = entries;
  std::shuffle(entries.begin(), entries.end(), rng);
  std::vector<LevelTable::Entry> scratch(with_scratch ? n : 0);
  statecheck::detail::sort_by_key(entries, scratch);
  REQUIRE(entries.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    REQUIRE(entries[i].key == want[i].key);
    REQUIRE(entries[i].lo == want[i].lo);
    REQUIRE(entries[i].record == want[i].record);
  }
}
