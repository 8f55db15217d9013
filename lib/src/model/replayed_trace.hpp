// lib/src/model/replayed_trace.hpp - a trace held as the path the search found
// (a concrete one: TraceBuilder has checked it step by step) and rebuilt a step
// at a time whenever it is walked, so that printing a long counterexample holds
// two states, not all of them (issue: --memory bounds the output too).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "statecheck/detail/model_ops.hpp"
#include "statecheck/trace.hpp"

namespace statecheck::detail {

/// A checked path: the initial state's combination, then one transition a step.
struct ConcretePath {
  std::uint32_t combination = 0;
  std::vector<std::uint32_t> tids;
};

class ReplayedTrace final : public TraceSource {
 public:
  /// Keeps a copy of `ops` (callers hold a temporary) and reads its model while
  /// that is alive: walking it after throws std::logic_error.
  ReplayedTrace(const ModelOps& ops, ConcretePath path) : ops_(ops), path_(std::move(path)) {}
  std::size_t size() const override { return path_.tids.size() + 1; }
  std::unique_ptr<TraceCursor> walk() const override;

 private:
  ModelOps ops_;
  ConcretePath path_;
};

/// The trace of `path`, walked by replaying it.
Trace replayed_trace(const ModelOps& ops, ConcretePath path);

}  // namespace statecheck::detail
