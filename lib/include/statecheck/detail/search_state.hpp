// statecheck/detail/search_state.hpp - what the BFS keeps between levels, and
// how it turns a finding (violation, spec error, limit) into a CheckResult.
// The parallel loops themselves live in search.cpp.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "statecheck/detail/exact_set.hpp"
#include "statecheck/detail/level_table.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "statecheck/detail/model_view.hpp"
#include "statecheck/detail/progress.hpp"
#include "statecheck/detail/trace_log.hpp"
#include "statecheck/detail/visited_set.hpp"
#include "statecheck/detail/worker.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

/// A state of the search: `rank` within BFS level `level` (1-based).
struct Location {
  std::uint32_t level;
  std::uint64_t rank;
};

class SearchState {
 protected:
  SearchState(const ModelOps& ops, const CheckOptions& options);

  std::unique_ptr<std::byte[]> allocate_states(std::uint64_t n) const;
  std::uint64_t generated_so_far() const;
  double table_load() const { return visited ? visited->load() : 0.0; }
  static void merge_outcome(CheckOutcome& best, const CheckOutcome& o);

  void report_violation(Violation::Kind kind, const std::string& property, Location at);
  void fail_with_error(Location at, const std::string& message, const std::string& where,
                       std::optional<std::uint32_t> tid);
  void fail_in_init(std::uint64_t combination, const std::string& message);
  void stop_on_limit(const std::string& message);
  void report_unreached_goals();
  /// Spec self-checks on the frontier's first states, within the budget of
  /// options.self_check_states; false (and an error result) on a failure.
  bool self_check_frontier();
  void finish_stats();

  const ModelOps& ops;
  CheckOptions options;
  unsigned threads = 1;
  RecordLayout layout;
  std::size_t frontier_stride = 0;
  unsigned tid_bits = 1;
  std::unique_ptr<VisitedSet> visited;  // fingerprint mode
  std::unique_ptr<ExactSet> exact;      // --exact
  LevelTable table;
  LevelContext ctx;
  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<Worker*> peers;
  TraceLog log;
  std::unique_ptr<std::byte[]> frontier;
  std::uint64_t frontier_count = 0;
  std::uint32_t level = 0;  // the frontier's BFS level
  std::uint64_t invariant_mask = 0;
  std::vector<std::uint32_t> goal_level;  // 0: not reached yet
  std::vector<std::uint64_t> goal_rank;
  std::atomic<bool> overflow{false};
  std::unique_ptr<ModelView> view;  // for the self-checks; null when they are off
  Progress progress;
  CheckResult result;

 private:
  std::vector<TraceStep> trace_to(Location at, bool compare_last);
};

}  // namespace statecheck::detail
