// The spec self-checks on the frontier; see frontier_self_check.hpp.
#include "search/frontier_self_check.hpp"

#include <chrono>

#include "model/self_check.hpp"
#include "model/symmetry_check.hpp"
#include "search/self_check_plan.hpp"
#include "statecheck/detail/search.hpp"

namespace statecheck::detail {

FrontierSelfCheck::FrontierSelfCheck(const LevelData& data, Distribution* dist, Findings& findings, Stats& stats,
                                     Progress& progress)
    : d_(data), dist_(dist), findings_(findings), stats_(stats), progress_(progress) {
  if (d_.options.self_check_states > 0) view_ = std::make_unique<ModelView>(d_.ops);
}

bool FrontierSelfCheck::check() {
  if (!view_) return true;
  std::uint64_t& done = stats_.self_checked;
  // Across processes the plan is over the whole level, in global rank order,
  // each process checking its own states, so the same states are checked and
  // the same first failure is reported as by one process.
  const std::uint64_t level_states = dist_ ? dist_->frontier_total() : d_.frontier_count;
  if (done == 0 && level_states > 0) {
    try {
      if (const std::optional<SelfCheckFailure> f = check_initial_symmetry(*view_)) {  // the same on every process
        findings_.fail_with_error({d_.level, 0}, "self-check failed: " + f->message, f->where, std::nullopt);
        return false;
      }
    } catch (...) {
      // init threw: the search has reported it already
    }
  }
  const auto self_check_start = std::chrono::steady_clock::now();
  const SelfCheckPlan plan(d_.options.self_check_states, done, level_states);
  std::optional<SelfCheckFailure> failure;
  std::uint64_t reached = plan.end();  // the (global) rank the scan stopped at: the selected states before it passed
  std::uint64_t checked = 0;
  progress_.publish_self_check(0, plan.total());
  for (std::uint64_t rank = 0; rank < d_.frontier_count && !failure; ++rank) {
    const std::uint64_t global = dist_ ? dist_->global_rank(rank) : rank;
    if (global >= plan.end()) break;
    if (!plan.selected(global)) continue;
    if (stop_flag().load(std::memory_order_relaxed)) {  // Ctrl-C: the level's expansion stops right after
      reached = global;
      break;
    }
    const std::byte* state = d_.frontier.view(rank, rank + 1);  // on disk: a miss reads a window from `rank` on
    failure = self_check(*view_, state, d_.invariant_mask);
    if (failure) reached = global;
    progress_.publish_self_check(++checked, plan.total());
  }
  progress_.publish_self_check(0, 0);
  stats_.self_check_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - self_check_start).count();
  if (dist_) dist_->agree_self_check(failure, reached);
  const std::uint64_t passed = plan.count_below(reached);
  done += passed;
  if (passed > 0) {
    auto& by_depth = stats_.self_checked_by_depth;
    if (by_depth.size() < d_.level) by_depth.resize(d_.level);
    by_depth[d_.level - 1] += passed;
  }
  if (!failure) return true;
  findings_.fail_with_error({d_.level, reached}, "self-check failed: " + failure->message, failure->where, std::nullopt);
  return false;
}

}  // namespace statecheck::detail
