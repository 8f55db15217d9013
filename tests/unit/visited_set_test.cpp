// The visited set's refusals, segments and growth, each built from hand-made
// hashes (the segment is lo's top 32 bits scaled to the segment count, the home
// slot is hi's low 20 bits, the signature lo's top 52 bits): a probe sequence
// that outgrows the 12-bit displacement, probes that wrap inside their segment,
// a growth that merges two old segments' clusters into one new segment, growth
// to counts that are not powers of two, and checkpoint tables that cannot be
// this class's. Then ordered probing: one layout for any insert order, a table
// at its fullest, and checkpoints written in another order. Last, the level
// end's uncounted inserts (--exact's set: exact_set_test.cpp).
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "statecheck/detail/visited_set.hpp"

using statecheck::detail::Hash128;
using statecheck::detail::VisitedSet;

namespace {

constexpr std::uint64_t segment_slots = VisitedSet::segment_mask + 1;
constexpr std::uint64_t cluster = VisitedSet::max_displacement + 1;  // slots one home can reach
constexpr std::size_t mib = std::size_t{1} << 20;

/// A hash whose lo has these top 32 bits (the segment: `where` / 2^32 of the
/// way through the segments), this home, and a signature told apart by `id`.
Hash128 hash(std::uint64_t where, std::uint64_t home, std::uint64_t id) {
  return {(where << 32) | (id << 12), home};
}
constexpr std::uint64_t half = std::uint64_t{1} << 31;  // the first lo-top of the second of two segments

/// Grows `set` to `segments`, moving every old segment in one call.
VisitedSet::Insert grow(VisitedSet& set, std::uint64_t segments) {
  set.begin_growth(segments);
  const VisitedSet::Insert r = set.migrate();
  set.end_growth();
  return r;
}

}  // namespace

TEST_CASE("visited set: a probe sequence beyond the displacement limit overflows", "[visited]") {
  VisitedSet set(64 * mib);
  for (std::uint64_t i = 0; i < cluster; ++i) REQUIRE(set.insert(hash(5, 7, i)) == VisitedSet::Insert::added);
  REQUIRE(set.insert(hash(5, 7, cluster)) == VisitedSet::Insert::overflow);
  REQUIRE(set.size() == cluster);
  REQUIRE(set.insert(hash(5, 7, cluster - 1)) == VisitedSet::Insert::present);
  REQUIRE(set.contains(hash(5, 7, cluster - 1)));
  REQUIRE_FALSE(set.contains(hash(5, 7, cluster)));  // the probe gives up, it does not loop
}

TEST_CASE("visited set: probes wrap inside their segment, not into the next one", "[visited]") {
  VisitedSet set(64 * mib);
  REQUIRE(set.segment_count() == 1);
  REQUIRE(grow(set, 2) == VisitedSet::Insert::added);
  REQUIRE(set.segment_count() == 2);
  // 2000 states at segment 0's last home wrap to its slots 0..1998; a whole
  // cluster at segment 1's first home still fits, since none of them spilled
  // there (over one table they would have pushed it 2000 slots too far).
  const std::uint64_t last = 2000;
  for (std::uint64_t i = 0; i < last; ++i) REQUIRE(set.insert(hash(0, segment_slots - 1, i)) == VisitedSet::Insert::added);
  for (std::uint64_t i = 0; i < cluster; ++i) REQUIRE(set.insert(hash(half, 0, i)) == VisitedSet::Insert::added);
  // The wrapped ones did take segment 0's first slots: its first home now
  // reaches only cluster - (last - 1) new slots.
  for (std::uint64_t i = 0; i < cluster - (last - 1); ++i)
    REQUIRE(set.insert(hash(0, 0, last + i)) == VisitedSet::Insert::added);
  REQUIRE(set.insert(hash(0, 0, last + cluster)) == VisitedSet::Insert::overflow);
  for (std::uint64_t i = 0; i < last; ++i) REQUIRE(set.contains(hash(0, segment_slots - 1, i)));
  REQUIRE(set.size() == last + cluster + cluster - (last - 1));
}

