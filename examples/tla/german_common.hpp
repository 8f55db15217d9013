// What german_data.hpp and german_cmp.hpp share: Steven German's cache-coherence
// protocol as tlaplus/Examples writes it (specifications/GermanProtocol/), one
// home node serving requests of the caching nodes in NODE over three channels
// per node (chan1: requests, chan2: invalidations and grants, chan3: acks).
//
// TLA+ -> DSL:
//   NODE, DATA (model values n1.., d1..)  -> named id kinds Node (n1..) and Data (d1..)
//   NoNode, NoData (sentinels outside NODE, DATA, fixed by the symmetry)
//                                         -> an empty id_set (MaybeNode, MaybeData), which holds no
//                                            id for renaming to move
//   CacheState == {"I", "S", "E"}          -> CacheState
//   chan1/chan2/chan3 commands, each channel's TypeOK set
//                                         -> Cmd1 (also curCmd's type), Cmd2, Cmd3
//   invSet, shrSet \subseteq NODE          -> NodeSet (id_set of Node)
#pragma once

#include <statecheck/statecheck.hpp>

namespace examples::german {

struct Node {
  static constexpr std::string_view prefix = "n";
};
struct Data {
  static constexpr std::string_view prefix = "d";
};
using NodeId = statecheck::id<Node>;
using DataId = statecheck::id<Data>;

inline constexpr int max_nodes = 3;
inline constexpr int max_data = 3;
using NodeSet = statecheck::id_set<max_nodes, Node>;
using MaybeNode = NodeSet;  // NODE \cup {NoNode}: one node, or empty for NoNode
using MaybeData = statecheck::id_set<max_data, Data>;  // DATA \cup {NoData}: one value, or empty

STATECHECK_ENUM(CacheState, I, S, E);
STATECHECK_ENUM(Cmd1, Empty, ReqS, ReqE);  // chan1 and curCmd
STATECHECK_ENUM(Cmd2, Empty, Inv, GntS, GntE);
STATECHECK_ENUM(Cmd3, Empty, InvAck);

/// SendReq(i)'s \E c \in {"ReqS", "ReqE"}: one successor per c that TLC enumerates.
inline statecheck::param_t<Cmd1> request_param() { return statecheck::param("c", {Cmd1::ReqS, Cmd1::ReqE}); }

/// SendReq's guard: cache[i] \in (IF c = "ReqS" THEN {"I"} ELSE {"I", "S"}).
inline bool may_request(CacheState line, Cmd1 c) {
  return c == Cmd1::ReqS ? line == CacheState::I : line != CacheState::E;
}

/// SendInv's third conjunct: curCmd = "ReqE" \/ (curCmd = "ReqS" /\ exGntd = TRUE).
inline bool invalidating(Cmd1 cur_cmd, bool ex_gntd) {
  return cur_cmd == Cmd1::ReqE || (cur_cmd == Cmd1::ReqS && ex_gntd);
}

/// Coherence, over any per-node view of the cache state:
/// \A i, j : i # j => (cache[i] = "E" => cache[j] = "I") /\ (cache[i] = "S" => cache[j] \in {"I", "S"}).
template <class StateOf>
bool coherent(int nodes, const StateOf& state_of) {
  for (int i = 0; i < nodes; ++i)
    for (int j = 0; j < nodes; ++j) {
      if (i == j) continue;
      const CacheState a = state_of(NodeId(i)), b = state_of(NodeId(j));
      if (a == CacheState::E && b != CacheState::I) return false;
      if (a == CacheState::S && b == CacheState::E) return false;
    }
  return true;
}

}  // namespace examples::german
