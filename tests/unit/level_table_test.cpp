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
#include <stdexcept>
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

/// What the workers of a test found first: per thread, each record's state and slot.
struct Found {
  std::vector<std::vector<Hash128>> state{2};
  std::vector<std::vector<std::uint64_t>> slot{2};
  std::size_t size() const { return state[0].size() + state[1].size(); }
  /// Tells the table where each found state lives (the search's workers do this at the level's end).
  void locate(LevelTable& table) const {
    for (std::uint32_t t = 0; t < 2; ++t)
      for (std::uint32_t r = 0; r < slot[t].size(); ++r) table.locate(slot[t][r], LevelTable::ref(t, r));
  }
  /// After a growth: each record follows its entry, as Worker::follow_moved_slots does.
  template <class NewSlot>
  void follow(const NewSlot& new_slot) {
    for (auto& slots : slot)
      for (std::uint64_t& s : slots) s = new_slot(s);
  }
  const Hash128& at(std::uint64_t ref) const { return state[LevelTable::worker_of(ref)][LevelTable::record_of(ref)]; }
};

/// Inserts every state `rounds` times from two threads, each time with another
/// key; returns the smallest key each state was given.
std::map<std::uint64_t, Want> insert_all(LevelTable& table, const std::vector<Hash128>& hs, unsigned rounds, Found& found) {
  std::map<std::uint64_t, Want> want;
  for (std::size_t i = 0; i < hs.size(); ++i)
    for (unsigned r = 0; r < rounds; ++r) {
      const std::uint64_t key = (i * 7919 + r * 104729) % 1000003 + r;
      auto [it, added] = want.emplace(hs[i].lo, Want{key, hs[i].hi});
      if (!added && key < it->second.key) it->second.key = key;
    }
  const tbb::global_control two(tbb::global_control::max_allowed_parallelism, 2);
  // The search's parallel loop: under TSan it makes the loop's ordering visible (parallel_loops.hpp).
  statecheck::detail::parallel(0, 2, 1, [&](const auto& range) {
    for (auto t = static_cast<std::uint32_t>(range.begin()); t != range.end(); ++t)
      for (unsigned r = 0; r < rounds; ++r)
        for (std::size_t i = t; i < hs.size() * 2; i += 2) {
          const std::size_t s = (i + r * 3) % hs.size();
          const std::uint64_t key = (s * 7919 + r * 104729) % 1000003 + r;
          const auto record = static_cast<std::uint32_t>(found.state[t].size());
          const std::uint64_t slot = table.insert(hs[s], key, t, record, [](std::uint32_t, std::uint32_t) { return true; });
          if (slot == LevelTable::no_slot) continue;
          found.state[t].push_back(hs[s]);
          found.slot[t].push_back(slot);
        }
  });
  table.set_size(found.size());
  return want;
}

/// Locates the found states and takes the table's entries.
std::span<LevelTable::Entry> take(LevelTable& table, const Found& found, LevelTable::Pages pages) {
  found.locate(table);
  return table.take_entries(pages);
}

void require_entries(std::span<const LevelTable::Entry> got, const std::map<std::uint64_t, Want>& want, const Found& found) {
  REQUIRE(got.size() == want.size());
  std::map<std::uint64_t, int> seen;
  for (const LevelTable::Entry& e : got) {
    const Hash128& h = found.at(e.ref);
    REQUIRE(++seen[h.lo] == 1);
    const auto it = want.find(h.lo);
    REQUIRE(it != want.end());
    REQUIRE(e.key == it->second.key);
    REQUIRE(h.hi == it->second.hi);
  }
}

}  // namespace

TEST_CASE("level table: take_entries hands back each state once, with its smallest key", "[level-table]") {
  const auto mode = GENERATE(LevelTable::Pages::keep, LevelTable::Pages::give_back);
  // 3,000 states fit the first 4,096 slots (calloc'd); 300,000 need huge-page memory.
  const std::uint64_t n = GENERATE(3000u, 300000u);
  LevelTable table;
  table.reserve(n);
  const std::vector<Hash128> hs = states(n, 7);
  Found found;
  const auto want = insert_all(table, hs, 3, found);
  REQUIRE(table.size() == n);
  const std::size_t whole = table.bytes();
  require_entries(take(table, found, mode), want, found);
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
  Found found_next;
  const auto want_next = insert_all(table, next, 1, found_next);
  REQUIRE(table.size() == n / 2);
  require_entries(take(table, found_next, mode), want_next, found_next);
  table.clear();
  for (const Hash128& h : hs) REQUIRE(table.insert(h, 5, 0, 0, [](std::uint32_t, std::uint32_t) { return true; }) != LevelTable::no_slot);
}