TEST_CASE("visited set: a growth that merges two clusters beyond the displacement limit reports overflow", "[visited]") {
  // Two segments grown to three: new segment 1 takes lo-tops [2^32/3, 2^33/3),
  // the top of old segment 0 and the bottom of old segment 1. States at one
  // home in each, apart before, share the home's cluster after.
  const std::uint64_t below = half - 1000, above = half + 1000;
  for (const std::uint64_t total : {cluster, cluster + 1}) {
    INFO(total << " states at the one home");
    VisitedSet set(64 * mib);
    REQUIRE(grow(set, 2) == VisitedSet::Insert::added);
    const std::uint64_t first = 2000;
    for (std::uint64_t i = 0; i < first; ++i) REQUIRE(set.insert(hash(below, 99, i)) == VisitedSet::Insert::added);
    for (std::uint64_t i = first; i < total; ++i) REQUIRE(set.insert(hash(above, 99, i)) == VisitedSet::Insert::added);
    if (total == cluster) {
      REQUIRE(grow(set, 3) == VisitedSet::Insert::added);
      REQUIRE(set.segment_count() == 3);
      for (std::uint64_t i = 0; i < total; ++i) REQUIRE(set.contains(hash(i < first ? below : above, 99, i)));
    } else {
      REQUIRE(grow(set, 3) == VisitedSet::Insert::overflow);
    }
  }
}

TEST_CASE("visited set: below 8 segments growth doubles past 0.75 full, within the budget", "[visited]") {
  VisitedSet set(64 * mib);  // 8 segments at most
  const auto limit = static_cast<std::uint64_t>(VisitedSet::small_load * static_cast<double>(segment_slots));
  REQUIRE(limit == 786432);
  REQUIRE_FALSE(set.needs_growth(limit));
  REQUIRE(set.needs_growth(limit + 1));
  REQUIRE(set.wanted_segments(limit + 1) == 2);    // doubling
  REQUIRE(set.wanted_segments(3'000'000) == 4);    // 3.81 segments at 0.75: more than doubling
  REQUIRE(set.least_segments(limit + 1) == 2);     // one more at least
  REQUIRE(set.least_segments(5'000'000) == 6);     // 5.30 at 0.9
  REQUIRE(set.wanted_segments(100'000'000) == 8);  // the budget's cap
  REQUIRE(set.least_segments(100'000'000) == 8);
  // A growth to S holds the new table and, per thread, an old segment in
  // flight and one it shares with the next new segment.
  REQUIRE(set.growth_peak_bytes(5, 2) == 6 * VisitedSet::segment_bytes);  // one old segment: in flight, shares none
  REQUIRE(set.segments_within(6 * VisitedSet::segment_bytes, 2) == 5);
  REQUIRE(set.segments_within(6 * VisitedSet::segment_bytes - 1, 2) == 4);
  REQUIRE(set.segments_within(VisitedSet::segment_bytes, 2) == 0);
  REQUIRE(grow(set, 3) == VisitedSet::Insert::added);  // what a short room allows: not a power of two
  REQUIRE(set.growth_peak_bytes(5, 2) == 9 * VisitedSet::segment_bytes);  // 5 + 2 in flight + 2 shared
  REQUIRE(set.growth_peak_bytes(5, 1) == 7 * VisitedSet::segment_bytes);
  REQUIRE(set.wanted_segments(0) == 6);  // doubled
  REQUIRE(set.least_segments(0) == 4);
  REQUIRE(set.can_grow());
  REQUIRE(grow(set, 8) == VisitedSet::Insert::added);
  REQUIRE_FALSE(set.can_grow());
  REQUIRE(set.wanted_segments(100'000'000) == 8);  // no more: as it is
  REQUIRE(set.least_segments(100'000'000) == 8);
  REQUIRE(set.can_hold(static_cast<std::uint64_t>(0.95 * 8 * static_cast<double>(segment_slots))));
  REQUIRE_FALSE(set.can_hold(static_cast<std::uint64_t>(0.95 * 8 * static_cast<double>(segment_slots)) + 1));
}

