// Steven German's cache-coherence protocol with data (tlaplus/Examples,
// specifications/GermanProtocol/GermanData.tla, commit 475781d), checked as
// MCGermanData.cfg (commit d9456a2) checks it: NODE = {n1, n2}, DATA = {d1, d2},
// SYMMETRY Permutations(NODE) \union Permutations(DATA) (a group of 4), deadlock
// checked (the cfg does not turn it off), INVARIANT TypeOK, Coherence, DataProp,
// TransactionConsistency, DirectoryAccurate, ExclusiveIsolation,
// WritebackCarriesLatest. The cfg's PROPERTY Refinement (Abstract!Spec, the
// data-forgetting projection onto GermanControl) is temporal: statecheck does
// not check it, and checking it does not change TLC's state counts (TLC counts
// the states of SPECIFICATION Spec; a property only adds a verdict).
//
// TLA+ -> DSL (the shared part: german_common.hpp):
//   cache \in [NODE -> [state, data]]   -> id_array<Node, Line, N>
//   chan1 \in [NODE -> [cmd, data]]     -> id_array<Node, Cmd1, N>: no action writes chan1[i].data,
//                                          which stays NoData (Init), so it is left out
//   chan2, chan3 \in [NODE -> [cmd, data]] -> id_array<Node, Msg2/Msg3, N>
//   memData, auxData \in DATA           -> MaybeData: RecvInvAck copies memData from chan3[i].data,
//                                          a Payload, so "memData \in DATA" is checked (TypeOK)
//   Init == \E d \in DATA : ...         -> init(d): one initial state per data value
//   \E i \in NODE, d \in DATA : Store(i, d) and \E i \in NODE : SendReq(i) \/ ...
//                                       -> actions over i (and d); SendReq's \E c is parameter c
//   TypeOK                              -> the types, plus the invariant TypeOK for memData and
//                                          auxData (the one part the types do not ensure)
//
// TLC's counts for MCGermanData.cfg are published in the repository's
// specifications/GermanProtocol/manifest.json (d9456a2): 852 distinct states,
// 2493 generated, depth 19 (tests/specs/tla_symmetry_test.cpp pins what
// statecheck reports against them, and the unreduced space against the 3390
// states of the same protocol published without SYMMETRY: see there).
#pragma once

#include <statecheck/statecheck.hpp>

#include "german_common.hpp"

