// What `statecheck sweep` runs: the constants it varies, each over a list or
// a range of values, and every combination of them in order (the first
// --vary varies slowest), each a `check` of its own.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "statecheck/spec_entry.hpp"

namespace statecheck::cli {

/// One varied constant and its values, as `--set` takes them.
struct SweepAxis {
  std::string name;
  std::vector<std::string> values;
};

/// The most configurations one sweep runs.
inline constexpr std::size_t max_sweep_runs = 10000;

/// Parses `NAME=LIST_OR_RANGE` for a constant of `spec`: `a,b,c`; `lo..hi`
/// (integers, step 1); `lo..hi/step` (integers or durations: 0s..12m/30s);
/// `*` (every value of a boolean or a choice). Every value is checked as
/// `--set` checks it. Throws config_error naming the problem and the fix.
SweepAxis parse_axis(const SpecEntry& spec, const std::string& vary);

/// Every combination of the axes' values, as --set pairs in axis order.
/// Throws config_error beyond max_sweep_runs, or for a constant varied twice.
std::vector<std::vector<std::pair<std::string, std::string>>> sweep_runs(const std::vector<SweepAxis>& axes);

}  // namespace statecheck::cli