TEST_CASE("visited set: from 8 segments growth goes past 0.9 full to 0.75, one segment at least", "[visited]") {
  VisitedSet set(1024 * mib);  // 128 segments at most; untouched segments cost no memory
  REQUIRE(grow(set, 7) == VisitedSet::Insert::added);
  REQUIRE(set.needs_growth(static_cast<std::uint64_t>(0.75 * 7 * static_cast<double>(segment_slots)) + 1));  // still small
  REQUIRE(set.wanted_segments(0) == 14);
  REQUIRE(grow(set, 8) == VisitedSet::Insert::added);
  const auto limit = static_cast<std::uint64_t>(VisitedSet::max_load * 8 * static_cast<double>(segment_slots));
  REQUIRE(limit == 7549747);
  REQUIRE_FALSE(set.needs_growth(limit));
  REQUIRE(set.needs_growth(limit + 1));
  REQUIRE(set.wanted_segments(limit + 1) == 10);      // 9.6 segments at 0.75
  REQUIRE(set.wanted_segments(0) == 9);               // one more at least
  REQUIRE(set.least_segments(limit + 1) == 9);        // 8.0001 at 0.9
  REQUIRE(set.wanted_segments(50'000'000) == 64);     // 63.6 at 0.75
  REQUIRE(set.least_segments(50'000'000) == 53);      // 52.98 at 0.9
  REQUIRE(set.wanted_segments(200'000'000) == 128);   // the budget's cap
}

TEST_CASE("visited set: restore refuses tables it could not have built, and keeps its own", "[visited]") {
  VisitedSet set(64 * mib);
  REQUIRE(set.insert(hash(1, 1, 1)) == VisitedSet::Insert::added);
  VisitedSet other(64 * mib);
  REQUIRE(other.insert(hash(2, 2, 2)) == VisitedSet::Insert::added);
  REQUIRE(other.insert(hash(3, 3, 3)) == VisitedSet::Insert::added);
  std::vector<std::byte> words;  // the compact form: a mask per 64 slots, then the used slots' words
  other.write_compact([&](const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    words.insert(words.end(), b, b + n);
  });
  REQUIRE(words.size() == segment_slots / 8 + 2 * 8);
  const auto unchanged = [&] {
    REQUIRE(set.size() == 1);
    REQUIRE(set.segment_count() == 1);
    REQUIRE(set.contains(hash(1, 1, 1)));
    REQUIRE_FALSE(set.contains(hash(2, 2, 2)));
  };
  REQUIRE_FALSE(set.restore(0, words, 2, 0));  // no segment
  unchanged();
  REQUIRE_FALSE(set.restore(VisitedSet::max_segments + 1, words, 2, 0));  // beyond the largest table (the words are not read)
  unchanged();
  REQUIRE_FALSE(set.restore(2, words, 2, 0));  // words for one segment, not two
  unchanged();
  REQUIRE_FALSE(set.restore(1, words, 3, 0));  // a count the words do not hold
  unchanged();
  std::vector<std::byte> zero_word = words;  // a used slot that holds 0: not a table it could have built
  for (std::size_t i = 0; i < words.size(); i += 8) {
    std::uint64_t mask = 0;
    std::memcpy(&mask, words.data() + i, 8);
    if (mask == 0) continue;
    std::memset(zero_word.data() + i + 8, 0, 8);
    break;
  }
  REQUIRE_FALSE(set.restore(1, zero_word, 2, 0));
  unchanged();
  REQUIRE_FALSE(set.restore(1, std::span(words).first(words.size() - 8), 2, 0));  // truncated
  unchanged();
  REQUIRE(set.restore(1, words, 2, 5));
  REQUIRE(set.size() == 2);
  REQUIRE(set.collisions() == 5);
  REQUIRE(set.contains(hash(2, 2, 2)));
  REQUIRE(set.contains(hash(3, 3, 3)));
  REQUIRE_FALSE(set.contains(hash(1, 1, 1)));
}

