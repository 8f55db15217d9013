// lib/src/report/trace_builder.hpp - turns a path of transition ids back into
// states by replaying the spec from its initial state, checking at every step
// that the state it reaches is one the search visited. A mismatch means the
// spec is not deterministic (an effect that reads uninitialised memory, a
// global counter, a random number), and is reported with the step.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "statecheck/detail/exact_set.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "statecheck/detail/visited_set.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

/// "Name(p=v, q=w)", or "Name" without parameters.
std::string transition_label(const TransitionInfo& info);

class TraceBuilder {
 public:
  TraceBuilder(const ModelOps& ops, const VisitedSet* visited, const ExactSet* exact)
      : ops_(ops), visited_(visited), exact_(exact) {}

  /// Replays `path` (initial combination, then transition ids). On success
  /// returns the steps; otherwise sets `problem` to a one-line explanation.
  /// `expected_last`, when given, must equal the state the path ends in.
  std::vector<TraceStep> build(const std::vector<std::uint32_t>& path, std::string& problem,
                               const std::byte* expected_last = nullptr) const;

 private:
  bool visited(const std::byte* state) const;
  const ModelOps& ops_;
  const VisitedSet* visited_;
  const ExactSet* exact_;
};

}  // namespace statecheck::detail