namespace examples::german_data {

using namespace examples::german;

struct Line {
  BOOST_HANA_DEFINE_STRUCT(Line, (CacheState, state), (MaybeData, data));
  friend bool operator==(const Line&, const Line&) = default;
};
struct Msg2 {
  BOOST_HANA_DEFINE_STRUCT(Msg2, (Cmd2, cmd), (MaybeData, data));
  friend bool operator==(const Msg2&, const Msg2&) = default;
};
struct Msg3 {
  BOOST_HANA_DEFINE_STRUCT(Msg3, (Cmd3, cmd), (MaybeData, data));
  friend bool operator==(const Msg3&, const Msg3&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (statecheck::id_array<Node, Line, max_nodes>, cache),
      (statecheck::id_array<Node, Cmd1, max_nodes>, chan1),
      (statecheck::id_array<Node, Msg2, max_nodes>, chan2),
      (statecheck::id_array<Node, Msg3, max_nodes>, chan3),
      (NodeSet, inv_set), (NodeSet, shr_set), (bool, ex_gntd),
      (Cmd1, cur_cmd), (MaybeNode, cur_ptr),
      (MaybeData, mem_data), (MaybeData, aux_data));
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  int nodes = 2;
  int data = 2;
};

inline const auto config = statecheck::constants<Config>(
    statecheck::integer("nodes", &Config::nodes, 1, max_nodes, "number of caching nodes (NODE)"),
    statecheck::integer("data", &Config::data, 1, max_data, "number of data values (DATA)"));

inline MaybeData just(DataId d) { return MaybeData{d}; }

/// The actions of GermanData.tla, in Next's order.
inline auto german_actions(const Config& c) {
  using statecheck::action;
  const auto i = statecheck::ids<Node>("i", c.nodes);
  const auto d = statecheck::ids<Data>("d", c.data);
  return statecheck::actions(
      action("Store", i, d, [](const State& s, NodeId n, DataId) { return s.cache[n].state == CacheState::E; },
             [](State& s, NodeId n, DataId v) { s.cache[n].data = s.aux_data = just(v); }),
      action("SendReq", i, request_param(),
             [](const State& s, NodeId n, Cmd1 r) { return s.chan1[n] == Cmd1::Empty && may_request(s.cache[n].state, r); },
             [](State& s, NodeId n, Cmd1 r) { s.chan1[n] = r; }),
      action("RecvReq", i, [](const State& s, NodeId n) { return s.cur_cmd == Cmd1::Empty && s.chan1[n] != Cmd1::Empty; },
             [](State& s, NodeId n) {
               s.cur_cmd = s.chan1[n];
               s.cur_ptr = MaybeNode{n};
               s.chan1[n] = Cmd1::Empty;
               s.inv_set = s.shr_set;
             }),
      action("SendInv", i,
             [](const State& s, NodeId n) {
               return s.chan2[n].cmd == Cmd2::Empty && s.inv_set.contains(n) && invalidating(s.cur_cmd, s.ex_gntd);
             },
             [](State& s, NodeId n) {
               s.chan2[n].cmd = Cmd2::Inv;
               s.inv_set.erase(n);
             }),
      action("SendInvAck", i,
             [](const State& s, NodeId n) { return s.chan2[n].cmd == Cmd2::Inv && s.chan3[n].cmd == Cmd3::Empty; },
             [](State& s, NodeId n) {
               s.chan2[n] = Msg2{Cmd2::Empty, {}};
               s.chan3[n] = Msg3{Cmd3::InvAck, s.cache[n].state == CacheState::E ? s.cache[n].data : MaybeData{}};
               s.cache[n] = Line{CacheState::I, {}};
             }),
      action("RecvInvAck", i,
             [](const State& s, NodeId n) { return s.chan3[n].cmd == Cmd3::InvAck && s.cur_cmd != Cmd1::Empty; },
             [](State& s, NodeId n) {
               s.shr_set.erase(n);
               if (s.ex_gntd) {  // the writeback: the exclusive copy's data returns to memory
                 s.ex_gntd = false;
                 s.mem_data = s.chan3[n].data;
                 s.chan3[n] = Msg3{Cmd3::Empty, {}};
               } else {
                 s.chan3[n].cmd = Cmd3::Empty;  // data unchanged, as the TLA+ ELSE branch leaves it
               }
             }),
      action("SendGnt", i,
             [](const State& s, NodeId n) {
               return s.cur_cmd != Cmd1::Empty && s.cur_ptr == MaybeNode{n} && s.chan2[n].cmd == Cmd2::Empty &&
                      !s.ex_gntd && (s.cur_cmd != Cmd1::ReqE || s.shr_set.empty());
             },
             [](State& s, NodeId n) {
               s.chan2[n] = Msg2{s.cur_cmd == Cmd1::ReqS ? Cmd2::GntS : Cmd2::GntE, s.mem_data};
               s.shr_set.insert(n);
               s.ex_gntd = s.cur_cmd == Cmd1::ReqE;
               s.cur_cmd = Cmd1::Empty;
               s.cur_ptr = MaybeNode{};
             }),
      action("RecvGnt", i,
             [](const State& s, NodeId n) { return s.chan2[n].cmd == Cmd2::GntS || s.chan2[n].cmd == Cmd2::GntE; },
             [](State& s, NodeId n) {
               s.cache[n] = Line{s.chan2[n].cmd == Cmd2::GntS ? CacheState::S : CacheState::E, s.chan2[n].data};
               s.chan2[n] = Msg2{Cmd2::Empty, {}};
             }));
}

/// The cfg's invariants. `nodes` bounds \A i \in NODE.
struct Invariants {
  int nodes;

