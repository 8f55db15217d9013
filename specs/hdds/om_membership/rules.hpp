// HDDS-16840 OM membership: the leader's request handling, the Ratis
// acceptance rule (brief 1.4), commit and the leader's apply step.
#pragma once

#include "config.hpp"
#include "types.hpp"

namespace specs::hdds::om_membership {

/// Initial-state choices: one, or with facts=any 8 per joining OM.
inline int fact_combinations(const Model& m) { return m.facts == Facts::any ? 1 << (3 * m.joiners) : 1; }

/// raftConf = peerMap = requested = the initial voters; `combo` picks the
/// joiners' config facts when they are chosen at init.
inline void initial_state(State& s, const Model& m, int combo) {
  for (int x = 0; x < m.voters; ++x) s.raft.voters.insert(OmId(x));
  s.peers = s.requested = s.raft;
  s.committed = true;
  s.ops_left = static_cast<std::uint8_t>(m.max_ops);
  for (int x = 0; x < m.oms(); ++x) s.leader_knows.insert(OmId(x));
  if (m.joiners == 0) return;
  const OmId first(m.voters);
  switch (m.facts) {
    case Facts::scenario:
    case Facts::consistent: break;
    case Facts::listener:
      s.leader_listener.insert(first);
      s.self_listener.insert(first);
      break;
    case Facts::demote: s.leader_listener.insert(first); break;
    case Facts::promote: s.self_listener.insert(first); break;
    case Facts::unknown: s.leader_knows.erase(first); break;
    case Facts::any:
      for (int i = 0; i < m.joiners; ++i) {
        const OmId x(m.voters + i);
        const int bits = combo >> (3 * i);
        if ((bits & 1) == 0) s.leader_knows.erase(x);
        if ((bits & 2) != 0) s.leader_listener.insert(x);
        if ((bits & 4) != 0) s.self_listener.insert(x);
      }
      break;
  }
}

/// othersKnow[j]: every running OM's config names j. The leader is one of them
/// and FixConfig corrects them all, so this is the leader's own fact; a joiner
/// that only the leader knows behaves like one that all know, under --force.
inline bool others_know(const State& s, OmId j) { return s.leader_knows.contains(j); }

/// The operator was told success: update the ghosts (CommitConf, or Ratis's
/// no-change shortcut).
inline void reply_success(State& s, const Op& op) {
  const OmId x = op.node;
  if (op.kind == Kind::bootstrap) {
    s.requested.set(x, op.role);
    s.acked_removed.erase(x);
  } else {
    s.requested.set(x, Role::none);
    s.acked_removed.insert(x);
  }
}

/// Bootstrap of j: the role is the joining OM's own listener setting; the
/// other members come from the peer map (as-is) or from raftConf (patched).
inline Op build_bootstrap(const State& s, const Model& m, OmId j) {
  Op op{};
  op.phase = Phase::built;
  op.kind = Kind::bootstrap;
  op.node = j;
  op.role = s.self_listener.contains(j) ? Role::listener : Role::voter;
  op.list = m.from_raft() ? s.raft : s.peers;
  op.list.set(j, op.role);
  if (m.cas()) op.expected = s.raft;
  return op;
}

/// As-is only: a peer map that still holds j (its removal not yet applied)
/// names j twice in the request, which Ratis refuses ("Found duplicated ids").
inline bool names_twice(const State& s, const Model& m, OmId j) {
  return !m.from_raft() && s.peers.role(j) != Role::none;
}

/// The decommission handler's membership check; false: refused, the request
/// ends. As-is looks d up in the peer map, the patch in raftConf.
inline bool admit_decommission(State& s, const Model& m, OmId d) {
  if (m.from_raft()) return s.raft.role(d) != Role::none;
  if (s.peers.role(d) != Role::none) return true;
  if (s.raft.role(d) != Role::none) s.spurious_refusal = true;  // "not present in the OM peer list"
  return false;
}

inline Op build_decommission(const State& s, const Model& m, OmId d) {
  Op op{};
  op.phase = Phase::built;
  op.kind = Kind::decommission;
  op.node = d;
  op.list = m.from_raft() ? s.raft : s.peers;
  op.list.set(d, Role::none);
  if (m.cas()) op.expected = s.raft;
  return op;
}

enum class Reply { rejected, unchanged, accepted };

/// Ratis setConfiguration, one atomic step under its lock (brief 1.4).
inline Reply set_configuration(State& s, const Model& m, const Op& op) {
  const Members& next = op.list;
  if (!s.committed) return Reply::rejected;                         // 1. reconfiguration in progress
  if (m.cas() && !(s.raft == op.expected)) return Reply::rejected;  // 2. compare-and-set on the ids
  if (next == s.raft) return Reply::unchanged;                      // 3. hasNoChange: success at once
  // 4. changeMajority: n new voters (a promoted listener counts as new), k kept.
  const int n = (next.voters - s.raft.voters).size();
  const int k = next.voters.size() - n;
  const bool one_to_two = s.raft.voters.size() == 1 && next.voters.size() == 2 && n == 1;
  if (!one_to_two && n >= k && !m.majority_add) return Reply::rejected;
  s.raft = next;  // 5. accepted: staging and both entries fold into CommitConf
  s.committed = false;
  return Reply::accepted;
}

/// Submits client c's built request and handles Ratis's immediate answer.
inline void submit(State& s, const Model& m, ClientId c) {
  Op& op = s.op.at(c);
  switch (set_configuration(s, m, op)) {
    case Reply::rejected: op = Op{}; break;
    case Reply::unchanged:
      reply_success(s, op);
      op = Op{};
      break;
    case Reply::accepted:  // the reply waits for CommitConf; it needs only kind, node and role
      op.phase = Phase::waiting;
      op.list = {};
      op.expected = {};
      break;
  }
}

/// The leader's state machine applies the oldest committed configuration. It
/// receives member ids only; a new entry's role comes from the leader's own
/// config, and a node without an address there is skipped (HDDS-8872).
inline void apply_conf(State& s) {
  const Oms ids = s.apply_q.front();
  for (int i = 0; i < max_oms; ++i) {
    const OmId x(i);
    if (x == leader) continue;
    const bool present = s.peers.role(x) != Role::none;
    if (ids.contains(x) && !present && s.leader_knows.contains(x))
      s.peers.set(x, s.leader_listener.contains(x) ? Role::listener : Role::voter);
    else if (!ids.contains(x) && present)
      s.peers.set(x, Role::none);
  }
  s.apply_q.pop_front();
}

/// Both configuration entries commit; Ratis replies to the waiting client.
/// Without apply lag the leader applies in the same step.
inline void commit_conf(State& s, const Model& m) {
  s.committed = true;
  s.apply_q.push_back(s.raft.ids());
  for (int i = 0; i < max_clients; ++i) {
    const ClientId c(i);
    Op& op = s.op.at(c);
    if (op.phase != Phase::waiting) continue;
    reply_success(s, op);
    op = Op{};
  }
  if (!m.apply_lag) apply_conf(s);
}

}  // namespace specs::hdds::om_membership