TEST_CASE("visited set: the omission bound is 0, not -0, while no two states can be confused", "[visited]") {
  VisitedSet set(64 * mib);
  REQUIRE(set.omission_probability() == 0);
  REQUIRE_FALSE(std::signbit(set.omission_probability()));  // printed "<= -0" before
  REQUIRE(set.insert(hash(1, 1, 1)) == VisitedSet::Insert::added);
  REQUIRE_FALSE(std::signbit(set.omission_probability()));
  REQUIRE(set.insert(hash(2, 2, 2)) == VisitedSet::Insert::added);
  REQUIRE(set.omission_probability() == std::ldexp(1.0, -72));  // one pair, 72-bit fingerprints
}

namespace {

Hash128 random_hash(std::mt19937_64& rng) { return {rng(), rng()}; }

std::vector<std::byte> compact_form(const VisitedSet& set) {
  std::vector<std::byte> bytes;
  set.write_compact([&](const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    bytes.insert(bytes.end(), b, b + n);
  });
  return bytes;
}

/// Whether two checkpoint images are equal; a bool, since Catch2 would print
/// both images (megabytes, for minutes) when a comparison of them fails.
bool same_bytes(const std::vector<std::byte>& a, const std::vector<std::byte>& b) { return a == b; }

}  // namespace

TEST_CASE("visited set: growth to any segment count moves every entry, and a checkpoint survives it", "[visited]") {
  std::mt19937_64 rng(17);
  std::vector<Hash128> hashes(600000);
  for (auto& h : hashes) h = random_hash(rng);
  VisitedSet set(64 * mib);
  for (const auto& h : hashes) REQUIRE(set.insert(h) == VisitedSet::Insert::added);
  REQUIRE_FALSE(set.needs_growth(hashes.size()));  // 0.57 full; grown here all the same
  set.begin_growth(3);
  REQUIRE(set.old_segments() == 1);
  REQUIRE(set.migrate() == VisitedSet::Insert::added);
  set.end_growth();
  REQUIRE(set.capacity() == 3 * segment_slots);
  REQUIRE(set.size() == hashes.size());
  for (const auto& h : hashes) REQUIRE(set.contains(h));
  set.begin_growth(5);  // three old segments onto five, built by two threads at once
  std::thread helper([&] { (void)set.migrate(); });
  const VisitedSet::Insert moved = set.migrate();
  helper.join();
  REQUIRE(moved == VisitedSet::Insert::added);
  set.end_growth();
  REQUIRE(set.segment_count() == 5);
  for (const auto& h : hashes) REQUIRE(set.contains(h));
  std::size_t false_hits = 0;
  for (int i = 0; i < 100000; ++i) false_hits += set.contains(random_hash(rng)) ? 1 : 0;
  REQUIRE(false_hits == 0);

  const std::vector<std::byte> compact = compact_form(set);
  REQUIRE(compact.size() == 5 * segment_slots / 8 + 8 * hashes.size());
  VisitedSet resumed(64 * mib);
  REQUIRE(resumed.restore(set.segment_count(), compact, set.size(), 0));
  REQUIRE(same_bytes(compact_form(resumed), compact));  // every word back in its slot
  REQUIRE(grow(resumed, 7) == VisitedSet::Insert::added);
  REQUIRE(resumed.segment_count() == 7);
  for (const auto& h : hashes) REQUIRE(resumed.contains(h));
  REQUIRE(resumed.insert(hashes.front()) == VisitedSet::Insert::present);
  REQUIRE(resumed.size() == hashes.size());
}

