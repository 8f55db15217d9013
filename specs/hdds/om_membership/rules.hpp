// HDDS-16840 OM membership: the leader's request handling, the Ratis
// acceptance rule (Ratis setConfiguration), commit and the leader's apply step.
#pragma once

#include "config.hpp"
#include "types.hpp"

namespace specs::hdds::om_membership {

/// Initial-state choices: one, or with facts=any 8 per joining OM.
inline int fact_combinations(const Model& m) { return m.facts == Facts::any ? 1 << (3 * m.joiners) : 1; }

/// The initial voters, as the peer map an OM builds at start from its config.
inline Members initial_members(const Model& m) {
  Members x;
  for (int i = 0; i < m.voters; ++i) x.voters.insert(OmId(i));
  return x;
}

/// raftConf = peerMap = requested = the initial voters, all running; `combo`
/// picks the joiners' config facts when they are chosen at init.
inline void initial_state(State& s, const Model& m, int combo) {
  statecheck::use_ids<Client>(s, m.clients);
  s.raft = s.peers = s.requested = initial_members(m);
  s.leader = first_leader;
  s.running = s.raft.voters;
  s.committed = true;
  s.ops_left = static_cast<std::uint8_t>(m.max_ops);
  s.restarts_left = static_cast<std::uint8_t>(m.restarts);
  s.transfers_left = static_cast<std::uint8_t>(m.transfers);
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

/// Some client's request is past Build: staged, or waiting for its commit.
inline bool request_in_ratis(const State& s) {
  for (const Op& op : s.op)
    if (op.phase == Phase::staging || op.phase == Phase::waiting) return true;
  return false;
}

/// No reconfiguration in progress and no client waiting for a reply.
inline bool quiescent(const State& s) { return s.committed && !request_in_ratis(s); }

/// Nothing in flight at all: no client has even built a list. A restart or a
/// leader transfer is taken only then (an in-flight request would fail with
/// NotLeaderException, which the model has no reply for).
inline bool all_idle(const State& s) {
  if (!s.committed) return false;
  for (const Op& op : s.op)
    if (op.phase != Phase::idle) return false;
  return true;
}

/// othersKnow[j]: every running OM's config names j. The leader is one of them
/// and FixConfig corrects them all, so this is the leader's own fact; a joiner
/// that only the leader knows behaves like one that all know, under --force.
inline bool others_know(const State& s, OmId j) { return s.leader_knows.contains(j); }

/// The operator was told the request failed. A bootstrapping OM exits when its
/// bootstrap fails, so it is down afterwards, unless another client's
/// bootstrap of the same OM made it a member (one process serves both).
inline void reply_failure(State& s, Op& op) {
  if (op.kind == Kind::bootstrap && s.raft.role(op.node) == Role::none) s.running.erase(op.node);
  op = Op{};
}

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

enum class Reply { rejected, unchanged, staging, accepted };

/// Ratis setConfiguration, one atomic step under its lock (checks in README order).
inline Reply set_configuration(State& s, const Model& m, const Op& op) {
  const Members& next = op.list;
  if (!s.committed || request_in_ratis(s)) return Reply::rejected;  // 1. reconfiguration (or staging) in progress
  if (m.cas() && !(s.raft == op.expected)) return Reply::rejected;  // 2. compare-and-set on the ids
  if (next == s.raft) return Reply::unchanged;                      // 3. hasNoChange: success at once
  // 4. changeMajority: n new voters (a promoted listener counts as new), k kept.
  const int n = (next.voters - s.raft.voters).size();
  const int k = next.voters.size() - n;
  const bool one_to_two = s.raft.voters.size() == 1 && next.voters.size() == 2 && n == 1;
  if (!one_to_two && n >= k && !m.majority_add) return Reply::rejected;
  // 5. Staging: the peers new to the configuration must catch up first. A
  // stopped one makes no progress, and the request fails after the staging
  // timeout (ReconfigurationTimeoutException); running ones catch up, and
  // their staging folds into CommitConf with both entries.
  if ((next.ids() - s.raft.ids() - s.running).size() > 0) return Reply::staging;
  s.raft = next;
  s.committed = false;
  return Reply::accepted;
}

/// Submits client c's built request and handles Ratis's immediate answer.
inline void submit(State& s, const Model& m, ClientId c) {
  Op& op = s.op[c];
  const Oms op_new_stopped = op.list.ids() - s.raft.ids() - s.running;
  switch (set_configuration(s, m, op)) {
    case Reply::rejected: reply_failure(s, op); break;
    case Reply::unchanged:
      reply_success(s, op);
      op = Op{};
      break;
    case Reply::staging:  // the reply waits for the timeout; list: the stopped peers it waits for
      op.phase = Phase::staging;
      op.list = {};
      op.list.voters = op_new_stopped;
      op.expected = {};
      break;
    case Reply::accepted:  // the reply waits for CommitConf; it needs only kind, node and role
      op.phase = Phase::waiting;
      op.list = {};
      op.expected = {};
      break;
  }
}

/// The staging timeout: a stopped peer made no progress, the request fails.
/// The ghost records a failure caused by a peer the request did not target
/// (its target stopped by the operator meanwhile is not the code's fault).
inline void staging_timeout(State& s, ClientId c) {
  Oms others = s.op[c].list.voters;
  others.erase(s.op[c].node);
  if (others.size() > 0) s.staging_timeout = true;
  reply_failure(s, s.op[c]);
}

/// The leader's state machine applies the oldest committed configuration. It
/// receives member ids only; a new entry's role comes from the leader's own
/// config, and a node without an address there is skipped (HDDS-8872).
inline void apply_conf(State& s, const Model& m) {
  const Oms ids = s.apply_q.front();
  for (int i = 0; i < max_oms; ++i) {
    const OmId x(i);
    if (x == s.leader) continue;
    const bool present = s.peers.role(x) != Role::none;
    if (ids.contains(x) && !present && s.leader_knows.contains(x))
      s.peers.set(x, s.leader_listener.contains(x) ? Role::listener : Role::voter);
    else if (!ids.contains(x) && present)
      s.peers.set(x, Role::none);
  }
  s.apply_q.pop_front();
  if (m.replays()) s.applied.push_back(ids);
}

/// Both configuration entries commit; Ratis replies to the waiting client.
/// Without apply lag the leader applies in the same step (everything queued
/// before it too: its state machine applies in log order).
inline void commit_conf(State& s, const Model& m) {
  s.committed = true;
  s.apply_q.push_back(s.raft.ids());
  for (Op& op : s.op) {
    if (op.phase != Phase::waiting) continue;
    reply_success(s, op);
    op = Op{};
  }
  if (!m.apply_lag)
    while (!s.apply_q.empty()) apply_conf(s, m);
}

/// The leader's peer map as an OM builds it at start (OMHANodeDetails
/// .loadOMHAConfig): every OM its config lists, roles from its listener key,
/// less the decommissioned nodes; then its state machine replays the log after
/// its last snapshot: the committed configurations from index `snapshot` on,
/// old removals too, are queued to be applied again. Used by a restart of the
/// leader and by a new leader, whose map is its own (its snapshot and apply
/// progress are its own too). The config is the one all OMs share (the model
/// keeps one copy of it).
inline void rebuild_peer_map(State& s, const Model& m, int snapshot) {
  s.peers = {};
  for (int i = 0; i < m.oms(); ++i) {
    const OmId x(i);
    if (x == s.leader) s.peers.set(x, s.raft.role(x));
    else if (s.leader_knows.contains(x) && !s.decommissioned.contains(x))
      s.peers.set(x, s.leader_listener.contains(x) ? Role::listener : Role::voter);
  }
  Log log = s.applied;
  for (const Oms& ids : s.apply_q) log.push_back(ids);
  s.applied = {};
  s.apply_q = {};
  for (int i = 0; i < static_cast<int>(log.size()); ++i) {
    if (i < snapshot) s.applied.push_back(log[static_cast<std::size_t>(i)]);
    else s.apply_q.push_back(log[static_cast<std::size_t>(i)]);
  }
}

/// Committed configurations so far (applied by the leader or queued).
inline int committed_entries(const State& s) { return static_cast<int>(s.applied.size() + s.apply_q.size()); }

}  // namespace specs::hdds::om_membership
