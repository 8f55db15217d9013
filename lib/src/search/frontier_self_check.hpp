// lib/src/search/frontier_self_check.hpp - the spec self-checks
// (model/self_check.hpp) on the frontier's first states, within the budget of
// --self-check: before each level is expanded, the states the plan selects
// (self_check_plan.hpp) are checked, in rank order over the whole level, so
// that one process and several check the same states and report the same
// first failure.
#pragma once

#include <memory>

#include "model/model_view.hpp"
#include "search/distribution.hpp"
#include "search/findings.hpp"
#include "search/level_data.hpp"
#include "search/progress.hpp"

namespace statecheck::detail {

class FrontierSelfCheck {
 public:
  /// `dist`: null for one process; `stats`: the run's (what was checked).
  FrontierSelfCheck(const LevelData& data, Distribution* dist, Findings& findings, Stats& stats, Progress& progress);

  /// Checks the frontier's selected states; false (and an error result) on a failure.
  bool check();

 private:
  const LevelData& d_;
  Distribution* dist_;
  Findings& findings_;
  Stats& stats_;
  Progress& progress_;
  std::unique_ptr<ModelView> view_;  // null when the self-checks are off
};

}  // namespace statecheck::detail