TEST_CASE("level table: growing mid-level keeps every entry and lowers keys after the move", "[level-table]") {
  LevelTable table;
  const std::uint64_t first = table.capacity() / 2;
  const std::vector<Hash128> hs = states(200000, 3);
  const std::vector<Hash128> early(hs.begin(), hs.begin() + static_cast<std::ptrdiff_t>(first));
  Found found;
  insert_all(table, early, 1, found);
  const std::uint64_t before = table.capacity();
  // 4,096 slots to 2^18: the early entries move in parallel, and their records follow them.
  table.reserve(hs.size(), [&](const auto& new_slot) { found.follow(new_slot); });
  // Growing a table that holds entries without telling their records is refused.
  REQUIRE_THROWS_AS(table.reserve(4 * hs.size()), std::logic_error);
  REQUIRE(table.capacity() > before);
  REQUIRE(table.size() == first);
  // All states, the early ones again with (some) smaller keys.
  const auto want = insert_all(table, hs, 2, found);
  std::map<std::uint64_t, Want> merged = want;
  for (std::size_t i = 0; i < early.size(); ++i) {
    const std::uint64_t key = (i * 7919) % 1000003;  // what insert_all gave them the first time
    Want& w = merged.at(early[i].lo);
    if (key < w.key) w.key = key;
  }
  REQUIRE(table.size() == hs.size());
  require_entries(take(table, found, LevelTable::Pages::keep), merged, found);
}

TEST_CASE("level table: a slot keeps 64 less the key's bits of hi beside the key", "[level-table]") {
  const unsigned key_bits = GENERATE(20u, 56u);
  LevelTable table;
  table.set_key_bits(key_bits);
  const unsigned kept = LevelTable::hash_bits_for(key_bits);
  const auto keep_all = [](std::uint32_t, std::uint32_t) { return true; };
  const Hash128 a{12345, 0x0123456789abcdefULL};
  const Hash128 differs_in_kept_bit{a.lo, a.hi ^ (std::uint64_t{1} << (kept - 1))};
  const Hash128 differs_above_them{a.lo, a.hi ^ (std::uint64_t{1} << kept)};
  const std::uint64_t largest = (std::uint64_t{1} << key_bits) - 1;
  const std::uint64_t slot_a = table.insert(a, largest, 0, 0, keep_all);
  const std::uint64_t slot_other = table.insert(differs_in_kept_bit, 7, 0, 1, keep_all);
  REQUIRE(slot_a != LevelTable::no_slot);
  REQUIRE(slot_other != LevelTable::no_slot);
  // Bits of hi beyond the kept ones are not compared: that state is taken for `a` (the omission bound counts it).
  REQUIRE(table.insert(differs_above_them, 3, 1, 0, keep_all) == LevelTable::no_slot);
  REQUIRE(table.insert(a, largest, 1, 1, keep_all) == LevelTable::no_slot);
  table.set_size(2);
  table.locate(slot_a, LevelTable::ref(0, 0));
  table.locate(slot_other, LevelTable::ref(0, 1));
  std::map<std::uint64_t, std::uint64_t> key_of;
  for (const LevelTable::Entry& e : table.take_entries(LevelTable::Pages::keep)) key_of[e.ref] = e.key;
  REQUIRE(key_of == std::map<std::uint64_t, std::uint64_t>{{LevelTable::ref(0, 0), 3}, {LevelTable::ref(0, 1), 7}});

  REQUIRE_FALSE(LevelTable::key_bits_fit(64 - LevelTable::min_hash_bits + 1));
  LevelTable other;
  REQUIRE_THROWS_AS(other.set_key_bits(64 - LevelTable::min_hash_bits + 1), std::logic_error);
}

TEST_CASE("level table: exact mode tells apart states of one hash by their records, grown too", "[level-table]") {
  LevelTable table(true);
  const Hash128 h{777, 888};
  // Records 0 and 1 hold different states of hash h; record 2 holds record 0's state again.
  const auto same_as_record_0 = [](std::uint32_t, std::uint32_t record) { return record == 0; };
  const auto same_as_record_1 = [](std::uint32_t, std::uint32_t record) { return record == 1; };
  const std::uint64_t first = table.insert(h, 9, 0, 0, same_as_record_0);
  const std::uint64_t second = table.insert(h, 8, 0, 1, same_as_record_1);
  REQUIRE(first != LevelTable::no_slot);
  REQUIRE(second != LevelTable::no_slot);
  REQUIRE(second != first);
  REQUIRE(table.insert(h, 4, 0, 2, same_as_record_0) == LevelTable::no_slot);
  // Grown, each state keeps its own first record (the side array moves with the slots).
  std::uint64_t moved_first = 0, moved_second = 0;
  table.set_size(2);
  table.reserve(100000, [&](const auto& new_slot) {
    moved_first = new_slot(first);
    moved_second = new_slot(second);
  });
  REQUIRE(table.capacity() > 4096);
  REQUIRE(table.insert(h, 6, 0, 3, same_as_record_1) == LevelTable::no_slot);
  table.locate(moved_first, LevelTable::ref(0, 0));
  table.locate(moved_second, LevelTable::ref(0, 1));
  std::map<std::uint64_t, std::uint64_t> key_of;
  for (const LevelTable::Entry& e : table.take_entries(LevelTable::Pages::keep)) key_of[e.ref] = e.key;
  REQUIRE(key_of == std::map<std::uint64_t, std::uint64_t>{{LevelTable::ref(0, 0), 4}, {LevelTable::ref(0, 1), 6}});
}

