// The visited set's refusals and its segments, each built from hand-made
// hashes (the home slot is the hash's top bits, the next home bit after a
// doubling is bit 43 of `lo`): a probe sequence that outgrows the 12-bit
// displacement, probes that wrap inside their segment, a doubling whose
// wrapped clusters no longer fit, growth segment by segment, and checkpoint
// tables that cannot be this class's.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "statecheck/detail/visited_set.hpp"

using statecheck::detail::Hash128;
using statecheck::detail::VisitedSet;

namespace {

constexpr std::uint64_t initial_slots = std::uint64_t{1} << VisitedSet::initial_bits;
constexpr std::uint64_t cluster = VisitedSet::max_displacement + 1;  // slots one home can reach
constexpr std::uint64_t segment_slots = VisitedSet::segment_mask + 1;

/// A hash with this home in the initial table, this next home bit, and a
/// signature told apart by `id`.
Hash128 hash(std::uint64_t home, std::uint64_t next_bit, std::uint64_t id) {
  return {(home << (64 - VisitedSet::initial_bits)) | (next_bit << 43) | id, 0};
}

}  // namespace

TEST_CASE("visited set: a probe sequence beyond the displacement limit overflows", "[visited]") {
  VisitedSet set(std::size_t{64} << 20);
  for (std::uint64_t i = 0; i < cluster; ++i) REQUIRE(set.insert(hash(7, 0, i)) == VisitedSet::Insert::added);
  REQUIRE(set.insert(hash(7, 0, cluster)) == VisitedSet::Insert::overflow);
  REQUIRE(set.size() == cluster);
  REQUIRE(set.insert(hash(7, 0, cluster - 1)) == VisitedSet::Insert::present);
  REQUIRE(set.contains(hash(7, 0, cluster - 1)));
  REQUIRE_FALSE(set.contains(hash(7, 0, cluster)));  // the probe gives up, it does not loop
}

TEST_CASE("visited set: probes wrap inside their segment, not into the next one", "[visited]") {
  VisitedSet set(std::size_t{64} << 20);
  REQUIRE(set.segment_count() == initial_slots / segment_slots);
  // 2000 states of segment 0's last home wrap to its slots 0..1998; a whole
  // cluster at segment 1's first home still fits, since none of them spilled
  // there (over one table they would have pushed it 2000 slots too far).
  const std::uint64_t last = 2000;
  for (std::uint64_t i = 0; i < last; ++i) REQUIRE(set.insert(hash(segment_slots - 1, 0, i)) == VisitedSet::Insert::added);
  for (std::uint64_t i = 0; i < cluster; ++i) REQUIRE(set.insert(hash(segment_slots, 0, i)) == VisitedSet::Insert::added);
  // The wrapped ones did take segment 0's first slots: its first home now
  // reaches only cluster - (last - 1) new slots.
  for (std::uint64_t i = 0; i < cluster - (last - 1); ++i)
    REQUIRE(set.insert(hash(0, 0, last + i)) == VisitedSet::Insert::added);
  REQUIRE(set.insert(hash(0, 0, last + cluster)) == VisitedSet::Insert::overflow);
  for (std::uint64_t i = 0; i < last; ++i) REQUIRE(set.contains(hash(segment_slots - 1, 0, i)));
  REQUIRE(set.size() == last + cluster + cluster - (last - 1));
}

TEST_CASE("visited set: a doubling that cannot place a wrapped cluster reports overflow", "[visited]") {
  // Doubled, segment 0's second half of homes becomes segment 1. `last`
  // states of its last home wrap around to segment 0's slots 0..; doubled,
  // they wrap to segment 1's first slots, where the states of the middle home
  // land (apart before): they push them to the displacement limit. Migrated in
  // slot order, the wrapped ones come first and the one left at the last slot
  // comes last: it wraps behind all of them, one slot too far when the two
  // fill a cluster.
  for (const std::uint64_t total : {cluster, cluster + 1}) {
    INFO(total << " states in the two homes");
    VisitedSet set(std::size_t{64} << 20);
    const std::uint64_t last = 2000;
    for (std::uint64_t i = 0; i < last; ++i)
      REQUIRE(set.insert(hash(segment_slots - 1, 1, i)) == VisitedSet::Insert::added);
    const std::uint64_t middle = segment_slots / 2;
    for (std::uint64_t i = last; i < total; ++i) REQUIRE(set.insert(hash(middle, 0, i)) == VisitedSet::Insert::added);
    set.begin_growth();
    const VisitedSet::Insert migrated = set.migrate(0, set.old_segments());
    set.end_growth();
    if (total == cluster) {
      REQUIRE(migrated == VisitedSet::Insert::added);
      for (std::uint64_t i = 0; i < total; ++i)
        REQUIRE(set.contains(i < last ? hash(segment_slots - 1, 1, i) : hash(middle, 0, i)));
    } else {
      REQUIRE(migrated == VisitedSet::Insert::overflow);
    }
  }
}

