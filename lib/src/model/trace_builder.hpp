// lib/src/model/trace_builder.hpp - turns a path of transition ids back into
// states by replaying the spec from its initial state, checking at every step
// that the state it reaches is one the search visited. A mismatch means the
// spec is not deterministic (an effect that reads uninitialised memory, a
// global counter, a random number), and is reported with the step.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/transition_labels.hpp"
#include "statecheck/detail/exact_set.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "statecheck/detail/visited_set.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

class TraceBuilder {
 public:
  /// Without either set (a search across processes), no step is checked against one.
  TraceBuilder(const ModelOps& ops, const VisitedSet* visited, const ExactSet* exact)
      : ops_(ops), visited_(visited), exact_(exact) {}

  /// Replays `path` (initial combination, then transition ids). On success
  /// returns the trace, rebuilt from its checked concrete path whenever it is
  /// walked (model/replayed_trace.hpp); otherwise sets `problem` to a one-line explanation.
  /// `expected_last`, when given, must equal the state the path ends in.
  /// With symmetry the logged path runs through representatives; the steps
  /// returned are concrete: from the real initial state, at each step the
  /// lowest transition id whose successor has the logged representative
  /// (one exists: renaming commutes with the spec's transitions).
  /// `last_state`, when given, receives the concrete state the trace ends in.
  /// `follow`: take the path's own steps, renamed along (the fewest-switch
  /// pass chose them for their actors); a step's concrete transition then
  /// reaches the renamed successor itself and has the renamed actor.
  Trace build(const std::vector<std::uint32_t>& path, std::string& problem, const std::byte* expected_last = nullptr,
              std::vector<std::byte>* last_state = nullptr, bool follow = false) const;

  /// With symmetry: the lowest transition id from concrete `state` that throws
  /// `message`, standing for the representative's failing `tid` (else `tid`).
  std::uint32_t concrete_failing(const std::byte* state, std::uint32_t tid, const std::string& message) const;

 private:
  bool visited(const std::byte* state) const;
  /// The lowest transition id that takes `state` into the orbit of `target`
  /// (a representative); `state` becomes its successor. False when none does.
  bool step_into_orbit(std::byte* state, const std::byte* target, std::uint32_t& tid) const;
  /// Follows the representative's step `tid` (`logged` -> its successor,
  /// canonicalized in place) on the concrete `state`, whose ids are the
  /// logged ones renamed by `frame` (updated for the successor).
  struct Lanes;
  bool follow_step(std::byte* state, std::byte* logged, std::vector<std::uint8_t>& frame, const Lanes& lanes,
                   std::uint32_t& tid) const;
  const ModelOps& ops_;
  const VisitedSet* visited_;
  const ExactSet* exact_;
};

}  // namespace statecheck::detail
