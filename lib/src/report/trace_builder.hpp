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

/// The lane (actor) a step belongs to, as the HTML page draws it: the actor
/// parameter's value (a named id as itself, "s1"; another value as "c=1"),
/// else the action's name ("action Tick" cannot clash with an id).
std::string lane_of(const std::string& actor, const std::string& action,
                    const std::vector<std::pair<std::string, Value>>& params);

/// How often a trace's consecutive steps change lanes (the first step counts none).
std::uint64_t actor_switches(const std::vector<TraceStep>& trace);

class TraceBuilder {
 public:
  TraceBuilder(const ModelOps& ops, const VisitedSet* visited, const ExactSet* exact)
      : ops_(ops), visited_(visited), exact_(exact) {}

  /// Replays `path` (initial combination, then transition ids). On success
  /// returns the steps; otherwise sets `problem` to a one-line explanation.
  /// `expected_last`, when given, must equal the state the path ends in.
  /// With symmetry the logged path runs through representatives; the steps
  /// returned are concrete: from the real initial state, at each step the
  /// lowest transition id whose successor has the logged representative
  /// (one exists: renaming commutes with the spec's transitions).
  /// `last_state`, when given, receives the concrete state the trace ends in.
  std::vector<TraceStep> build(const std::vector<std::uint32_t>& path, std::string& problem,
                               const std::byte* expected_last = nullptr,
                               std::vector<std::byte>* last_state = nullptr) const;

  /// With symmetry: the lowest transition id from concrete `state` that throws
  /// `message`, standing for the representative's failing `tid` (else `tid`).
  std::uint32_t concrete_failing(const std::byte* state, std::uint32_t tid, const std::string& message) const;

 private:
  bool visited(const std::byte* state) const;
  /// The lowest transition id that takes `state` into the orbit of `target`
  /// (a representative); `state` becomes its successor. False when none does.
  bool step_into_orbit(std::byte* state, const std::byte* target, std::uint32_t& tid) const;
  const ModelOps& ops_;
  const VisitedSet* visited_;
  const ExactSet* exact_;
};

}  // namespace statecheck::detail
