// Forecast of a run's size from its level sizes; see search/forecast.hpp.
#include "search/forecast.hpp"

#include <algorithm>
#include <cmath>

namespace statecheck::detail {

namespace {

/// Ratios of the last levels looked at: enough to average out one odd level,
/// few enough to follow a change of phase.
constexpr std::size_t ratios_used = 4;
/// A shorter run needs no forecast, and its quarters would be a matter of
/// scheduling noise (and of the summary's lines changing from run to run).
constexpr double min_run_seconds = 1.0;
/// A slowly declining ratio above 1 extends to absurd totals (and past what
/// llround can hold): beyond this many states the model says nothing useful.
constexpr double most_states_forecast = 1e15;

}  // namespace

std::optional<std::uint64_t> states_to_come(const std::vector<std::uint64_t>& sizes, std::uint32_t max_levels) {
  if (sizes.size() < 3 || sizes.back() == 0) return std::nullopt;
  const std::size_t count = std::min(ratios_used, sizes.size() - 1);
  std::vector<double> ratios;
  for (std::size_t i = sizes.size() - count; i < sizes.size(); ++i)
    ratios.push_back(static_cast<double>(sizes[i]) / static_cast<double>(std::max<std::uint64_t>(sizes[i - 1], 1)));
  const double decline = (ratios.front() - ratios.back()) / static_cast<double>(ratios.size() - 1);
  double ratio = ratios.back();
  if (decline <= 0 && ratio >= 1) return std::nullopt;  // still growing, and not slowing
  double size = static_cast<double>(sizes.back());
  double total = 0;
  for (std::uint32_t level = 0; level < max_levels; ++level) {
    if (decline > 0) ratio -= decline;
    if (ratio <= 0) break;
    size *= ratio;
    if (size < 0.5) break;  // the levels died out
    total += size;
    if (total > most_states_forecast) return std::nullopt;
  }
  return static_cast<std::uint64_t>(std::llround(total));
}

void Forecast::level_done(std::uint64_t size, double seconds, std::size_t memory) {
  std::lock_guard<std::mutex> lock(mutex_);
  sizes_.push_back(size);
  finished_at_.push_back(seconds);
  distinct_ += size;
  peak_memory_ = std::max(peak_memory_, memory);
  const std::optional<std::uint64_t> more = states_to_come(sizes_);
  if (!more) {
    current_.reset();
    return;
  }
  // Time: the states to come at the rate of the last level (later levels
  // cost like it per state). Memory: what is held grows with the states.
  const std::size_t n = finished_at_.size();
  const double last_seconds = finished_at_[n - 1] - finished_at_[n - 2];
  const double rate = last_seconds > 0 ? static_cast<double>(size) / last_seconds : 0;
  Projection p;
  p.states = distinct_ + *more;
  p.seconds = seconds + (rate > 0 ? static_cast<double>(*more) / rate : 0);
  // The peak so far is a floor: past the widest level the frontier shrinks,
  // and what is held now understates what was held then.
  p.memory = std::max(peak_memory_, static_cast<std::size_t>(static_cast<double>(memory) * static_cast<double>(p.states) /
                                                             static_cast<double>(std::max<std::uint64_t>(distinct_, 1))));
  current_ = p;
  made_.push_back({seconds, static_cast<std::uint32_t>(n), p});
}

std::optional<Projection> Forecast::current() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return current_;
}

std::vector<ForecastPoint> Forecast::points(double total_seconds) const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<ForecastPoint> out;
  if (total_seconds < min_run_seconds) return out;
  for (const double fraction : {0.25, 0.5, 0.75}) {
    const Made* in_force = nullptr;
    for (const Made& m : made_)
      if (m.seconds <= fraction * total_seconds) in_force = &m;
    if (in_force == nullptr) continue;
    out.push_back({fraction, in_force->level, in_force->projection.states, in_force->projection.seconds,
                   in_force->projection.memory});
  }
  return out;
}

}  // namespace statecheck::detail
