// The visited set's refusals, each built from hand-made hashes (the home slot
// is the hash's top bits, the next home bit after a doubling is bit 43 of
// `lo`): a probe sequence that outgrows the 12-bit displacement, a doubling
// whose wrapped clusters no longer fit, and checkpoint tables that cannot be
// this class's.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "statecheck/detail/visited_set.hpp"

using statecheck::detail::Hash128;
using statecheck::detail::VisitedSet;

namespace {

constexpr std::uint64_t initial_slots = std::uint64_t{1} << VisitedSet::initial_bits;
constexpr std::uint64_t cluster = VisitedSet::max_displacement + 1;  // slots one home can reach

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

TEST_CASE("visited set: a doubling that cannot place a wrapped cluster reports overflow", "[visited]") {
  // `last` states of the last home wrap around to slots 0.. and push the
  // first home's states to the displacement limit. Migrated in slot order,
  // the wrapped ones come first and the one left at the last slot comes last:
  // it wraps behind all of them, one slot too far when the two fill a cluster.
  for (const std::uint64_t total : {cluster, cluster + 1}) {
    INFO(total << " states in the two homes");
    VisitedSet set(std::size_t{64} << 20);
    const std::uint64_t last = 2000;
    for (std::uint64_t i = 0; i < last; ++i)
      REQUIRE(set.insert(hash(initial_slots - 1, 1, i)) == VisitedSet::Insert::added);
    for (std::uint64_t i = last; i < total; ++i) REQUIRE(set.insert(hash(0, 0, i)) == VisitedSet::Insert::added);
    set.begin_growth();
    const VisitedSet::Insert migrated = set.migrate(0, set.old_capacity());
    set.end_growth();
    if (total == cluster) {
      REQUIRE(migrated == VisitedSet::Insert::added);
      for (std::uint64_t i = 0; i < total; ++i)
        REQUIRE(set.contains(i < last ? hash(initial_slots - 1, 1, i) : hash(0, 0, i)));
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
