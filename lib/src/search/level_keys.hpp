// lib/src/search/level_keys.hpp - the level table's keys: an initial state's
// combination index, then (parent rank << tid bits) | transition id. How wide
// a level's keys are decides how many hash bits the table compares
// (level_table.hpp), so the chance that it took two states for one.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace statecheck::detail {

/// Bits of level l's keys when its parents are `parents` states (level 0: initial combinations).
unsigned key_bits_of_level(std::uint64_t l, std::uint64_t parents, unsigned tid_bits);

/// Why level `made`'s keys, from `parents` parents, leave the table too few
/// hash bits (the stop message); nothing when they fit.
std::optional<std::string> keys_too_wide(std::uint64_t made, std::uint64_t parents, std::uint32_t transitions,
                                         unsigned tid_bits);

/// The chance that a level table took two of the recorded levels' states for
/// one, summed over the levels `sizes` (level 0 made from `init_combinations`)
/// of a search over `processes` processes.
double level_table_omission(const std::vector<std::uint64_t>& sizes, std::uint64_t init_combinations, unsigned tid_bits,
                            int processes);

}  // namespace statecheck::detail
