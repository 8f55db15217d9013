// An independent enumeration of the lost-update model (examples/lost_update):
// a plain breadth-first search over its states, written without the engine,
// its DSL or its hashing, so that the engine's counts for lost-update are
// checked against a second implementation and not only against themselves.
//
// It follows the model's text, not its code: each client is at start, has_read
// or done and remembers the value it read; Read(c) copies the counter, Write(c)
// stores seen + 1 (with compare-and-set it starts over instead when the counter
// moved since the read). Actions are tried clients-ascending, Read before Write,
// as the spec declares them, which only matters for which violation is found.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace test::lost_update_bfs {

/// counter, then (step, seen) per client; step 0 = start, 1 = has_read, 2 = done.
using Node = std::vector<int>;

struct Counts {
  std::uint64_t distinct = 0;
  std::uint64_t generated = 0;  // successors computed, plus the initial state (TLC's "states generated")
  std::uint32_t depth = 0;      // BFS levels, the initial state's included
  std::optional<std::uint32_t> first_lost_update;  // steps to the first state whose counter lags
};

inline bool lost_update(const Node& s) {
  int done = 0;
  for (std::size_t i = 1; i < s.size(); i += 2) done += s[i] == 2 ? 1 : 0;
  return s[0] != done;
}

/// Successors of `s` in declaration order: Read(c) for every client, then Write(c).
inline std::vector<Node> successors(const Node& s, bool cas) {
  std::vector<Node> out;
  const std::size_t clients = (s.size() - 1) / 2;
  for (std::size_t c = 0; c < clients; ++c) {
    if (s[1 + 2 * c] != 0) continue;
    Node t = s;
    t[1 + 2 * c] = 1;
    t[2 + 2 * c] = s[0];
    out.push_back(t);
  }
  for (std::size_t c = 0; c < clients; ++c) {
    if (s[1 + 2 * c] != 1) continue;
    Node t = s;
    if (cas && s[0] != s[2 + 2 * c]) {
      t[1 + 2 * c] = 0;
    } else {
      t[0] = s[2 + 2 * c] + 1;
      t[1 + 2 * c] = 2;
    }
    out.push_back(t);
  }
  return out;
}

/// The whole reachable space (it does not stop at a violation).
inline Counts enumerate(int clients, bool cas) {
  Node init(1 + 2 * static_cast<std::size_t>(clients), 0);
  std::map<Node, std::uint32_t> level_of{{init, 0}};
  std::vector<Node> frontier{init};
  Counts n{1, 1, 0, std::nullopt};
  for (std::uint32_t level = 0; !frontier.empty(); ++level) {
    n.depth = level + 1;
    std::vector<Node> next;
    for (const Node& s : frontier) {
      if (lost_update(s) && !n.first_lost_update) n.first_lost_update = level;
      for (Node& t : successors(s, cas)) {
        ++n.generated;
        if (level_of.emplace(t, level + 1).second) next.push_back(std::move(t));
      }
    }
    frontier = std::move(next);
  }
  n.distinct = level_of.size();
  return n;
}

}  // namespace test::lost_update_bfs
