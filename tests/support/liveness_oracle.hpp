// A brute-force liveness oracle for tests/unit/fair_cycles_test.cpp, built
// from the definitions in lib/src/liveness/fair_cycles.hpp and nothing of its
// algorithm: on a graph of a few states it tries every set of edges that is
// strongly connected (the edges a closed walk takes infinitely often, so the
// end of a behavior) and every stutter, judges the property and fairness on
// it directly, and finds the shortest prefix to it by all-pairs distances.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <tuple>
#include <vector>

#include "liveness/fair_cycles.hpp"
#include "liveness/state_graph.hpp"

namespace test::liveness {

using namespace statecheck::liveness;

/// A graph as a test writes it: edges in any order, enabled instances
/// beyond those the edges take.
struct GraphSpec {
  std::uint32_t instances = 0;
  std::uint32_t initial = 1;
  std::vector<std::uint64_t> labels;  // one per state
  std::vector<std::tuple<StateId, StateId, Instance>> edges;
  std::vector<std::pair<StateId, Instance>> also_enabled;
};

inline StateGraph build(const GraphSpec& spec) {
  GraphBuilder builder(spec.instances);
  for (std::size_t s = 0; s < spec.labels.size(); ++s) builder.add_state(spec.labels[s], s < spec.initial);
  auto edges = spec.edges;
  std::stable_sort(edges.begin(), edges.end(), [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  std::vector<std::pair<StateId, Instance>> enabled = spec.also_enabled;
  for (const auto& [from, to, instance] : edges) {
    builder.add_edge(from, to, instance);
    if (instance != no_instance) enabled.emplace_back(from, instance);
  }
  std::sort(enabled.begin(), enabled.end());
  enabled.erase(std::unique(enabled.begin(), enabled.end()), enabled.end());
  for (const auto& [s, i] : enabled) builder.add_enabled(s, i);
  return builder.finish();
}

constexpr std::uint32_t far = std::numeric_limits<std::uint32_t>::max() / 4;

/// Shortest distances by Floyd-Warshall over the edges whose ends both pass `keep`.
template <class Keep>
std::vector<std::vector<std::uint32_t>> distances(const GraphSpec& spec, Keep keep) {
  const std::size_t n = spec.labels.size();
  std::vector<std::vector<std::uint32_t>> d(n, std::vector<std::uint32_t>(n, far));
  for (std::size_t v = 0; v < n; ++v)
    if (keep(v)) d[v][v] = 0;
  for (const auto& [from, to, instance] : spec.edges)
    if (keep(from) && keep(to)) d[from][to] = std::min<std::uint32_t>(d[from][to], 1);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) d[i][j] = std::min(d[i][j], d[i][k] + d[k][j]);
  return d;
}

/// The oracle's verdict: whether a fair violating behavior exists, and the
/// shortest prefix (steps from an initial state to its end) among them.
struct Verdict {
  bool violated = false;
  std::uint32_t prefix = far;
};

class Oracle {
 public:
  Oracle(const GraphSpec& spec, const Property& property, const std::vector<Fairness>& fairness)
      : spec_(spec), property_(property), fairness_(fairness), enabled_(spec.labels.size()) {
    for (const auto& [from, to, instance] : spec.edges)
      if (instance != no_instance) enabled_[from].push_back(instance);
    for (const auto& [s, i] : spec.also_enabled) enabled_[s].push_back(i);
    any_ = distances(spec, [](std::size_t) { return true; });
    stay_ = distances(spec, [&](std::size_t v) { return stays(v); });
  }

  Verdict verdict() const {
    Verdict out;
    const std::size_t m = spec_.edges.size();
    for (std::uint64_t subset = 1; subset < (std::uint64_t{1} << m); ++subset) consider_edges(subset, out);
    for (std::size_t s = 0; s < spec_.labels.size(); ++s) consider(std::uint64_t{1} << s, {}, out);
    out.violated = out.prefix < far;  // a fair end that no allowed prefix reaches is no behavior
    return out;
  }

 private:
  bool holds(std::size_t v, unsigned bit) const { return (spec_.labels[v] >> bit) & 1u; }
  bool stays(std::size_t v) const {
    return !holds(v, property_.kind == Property::Kind::LeadsTo ? property_.q : property_.p);
  }
  bool enabled(std::size_t v, Instance i) const {
    return std::find(enabled_[v].begin(), enabled_[v].end(), i) != enabled_[v].end();
  }

  void consider_edges(std::uint64_t subset, Verdict& out) const {
    std::uint64_t states = 0;
    std::vector<Instance> taken;
    std::vector<std::pair<std::size_t, std::size_t>> chosen;
    for (std::size_t e = 0; e < spec_.edges.size(); ++e) {
      if (!((subset >> e) & 1u)) continue;
      const auto& [from, to, instance] = spec_.edges[e];
      states |= (std::uint64_t{1} << from) | (std::uint64_t{1} << to);
      taken.push_back(instance);
      chosen.emplace_back(from, to);
    }
    if (strongly_connected(states, chosen)) consider(states, taken, out);
  }

  /// Every state of `states` reaches every other along `chosen` alone.
  bool strongly_connected(std::uint64_t states, const std::vector<std::pair<std::size_t, std::size_t>>& chosen) const {
    const std::size_t n = spec_.labels.size();
    std::vector<std::uint64_t> reach(n, 0);
    for (std::size_t v = 0; v < n; ++v) reach[v] = std::uint64_t{1} << v;
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& [from, to] : chosen) {
        const std::uint64_t next = reach[from] | reach[to];
        if (next != reach[from]) reach[from] = next, grew = true;
      }
    }
    for (std::size_t v = 0; v < n; ++v)
      if (((states >> v) & 1u) && (reach[v] & states) != states) return false;
    return true;
  }

