// The --exact set at the level end: inserts from two threads at once, each
// counted once per batch, and every inserted encoding found, no other.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstring>
#include <thread>

#include "statecheck/detail/exact_set.hpp"
#include "statecheck/detail/hash.hpp"

using statecheck::detail::ExactSet;

TEST_CASE("exact set: uncounted inserts from two threads count once per batch", "[visited]") {
  // --exact's level end: each thread inserts its own ids uncounted and adds
  // its count once; size() must be the ids inserted, each one found.
  constexpr std::uint64_t n = 20000;
  ExactSet set(sizeof(std::uint64_t));
  set.reserve(n);
  for (std::uint64_t id = 0; id < n; ++id) std::memcpy(set.encoding_slot(id), &id, sizeof id);
  auto insert_range = [&](std::uint64_t begin, std::uint64_t end) {
    for (std::uint64_t id = begin; id < end; ++id)
      set.insert_uncounted(id, statecheck::detail::hash_bytes(set.encoding_slot(id), sizeof id));
    set.add_counts(end - begin);
  };
  std::thread other(insert_range, n / 2, n);
  insert_range(0, n / 2);
  other.join();
  REQUIRE(set.size() == n);
  for (std::uint64_t id = 0; id < n; ++id) {
    const std::uint64_t missing = id + n;  // an encoding never inserted
    REQUIRE(set.contains(statecheck::detail::hash_bytes(set.encoding_slot(id), sizeof id), set.encoding_slot(id)));
    const auto* bytes = reinterpret_cast<const std::byte*>(&missing);
    REQUIRE_FALSE(set.contains(statecheck::detail::hash_bytes(bytes, sizeof missing), bytes));
  }
  set.reserve(n + 1);  // insert() counts itself
  const std::uint64_t last = n;
  std::memcpy(set.encoding_slot(n), &last, sizeof last);
  set.insert(n, statecheck::detail::hash_bytes(set.encoding_slot(n), sizeof last));
  REQUIRE(set.size() == n + 1);
}
