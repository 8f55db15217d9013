// statecheck/detail/time_step.hpp - the step in which time passes, which the
// engine adds to a timed spec as its last action ("time"), after the spec's
// own. Its transition ids are the delays 1..D units, D being the longest
// delay that can still matter (every clock capped beyond it). From a state the
// delays are tried in order, one unit after the other on one copy of the
// state: a delay is a successor while every deadline holds after each of its
// units and some clock changed in its last unit. So a state whose clocks are
// all stopped or capped has no time successor, and costs one walk of its
// clocks; a spec without clocks has no time step at all.
#pragma once

#include <cstdint>
#include <string>
#include <tuple>
#include <utility>

#include "statecheck/detail/clocks.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "statecheck/time.hpp"

namespace statecheck::detail {

/// The action-like view of one delay that a successor loop sees: enabled, and
/// its effect writes the state the sweep computed.
template <class State>
struct delay_step {
  struct guard_fn {
    constexpr bool operator()(const State&) const { return true; }
  };
  struct effect_fn {
    const State* to;
    void operator()(State& next) const { next = *to; }
  };
  guard_fn guard;
  effect_fn effect;
};

template <class State, class Deadlines>
class TimeStep {
 public:
  using caps_type = clock_caps<clock_tags_t<State>>;

  TimeStep(const std::string& spec, const timed_t<Deadlines>& time)
      : time_(&time), caps_(caps_type::from(spec, time.clock_timing)), longest_(caps_.longest()) {}

  /// Transition ids: one per delay of 1..longest units.
  std::uint32_t count() const { return static_cast<std::uint32_t>(longest_); }
  long long unit_ms() const { return time_->clock_timing.unit().count(); }

  /// Hot path: f(first + delay - 1, step) for every delay from `s`.
  template <class F>
  inline void for_each(const State& s, std::uint32_t first, F& f) const {
    State at = s;
    delay_step<State> step{{}, {&at}};
    for (int delay = 1; delay <= longest_; ++delay) {
      if (!tick_clocks(at, caps_) || !deadlines_hold(at)) return;
      f(first + static_cast<std::uint32_t>(delay - 1), step);
    }
  }

  /// Lets `delay` units pass over `s`; false (s unspecified) when that delay
  /// is not a step from it.
  bool apply(int delay, State& s) const {
    for (int d = 1; d <= delay; ++d)
      if (!tick_clocks(s, caps_) || !deadlines_hold(s)) return false;
    return true;
  }

  /// The deadline that keeps time from passing in `s` (its name), or "" when
  /// one unit may pass (or changes nothing): a state without successors is a
  /// timelock when this names one.
  std::string blocking_deadline(const State& s) const {
    State at = s;
    if (!tick_clocks(at, caps_)) return "";
    std::string name;
    std::apply([&](const auto&... d) { ((name.empty() && !d.fn(at) ? (void)(name = d.name) : (void)0), ...); },
               time_->deadlines.list);
    return name;
  }

  /// "+30 s": the label of delay `delay`.
  TransitionInfo describe(std::uint32_t action, int delay) const {
    TransitionInfo info;
    info.action = action;
    info.action_name = std::string(time_action_name);
    info.delay_ms = unit_ms() * delay;
    info.params.emplace_back("delay", Value::name(duration_text(unit() * delay)));
    return info;
  }

  duration unit() const { return time_->clock_timing.unit(); }

 private:
  bool deadlines_hold(const State& s) const {
    return std::apply([&](const auto&... d) { return (d.fn(s) && ...); }, time_->deadlines.list);
  }

  const timed_t<Deadlines>* time_;
  caps_type caps_;
  int longest_;
};

}  // namespace statecheck::detail
