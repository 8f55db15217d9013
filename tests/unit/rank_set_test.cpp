// The global ranks a process keeps of a past level in a search across
// processes (search/rank_set.hpp): every rank held is found at its index, no
// other is, and the coding is about 2 + log2(universe / held) bits a rank.
#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "search/rank_set.hpp"

using statecheck::detail::RankSet;

namespace {

void check_every_rank(const std::vector<std::uint64_t>& held, std::uint64_t universe) {
  const RankSet set(held, universe);
  std::size_t next = 0;
  for (std::uint64_t r = 0; r < universe; ++r) {
    const bool in = next < held.size() && held[next] == r;
    INFO("rank " << r << " of " << universe << ", " << held.size() << " held");
    if (in) {
      REQUIRE(set.find(r) == std::optional<std::uint64_t>(next));
      ++next;
    } else {
      REQUIRE_FALSE(set.find(r).has_value());
    }
  }
}

}  // namespace

TEST_CASE("rank set: each held rank at its index, no other") {
  check_every_rank({}, 0);
  check_every_rank({}, 10);
  check_every_rank({0}, 1);
  check_every_rank({0, 1, 2, 3}, 4);           // all held: no low bits
  check_every_rank({5}, 6);                     // one rank at the end
  check_every_rank({0, 63, 64, 65, 200}, 201);  // across word boundaries of the high bits
  std::mt19937_64 random(18);
  for (const unsigned processes : {2u, 3u, 4u, 64u}) {
    std::vector<std::uint64_t> held;  // the ranks one of `processes` owns, as by fingerprint: about 1 in `processes`
    const std::uint64_t universe = 3000;
    for (std::uint64_t r = 0; r < universe; ++r)
      if (random() % processes == 0) held.push_back(r);
    check_every_rank(held, universe);
  }
}

TEST_CASE("rank set: a few bits a rank, not 8 bytes") {
  std::vector<std::uint64_t> held;
  for (std::uint64_t r = 0; r < 400000; r += 4) held.push_back(r);  // 1 in 4: 2 low bits + ~2 high bits
  const RankSet set(held, 400000);
  // Hand-derived from the coding: 100,000 ranks of 2 low bits, (200,000 + 63) / 64 + 1 = 3,126
  // words; high bits (400,000 >> 2) + 100,000 = 200,000, 200,000 / 64 + 1 = 3,126 words: 50,016 bytes.
  CHECK(set.bytes() == 50'016);
  CHECK(set.find(399996) == std::optional<std::uint64_t>(99999));
}