TEST_CASE("visited set: restore refuses tables it could not have built, and keeps its own", "[visited]") {
  VisitedSet set(std::size_t{64} << 20);
  REQUIRE(set.insert(hash(1, 0, 1)) == VisitedSet::Insert::added);
  VisitedSet other(std::size_t{64} << 20);
  REQUIRE(other.insert(hash(2, 0, 2)) == VisitedSet::Insert::added);
  REQUIRE(other.insert(hash(3, 0, 3)) == VisitedSet::Insert::added);
  std::vector<std::byte> words;  // the compact form: a mask per 64 slots, then the used slots' words
  other.write_compact([&](const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    words.insert(words.end(), b, b + n);
  });
  REQUIRE(words.size() == initial_slots / 8 + 2 * 8);
  const auto unchanged = [&] {
    REQUIRE(set.size() == 1);
    REQUIRE(set.bits() == VisitedSet::initial_bits);
    REQUIRE(set.contains(hash(1, 0, 1)));
    REQUIRE_FALSE(set.contains(hash(2, 0, 2)));
  };
  REQUIRE_FALSE(set.restore(VisitedSet::initial_bits - 1, words, 2, 0));  // smaller than any table
  unchanged();
  REQUIRE_FALSE(set.restore(41, words, 2, 0));  // beyond the largest table (the words are not read)
  unchanged();
  REQUIRE_FALSE(set.restore(VisitedSet::initial_bits, words, 3, 0));  // a count the words do not hold
  unchanged();
  std::vector<std::byte> zero_word = words;  // a used slot that holds 0: not a table it could have built
  for (std::size_t i = 0; i < words.size(); i += 8) {
    std::uint64_t mask = 0;
    std::memcpy(&mask, words.data() + i, 8);
    if (mask == 0) continue;
    std::memset(zero_word.data() + i + 8, 0, 8);
    break;
  }
  REQUIRE_FALSE(set.restore(VisitedSet::initial_bits, zero_word, 2, 0));
  unchanged();
  REQUIRE_FALSE(set.restore(VisitedSet::initial_bits, std::span(words).first(words.size() - 8), 2, 0));  // truncated
  unchanged();
  REQUIRE(set.restore(VisitedSet::initial_bits, words, 2, 5));
  REQUIRE(set.size() == 2);
  REQUIRE(set.collisions() == 5);
  REQUIRE(set.contains(hash(2, 0, 2)));
  REQUIRE(set.contains(hash(3, 0, 3)));
  REQUIRE_FALSE(set.contains(hash(1, 0, 1)));
}

TEST_CASE("visited set: the omission bound is 0, not -0, while no two states can be confused", "[visited]") {
  VisitedSet set(std::size_t{64} << 20);
  REQUIRE(set.omission_probability() == 0);
  REQUIRE_FALSE(std::signbit(set.omission_probability()));  // printed "<= -0" before
  REQUIRE(set.insert(hash(1, 0, 1)) == VisitedSet::Insert::added);
  REQUIRE_FALSE(std::signbit(set.omission_probability()));
  REQUIRE(set.insert(hash(2, 0, 2)) == VisitedSet::Insert::added);
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

}  // namespace

TEST_CASE("visited set: growth moves every entry segment by segment, and a checkpoint survives it", "[visited]") {
  std::mt19937_64 rng(17);
  std::vector<Hash128> hashes(300000);
  for (auto& h : hashes) h = random_hash(rng);
  VisitedSet set(std::size_t{64} << 20);
  for (const auto& h : hashes) REQUIRE(set.insert(h) == VisitedSet::Insert::added);
  // The doubling's peak: the new 16 MiB table and the two old 2 MiB segments
  // two threads move at once (not the old 8 MiB and the new 16 MiB together).
  REQUIRE(set.growth_peak_bytes(2) == (std::size_t{20} << 20));
  REQUIRE(set.growth_peak_bytes(64) == (std::size_t{24} << 20));  // at most every old segment
  set.begin_growth();
  REQUIRE(set.old_segments() == 4);
  REQUIRE(set.migrate(2, 4) == VisitedSet::Insert::added);  // in any order, in any pieces
  REQUIRE(set.migrate(0, 2) == VisitedSet::Insert::added);
  set.end_growth();
  REQUIRE(set.capacity() == 2 * initial_slots);
  REQUIRE(set.segment_count() == 8);
  REQUIRE(set.size() == hashes.size());
  for (const auto& h : hashes) REQUIRE(set.contains(h));
  std::size_t false_hits = 0;
  for (int i = 0; i < 100000; ++i) false_hits += set.contains(random_hash(rng)) ? 1 : 0;
  REQUIRE(false_hits == 0);

  const std::vector<std::byte> compact = compact_form(set);
  REQUIRE(compact.size() == 2 * initial_slots / 8 + 8 * hashes.size());
  VisitedSet resumed(std::size_t{64} << 20);
  REQUIRE(resumed.restore(set.bits(), compact, set.size(), 0));
  REQUIRE(compact_form(resumed) == compact);  // every word back in its slot
  resumed.begin_growth();
  REQUIRE(resumed.migrate(0, resumed.old_segments()) == VisitedSet::Insert::added);
  resumed.end_growth();
  REQUIRE(resumed.segment_count() == 16);
  for (const auto& h : hashes) REQUIRE(resumed.contains(h));
  REQUIRE(resumed.insert(hashes.front()) == VisitedSet::Insert::present);
  REQUIRE(resumed.size() == hashes.size());
}
