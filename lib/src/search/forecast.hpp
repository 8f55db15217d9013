// lib/src/search/forecast.hpp - where a long run is going: from the sizes of
// the levels finished so far, the states, time and peak memory the whole run
// will take. The progress line shows the current projection; the summary
// compares the ones made at 25%, 50% and 75% of the run with the outcome.
//
// Model: the ratio between successive level sizes (the BFS growth) falls by
// about the same amount per level once a search passes its widest level, so
// the ratio of the last levels is extended by its recent average decline
// until the levels die out. While the ratio still climbs (or holds above 1)
// there is no forecast: nothing in the sizes says where growth will stop.
// Time: the states to come at the last level's rate. Memory: what is held now
// scaled by the states, and never under the most held so far.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "statecheck/result.hpp"

namespace statecheck::detail {

struct Projection {
  std::uint64_t states = 0;
  double seconds = 0;
  std::size_t memory = 0;
};

/// The distinct states of the levels still to come after `sizes` (at least
/// three levels; else nullopt), by the model above: at most `max_levels` more.
std::optional<std::uint64_t> states_to_come(const std::vector<std::uint64_t>& sizes, std::uint32_t max_levels = 100000);

class Forecast {
 public:
  /// A level finished: `size` new states, `seconds` into the run, `memory`
  /// bytes counted against --memory now. Cold: once per level.
  void level_done(std::uint64_t size, double seconds, std::size_t memory);
  /// The latest projection (read by the progress thread), if there is one.
  std::optional<Projection> current() const;
  /// The projections in force at 25%, 50% and 75% of a run of `total_seconds`
  /// (a fraction with no projection yet is left out; none for a run under a second).
  std::vector<ForecastPoint> points(double total_seconds) const;

 private:
  struct Made {
    double seconds;
    std::uint32_t level;
    Projection projection;
  };
  mutable std::mutex mutex_;
  std::vector<std::uint64_t> sizes_;
  std::vector<double> finished_at_;  // seconds into the run, per level
  std::uint64_t distinct_ = 0;
  std::size_t peak_memory_ = 0;  // the most `memory` given so far
  std::optional<Projection> current_;
  std::vector<Made> made_;
};

}  // namespace statecheck::detail
