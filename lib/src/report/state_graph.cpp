// The reachable graph of a small spec and its DOT text; see report/state_graph.hpp.
#include "report/state_graph.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "statecheck/detail/search.hpp"
#include "statecheck/report.hpp"

namespace statecheck::detail {

namespace {

/// Index of the states found so far, by fingerprint, confirmed with equal().
class StateIndex {
 public:
  StateIndex(const ModelView& view, StateGraph& graph, std::uint64_t limit)
      : view_(view), graph_(graph), limit_(limit) {}

  /// The number of `s`, adding it when new.
  std::uint32_t find_or_add(const OwnedState& s) {
    const Hash128 h = view_.fingerprint(s);
    const auto [first, last] = by_hash_.equal_range(h.lo);
    for (auto it = first; it != last; ++it)
      if (view_.equal(graph_.states[it->second], s)) return it->second;
    if (graph_.states.size() >= limit_)
      throw config_error("the state space has more than " + std::to_string(limit_) +
                         " states; --dump-graph is for small specs: raise --graph-limit or use --max-depth");
    const auto id = static_cast<std::uint32_t>(graph_.states.size());
    graph_.states.push_back(s);
    by_hash_.emplace(h.lo, id);
    return id;
  }

 private:
  const ModelView& view_;
  StateGraph& graph_;
  std::uint64_t limit_;
  std::unordered_multimap<std::uint64_t, std::uint32_t> by_hash_;
};

/// `text` inside a double-quoted DOT string.
std::string dot_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '"' || c == '\\') out.push_back('\\');
    if (c == '\n') out += "\\l";
    else out.push_back(c);
  }
  return out;
}

/// One left-justified line per field: `big = 5`.
std::string state_label(const Value& state) {
  std::string label;
  for (const Field& f : flatten(state)) label += dot_escape(f.path + " = " + f.text) + "\\l";
  return label;
}

/// The states and edges `trace` passes through, as far as they are in the graph
/// (a graph of at most --graph-limit states: its trace is short, held whole).
struct Path {
  std::vector<std::uint32_t> states;
  std::vector<std::size_t> edges;
};

Path trace_path(const ModelView& view, const StateGraph& g, const std::vector<Value>& values,
                const std::vector<TraceStep>& trace) {
  Path path;
  if (trace.empty()) return path;
  for (std::uint32_t i = 0; i < g.initial_count; ++i)
    if (values[i] == trace[0].state) {
      path.states.push_back(i);
      break;
    }
  for (std::size_t k = 1; k < trace.size() && path.states.size() == k; ++k) {
    const auto from = path.states.back();
    const std::optional<std::uint32_t> tid = view.find_label(trace[k].label, g.states[from]);
    const auto first = std::lower_bound(g.edges.begin(), g.edges.end(), from,
                                        [](const StateGraph::Edge& e, std::uint32_t s) { return e.from < s; });
    for (auto e = first; tid && e != g.edges.end() && e->from == from; ++e)
      if (e->tid == *tid && values[e->to] == trace[k].state) {
        path.edges.push_back(static_cast<std::size_t>(e - g.edges.begin()));
        path.states.push_back(e->to);
        break;
      }
  }
  return path;
}

}  // namespace

