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

/// The step of taking `tid` from `before` into `after`: its label, action,
/// parameters (a choice's value read in `before`), actor, target, delay, and `after`.
TraceStep trace_step(const ModelOps& ops, std::uint32_t tid, const std::byte* before, const std::byte* after);

/// What a spec error in transition `tid` taken from `state` is blamed on:
/// "action LABEL", or "the choice of action LABEL" when enumerating that
/// action's choice in `state` throws (the label then names no chosen value).
/// Without a state, "action LABEL" without the choice's value. Cold: after a throw.
std::string failing_part(const ModelOps& ops, const std::byte* state, std::uint32_t tid);

/// The lane (actor) a step belongs to, as the HTML page draws it: the actor
/// parameter's value (a named id as itself, "s1"; another value as "c=1"),
/// else the action's name ("action Tick" cannot clash with an id).
std::string lane_of(const std::string& actor, const std::string& action,
                    const std::vector<std::pair<std::string, Value>>& params);

/// How often a trace's consecutive steps change lanes (the first step counts none).
std::uint64_t actor_switches(const Trace& trace);

/// Every transition's lane, as an index into `names` (filled here). A lane
/// is a parameter's value or an action's name: it does not depend on the state.
std::vector<std::uint32_t> transition_lanes(const ModelOps& ops, std::vector<std::string>& names);

/// Lanes under a renaming of the symmetric ids (laid out as
/// ModelOps::canonicalize_renaming writes it): the lane of a symmetric id
/// becomes its new name's lane (added to `names` if no transition has it);
/// any other lane (an action, a fixed id, a number) stays.
class LaneRenaming {
 public:
  LaneRenaming(const std::vector<SymmetryKind>& kinds, std::vector<std::string>& names);
  /// False when an id's name could not be rebuilt from the kind's first and last names.
  bool ok() const { return ok_; }
  std::uint32_t operator()(std::uint32_t lane, const std::uint8_t* renaming) const {
    if (lane >= place_.size() || place_[lane].kind == none) return lane;
    const Place p = place_[lane];
    return lanes_[p.kind][renaming[p.kind * renaming_width + p.index]];
  }

 private:
  static constexpr std::uint32_t none = ~std::uint32_t{0};
  struct Place {
    std::uint32_t kind = none;
    std::uint32_t index = 0;
  };
  std::vector<Place> place_;                        // per lane
  std::vector<std::vector<std::uint32_t>> lanes_;  // per kind, per id index
  bool ok_ = true;
};

class TraceBuilder {
 public:
  /// Without either set (a search across processes), no step is checked against one.
  TraceBuilder(const ModelOps& ops, const VisitedSet* visited, const ExactSet* exact)
      : ops_(ops), visited_(visited), exact_(exact) {}

  /// Replays `path` (initial combination, then transition ids). On success
  /// returns the trace, rebuilt from its checked concrete path whenever it is
  /// walked (report/replayed_trace.hpp); otherwise sets `problem` to a one-line explanation.
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