TEST_CASE("visited set: uncounted inserts from two threads, a group each, count once per batch", "[visited]") {
  // The level end inserts a group of segments per task with insert_uncounted
  // and reports each group's results with add_counts: size() and
  // collisions() must come out as if every insert had counted itself.
  VisitedSet set(64 * mib);
  REQUIRE(grow(set, 4) == VisitedSet::Insert::added);
  constexpr std::uint64_t n = 20000;  // each id inserted twice by the thread of its group: added once, present once
  const auto id_hash = [](std::uint64_t i) { return hash((i * 0x9E3779B9) & 0xFFFFFFFF, (i * 2654435761) & (segment_slots - 1), i); };
  auto insert_group = [&](std::uint64_t group) {
    std::uint64_t added = 0, present = 0;
    for (int round = 0; round < 2; ++round)
      for (std::uint64_t i = 0; i < n; ++i) {
        if (set.group_of(id_hash(i).lo, 2) != group) continue;
        const VisitedSet::Insert r = set.insert_uncounted(id_hash(i));
        added += r == VisitedSet::Insert::added;
        present += r == VisitedSet::Insert::present;
      }
    set.add_counts(added, present);
  };
  std::thread other(insert_group, 1);
  insert_group(0);
  other.join();
  REQUIRE(set.size() == n);
  REQUIRE(set.collisions() == n);
  for (std::uint64_t i = 0; i < n; ++i) REQUIRE(set.contains(id_hash(i)));
  REQUIRE(set.insert(hash(0, 500000, n)) == VisitedSet::Insert::added);  // insert() counts itself (an id none of them has)
  REQUIRE(set.insert(hash(0, 500000, n)) == VisitedSet::Insert::present);
  REQUIRE(set.size() == n + 1);
  REQUIRE(set.collisions() == n + 1);
}

TEST_CASE("visited set: the layout is the set's, whatever the order of inserts", "[visited]") {
  // Ordered probing: runs sorted by home, then signature. Random states plus
  // crowded homes (runs of hundreds that wrap the segment's end), inserted
  // forwards into one table and backwards into another, must give one
  // checkpoint image; linear probing in insert order gave two.
  std::mt19937_64 rng(5);
  std::vector<Hash128> hashes;
  for (int i = 0; i < 300000; ++i) hashes.push_back(random_hash(rng));
  for (std::uint64_t i = 0; i < 600; ++i) hashes.push_back(hash(rng() >> 32, (segment_slots - 3 + i % 5) & (segment_slots - 1), i + 1));
  VisitedSet forwards(64 * mib), backwards(64 * mib);
  for (const auto& h : hashes) REQUIRE(forwards.insert(h) == VisitedSet::Insert::added);
  for (auto h = hashes.rbegin(); h != hashes.rend(); ++h) REQUIRE(backwards.insert(*h) == VisitedSet::Insert::added);
  REQUIRE(same_bytes(compact_form(forwards), compact_form(backwards)));
  for (const auto& h : hashes) REQUIRE(backwards.contains(h));
}

TEST_CASE("visited set: 0.95 full, every state is found and no other", "[visited]") {
  // hold_load: the fullest a table gets when it cannot grow. Ordered probing
  // stops a miss early; it must still find every entry, after growth too.
  std::mt19937_64 rng(23);
  VisitedSet set(64 * mib);
  REQUIRE(grow(set, 2) == VisitedSet::Insert::added);
  std::vector<Hash128> hashes(static_cast<std::size_t>(VisitedSet::hold_load * 2 * segment_slots));
  for (auto& h : hashes) h = random_hash(rng);
  for (const auto& h : hashes) REQUIRE(set.insert(h) == VisitedSet::Insert::added);
  REQUIRE(set.can_hold(set.size()));
  REQUIRE_FALSE(set.can_hold(set.size() + 1));
  for (const auto& h : hashes) REQUIRE(set.contains(h));
  std::size_t false_hits = 0;
  for (int i = 0; i < 200000; ++i) false_hits += set.contains(random_hash(rng)) ? 1 : 0;
  REQUIRE(false_hits == 0);
  for (std::size_t i = 0; i < hashes.size(); i += 97) REQUIRE(set.insert(hashes[i]) == VisitedSet::Insert::present);
  REQUIRE(grow(set, 3) == VisitedSet::Insert::added);
  REQUIRE(set.size() == hashes.size());
  for (const auto& h : hashes) REQUIRE(set.contains(h));
  const std::vector<std::byte> grown = compact_form(set);
  VisitedSet direct(64 * mib);  // the same states inserted into three segments straight away
  REQUIRE(grow(direct, 3) == VisitedSet::Insert::added);
  for (const auto& h : hashes) REQUIRE(direct.insert(h) == VisitedSet::Insert::added);
  REQUIRE(same_bytes(compact_form(direct), grown));
}

