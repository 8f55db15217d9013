// German's protocol under the CMP abstraction (tlaplus/Examples,
// specifications/GermanProtocol/GermanCMPWithMutex.tla, commit d9456a2),
// checked as MCGermanCMPWithMutex.cfg (d9456a2) checks it: NODE = {n1, n2},
// Other = other, NoNode = noNode, SYMMETRY Permutations(NODE) (a group of 2:
// Other and NoNode stay fixed), deadlock checked, INVARIANT TypeOK, Coherence,
// Lemma_1. Two concrete nodes plus Other, which stands for every node left out
// of NODE: its ABS_ actions project what those nodes do onto the home node's
// shared state. The cache lines carry no data (the control protocol).
//
// With other=false the ABS_ actions are left out, and what remains is
// GermanControl.tla (475781d), the same module without Other: MCGermanControl.tla
// declares Symmetry == Permutations(NODE); its cfg is not in the stored copy of
// the repository, but its predecessor MCGermanCoherence.cfg (4115b7d: NODE =
// {n1, n2}, SYMMETRY Symmetry, INVARIANT TypeOK Coherence) is, and the manifest
// publishes the same counts for both: 735 distinct, 1946 generated, depth 19.
// (MCGermanControl's PROPERTY Refinement, if its cfg lists one, is temporal and
// does not change the counts.)
//
// TLA+ -> DSL (the shared part: german_common.hpp):
//   cache \in [NODE -> CacheState], chan1..chan3 \in [NODE -> cmd]
//                                       -> id_array<Node, CacheState/Cmd1/Cmd2/Cmd3, N>
//   curPtr \in NODE \cup {Other, NoNode} -> cur_ptr (a MaybeNode: one node, or empty) and
//                                          cur_other (curPtr = Other; then cur_ptr is empty)
//   ABS_RecvReq's \E c \in {"ReqS", "ReqE"} -> parameter c
//   ABS_RecvInvAck's noninterference guard (\A j \in NODE : ...) -> loops over the nodes
//   TypeOK                              -> holds by construction of the types
//
// TLC's counts for MCGermanCMPWithMutex.cfg are published in the repository's
// specifications/GermanProtocol/manifest.json (d9456a2): 1107 distinct states,
// 3281 generated, depth 19 (tests/specs/tla_symmetry_test.cpp pins them).
#pragma once

#include <statecheck/statecheck.hpp>
#include <tuple>
#include <utility>

#include "german_common.hpp"

namespace examples::german_cmp {

using namespace examples::german;

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (statecheck::id_array<Node, CacheState, max_nodes>, cache),
      (statecheck::id_array<Node, Cmd1, max_nodes>, chan1),
      (statecheck::id_array<Node, Cmd2, max_nodes>, chan2),
      (statecheck::id_array<Node, Cmd3, max_nodes>, chan3),
      (NodeSet, inv_set), (NodeSet, shr_set), (bool, ex_gntd),
      (Cmd1, cur_cmd), (MaybeNode, cur_ptr), (bool, cur_other));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int nodes = 2;
  bool other = true;  // false: GermanControl.tla, the protocol without the abstract node Other
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("nodes", &Config::nodes, 1, max_nodes, "number of concrete caching nodes (NODE)"),
    statecheck::boolean("other", &Config::other, "the abstract node Other and its ABS_ actions (false: GermanControl)"));

/// The concrete nodes' actions of GermanCMPWithMutex.tla, in Next's order.
inline auto node_actions(const statecheck::param_t<NodeId>& i) {
  using statecheck::action;
  return std::make_tuple(
      action("SendReq", i, request_param(),
             [](const State& s, NodeId n, Cmd1 r) { return s.chan1[n] == Cmd1::Empty && may_request(s.cache[n], r); },
             [](State& s, NodeId n, Cmd1 r) { s.chan1[n] = r; }),
      action("RecvReq", i, [](const State& s, NodeId n) { return s.cur_cmd == Cmd1::Empty && s.chan1[n] != Cmd1::Empty; },
             [](State& s, NodeId n) {
               s.cur_cmd = s.chan1[n];
               s.cur_ptr = MaybeNode{n};
               s.cur_other = false;
               s.chan1[n] = Cmd1::Empty;
               s.inv_set = s.shr_set;
             }),
      action("SendInv", i,
             [](const State& s, NodeId n) {
               return s.chan2[n] == Cmd2::Empty && s.inv_set.contains(n) && invalidating(s.cur_cmd, s.ex_gntd);
             },
             [](State& s, NodeId n) {
               s.chan2[n] = Cmd2::Inv;
               s.inv_set.erase(n);
             }),
      action("SendInvAck", i, [](const State& s, NodeId n) { return s.chan2[n] == Cmd2::Inv && s.chan3[n] == Cmd3::Empty; },
             [](State& s, NodeId n) {
               s.chan2[n] = Cmd2::Empty;
               s.chan3[n] = Cmd3::InvAck;
               s.cache[n] = CacheState::I;
             }),
      action("RecvInvAck", i, [](const State& s, NodeId n) { return s.chan3[n] == Cmd3::InvAck && s.cur_cmd != Cmd1::Empty; },
             [](State& s, NodeId n) {
               s.chan3[n] = Cmd3::Empty;
               s.shr_set.erase(n);
               s.ex_gntd = false;
             }),
      action("SendGnt", i,
             [](const State& s, NodeId n) {
               return s.cur_cmd != Cmd1::Empty && s.cur_ptr == MaybeNode{n} && s.chan2[n] == Cmd2::Empty && !s.ex_gntd &&
                      (s.cur_cmd != Cmd1::ReqE || s.shr_set.empty());
             },
             [](State& s, NodeId n) {
               s.chan2[n] = s.cur_cmd == Cmd1::ReqS ? Cmd2::GntS : Cmd2::GntE;
               s.shr_set.insert(n);
               s.ex_gntd = s.cur_cmd == Cmd1::ReqE;
               s.cur_cmd = Cmd1::Empty;
               s.cur_ptr = MaybeNode{};
             }),
      action("RecvGnt", i, [](const State& s, NodeId n) { return s.chan2[n] == Cmd2::GntS || s.chan2[n] == Cmd2::GntE; },
             [](State& s, NodeId n) {
               s.cache[n] = s.chan2[n] == Cmd2::GntS ? CacheState::S : CacheState::E;
               s.chan2[n] = Cmd2::Empty;
             }));
}

