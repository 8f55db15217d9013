// HDDS-16840 OM membership: the state. See README.md for the mechanism.
#pragma once

#include <cstdint>
#include <string_view>

#include <statecheck/statecheck.hpp>

namespace specs::hdds::om_membership {

inline constexpr int max_oms = 8;       // initial voters + joining OMs
inline constexpr int max_requests = 6;  // operator requests, and so committed entries queued for apply

/// OMs, printed o1, o2, ...: the initial voters first, then the joining OMs.
struct Om {
  static constexpr std::string_view prefix = "o";
};
using OmId = statecheck::id<Om>;
using Oms = statecheck::id_set<max_oms, Om>;  // a set of OMs, printed {o1, o4}
inline constexpr OmId first_leader{0};        // o1 leads until a TransferLeader

/// Operator clients, printed c1, c2.
struct Client {
  static constexpr std::string_view prefix = "c";
};
using ClientId = statecheck::id<Client>;
inline constexpr int max_clients = 3;

STATECHECK_ENUM(Role, none, voter, listener);
// built: lists derived, not yet submitted (2 or more clients); staging: Ratis
// stages a new peer that is down, so the request will time out.
STATECHECK_ENUM(Phase, idle, built, staging, waiting);
STATECHECK_ENUM(Kind, none, bootstrap, decommission);

/// A membership map OM -> Role, kept as two disjoint sets (absent = NONE).
struct Members {
  BOOST_HANA_DEFINE_STRUCT(Members, (Oms, voters), (Oms, listeners));
  friend bool operator==(const Members&, const Members&) = default;

  Role role(OmId id) const {
    return voters.contains(id) ? Role::voter : listeners.contains(id) ? Role::listener : Role::none;
  }
  void set(OmId id, Role r) {
    voters.erase(id);
    listeners.erase(id);
    if (r == Role::voter) voters.insert(id);
    if (r == Role::listener) listeners.insert(id);
  }
  Oms ids() const { return voters | listeners; }
};

/// One operator client's request in flight. Reset to Op{} when it ends (node
/// o1, lists empty), so finished requests leave nothing behind in the state.
struct Op {
  BOOST_HANA_DEFINE_STRUCT(Op,
      (Phase, phase),
      (Kind, kind),
      (OmId, node),       // the OM to add or remove
      (Role, role),       // bootstrap: the role the joining OM asked for
      (Members, list),    // built: V' and L' as derived
      (Members, expected));  // built, patched: the ids the lists were derived from (compare-and-set)
  friend bool operator==(const Op&, const Op&) = default;
};

/// The clients' requests, printed op.c1, op.c2, op.c3. The clients are
/// interchangeable (the spec declares them symmetric): slots, not names.
using Ops = statecheck::id_array<Client, Op, max_clients>;
using Log = statecheck::bounded_vec<Oms, max_requests>;  // committed configurations' member ids, oldest first

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (Members, raft),                                   // raftConf: Ratis's configuration, as last appended
      (bool, committed),                                 // confCommitted: no reconfiguration in progress
      (OmId, leader),                                    // the OM leader (o1 unless a TransferLeader)
      (Members, peers),                                  // peerMap: the leader's in-memory peer list
      (Log, apply_q),                                    // committed member ids not yet applied by the leader
      (Log, applied),                                    // with restarts or transfers: those it applied, to replay
      (Oms, running),                                    // OMs whose process is up (staging needs them)
      (Oms, decommissioned),                             // with restarts or transfers: ozone.om.decommissioned.nodes
      (Ops, op),                                         // operator clients
      (std::uint8_t, ops_left),                          // operator requests left
      (std::uint8_t, restarts_left),                     // leader restarts left
      (std::uint8_t, transfers_left),                    // leader transfers left
      (Oms, leader_knows),                               // leader's ozone-site has an address for x
      (Oms, leader_listener),                            // x is in the leader's listener list
      (Oms, self_listener),                              // joining OM x lists itself as a listener (fixed)
      (Members, requested),                              // ghost: what the operator asked for and was told succeeded
      (Oms, acked_removed),                              // ghost: OMs whose decommission was acknowledged
      (bool, spurious_refusal),                          // ghost: a member was refused as "not in peer list"
      (bool, staging_timeout));                          // ghost: a request failed staging a stopped OM
  friend bool operator==(const State&, const State&) = default;
};

}  // namespace specs::hdds::om_membership
