// lib/src/liveness/fair_cycles.cpp - the liveness check: where a property
// can stay violated, which ends there are fair, and a short lasso to one.
//
// A violation is a path in two phases. Phase 0 goes anywhere; phase 1 keeps
// to the states where the property stays violated ("stay": not P, or for
// LeadsTo not Q) and ends in a fair cycle or a fair stutter there. The
// switch from phase 0 to phase 1 costs no step and happens at a state that
// may begin the violated suffix: for InfinitelyOften any not-P state, for
// LeadsTo a P-and-not-Q state (the trigger); Eventually starts in phase 1 at
// its not-P initial states. One 0-1 breadth-first search over (state, phase)
// gives both the region (the states phase 1 reaches: the only places the
// violated end can be) and each region state's shortest prefix.
#include "liveness/fair_cycles.hpp"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <utility>

#include "liveness/fair_components.hpp"

namespace statecheck::liveness {

namespace {

constexpr std::uint32_t unreached = 0xFFFFFFFFu;
constexpr Instance from_source = 0xFFFFFFFEu;  // a search origin: an initial state
constexpr Instance from_switch = 0xFFFFFFFDu;  // phase 1 entered at the same state

/// The property as the two phases read it.
struct Shape {
  const StateGraph& graph;
  Property property;
  bool stay(StateId v) const {
    return !graph.holds(v, property.kind == Property::Kind::LeadsTo ? property.q : property.p);
  }
  bool can_switch(StateId v) const {
    switch (property.kind) {
      case Property::Kind::Eventually: return false;
      case Property::Kind::InfinitelyOften: return stay(v);
      case Property::Kind::LeadsTo: return graph.holds(v, property.p) && stay(v);
    }
    return false;
  }
  bool starts_in_phase_one() const { return property.kind == Property::Kind::Eventually; }
};

/// Shortest (state, phase) paths from the initial states: 4 + 4 + 4 bytes a
/// state in each phase (distance, parent, instance taken), and the deque.
class Prefixes {
 public:
  explicit Prefixes(const Shape& shape) : shape_(shape) {
    const std::uint32_t n = shape.graph.state_count();
    for (int ph = 0; ph < 2; ++ph) {
      dist_[ph].assign(n, unreached);
      parent_[ph].assign(n, 0);
      via_[ph].assign(n, from_source);
    }
  }

  void run() {
    for (StateId s = 0; s < shape_.graph.initial_count(); ++s) {
      if (!shape_.starts_in_phase_one()) relax(s, 0, 0, s, from_source, false);
      else if (shape_.stay(s)) relax(s, 1, 0, s, from_source, false);
    }
    while (!queue_.empty()) {
      const std::uint64_t node = queue_.front();
      queue_.pop_front();
      const auto v = static_cast<StateId>(node >> 1);
      const auto ph = static_cast<int>(node & 1);
      expand(v, ph, dist_[ph][v]);
    }
  }

  bool in_region(StateId v) const { return dist_[1][v] != unreached; }
  std::uint32_t distance(StateId v) const { return dist_[1][v]; }

  /// The steps from an initial state to `target` in phase 1 (its own step's
  /// instance left to the cycle); `trigger` gets the index of the switch.
  std::vector<Lasso::Step> path_to(StateId target, std::size_t& trigger) const {
    std::vector<Lasso::Step> reversed{{target, no_instance}};
    std::size_t switch_from_end = 0;
    StateId v = target;
    int ph = 1;
    for (;;) {
      const Instance via = via_[ph][v];
      if (via == from_source) break;
      if (via == from_switch) {
        switch_from_end = reversed.size() - 1;
        ph = 0;
        continue;
      }
      v = parent_[ph][v];
      reversed.push_back({v, via});
    }
    trigger = reversed.size() - 1 - switch_from_end;
    return {reversed.rbegin(), reversed.rend()};
  }

 private:
  void expand(StateId v, int ph, std::uint32_t d) {
    if (ph == 0 && shape_.can_switch(v)) relax(v, 1, d, v, from_switch, true);
    for (const Edge& e : shape_.graph.successors(v))
      if (ph == 0 || shape_.stay(e.to)) relax(e.to, ph, d + 1, v, e.instance, false);
  }

  /// A strictly shorter way to (v, ph) replaces the old one: the first found
  /// among equals stays, so the answer depends on the graph's order only.
  void relax(StateId v, int ph, std::uint32_t d, StateId parent, Instance via, bool front) {
    if (d >= dist_[ph][v]) return;
    dist_[ph][v] = d;
    parent_[ph][v] = parent;
    via_[ph][v] = via;
    const std::uint64_t node = (std::uint64_t{v} << 1) | static_cast<std::uint64_t>(ph);
    if (front) queue_.push_front(node);
    else queue_.push_back(node);
  }

  const Shape& shape_;
  std::vector<std::uint32_t> dist_[2];
  std::vector<StateId> parent_[2];
  std::vector<Instance> via_[2];
  std::deque<std::uint64_t> queue_;
};

/// Where a violating end may begin: a fair stutter or a fair component.
struct End {
  StateId state = 0;
  bool stutter = false;
};

/// The nearest end, the lowest state first among equally near ones; at one
/// state a stutter (a cycle of length 0) comes before a cycle.
std::optional<End> nearest_end(const StateGraph& graph, const Prefixes& prefixes, const FairnessTable& table,
                               const FairComponents& components) {
  std::optional<End> best;
  for (StateId v = 0; v < graph.state_count(); ++v) {
    if (!prefixes.in_region(v)) continue;
    const bool stutters_fairly = !table.any_enabled(graph, v);
    if (!stutters_fairly && components.of[v] == FairComponents::none) continue;
    if (best && prefixes.distance(v) >= prefixes.distance(best->state)) continue;
    best = End{v, stutters_fairly};
  }
  return best;
}

}  // namespace

std::optional<Lasso> find_violation(const StateGraph& graph, const Property& property,
                                    std::span<const Fairness> fairness, CheckStats* stats) {
  check_arguments(graph, property, fairness);
  CheckStats local;
  CheckStats& counts = stats ? *stats : local;
  const Shape shape{graph, property};
  Prefixes prefixes(shape);
  prefixes.run();
  std::vector<std::uint8_t> region(graph.state_count(), 0);
  for (StateId v = 0; v < graph.state_count(); ++v) region[v] = prefixes.in_region(v) ? 1 : 0;
  counts.region_states = static_cast<std::uint64_t>(std::count(region.begin(), region.end(), 1));
  const FairnessTable table(graph, fairness);
  const FairComponents components = fair_components(graph, region, table, counts);
  region = {};
  const std::optional<End> end = nearest_end(graph, prefixes, table, components);
  if (!end) return std::nullopt;
  Lasso lasso;
  std::size_t trigger = 0;
  lasso.steps = prefixes.path_to(end->state, trigger);
  lasso.loop = lasso.steps.size() - 1;
  lasso.trigger = property.kind == Property::Kind::LeadsTo ? trigger : 0;
  lasso.stutters = end->stutter;
  if (end->stutter) return lasso;
  const std::vector<Lasso::Step> cycle = fair_cycle(graph, table, components, end->state);
  lasso.steps.pop_back();  // the cycle starts with the end state again
  lasso.steps.insert(lasso.steps.end(), cycle.begin(), cycle.end());
  return lasso;
}

}  // namespace statecheck::liveness
