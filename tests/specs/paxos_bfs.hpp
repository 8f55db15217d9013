// An independent enumeration of single-decree Paxos (Paxos.tla, tlaplus/Examples)
// for the choice tests: plain C++ containers and a breadth-first search written
// from the TLA+ text, not from the DSL spec, counting as TLC does: every
// witness of every enabled action is one generated state, and the initial
// state counts once.
#pragma once

#include <array>
#include <cstdint>
#include <set>
#include <tuple>
#include <vector>

namespace test::paxos_bfs {

// Message: (type 0..3 = 1a 1b 2a 2b, acc, bal, mbal, val); unused fields hold -1 or 0 as in the spec.
using Message = std::tuple<int, int, int, int, int>;
struct Node {
  std::array<int, 3> maxBal{-1, -1, -1}, maxVBal{-1, -1, -1}, maxVal{-1, -1, -1};
  std::set<Message> msgs;
  auto operator<=>(const Node&) const = default;
};

struct Counts {
  std::uint64_t distinct = 0, generated = 0;
  std::uint32_t depth = 0;
  std::uint32_t first_chosen = 0;  // BFS level (0-based) of the first state where a value is chosen; 0: never
};

inline const std::vector<std::set<int>>& quorums() {
  static const std::vector<std::set<int>> q{{0, 1}, {0, 2}, {1, 2}};  // in the spec's order
  return q;
}

inline bool chosen(const Node& s) {
  for (const auto& [type, acc, bal, mbal, val] : s.msgs) {
    if (type != 3) continue;
    for (const auto& q : quorums()) {
      bool all = true;
      for (int a : q) all = all && s.msgs.count({3, a, bal, -1, val}) > 0;
      if (all) return true;
    }
  }
  return false;
}

/// Successors in no particular order; one per witness.
inline std::vector<Node> successors(const Node& s, int ballots, int values) {
  std::vector<Node> out;
  for (int b = 0; b < ballots; ++b) {  // Phase1a(b): Send([type |-> "1a", bal |-> b])
    Node t = s;
    t.msgs.insert({0, 0, b, -1, -1});
    out.push_back(t);
  }
  for (int a = 0; a < 3; ++a)  // Phase1b(a): \E m \in msgs : m.type = "1a" /\ m.bal > maxBal[a]
    for (const auto& [type, acc, bal, mbal, val] : s.msgs)
      if (type == 0 && bal > s.maxBal[a]) {
        Node t = s;
        t.maxBal[a] = bal;
        t.msgs.insert({1, a, bal, s.maxVBal[a], s.maxVal[a]});
        out.push_back(t);
      }
  for (int b = 0; b < ballots; ++b)  // Phase2a(b, v) with \E Q \in Quorum
    for (int v = 0; v < values; ++v)
      for (const auto& q : quorums()) {
        bool sent = false;
        for (const auto& m : s.msgs) sent = sent || (std::get<0>(m) == 2 && std::get<2>(m) == b);
        if (sent) continue;
        std::set<Message> q1b;
        for (const auto& m : s.msgs)
          if (std::get<0>(m) == 1 && q.count(std::get<1>(m)) && std::get<2>(m) == b) q1b.insert(m);
        bool every = true;
        for (int a : q) {
          bool has = false;
          for (const auto& m : q1b) has = has || std::get<1>(m) == a;
          every = every && has;
        }
        if (!every) continue;
        bool ok = true;
        bool any_voted = false;
        for (const auto& m : q1b) any_voted = any_voted || std::get<3>(m) >= 0;
        if (any_voted) {
          ok = false;
          for (const auto& m : q1b) {
            if (std::get<3>(m) < 0 || std::get<4>(m) != v) continue;
            bool highest = true;
            for (const auto& mm : q1b) highest = highest && std::get<3>(m) >= std::get<3>(mm);
            ok = ok || highest;
          }
        }
        if (!ok) continue;
        Node t = s;
        t.msgs.insert({2, 0, b, -1, v});
        out.push_back(t);
      }
  for (int a = 0; a < 3; ++a)  // Phase2b(a): \E m \in msgs : m.type = "2a" /\ m.bal >= maxBal[a]
    for (const auto& [type, acc, bal, mbal, val] : s.msgs)
      if (type == 2 && bal >= s.maxBal[a]) {
        Node t = s;
        t.maxBal[a] = bal;
        t.maxVBal[a] = bal;
        t.maxVal[a] = val;
        t.msgs.insert({3, a, bal, -1, val});
        out.push_back(t);
      }
  return out;
}

inline Counts enumerate(int ballots, int values) {
  std::set<Node> seen{Node{}};
  std::vector<Node> level{Node{}};
  Counts c{1, 1, 0, 0};
  for (std::uint32_t depth = 0; !level.empty(); ++depth) {
    c.depth = depth + 1;
    std::vector<Node> next;
    for (const Node& s : level) {
      if (c.first_chosen == 0 && chosen(s)) c.first_chosen = depth;
      for (Node& t : successors(s, ballots, values)) {
        ++c.generated;
        if (seen.insert(t).second) next.push_back(std::move(t));
      }
    }
    level = std::move(next);
  }
  c.distinct = seen.size();
  return c;
}

}  // namespace test::paxos_bfs
