// lib/src/liveness/fair_components.hpp - the maximal fair strongly connected
// sets inside a region of the graph (the states where a property can stay
// violated), the core of fair_cycles.cpp.
//
// A strongly connected set C with at least one edge inside it (no state has
// a self-loop, so: two states or more) is the end of a behavior that takes
// every edge inside C infinitely often; that behavior is the fairest one C
// has, since it visits all of C's states and takes all of C's instances.
// Fairness (fair_cycles.hpp) for it reads:
//   Strong(i): fine when i is enabled at no state of C or taken inside C.
//              When it is not, no fair cycle inside C visits a state where i
//              is enabled (none takes i), so those states go and the rest
//              splits into SCCs again: the Streett refinement. Each split
//              removes every state of C enabling i, so i is enabled nowhere
//              in what comes of C: at most s + 1 rounds for s strong
//              instances, each linear in the graph.
//   Weak(i):   fine when i is disabled at some state of C or taken inside C.
//              When it is not, i is enabled everywhere in every subset of C
//              and taken in none, so no cycle inside C is fair: C is dropped
//              whole. Removing the states where i is disabled (the strong
//              refinement applied to weak) would be wrong: it keeps cycles
//              on which i is continuously enabled and never taken (unfair)
//              and drops the disabled states that make a cycle fair.
// Every fair cycle lies inside one of the components this returns, and every
// component is itself the states of a fair cycle through all of its states.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "liveness/fair_cycles.hpp"
#include "liveness/state_graph.hpp"

namespace statecheck::liveness {

/// Per instance, which fairness was declared for it (both bits possible).
struct FairnessTable {
  static constexpr std::uint8_t weak = 1;
  static constexpr std::uint8_t strong = 2;
  std::vector<std::uint8_t> kind;  // by instance
  FairnessTable(const StateGraph& graph, std::span<const Fairness> fairness);
  bool fair(Instance i) const { return i < kind.size() && kind[i] != 0; }
  /// Whether some weakly or strongly fair instance is enabled at s: if not,
  /// stuttering forever at s is fair.
  bool any_enabled(const StateGraph& graph, StateId s) const;
};

/// Throws std::invalid_argument for a predicate bit over 63 or a fairness
/// instance the graph does not have.
void check_arguments(const StateGraph& graph, const Property& property, std::span<const Fairness> fairness);

struct FairComponents {
  static constexpr std::uint32_t none = 0xFFFFFFFFu;
  std::vector<std::uint32_t> of;  // per state: its fair component, or none
  std::uint32_t count = 0;
};

/// The fair components of the subgraph induced by `region` (1: inside).
/// Iterative Tarjan (no recursion), O((s + 1) (n + m)) time, about 17 bytes
/// a state plus the depth of the search.
FairComponents fair_components(const StateGraph& graph, const std::vector<std::uint8_t>& region,
                               const FairnessTable& fairness, CheckStats& stats);

/// A cycle through `home`'s fair component, starting at `home`: its steps
/// (home first, each with the instance it takes; the last one's edge goes
/// back to home). It takes every instance the component's fairness needs
/// taken and visits, for each weak instance disabled somewhere there, a
/// state where it is disabled, by breadth-first segments to the nearest
/// missing one (fair_cycle_walk.cpp): O(r (n + m)) for r needs.
std::vector<Lasso::Step> fair_cycle(const StateGraph& graph, const FairnessTable& fairness,
                                    const FairComponents& components, StateId home);

}  // namespace statecheck::liveness
