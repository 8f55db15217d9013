// lib/src/liveness/fair_components.cpp - Tarjan's SCCs without recursion and
// the Streett refinement for strong fairness (the argument is in the header).
#include "liveness/fair_components.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace statecheck::liveness {

FairnessTable::FairnessTable(const StateGraph& graph, std::span<const Fairness> fairness)
    : kind(graph.instance_count(), 0) {
  for (const Fairness& f : fairness) kind[f.instance] |= f.kind == Fairness::Kind::Weak ? weak : strong;
}

bool FairnessTable::any_enabled(const StateGraph& graph, StateId s) const {
  const auto set = graph.enabled(s);
  return std::any_of(set.begin(), set.end(), [&](Instance i) { return kind[i] != 0; });
}

void check_arguments(const StateGraph& graph, const Property& property, std::span<const Fairness> fairness) {
  if (property.p > 63 || property.q > 63) throw std::invalid_argument("liveness: a predicate bit over 63");
  for (const Fairness& f : fairness)
    if (f.instance >= graph.instance_count())
      throw std::invalid_argument("liveness: fairness of unknown instance " + std::to_string(f.instance));
}

namespace {

constexpr std::uint32_t unvisited = 0xFFFFFFFFu;

/// The refinement's state: scopes mark which states the current SCC pass
/// may enter (scope[v] == id), so a pass over a component never resets the
/// whole graph; instance stamps do the same for per-component counts.
class Refiner {
 public:
  Refiner(const StateGraph& graph, const FairnessTable& fairness, CheckStats& stats)
      : graph_(graph), fair_(fairness), stats_(stats), scope_(graph.state_count(), 0),
        index_(graph.state_count(), unvisited), low_(graph.state_count(), 0), on_stack_(graph.state_count(), 0),
        taken_(graph.instance_count(), 0), seen_(graph.instance_count(), 0), bad_(graph.instance_count(), 0),
        enabled_in_(graph.instance_count(), 0) {
    out_.of.assign(graph.state_count(), FairComponents::none);
  }

  FairComponents run(const std::vector<std::uint8_t>& region) {
    split(members_of(region));
    while (!work_.empty()) {
      std::vector<StateId> component = std::move(work_.back());
      work_.pop_back();
      examine(component);
    }
    return std::move(out_);
  }

 private:
  struct Frame {
    StateId v;
    std::uint64_t next;  // index into the graph's flat edge array
  };

  std::vector<StateId> members_of(const std::vector<std::uint8_t>& region) const {
    std::vector<StateId> members;
    for (StateId v = 0; v < graph_.state_count(); ++v)
      if (region[v]) members.push_back(v);
    return members;
  }

  /// A scope id no state or instance holds: after 2^32 - 1 of them the
  /// stamps start again from zero (s strong instances may take (s + 1) n).
  std::uint32_t next_id() {
    if (scope_id_ == 0xFFFFFFFFu) {
      for (auto* stamps : {&scope_, &taken_, &seen_, &bad_}) std::fill(stamps->begin(), stamps->end(), 0);
      scope_id_ = 0;
    }
    return ++scope_id_;
  }

  /// Tarjan over `members` (a new scope): each nontrivial SCC goes to work_.
  void split(const std::vector<StateId>& members) {
    const std::uint32_t id = next_id();
    for (StateId v : members) scope_[v] = id, index_[v] = unvisited;
    counter_ = 0;
    for (StateId root : members)
      if (index_[root] == unvisited) search_from(root, id);
  }

  void enter(StateId v) {
    index_[v] = low_[v] = counter_++;
    on_stack_[v] = 1;
    stack_.push_back(v);
    frames_.push_back(Frame{v, 0});
  }

  void search_from(StateId root, std::uint32_t id) {
    enter(root);
    while (!frames_.empty()) {
      Frame& f = frames_.back();
      const auto edges = graph_.successors(f.v);
      if (f.next < edges.size()) {
        const StateId w = edges[f.next++].to;
        if (scope_[w] != id) continue;
        if (index_[w] == unvisited) enter(w);  // invalidates f
        else if (on_stack_[w]) low_[f.v] = std::min(low_[f.v], index_[w]);
        continue;
      }
      const StateId v = f.v;
      frames_.pop_back();
      if (!frames_.empty()) low_[frames_.back().v] = std::min(low_[frames_.back().v], low_[v]);
      if (low_[v] == index_[v]) pop_component(v);
    }
  }

  void pop_component(StateId root) {
    std::vector<StateId> component;
    StateId w;
    do {
      w = stack_.back();
      stack_.pop_back();
      on_stack_[w] = 0;
      component.push_back(w);
    } while (w != root);
    // One state and no self-loops: no cycle, only the stutter, judged apart.
    if (component.size() > 1) work_.push_back(std::move(component));
  }

  /// Stamps, for the component in scope `id`, the instances taken inside it
  /// and, per fair instance, how many of its states enable it; returns the
  /// fair instances enabled somewhere in it.
  std::vector<Instance> count(const std::vector<StateId>& component, std::uint32_t id) {
    std::vector<Instance> enabled_somewhere;
    for (StateId v : component) {
      for (const Edge& e : graph_.successors(v))
        if (scope_[e.to] == id && e.instance != no_instance) taken_[e.instance] = id;
      for (Instance i : graph_.enabled(v)) {
        if (!fair_.fair(i)) continue;
        if (seen_[i] != id) seen_[i] = id, enabled_in_[i] = 0, enabled_somewhere.push_back(i);
        ++enabled_in_[i];
      }
    }
    return enabled_somewhere;
  }

  void examine(const std::vector<StateId>& component) {
    ++stats_.components;
    const std::uint32_t id = next_id();
    for (StateId v : component) scope_[v] = id;
    const std::vector<Instance> enabled = count(component, id);
    bool split_needed = false;
    for (Instance i : enabled)
      if ((fair_.kind[i] & FairnessTable::strong) && taken_[i] != id) bad_[i] = id, split_needed = true;
    if (split_needed) return refine(component, id);
    for (Instance i : enabled)
      if ((fair_.kind[i] & FairnessTable::weak) && taken_[i] != id && enabled_in_[i] == component.size()) return;
    const std::uint32_t number = out_.count++;
    for (StateId v : component) out_.of[v] = number;
  }

  /// Drops the states enabling a strong instance the component never takes.
  void refine(const std::vector<StateId>& component, std::uint32_t id) {
    ++stats_.refinements;
    std::vector<StateId> rest;
    for (StateId v : component) {
      const auto set = graph_.enabled(v);
      if (std::none_of(set.begin(), set.end(), [&](Instance i) { return bad_[i] == id; })) rest.push_back(v);
    }
    if (rest.size() > 1) split(rest);
  }

  const StateGraph& graph_;
  const FairnessTable& fair_;
  CheckStats& stats_;
  std::vector<std::uint32_t> scope_, index_, low_;
  std::vector<std::uint8_t> on_stack_;
  std::vector<std::uint32_t> taken_, seen_, bad_, enabled_in_;  // by instance, stamped with a scope id
  std::vector<Frame> frames_;
  std::vector<StateId> stack_;
  std::vector<std::vector<StateId>> work_;
  std::uint32_t scope_id_ = 0;
  std::uint32_t counter_ = 0;
  FairComponents out_;
};

}  // namespace

FairComponents fair_components(const StateGraph& graph, const std::vector<std::uint8_t>& region,
                               const FairnessTable& fairness, CheckStats& stats) {
  return Refiner(graph, fairness, stats).run(region);
}

}  // namespace statecheck::liveness
