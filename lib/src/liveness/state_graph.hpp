// lib/src/liveness/state_graph.hpp - the reachable states as a compact
// explicit graph, the input of the liveness check (fair_cycles.hpp).
//
// States are numbered 0..n-1 in breadth-first order, the initial states first
// (so "initial" is the prefix [0, initial_count)). Each state carries a 64-bit
// mask of atomic predicates (bit i: predicate i holds there), its successor
// edges and the fairness instances enabled there, both in CSR form (one offset
// array, one flat array), so a state costs
//     8 (labels) + 8 (edge offset) + 8 (enabled offset) = 24 bytes
// plus 8 bytes per edge (target, instance) and 4 bytes per enabled instance.
//
// A fairness instance is one (action, parameter instance) pair, numbered
// densely 0..instance_count-1 by the caller (TLC's \A p : WF_vars(A(p)) names
// one instance per p); an edge of an action nobody declared fair carries
// `no_instance`. An edge is a step that changes the state: the search drops a
// step whose successor equals its source (a stutter), and stuttering is
// modelled once, implicitly, by the liveness check. So an instance is enabled
// at s when it has a state-changing step there, as in TLC's ENABLED <<A>>_vars;
// an edge's instance must be enabled at its source, finish() checks it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace statecheck::liveness {

using StateId = std::uint32_t;
using Instance = std::uint32_t;
/// The instance of an edge whose action carries no fairness.
inline constexpr Instance no_instance = 0xFFFFFFFFu;
/// Instances are below this bound: the values above it are the check's markers.
inline constexpr Instance instance_limit = 0xFFFFFFF0u;

struct Edge {
  StateId to = 0;
  Instance instance = no_instance;
  friend bool operator==(const Edge&, const Edge&) = default;
};

class GraphBuilder;

/// The finished graph: read-only, built by GraphBuilder.
class StateGraph {
 public:
  std::uint32_t state_count() const { return static_cast<std::uint32_t>(labels_.size()); }
  std::uint32_t initial_count() const { return initial_count_; }
  std::uint32_t instance_count() const { return instance_count_; }
  std::uint64_t edge_count() const { return edges_.size(); }
  std::uint64_t labels(StateId s) const { return labels_[s]; }
  bool holds(StateId s, unsigned predicate) const { return (labels_[s] >> predicate) & 1u; }
  std::span<const Edge> successors(StateId s) const {
    return {edges_.data() + edge_begin_[s], edges_.data() + edge_begin_[s + 1]};
  }
  /// The instances enabled at s, ascending and without repeats.
  std::span<const Instance> enabled(StateId s) const {
    return {enabled_.data() + enabled_begin_[s], enabled_.data() + enabled_begin_[s + 1]};
  }
  bool is_enabled(StateId s, Instance i) const;
  /// What the arrays hold (capacity, not size: what the process pays).
  std::size_t bytes() const;

 private:
  friend class GraphBuilder;
  std::uint32_t initial_count_ = 0;
  std::uint32_t instance_count_ = 0;
  std::vector<std::uint64_t> labels_;
  std::vector<std::uint64_t> edge_begin_{0};
  std::vector<Edge> edges_;
  std::vector<std::uint64_t> enabled_begin_{0};
  std::vector<Instance> enabled_;
};

/// Appends states, then each state's edges and enabled instances, in state
/// order: the search expands a level's states in rank order, and a parallel
/// expansion hands its chunks (contiguous ranks) over in chunk order. An
/// edge may name a target not added yet (the next level gets its numbers
/// when that level is sorted); finish() checks every target exists. After
/// reserve() nothing allocates per edge. Misuse throws std::invalid_argument.
class GraphBuilder {
 public:
  explicit GraphBuilder(std::uint32_t instance_count);
  void reserve(std::uint64_t states, std::uint64_t edges, std::uint64_t enabled);
  /// A new state, numbered state_count() so far; every initial state must be
  /// added before the first non-initial one.
  StateId add_state(std::uint64_t labels, bool initial = false);
  /// An edge of `from`, which must be the state whose edges are being added
  /// or a later one (states in between get no edges). No self-loops: a step
  /// that leaves the state as it was is a stutter.
  void add_edge(StateId from, StateId to, Instance instance);
  /// Instance `i` is enabled at `s`; same order rule as add_edge, and within
  /// one state ascending instances.
  void add_enabled(StateId s, Instance i);
  /// Closes the CSR arrays and checks targets and enabledness; the builder
  /// is empty afterwards.
  StateGraph finish();

 private:
  StateGraph graph_;
  bool initial_closed_ = false;  // a non-initial state was added
};

}  // namespace statecheck::liveness