TEST_CASE("level table: an entry not located stops the level's end", "[level-table]") {
  LevelTable table;
  Found found;
  insert_all(table, states(100, 2), 1, found);
  found.slot[1].clear();  // thread 1's records are not located
  found.locate(table);
  REQUIRE_THROWS_AS(table.take_entries(LevelTable::Pages::keep), std::logic_error);
}

TEST_CASE("level table: the scratch after kept entries is lent once and zeroed by clear", "[level-table]") {
  LevelTable table;
  table.reserve(100000);  // 2^18 slots
  const std::vector<Hash128> hs = states(50000, 5);
  Found found;
  insert_all(table, hs, 1, found);
  const std::span<LevelTable::Entry> entries = take(table, found, LevelTable::Pages::keep);
  const std::span<LevelTable::Entry> scratch = table.scratch();
  REQUIRE(scratch.size() == entries.size());
  REQUIRE(scratch.data() == entries.data() + entries.size());
  for (LevelTable::Entry& e : scratch) e = {1, 99};  // a sort leaves entries behind
  table.clear();
  for (const Hash128& h : states(50000, 9))
    REQUIRE(table.insert(h, 5, 0, 0, [](std::uint32_t, std::uint32_t) { return true; }) != LevelTable::no_slot);

  // No scratch when the pages beyond the entries were given back; the free slots when fewer than the entries.
  LevelTable given;
  given.reserve(100000);
  Found found_given;
  insert_all(given, hs, 1, found_given);
  (void)take(given, found_given, LevelTable::Pages::give_back);
  REQUIRE(given.scratch().empty());
  LevelTable full;
  full.reserve(3000);  // 4,096 slots
  Found found_full;
  insert_all(full, states(3000, 4), 1, found_full);
  (void)take(full, found_full, LevelTable::Pages::keep);
  const std::span<LevelTable::Entry> partial = full.scratch();
  REQUIRE(partial.size() == 4096 - 3000);
  for (LevelTable::Entry& e : partial) e = {1, 99};
  full.clear();
  for (const Hash128& h : states(3000, 11))
    REQUIRE(full.insert(h, 5, 0, 0, [](std::uint32_t, std::uint32_t) { return true; }) != LevelTable::no_slot);
}

TEST_CASE("level sort: bucketed through scratch, in merged runs or not, the order is by key", "[level-table]") {
  const std::uint64_t n = GENERATE(10u, 5000u, 100003u, 300000u);
  // Scratch: none (a comparison sort), all of the level (buckets), half or a
  // third of it (runs bucketed through it, then merged; the last run shorter).
  const int scratch_share = GENERATE(0, 1, 2, 3);
  const bool clustered = GENERATE(false, true);
  // Keys like the search's: parent rank << 5 | transition id, distinct, parents dense.
  // Clustered: runs of 3,000 consecutive keys far apart, so that a bucket's
  // keys share their next bits too and its sub-buckets hold thousands.
  std::mt19937_64 rng(n);
  std::vector<LevelTable::Entry> entries;
  for (std::uint64_t parent = 0; entries.size() < n; ++parent)
    for (std::uint64_t tid = 0; tid < 32 && entries.size() < n; ++tid)
      if (clustered) entries.push_back({(entries.size() / 3000) << 40 | entries.size() % 3000, entries.size()});
      else if (rng() % 3 == 0) entries.push_back({parent << 5 | tid, entries.size()});
  std::vector<LevelTable::Entry> want = entries;
  std::shuffle(entries.begin(), entries.end(), rng);
  std::vector<LevelTable::Entry> scratch(scratch_share == 0 ? 0 : n / scratch_share + 1);
  statecheck::detail::sort_by_key(entries, scratch);
  REQUIRE(entries.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    REQUIRE(entries[i].key == want[i].key);
    REQUIRE(entries[i].ref == want[i].ref);
  }
}