/// Node j is exclusive, being granted exclusivity, or acknowledging: what
/// Lemma_1 and ABS_RecvInvAck's guard forbid of the nodes other than the writer.
inline bool holds_exclusive(const State& s, NodeId j) {
  return s.cache[j] == CacheState::E || s.chan2[j] == Cmd2::GntE || s.chan3[j] == Cmd3::InvAck;
}

/// Other's actions: it takes requests (ABS_RecvReq), is granted (ABS_SendGnt)
/// and gives up exclusivity (ABS_RecvInvAck) only when no concrete node holds it.
inline auto other_actions(int nodes, bool present) {
  using statecheck::action;
  using statecheck::when;
  return std::make_tuple(
      when(present, action("ABS_RecvReq", request_param(), [](const State& s, Cmd1) { return s.cur_cmd == Cmd1::Empty; },
             [](State& s, Cmd1 r) {
               s.cur_cmd = r;
               s.cur_ptr = MaybeNode{};
               s.cur_other = true;
               s.inv_set = s.shr_set;
             })),
      when(present, action("ABS_SendGnt",
             [](const State& s) {
               return s.cur_cmd != Cmd1::Empty && s.cur_other && !s.ex_gntd &&
                      (s.cur_cmd != Cmd1::ReqE || s.shr_set.empty());
             },
             [](State& s) {
               s.ex_gntd = s.cur_cmd == Cmd1::ReqE;
               s.cur_cmd = Cmd1::Empty;
               s.cur_other = false;
             })),
      when(present, action("ABS_RecvInvAck",
             [nodes](const State& s) {
               if (s.cur_cmd == Cmd1::Empty || !s.ex_gntd) return false;
               for (int j = 0; j < nodes; ++j)
                 if (holds_exclusive(s, NodeId(j))) return false;
               return true;
             },
             [](State& s) { s.ex_gntd = false; })));
}

/// Lemma_1: while a writeback from i is pending (InvAck, a command in progress,
/// exGntd), no other node holds or is being granted exclusivity or acknowledges.
inline bool lemma_1(const State& s, int nodes) {
  for (int i = 0; i < nodes; ++i) {
    if (s.chan3[NodeId(i)] != Cmd3::InvAck || s.cur_cmd == Cmd1::Empty || !s.ex_gntd) continue;
    for (int j = 0; j < nodes; ++j)
      if (j != i && holds_exclusive(s, NodeId(j))) return false;
  }
  return true;
}

inline auto make_spec(const Config& c) {
  const int nodes = c.nodes;
  auto all = std::tuple_cat(node_actions(statecheck::ids<Node>("i", c.nodes)), other_actions(nodes, c.other));
  return statecheck::spec<State>(
      "german-cmp", statecheck::init([nodes](State& s) { statecheck::use_ids<Node>(s, nodes); }),
      std::apply([](auto... a) { return statecheck::actions(std::move(a)...); }, std::move(all)),
      statecheck::invariants(
          statecheck::invariant("Coherence",
                                [nodes](const State& s) { return coherent(nodes, [&](NodeId n) { return s.cache[n]; }); }),
          statecheck::invariant("Lemma_1", [nodes](const State& s) { return lemma_1(s, nodes); })),
      // Not in the TLA+ module: evidence that Lemma_1 is checked where it matters, a writeback
      // from a node pending while a request is in progress (Lemma_1's antecedent).
      statecheck::reachable(statecheck::goal("PendingWriteback",
                                             [nodes](const State& s) {
                                               if (s.cur_cmd == Cmd1::Empty || !s.ex_gntd) return false;
                                               for (int i = 0; i < nodes; ++i)
                                                 if (s.chan3[NodeId(i)] == Cmd3::InvAck) return true;
                                               return false;
                                             })),
      statecheck::symmetric<Node>(c.nodes));
}

}  // namespace examples::german_cmp