TEST_CASE("visited set: growth merges two old segments into the layout a direct build gives", "[visited]") {
  // Three segments onto four: new segments 1 and 2 each take the upper part of
  // one old segment and the lower part of the next, merged in run order. Homes
  // shared across the two feeders (ties go to the larger signature) and
  // crowded homes at a segment's end, whose runs wrap to its first slots, must
  // land where inserting the same states into four segments puts them.
  std::mt19937_64 rng(29);
  std::vector<Hash128> hashes;
  for (int i = 0; i < 1500000; ++i) hashes.push_back(random_hash(rng));
  for (std::uint64_t i = 0; i < 3000; ++i) {
    const std::uint64_t where = (std::uint64_t{1} << 32) / 3 * (1 + i % 2) + (i % 2 == 0 ? -1 - i : i);  // either side of a boundary
    const std::uint64_t home = i % 3 == 0 ? segment_slots - 1 - i % 7 : 4242 + i % 11;
    hashes.push_back(hash(where & 0xFFFFFFFF, home, i + 1));
  }
  VisitedSet grown(64 * mib), direct(64 * mib);
  REQUIRE(grow(grown, 3) == VisitedSet::Insert::added);
  for (const auto& h : hashes) REQUIRE(grown.insert(h) == VisitedSet::Insert::added);
  REQUIRE(grow(grown, 4) == VisitedSet::Insert::added);
  REQUIRE(grow(direct, 4) == VisitedSet::Insert::added);
  for (const auto& h : hashes) REQUIRE(direct.insert(h) == VisitedSet::Insert::added);
  REQUIRE(grown.size() == hashes.size());
  REQUIRE(same_bytes(compact_form(grown), compact_form(direct)));
  for (const auto& h : hashes) REQUIRE(grown.contains(h));
}

TEST_CASE("visited set: restore orders a table written in another order", "[visited]") {
  // A checkpoint from before ordered probing holds runs in insert order. Two
  // states at one home with the smaller signature first: read back slot by
  // slot, a lookup of the larger would stop at the smaller and miss it.
  std::vector<std::byte> words(segment_slots / 8 + 2 * 8);  // one mask per 64 slots, then the used slots' words
  const std::uint64_t home = 130;  // in the third group of 64 slots
  const std::uint64_t mask = std::uint64_t{3} << (home % 64);
  const std::uint64_t smaller = (std::uint64_t{5} << 32) | (std::uint64_t{1} << 12) | 1;  // displacement 0
  const std::uint64_t larger = (std::uint64_t{5} << 32) | (std::uint64_t{2} << 12) | 2;   // displacement 1
  std::memcpy(words.data() + 2 * 8, &mask, 8);
  std::memcpy(words.data() + 3 * 8, &smaller, 8);
  std::memcpy(words.data() + 4 * 8, &larger, 8);
  VisitedSet set(64 * mib);
  REQUIRE(set.restore(1, words, 2, 0));
  REQUIRE(set.contains(hash(5, home, 1)));
  REQUIRE(set.contains(hash(5, home, 2)));
  REQUIRE(set.insert(hash(5, home, 2)) == VisitedSet::Insert::present);
  REQUIRE(set.size() == 2);
  std::vector<std::byte> twice = words;  // the same state in two slots: no table this class builds
  const std::uint64_t moved = smaller + 1;  // and one slot along
  std::memcpy(twice.data() + 4 * 8, &moved, 8);
  VisitedSet other(64 * mib);
  REQUIRE_FALSE(other.restore(1, twice, 2, 0));
  REQUIRE(other.size() == 0);
}
