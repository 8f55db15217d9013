// lib/src/report/state_graph.hpp - the whole reachable graph of a small
// spec, found by a sequential breadth-first search, and its Graphviz DOT text
// (`statecheck check NAME --dump-graph FILE.dot`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "model/model_view.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

struct StateGraph {
  struct Edge {
    std::uint32_t from = 0;
    std::uint32_t to = 0;
    std::uint32_t tid = 0;
  };
  std::vector<OwnedState> states;  // breadth-first order; initial states first
  std::size_t initial_count = 0;
  std::vector<Edge> edges;         // by source state, then transition id
};

/// Every reachable state and transition, in a deterministic order (initial
/// combinations, then transition ids). States are keyed by fingerprint and
/// confirmed with equal(). States at BFS level `max_depth` (initial states
/// being level 1; 0: no limit) and those the constraint excludes are not
/// expanded. More than `limit` states: config_error, the refusal. Its own
/// structures beyond `memory` bytes, or a stop request (request_stop):
/// stopped_error (detail/search.hpp). Throws what the spec's code throws.
StateGraph explore_graph(const ModelView& view, std::uint64_t limit, std::uint32_t max_depth, std::size_t memory);

/// The graph as Graphviz DOT: one node per state labelled with its fields,
/// initial states with a double border, one edge per transition labelled with
/// it; `violation`'s trace (when given and not empty) drawn in red, its last
/// state filled and named after the property.
std::string graph_dot(const ModelView& view, const StateGraph& graph, const Violation* violation);

}  // namespace statecheck::detail
