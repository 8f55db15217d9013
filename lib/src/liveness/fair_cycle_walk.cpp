// lib/src/liveness/fair_cycle_walk.cpp - a short fair cycle through a fair
// component, for the lasso.
//
// The component as a whole is fair (fair_components.hpp), so what a cycle
// inside it must do is known from the component alone: take each strongly
// fair instance enabled somewhere in it, take each weakly fair one enabled
// everywhere in it, and pass a state where each other weakly fair instance
// that is enabled somewhere is disabled. A cycle that does all of that is
// fair whatever else it visits: a strong instance it sees enabled it takes,
// and a weak one is taken or seen disabled. The walk goes from home by
// breadth-first segments, each to the nearest edge or state meeting a need
// still open, then back home; each segment is a shortest path, the whole is
// short but not minimal (the order of needs is greedy).
#include <stdexcept>
#include <vector>

#include "liveness/fair_components.hpp"

namespace statecheck::liveness {

namespace {

class CycleWalk {
 public:
  CycleWalk(const StateGraph& graph, const FairnessTable& fairness, const FairComponents& components, StateId home)
      : graph_(graph), of_(components.of), id_(components.of[home]), home_(home),
        need_(graph.instance_count(), Need::none), seen_(graph.state_count(), 0), parent_(graph.state_count(), 0),
        via_(graph.state_count(), no_instance) {
    find_needs(fairness);
  }

  std::vector<Lasso::Step> walk() {
    walk_ = {{home_, no_instance}};
    arrive(home_);
    while (open_ > 0) segment(false);
    if (walk_.size() == 1 || walk_.back().state != home_) segment(true);
    walk_.pop_back();  // home again: the loop closes on the last step's edge
    return std::move(walk_);
  }

 private:
  enum class Need : std::uint8_t { none, take, see_disabled, met };

  void find_needs(const FairnessTable& fairness) {
    std::vector<std::uint64_t> enabled_in(graph_.instance_count(), 0);
    std::uint64_t size = 0;
    for (StateId v = 0; v < graph_.state_count(); ++v) {
      if (of_[v] != id_) continue;
      ++size;
      for (Instance i : graph_.enabled(v)) ++enabled_in[i];
    }
    for (Instance i = 0; i < graph_.instance_count(); ++i) {
      const bool weak = fairness.kind[i] & FairnessTable::weak;
      const bool strong = fairness.kind[i] & FairnessTable::strong;
      if (enabled_in[i] == 0 || (!weak && !strong)) continue;
      if (strong || enabled_in[i] == size) need_[i] = Need::take;
      else need_[i] = Need::see_disabled, disabled_needs_.push_back(i);
      ++open_;
    }
  }

  bool wants_edge(Instance i) const { return i != no_instance && need_[i] == Need::take; }

  bool wants_state(StateId v) const {
    for (Instance i : disabled_needs_)
      if (need_[i] == Need::see_disabled && !graph_.is_enabled(v, i)) return true;
    return false;
  }

  void meet(Instance i) {
    need_[i] = Need::met;
    --open_;
  }

  void arrive(StateId v) {
    for (Instance i : disabled_needs_)
      if (need_[i] == Need::see_disabled && !graph_.is_enabled(v, i)) meet(i);
  }

  void step(StateId to, Instance via) {
    walk_.back().taken = via;
    walk_.push_back({to, no_instance});
    if (wants_edge(via)) meet(via);
    arrive(to);
  }

  /// One breadth-first segment inside the component from the walk's end:
  /// to the nearest open need, or (to_home) back to home by one edge or more.
  void segment(bool to_home) {
    const StateId from = walk_.back().state;
    ++stamp_;
    seen_[from] = stamp_;
    queue_.assign(1, from);
    for (std::size_t head = 0; head < queue_.size(); ++head) {
      const StateId u = queue_[head];
      for (const Edge& e : graph_.successors(u)) {
        if (of_[e.to] != id_) continue;
        if (to_home ? e.to == home_ : wants_edge(e.instance)) return follow(from, u, &e);
        if (seen_[e.to] == stamp_) continue;
        seen_[e.to] = stamp_, parent_[e.to] = u, via_[e.to] = e.instance;
        queue_.push_back(e.to);
        if (!to_home && wants_state(e.to)) return follow(from, e.to, nullptr);
      }
    }
    // A fair component is strongly connected and holds what each need asks.
    throw std::logic_error("liveness: a fair component without the cycle it promised");
  }

  /// Appends the BFS path from..end and then `last` when the segment ended on an edge.
  void follow(StateId from, StateId end, const Edge* last) {
    std::vector<StateId> back;
    for (StateId v = end; v != from; v = parent_[v]) back.push_back(v);
    for (auto it = back.rbegin(); it != back.rend(); ++it) step(*it, via_[*it]);
    if (last) step(last->to, last->instance);
  }

  const StateGraph& graph_;
  const std::vector<std::uint32_t>& of_;
  std::uint32_t id_;
  StateId home_;
  std::vector<Need> need_;               // by instance
  std::vector<Instance> disabled_needs_;  // the instances whose need is a state disabling them
  std::uint64_t open_ = 0;
  std::vector<std::uint32_t> seen_;      // by state, stamped per segment
  std::vector<StateId> parent_;
  std::vector<Instance> via_;
  std::vector<StateId> queue_;
  std::uint32_t stamp_ = 0;
  std::vector<Lasso::Step> walk_;
};

}  // namespace

std::vector<Lasso::Step> fair_cycle(const StateGraph& graph, const FairnessTable& fairness,
                                    const FairComponents& components, StateId home) {
  return CycleWalk(graph, fairness, components, home).walk();
}

}  // namespace statecheck::liveness
