// lib/src/model/transition_labels.hpp - what a person reads of a model's
// transitions: a step's label ("Name(p=v)"), the step itself, what a spec error
// is blamed on, and the lane (actor) each transition belongs to, also under a
// renaming of the symmetric ids. Every output and the trace passes use these.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "statecheck/detail/model_ops.hpp"
#include "statecheck/result.hpp"
#include "statecheck/trace.hpp"

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

}  // namespace statecheck::detail
