// lib/src/liveness/verify_lasso.cpp - checks a lasso from the definitions in
// fair_cycles.hpp, sharing nothing with the search that found it but the
// graph and the argument checks: a wrong lasso is refused, never printed.
#include <algorithm>
#include <string>

#include "liveness/fair_components.hpp"
#include "liveness/fair_cycles.hpp"

namespace statecheck::liveness {

namespace {

bool has_edge(const StateGraph& graph, StateId from, StateId to, Instance instance) {
  const auto edges = graph.successors(from);
  return std::find(edges.begin(), edges.end(), Edge{to, instance}) != edges.end();
}

std::string at(std::size_t k) { return " at step " + std::to_string(k); }

/// A path of the graph from an initial state, closed by its loop.
std::string check_path(const StateGraph& graph, const Lasso& lasso) {
  const auto& steps = lasso.steps;
  if (steps.empty()) return "the lasso has no steps";
  if (lasso.loop >= steps.size()) return "the loop index is past the last step";
  for (std::size_t k = 0; k < steps.size(); ++k)
    if (steps[k].state >= graph.state_count()) return "no such state" + at(k);
  if (steps[0].state >= graph.initial_count()) return "the first state is not initial";
  for (std::size_t k = 0; k + 1 < steps.size(); ++k)
    if (!has_edge(graph, steps[k].state, steps[k + 1].state, steps[k].taken)) return "no such edge" + at(k);
  if (lasso.stutters) {
    if (lasso.loop + 1 != steps.size()) return "a stutter end with more than one state in its cycle";
    if (steps.back().taken != no_instance) return "a stutter end that takes an instance";
    return {};
  }
  if (!has_edge(graph, steps.back().state, steps[lasso.loop].state, steps.back().taken))
    return "the loop does not close" + at(steps.size() - 1);
  return {};
}

/// The property fails on the behavior: see fair_cycles.hpp for each kind.
std::string check_property(const StateGraph& graph, const Property& property, const Lasso& lasso) {
  const auto& steps = lasso.steps;
  std::size_t from = 0;  // the violated suffix: from here on, every state
  unsigned bit = property.p;
  switch (property.kind) {
    case Property::Kind::Eventually: break;
    case Property::Kind::InfinitelyOften: from = lasso.loop; break;
    case Property::Kind::LeadsTo:
      if (lasso.trigger >= steps.size()) return "the trigger is past the last step";
      if (!graph.holds(steps[lasso.trigger].state, property.p)) return "P does not hold at the trigger";
      from = std::min(lasso.trigger, lasso.loop);  // the cycle repeats after the trigger too
      bit = property.q;
      break;
  }
  const char* name = property.kind == Property::Kind::LeadsTo ? "Q" : "P";
  for (std::size_t k = from; k < steps.size(); ++k)
    if (graph.holds(steps[k].state, bit)) return std::string(name) + " holds" + at(k);
  return {};
}

/// Fair from the definitions: weak, enabled at every cycle state and never
/// taken; strong, enabled at some cycle state and never taken.
std::string check_fairness(const StateGraph& graph, std::span<const Fairness> fairness, const Lasso& lasso) {
  const auto cycle = std::span(lasso.steps).subspan(lasso.loop);
  for (const Fairness& f : fairness) {
    const bool taken = !lasso.stutters && std::any_of(cycle.begin(), cycle.end(), [&](const Lasso::Step& s) {
      return s.taken == f.instance;
    });
    if (taken) continue;
    const auto enabled = [&](const Lasso::Step& s) { return graph.is_enabled(s.state, f.instance); };
    const bool weak = f.kind == Fairness::Kind::Weak;
    if (weak ? std::all_of(cycle.begin(), cycle.end(), enabled) : std::any_of(cycle.begin(), cycle.end(), enabled))
      return std::string(weak ? "weakly" : "strongly") + " fair instance " + std::to_string(f.instance) +
             " is enabled on the cycle and never taken";
  }
  return {};
}

}  // namespace

std::string verify_lasso(const StateGraph& graph, const Property& property, std::span<const Fairness> fairness,
                         const Lasso& lasso) {
  check_arguments(graph, property, fairness);
  std::string why = check_path(graph, lasso);
  if (why.empty()) why = check_property(graph, property, lasso);
  if (why.empty()) why = check_fairness(graph, fairness, lasso);
  return why;
}

}  // namespace statecheck::liveness
