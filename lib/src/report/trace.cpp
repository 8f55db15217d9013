// A counterexample's steps, held or rebuilt; see statecheck/trace.hpp.
#include "statecheck/trace.hpp"

#include "statecheck/result.hpp"

#include <stdexcept>

namespace statecheck {

Trace::const_iterator::const_iterator(const Trace& trace, std::size_t index) : trace_(&trace), index_(index) {
  if (index_ >= trace.size()) return;
  if (!trace.source_) {
    step_ = &trace.steps_[index_];
    return;
  }
  walk_ = std::make_shared<Walk>();
  walk_->source = trace.source_;
  walk_->cursor = walk_->source->walk();
  for (std::size_t i = 0; i <= index_; ++i)
    if (!walk_->cursor->next(walk_->step)) throw std::logic_error("a rebuilt trace has fewer steps than its size");
  step_ = &walk_->step;
}

Trace::const_iterator& Trace::const_iterator::operator++() {
  ++index_;
  step_ = nullptr;
  if (index_ >= trace_->size()) return *this;
  if (!walk_) {
    step_ = &trace_->steps_[index_];
  } else {
    if (!walk_->cursor->next(walk_->step)) throw std::logic_error("a rebuilt trace has fewer steps than its size");
    step_ = &walk_->step;
  }
  return *this;
}

TraceStep Trace::operator[](std::size_t i) const {
  if (i >= size()) throw std::out_of_range("trace step " + std::to_string(i) + " of " + std::to_string(size()));
  return *const_iterator(*this, i);
}

void Trace::push_back(TraceStep step) {
  materialize();
  steps_.push_back(std::move(step));
}

void Trace::materialize() {
  if (!source_) return;
  steps_ = steps();
  source_.reset();
}

std::vector<std::int64_t> trace_times(const Trace& trace) {
  std::vector<std::int64_t> times;
  std::int64_t now = 0;
  trace.for_each([&](const TraceStep& step) { times.push_back(now += step.delay_ms); });
  return times;
}

void materialize_traces(CheckResult& r) {
  if (r.violation) r.violation->trace.materialize();
  if (r.error) r.error->trace.materialize();
}

}  // namespace statecheck