namespace {

std::string mib(std::size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

/// Stops the exploration on a stop request, or when what it holds (the
/// states, each in its own allocation, the index's nodes and the edges) grows
/// beyond `memory`; polled once per state made or expanded.
void check_budget(const StateGraph& g, std::size_t state_size, std::size_t memory, std::uint32_t level) {
  const std::string where = "level " + std::to_string(level) + ", " + std::to_string(g.states.size()) + " states";
  if (stop_flag().load(std::memory_order_relaxed))
    throw stopped_error("interrupted while exploring the graph for --dump-graph (" + where +
                        "); no graph was written and nothing was checked");
  constexpr std::size_t per_state_overhead = 16 + 8 + 64;  // allocator header, guard word, index node
  const std::size_t used = g.states.capacity() * sizeof(OwnedState) +
                           g.states.size() * ((state_size + 7) / 8 * 8 + per_state_overhead) +
                           g.edges.capacity() * sizeof(StateGraph::Edge);
  if (used > memory)
    throw stopped_error("the graph for --dump-graph outgrew --memory " + mib(memory) + " (" + where + ", " +
                        std::to_string(g.edges.size()) + " transitions); raise --memory, or use --max-depth");
}

}  // namespace

StateGraph explore_graph(const ModelView& view, std::uint64_t limit, std::uint32_t max_depth, std::size_t memory) {
  StateGraph g;
  StateIndex index(view, g, limit);
  const std::size_t state_size = view.ops().state_size;
  for (std::uint32_t c = 0; c < view.ops().init_combinations; ++c) {
    if ((c & 1023u) == 0) check_budget(g, state_size, memory, 1);
    if (const std::optional<OwnedState> s = view.initial(c)) index.find_or_add(*s);
  }
  g.initial_count = g.states.size();
  // Levels are contiguous ranges of states: [level_begin, level_end) is level `level`.
  std::size_t level_begin = 0;
  std::uint32_t level = 1;
  std::vector<std::uint32_t> tids;
  OwnedState scratch = view.blank();
  while (level_begin < g.states.size() && (max_depth == 0 || level < max_depth)) {
    const std::size_t level_end = g.states.size();
    for (std::size_t i = level_begin; i < level_end; ++i) {
      view.enabled(g.states[i], tids, scratch);
      for (std::size_t k = 0; k < tids.size(); ++k) {
        if ((k & 1023u) == 0) check_budget(g, state_size, memory, level);  // a huge fan-out is checked within
        const std::optional<OwnedState> next = view.successor(g.states[i], tids[k]);
        g.edges.push_back({static_cast<std::uint32_t>(i), index.find_or_add(*next), tids[k]});
      }
      if (tids.empty()) check_budget(g, state_size, memory, level);
    }
    level_begin = level_end;
    ++level;
  }
  check_budget(g, state_size, memory, level);
  return g;
}

std::string graph_dot(const ModelView& view, const StateGraph& g, const Violation* violation) {
  std::vector<Value> values;
  values.reserve(g.states.size());
  for (const OwnedState& s : g.states) values.push_back(view.value(s));
  const Path path = violation ? trace_path(view, g, values, violation->trace.steps()) : Path{};
  const bool complete = violation && !path.states.empty() && path.states.size() == violation->trace.size();

  std::string dot = "// statecheck --dump-graph: " + std::to_string(g.states.size()) + " states, " +
                    std::to_string(g.edges.size()) + " transitions. Initial states have a double border;\n" +
                    "// the counterexample of the check is red, its last state filled.\n";
  dot += "digraph \"" + dot_escape(view.ops().name) + "\" {\n";
  dot += "  node [shape=box, fontname=\"monospace\", fontsize=10];\n";
  dot += "  edge [fontname=\"monospace\", fontsize=9];\n";
  for (std::size_t i = 0; i < g.states.size(); ++i) {
    dot += "  s" + std::to_string(i) + " [label=\"" + state_label(values[i]) + "\"";
    if (i < g.initial_count) dot += ", peripheries=2";
    const bool on_path = std::find(path.states.begin(), path.states.end(), i) != path.states.end();
    if (complete && i == path.states.back()) {
      dot += ", color=red, penwidth=3, style=filled, fillcolor=\"#f4cccc\", xlabel=\"" +
             dot_escape(violation->property) + "\"";
    } else if (on_path) {
      dot += ", color=red, penwidth=2";
    }
    dot += "];\n";
  }
  for (std::size_t k = 0; k < g.edges.size(); ++k) {
    const StateGraph::Edge& e = g.edges[k];
    dot += "  s" + std::to_string(e.from) + " -> s" + std::to_string(e.to) + " [label=\"" +
           dot_escape(view.label(e.tid, g.states[e.from])) + "\"";
    if (std::find(path.edges.begin(), path.edges.end(), k) != path.edges.end()) dot += ", color=red, penwidth=3";
    dot += "];\n";
  }
  dot += "}\n";
  return dot;
}

}  // namespace statecheck::detail