  template <class F>
  bool all_nodes(F&& f) const {
    for (int k = 0; k < nodes; ++k)
      if (!f(NodeId(k))) return false;
    return true;
  }
  /// \A j \in NODE \ {i} : cache[j].state <cond> /\ chan2[j].cmd ... /\ chan3[j].cmd # "InvAck",
  /// the isolation both ExclusiveIsolation and WritebackCarriesLatest ask of the other nodes.
  bool others_quiet(const State& s, NodeId i, bool only_invalid, bool no_shared_grant) const {
    return all_nodes([&](NodeId j) {
      if (j == i) return true;
      const bool cache_ok = only_invalid ? s.cache[j].state == CacheState::I : s.cache[j].state != CacheState::E;
      const bool grant_ok = s.chan2[j].cmd != Cmd2::GntE && (!no_shared_grant || s.chan2[j].cmd != Cmd2::GntS);
      return cache_ok && grant_ok && s.chan3[j].cmd != Cmd3::InvAck;
    });
  }
  bool type_ok(const State& s) const { return s.mem_data.size() == 1 && s.aux_data.size() == 1; }
  bool coherence(const State& s) const {
    return coherent(nodes, [&](NodeId n) { return s.cache[n].state; });
  }
  bool data_prop(const State& s) const {
    return (s.ex_gntd || s.mem_data == s.aux_data) &&
           all_nodes([&](NodeId n) { return s.cache[n].state == CacheState::I || s.cache[n].data == s.aux_data; });
  }
  static bool transaction_consistency(const State& s) { return (s.cur_cmd == Cmd1::Empty) == s.cur_ptr.empty(); }
  bool directory_accurate(const State& s) const {
    return all_nodes([&](NodeId n) { return s.cache[n].state == CacheState::I || s.shr_set.contains(n); });
  }
  bool exclusive_isolation(const State& s) const {
    return all_nodes([&](NodeId n) {
      return s.cache[n].state != CacheState::E || (s.ex_gntd && others_quiet(s, n, true, true));
    });
  }
  bool writeback_carries_latest(const State& s) const {
    return all_nodes([&](NodeId n) {
      const bool writeback = s.chan3[n].cmd == Cmd3::InvAck && s.cur_cmd != Cmd1::Empty && s.ex_gntd;
      return !writeback || (s.chan3[n].data == s.aux_data && others_quiet(s, n, false, false));
    });
  }
};

inline auto make_spec(const Config& c) {
  const Invariants inv{c.nodes};
  using statecheck::invariant;
  return statecheck::spec<State>(
      "german-data",
      statecheck::init(statecheck::ids<Data>("d", c.data), [n = c.nodes](State& s, DataId d) {
                         statecheck::use_ids<Node>(s, n);
                         s.mem_data = s.aux_data = just(d);
                       }),
      german_actions(c),
      statecheck::invariants(
          invariant("TypeOK", [inv](const State& s) { return inv.type_ok(s); }),
          invariant("Coherence", [inv](const State& s) { return inv.coherence(s); }),
          invariant("DataProp", [inv](const State& s) { return inv.data_prop(s); }),
          invariant("TransactionConsistency", [](const State& s) { return Invariants::transaction_consistency(s); }),
          invariant("DirectoryAccurate", [inv](const State& s) { return inv.directory_accurate(s); }),
          invariant("ExclusiveIsolation", [inv](const State& s) { return inv.exclusive_isolation(s); }),
          invariant("WritebackCarriesLatest", [inv](const State& s) { return inv.writeback_carries_latest(s); })),
      // Not in the TLA+ module: evidence that DataProp and WritebackCarriesLatest are checked where
      // they matter, a write back in flight of data that a Store wrote (memory still holds the old).
      statecheck::reachable(statecheck::goal("WritebackOfNewData",
                                             [inv](const State& s) {
                                               return !inv.all_nodes([&](NodeId n) {
                                                 return s.chan3[n].cmd != Cmd3::InvAck || !s.ex_gntd ||
                                                        s.chan3[n].data == s.mem_data;
                                               });
                                             })),
      statecheck::symmetric<Node>(c.nodes), statecheck::symmetric<Data>(c.data));
}

}  // namespace examples::german_data
