// The level table's keys; see level_keys.hpp.
#include "search/level_keys.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "statecheck/detail/level_table.hpp"

namespace statecheck::detail {

unsigned key_bits_of_level(std::uint64_t l, std::uint64_t parents, unsigned tid_bits) {
  const auto width = [](std::uint64_t n) { return static_cast<unsigned>(std::bit_width(std::max<std::uint64_t>(n, 2) - 1)); };
  return l == 0 ? width(parents) : width(parents) + tid_bits;
}

std::optional<std::string> keys_too_wide(std::uint64_t made, std::uint64_t parents, std::uint32_t transitions,
                                         unsigned tid_bits) {
  const unsigned bits = key_bits_of_level(made, parents, tid_bits);
  if (LevelTable::key_bits_fit(bits)) return std::nullopt;
  return "BFS level " + std::to_string(made) + " has " + std::to_string(parents) + " parents and " +
         std::to_string(transitions) + " transition ids: its keys (" + std::to_string(bits) +
         " bits) leave the level table fewer than " + std::to_string(LevelTable::min_hash_bits) +
         " hash bits; split the spec's actions or bound the level";
}

double level_table_omission(const std::vector<std::uint64_t>& sizes, std::uint64_t init_combinations, unsigned tid_bits,
                            int processes) {
  // A level table tells states apart on lo and 64 less the key's bits of hi
  // (level_table.hpp). One process's table holds the level's new states;
  // across K processes each holds what it found that its own visited set
  // lacks: states of this level or earlier ones.
  const bool shared = processes > 1;
  double sum = 0, before = 0;
  for (std::size_t l = 0; l < sizes.size(); ++l) {
    const auto n = static_cast<double>(sizes[l]);
    const double m = shared ? before + n : n;
    const std::uint64_t parents = l == 0 ? init_combinations : sizes[l - 1];
    const unsigned compared = 64 + LevelTable::hash_bits_for(key_bits_of_level(l, parents, tid_bits));
    sum += static_cast<double>(processes) * m * (m - 1) / 2 * std::ldexp(1.0, -static_cast<int>(compared));
    before += n;
  }
  return sum;
}

}  // namespace statecheck::detail
