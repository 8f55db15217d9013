// lib/src/search/findings.hpp - result assembly: how a finding (violation,
// spec error, limit, unreached goal) and the run's statistics become the
// CheckResult. Each finding's trace is rebuilt here from the trace log (with
// several processes, from every process's part); nothing else writes the
// run's outcome. The pipeline (search.cpp) counts levels into the result's
// statistics itself.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "search/distribution.hpp"
#include "search/forecast.hpp"
#include "search/level_data.hpp"
#include "search/memory_plan.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

class Findings {
 public:
  /// `result`: the run's, which this fills; `dist`: null for one process.
  /// With several processes, --trace fewest-switches falls back to the
  /// first-found trace (the pass reads a whole level: one process's); a
  /// violation's report says so.
  Findings(LevelData& data, Distribution* dist, const MemoryPlan& memory, CheckResult& result);

  /// The first level (and rank there) at which each goal held; level 0: not yet.
  struct Goals {
    std::vector<std::uint64_t> level;
    std::vector<std::uint64_t> rank;
  };
  Goals goals;

  static void merge_outcome(CheckOutcome& best, const CheckOutcome& o);
  void report_violation(Violation::Kind kind, const std::string& property, Location at);
  void fail_with_error(Location at, const std::string& message, const std::string& where,
                       std::optional<std::uint32_t> tid);
  void fail_in_init(std::uint64_t combination, const std::string& message);
  /// A spec error or a deadlock found while expanding the frontier (smallest
  /// rank first); false when there is one (the search ends).
  bool report_expansion_failures();
  void stop_on_limit(const std::string& message);
  /// True when there is no stop; otherwise stops with it (stop_on_limit) and returns false.
  bool go_on(const std::optional<std::string>& stop);
  void report_unreached_goals();
  /// The run's statistics from the parts, at its end (summed over the processes).
  void finish_stats(const Forecast& forecast);

 private:
  /// The trace to `at`: along `path` when given (with symmetry, each step
  /// renamed as TraceBuilder::build's follow does), else the trace log's discoverers.
  Trace trace_to(Location at, bool compare_last, std::vector<std::byte>* last_state = nullptr,
                 std::vector<std::uint32_t> path = {});
  /// With CheckOptions::trace fewest_switches, the path of the most readable
  /// shortest trace to a state of `at`'s level violating `property` (`at`
  /// becomes that state); empty for the first found (a note in the warnings
  /// says why when the pass could not run). Sets result.trace_policy.
  /// `switches` receives the switches the pass counted on it.
  std::vector<std::uint32_t> readable_path(const std::string& property, Location& at, std::uint64_t& switches);
  /// The ranks of the frontier's states that violate invariant `invariant`, ascending.
  std::vector<std::uint64_t> violating_ranks(std::uint32_t invariant) const;
  /// A dead end of a timed spec where a deadline keeps time from passing is a
  /// timelock, reported with that deadline's name.
  void name_timelock(Violation& v, const std::vector<std::byte>& state) const;
  /// The chance that a level table took two states for one, over the levels so far.
  double level_table_omission() const;

  LevelData& d_;
  Distribution* dist_;
  const MemoryPlan& memory_;
  CheckResult& result_;
  bool shared_trace_fallback_ = false;  // --trace fewest-switches asked for, first-found given
};

}  // namespace statecheck::detail