  /// An end visiting `states` forever and taking `taken` (empty: a stutter).
  void consider(std::uint64_t states, const std::vector<Instance>& taken, Verdict& out) const {
    const std::size_t n = spec_.labels.size();
    for (std::size_t v = 0; v < n; ++v)
      if (((states >> v) & 1u) && !stays(v)) return;
    if (!fair(states, taken)) return;
    for (std::size_t v = 0; v < n; ++v)
      if ((states >> v) & 1u) out.prefix = std::min(out.prefix, prefix_to(v));
  }

  bool fair(std::uint64_t states, const std::vector<Instance>& taken) const {
    for (const Fairness& f : fairness_) {
      if (std::find(taken.begin(), taken.end(), f.instance) != taken.end()) continue;
      bool all = true, some = false;
      for (std::size_t v = 0; v < spec_.labels.size(); ++v) {
        if (!((states >> v) & 1u)) continue;
        const bool on = enabled(v, f.instance);
        all = all && on;
        some = some || on;
      }
      if (f.kind == Fairness::Kind::Weak ? all : some) return false;
    }
    return true;
  }

  /// The fewest steps from an initial state to `end` that keep the property
  /// violated from where it must be (fair_cycles.hpp's three readings).
  std::uint32_t prefix_to(std::size_t end) const {
    std::uint32_t best = far;
    for (std::size_t i = 0; i < spec_.initial; ++i) {
      if (property_.kind == Property::Kind::Eventually) best = std::min(best, stay_[i][end]);
      if (property_.kind == Property::Kind::InfinitelyOften) best = std::min(best, any_[i][end]);
      if (property_.kind != Property::Kind::LeadsTo) continue;
      for (std::size_t x = 0; x < spec_.labels.size(); ++x)
        if (holds(x, property_.p) && stays(x)) best = std::min(best, any_[i][x] + stay_[x][end]);
    }
    return best >= far ? far : best;
  }

  const GraphSpec& spec_;
  Property property_;
  std::vector<Fairness> fairness_;
  std::vector<std::vector<Instance>> enabled_;
  std::vector<std::vector<std::uint32_t>> any_, stay_;
};

/// A random small graph: up to 7 states, 12 edges, 3 instances, two predicate bits.
inline GraphSpec random_graph(std::mt19937& rng) {
  auto pick = [&](std::uint32_t lo, std::uint32_t hi) { return std::uniform_int_distribution<std::uint32_t>(lo, hi)(rng); };
  GraphSpec spec;
  const std::uint32_t n = pick(1, 7);
  spec.instances = pick(1, 3);
  spec.initial = pick(1, std::min<std::uint32_t>(n, 2));
  for (std::uint32_t s = 0; s < n; ++s) spec.labels.push_back(pick(0, 3));
  const std::uint32_t m = n == 1 ? 0 : pick(n / 2, 12);
  for (std::uint32_t e = 0; e < m; ++e) {
    const StateId from = pick(0, n - 1);
    const StateId to = (from + pick(1, n - 1)) % n;  // never a self-loop
    const std::uint32_t roll = pick(0, spec.instances);
    const Instance instance = roll == spec.instances ? no_instance : roll;
    const auto edge = std::make_tuple(from, to, instance);
    if (std::find(spec.edges.begin(), spec.edges.end(), edge) == spec.edges.end()) spec.edges.push_back(edge);
  }
  for (std::uint32_t s = 0; s < n; ++s)
    for (Instance i = 0; i < spec.instances; ++i)
      if (pick(0, 4) == 0) spec.also_enabled.emplace_back(s, i);
  return spec;
}

}  // namespace test::liveness
