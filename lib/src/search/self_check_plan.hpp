// lib/src/search/self_check_plan.hpp - which states of a level the spec
// self-checks (model/self_check.hpp) run on. The first `budget` states of the
// run (--self-check N) are all checked, as before; after them every level
// still has a sample, one state in `sample_rate` (at least one, at most
// `budget`), evenly strided over the level's ranks, so an asymmetry that
// appears only deep in the state space is met with high probability while
// the checks stay a small share of the run. `budget` = all: every state.
// Ranks are global (the whole level's, across processes), so every process
// count checks the same states and reports the same first failure.
#pragma once

#include <algorithm>
#include <cstdint>

namespace statecheck::detail {

class SelfCheckPlan {
 public:
  static constexpr std::uint64_t all = ~std::uint64_t{0};
  static constexpr std::uint64_t sample_rate = 1000;

  /// A level of `level_states` states, after `checked_before` states of the run were checked.
  SelfCheckPlan(std::uint64_t budget, std::uint64_t checked_before, std::uint64_t level_states) {
    if (budget == 0 || level_states == 0) return;
    if (budget == all) {
      head_ = level_states;
      return;
    }
    head_ = std::min(level_states, budget - std::min(checked_before, budget));
    const std::uint64_t rest = level_states - head_;
    samples_ = std::min(budget, (rest + sample_rate - 1) / sample_rate);
    stride_ = samples_ > 0 ? rest / samples_ : 1;
  }

  /// Whether the state of (global) rank `rank` is checked.
  bool selected(std::uint64_t rank) const {
    if (rank < head_) return true;
    const std::uint64_t offset = rank - head_;
    return samples_ > 0 && offset % stride_ == 0 && offset / stride_ < samples_;
  }
  /// The selected ranks below `rank`: the states that passed before a failure at `rank`.
  std::uint64_t count_below(std::uint64_t rank) const {
    if (rank <= head_) return rank;
    const std::uint64_t offset = rank - head_;
    return head_ + std::min(samples_, (offset + stride_ - 1) / stride_);
  }
  std::uint64_t total() const { return head_ + samples_; }
  /// One past the last selected rank: the scan of a level stops there.
  std::uint64_t end() const { return samples_ > 0 ? head_ + (samples_ - 1) * stride_ + 1 : head_; }

 private:
  std::uint64_t head_ = 0;     // the first states of the level, checked while the run's budget lasts
  std::uint64_t samples_ = 0;  // then this many, one every stride_ ranks
  std::uint64_t stride_ = 1;
};

}  // namespace statecheck::detail
