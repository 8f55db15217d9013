// lib/src/liveness/state_graph.cpp - the CSR graph and its builder.
#include "liveness/state_graph.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace statecheck::liveness {

namespace {

[[noreturn]] void misuse(const std::string& what) { throw std::invalid_argument("liveness graph: " + what); }

/// Opens the CSR rows up to `row`: every row before it is closed where the
/// flat array ends now (rows skipped over stay empty).
void open_row(std::vector<std::uint64_t>& begin, std::uint64_t flat_size, StateId row) {
  while (begin.size() <= row) begin.push_back(flat_size);
}

}  // namespace

bool StateGraph::is_enabled(StateId s, Instance i) const {
  const auto set = enabled(s);
  return std::binary_search(set.begin(), set.end(), i);
}

std::size_t StateGraph::bytes() const {
  return labels_.capacity() * sizeof(std::uint64_t) + edge_begin_.capacity() * sizeof(std::uint64_t) +
         edges_.capacity() * sizeof(Edge) + enabled_begin_.capacity() * sizeof(std::uint64_t) +
         enabled_.capacity() * sizeof(Instance);
}

GraphBuilder::GraphBuilder(std::uint32_t instance_count) {
  if (instance_count > instance_limit) misuse("too many fairness instances");
  graph_.instance_count_ = instance_count;
}

void GraphBuilder::reserve(std::uint64_t states, std::uint64_t edges, std::uint64_t enabled) {
  graph_.labels_.reserve(states);
  graph_.edge_begin_.reserve(states + 1);
  graph_.enabled_begin_.reserve(states + 1);
  graph_.edges_.reserve(edges);
  graph_.enabled_.reserve(enabled);
}

StateId GraphBuilder::add_state(std::uint64_t labels, bool initial) {
  if (graph_.labels_.size() >= instance_limit) misuse("too many states");
  if (initial && initial_closed_) misuse("an initial state after a non-initial one");
  if (initial) ++graph_.initial_count_;
  else initial_closed_ = true;
  graph_.labels_.push_back(labels);
  return static_cast<StateId>(graph_.labels_.size() - 1);
}

void GraphBuilder::add_edge(StateId from, StateId to, Instance instance) {
  if (from >= graph_.labels_.size()) misuse("an edge from a state not added yet");
  if (from + 1 < graph_.edge_begin_.size()) misuse("edges out of state order");
  if (from == to) misuse("a self-loop (a stutter is implicit)");
  if (instance != no_instance && instance >= graph_.instance_count_) misuse("an unknown instance on an edge");
  open_row(graph_.edge_begin_, graph_.edges_.size(), from);
  graph_.edges_.push_back(Edge{to, instance});
}

void GraphBuilder::add_enabled(StateId s, Instance i) {
  if (s >= graph_.labels_.size()) misuse("an enabled instance of a state not added yet");
  if (s + 1 < graph_.enabled_begin_.size()) misuse("enabled instances out of state order");
  if (i >= graph_.instance_count_) misuse("an unknown enabled instance");
  open_row(graph_.enabled_begin_, graph_.enabled_.size(), s);
  if (graph_.enabled_.size() > graph_.enabled_begin_[s] && graph_.enabled_.back() >= i)
    misuse("enabled instances of a state not ascending");
  graph_.enabled_.push_back(i);
}

StateGraph GraphBuilder::finish() {
  StateGraph& g = graph_;
  const auto n = static_cast<StateId>(g.labels_.size());
  open_row(g.edge_begin_, g.edges_.size(), n);
  open_row(g.enabled_begin_, g.enabled_.size(), n);
  for (StateId s = 0; s < n; ++s)
    for (const Edge& e : g.successors(s)) {
      if (e.to >= n) misuse("an edge to state " + std::to_string(e.to) + ", never added");
      // A step of an instance means its action could move: it is enabled.
      if (e.instance != no_instance && !g.is_enabled(s, e.instance))
        misuse("state " + std::to_string(s) + " takes instance " + std::to_string(e.instance) +
               " that is not enabled there");
    }
  StateGraph out = std::move(graph_);
  graph_ = StateGraph{};
  graph_.instance_count_ = out.instance_count_;
  initial_closed_ = false;
  return out;
}

}  // namespace statecheck::liveness
