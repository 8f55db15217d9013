// statecheck/trace.hpp - a counterexample's steps.
//
// The search hands its trace over as the path it found (the initial state's
// combination and one transition id a step), replayed a step at a time when it
// is printed: a 60,000-step trace costs its path, not 60,000 printed states,
// so --memory bounds a run that prints one too. Such a trace reads its spec's
// model; statecheck::check and check_entry return traces already rebuilt as
// steps (materialize()), so what they return stays valid on its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "statecheck/value.hpp"

namespace statecheck {

/// One step of a trace: the transition taken (none for the initial state) and
/// the state it led to.
struct TraceStep {
  std::string label;   // "Decommission(om=2)"; empty for the initial state
  std::string action;  // "Decommission"
  std::vector<std::pair<std::string, Value>> params;
  Value state;
  std::string actor;   // the parameter naming who acts ("" when none): ModelOps::action_actors
  std::string target;  // the parameter naming whom the step reaches ("" when none): ModelOps::action_targets
  std::int64_t delay_ms = 0;  // a timed spec's time step: the time it lets pass (its label is "+30 s")
  friend bool operator==(const TraceStep&, const TraceStep&) = default;
};

/// One walk over a rebuilt trace's steps, in order.
class TraceCursor {
 public:
  virtual ~TraceCursor() = default;
  /// The next step into `step`; false after the last.
  virtual bool next(TraceStep& step) = 0;
};

/// Where a trace that is rebuilt on demand gets its steps from.
class TraceSource {
 public:
  virtual ~TraceSource() = default;
  virtual std::size_t size() const = 0;
  /// A walk from the initial state, each step rebuilt from the one before.
  virtual std::unique_ptr<TraceCursor> walk() const = 0;
};

class Trace {
 public:
  /// Walks the steps in order, one in memory at a time (an input iterator:
  /// copies share the walk).
  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = TraceStep;
    using difference_type = std::ptrdiff_t;
    using pointer = const TraceStep*;
    using reference = const TraceStep&;
    const_iterator() = default;
    reference operator*() const { return *step_; }
    pointer operator->() const { return step_; }
    const_iterator& operator++();
    void operator++(int) { ++*this; }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.index_ == b.index_; }

   private:
    friend class Trace;
    struct Walk {
      std::shared_ptr<const TraceSource> source;  // what the cursor reads
      std::unique_ptr<TraceCursor> cursor;
      TraceStep step;
    };
    const_iterator(const Trace& trace, std::size_t index);
    const Trace* trace_ = nullptr;
    std::size_t index_ = 0;
    std::shared_ptr<Walk> walk_;     // a rebuilt trace's walk
    const TraceStep* step_ = nullptr;  // the current step
  };

  Trace() = default;
  Trace(std::vector<TraceStep> steps) : steps_(std::move(steps)) {}  // NOLINT: implicit, a list of steps is a trace
  explicit Trace(std::shared_ptr<const TraceSource> source) : source_(std::move(source)) {}

  std::size_t size() const { return source_ ? source_->size() : steps_.size(); }
  bool empty() const { return size() == 0; }
  const_iterator begin() const { return {*this, 0}; }
  const_iterator end() const { return {*this, size()}; }
  /// Calls f(const TraceStep&) for every step in order.
  template <class F>
  void for_each(F&& f) const {
    for (const TraceStep& step : *this) f(step);
  }
  /// Step i (a rebuilt trace replays up to it: walk it instead).
  TraceStep operator[](std::size_t i) const;
  TraceStep front() const { return (*this)[0]; }
  TraceStep back() const { return (*this)[size() - 1]; }
  void push_back(TraceStep step);
  /// The steps, rebuilt if need be.
  std::vector<TraceStep> steps() const { return {begin(), end()}; }
  /// Keeps the steps themselves, so that the trace no longer reads its model.
  void materialize();
  friend bool operator==(const Trace& a, const Trace& b) { return a.steps() == b.steps(); }

 private:
  std::vector<TraceStep> steps_;
  std::shared_ptr<const TraceSource> source_;
};

/// A timed trace's time at each step: the delays of the time steps summed, in ms.
std::vector<std::int64_t> trace_times(const Trace& trace);

}  // namespace statecheck
