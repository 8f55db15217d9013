// HDDS-17090: guards and effects of the finalization-fencing spec, as-is and patched
// (terms and checkpoint installs: issue 15 item 4, see README). Free functions, so that
// the tests can replay the README's traces step by step.
#pragma once

#include <algorithm>

#include "types.hpp"

namespace specs::hdds::finalization_fencing {

inline void initial(const Config& c, State& s) {
  s.true_leader = s1;
  s.is_leader.insert(s1);
  s.leader_ready.insert(s1);
  if (c.terms > 0) s.term.fill(1);  // everyone knows s1's term 1; without terms every term stays 0
  statecheck::use_ids<Dnode>(s, c.datanodes);
  for (DnState& n : s.dn) n = DnState{Ver::PRE, Proc::RUNNING, {}};  // HEARTBEAT everywhere
  // dx is a datanode just started with newer software: it has yet to register anywhere.
  s.dx = DnState{Ver::PRE, c.control ? Proc::RUNNING : Proc::ABSENT, {}};
  s.dx.ep.fill(EndPointState::REGISTER);
  s.restarts_left = static_cast<std::uint8_t>(c.restarts);
}

inline std::uint8_t newest_term(const State& s) { return s.term[s.true_leader]; }

// FINALIZE is committed by a quorum that need not include a lagging follower.
inline bool finalize_enabled(const State& s) { return !s.fin_logged && s.leader_ready.contains(s.true_leader); }
inline void finalize(State& s) {
  s.fin_logged = true;
  s.fin_term = newest_term(s);
}

// Receiving and applying the entry are one step; any SCM may lag (untimed model), so
// there is no explicit Stall action. An installing SCM applies nothing until it is done.
inline bool apply_finalize_enabled(const State& s, ScmId m) {
  return s.fin_logged && s.scm_ver[m] == Ver::PRE && !s.installing.contains(m);
}
inline void step_down(State& s, ScmId m);
inline void apply_finalize(State& s, ScmId m) {
  s.scm_ver[m] = Ver::FIN;
  // With terms, an entry of a later term reaches m only from a leader of that term:
  // m learns the term, and a deposed leader steps down (RaftServerImpl.appendEntries).
  if (s.term[m] < s.fin_term) {
    s.term[m] = s.fin_term;
    if (s.is_leader.contains(m)) step_down(s, m);
  }
}

// Heartbeat, FinalizeVersionCommand and the datanode's handler merged. Needs "is leader"
// and finalized, not "ready" (sendFinalizeToDatanodeIfNeeded).
inline bool send_finalize_enabled(const State& s, ScmId m, DnId d) {
  const DnState& n = s.dn[d];
  return s.is_leader.contains(m) && s.scm_ver[m] == Ver::FIN && n.ver == Ver::PRE &&
         n.up == Proc::RUNNING && n.ep[m] == EndPointState::HEARTBEAT;
}
inline void send_finalize(State& s, DnId d) { s.dn[d].ver = Ver::FIN; }

// A rolling restart: the datanode re-registers with every SCM. Its version is on disk.
inline bool dn_restart_enabled(const State& s, DnId d) { return s.dn[d].up == Proc::RUNNING && s.restarts_left > 0; }
inline void dn_restart(State& s, DnId d) {
  s.dn[d].ep.fill(EndPointState::REGISTER);
  --s.restarts_left;
}

/// The registration of one datanode at SCM m (SCMNodeManager.register). `reject` is the
/// fencing rule: newer software (dx), or an apparent version above m's. Returns true when
/// the datanode was shut down by an SCM that was not the true, ready leader.
inline bool register_at(const Config& c, State& s, DnState& n, ScmId m, bool reject) {
  if (c.variant == Variant::patched && !s.leader_ready.contains(m) && (reject || c.retry_all))
    return false;  // ServerNotLeaderException: an IOException, the endpoint stays in REGISTER and retries
  if (!reject) {
    n.ep[m] = EndPointState::HEARTBEAT;
    return false;
  }
  // errorNodeNotPermitted: the endpoint goes to SHUTDOWN, and computeNextContainerState
  // shuts the whole datanode down (merged into this step).
  n.ep[m] = EndPointState::SHUTDOWN;
  n.up = Proc::SHUTDOWN;
  return s.true_leader != m || !s.leader_ready.contains(m);
}

/// The fencing rule with equal software (d1..d3): apparent version above the SCM's.
inline bool fenced(const State& s, DnId d, ScmId m) { return s.dn[d].ver > s.scm_ver[m]; }
inline bool register_enabled(const State& s, DnId d, ScmId m) {
  return s.dn[d].up == Proc::RUNNING && s.dn[d].ep[m] == EndPointState::REGISTER;
}
inline void register_dn(const Config& c, State& s, DnId d, ScmId m) {
  if (register_at(c, s, s.dn[d], m, fenced(s, d, m))) s.fenced_by_non_leader.insert(d);
}
// dx has newer software: every SCM's rule rejects it.
inline bool register_dx_enabled(const State& s, ScmId m) {
  return s.dx.up == Proc::RUNNING && s.dx.ep[m] == EndPointState::REGISTER;
}
inline void register_dx(const Config& c, State& s, ScmId m) {
  if (register_at(c, s, s.dx, m, true)) s.dx_fenced_by_non_leader = true;
}

// Leader change. The old leader is not told: it keeps believing it is the ready leader
// until StepDown. Receipt and apply being one step, "its log holds every committed
// entry" reads "it has applied FINALIZE once that is committed". An installing SCM does
// not stand (assumed: its log ends at a snapshot it has not loaded).
inline bool holds_committed(const State& s, ScmId m) { return !s.fin_logged || s.scm_ver[m] == Ver::FIN; }

inline bool elect_enabled(const State& s, ScmId m) {
  return s.true_leader != m && holds_committed(s, m) && !s.installing.contains(m);
}
inline void elect(State& s, ScmId m) {
  s.true_leader = m;
  s.is_leader.insert(m);
  s.leader_ready.erase(m);
}
// With terms (terms > 0): the candidate takes the next term and needs one vote (3 SCMs);
// the voter learns the term and, if it believes it leads, steps down. At most `terms`
// elections, so that terms stay bounded.
inline bool elect_by_vote_enabled(const Config& c, const State& s, ScmId m, ScmId voter) {
  return elect_enabled(s, m) && voter != m && newest_term(s) <= c.terms;
}
inline void elect_by_vote(State& s, ScmId m, ScmId voter) {
  const auto next = static_cast<std::uint8_t>(newest_term(s) + 1);
  elect(s, m);
  s.term[m] = next;
  s.term[voter] = next;
  if (s.is_leader.contains(voter)) step_down(s, voter);
}

inline bool leader_ready_enabled(const State& s, ScmId m) {
  return s.true_leader == m && !s.leader_ready.contains(m) && holds_committed(s, m);
}
inline void make_ready(State& s, ScmId m) { s.leader_ready.insert(m); }

// The deposed leader learns of the new leader (with terms: its higher term, from a
// heartbeat or a vote request).
inline bool step_down_enabled(const State& s, ScmId m) { return s.is_leader.contains(m) && s.true_leader != m; }
inline void step_down(State& s, ScmId m) {
  s.is_leader.erase(m);
  s.leader_ready.erase(m);
  s.term[m] = std::max(s.term[m], newest_term(s));
}

// Checkpoint install (install=true): a follower that fell behind a purged log installs
// the leader's checkpoint. Its datanode endpoint stays up, and it is pre-finalized
// until the install completes (the report, by code reading); then it has the
// checkpoint's version, which holds FINALIZE once FINALIZE is committed.
inline bool install_start_enabled(const Config& c, const State& s, ScmId m) {
  return c.install && !s.is_leader.contains(m) && !s.installing.contains(m);
}
inline void install_start(State& s, ScmId m) {
  s.installing.insert(m);
  s.scm_ver[m] = Ver::PRE;
}
inline bool install_done_enabled(const State& s, ScmId m) { return s.installing.contains(m); }
inline void install_done(State& s, ScmId m) {
  s.installing.erase(m);
  s.scm_ver[m] = s.fin_logged ? Ver::FIN : Ver::PRE;
}

// Invariants and goals (ShutdownOnlyFromAuthoritativeLeader: true leader and ready, see README).
/// A shut-down datanode must be incompatible with the committed cluster state: dx
/// always is; d1..dn never are (their apparent version never exceeds the committed one).
inline bool no_finalized_datanode_fenced(const State& s) {
  const Ver committed = s.fin_logged ? Ver::FIN : Ver::PRE;
  return std::none_of(s.dn.begin(), s.dn.end(),
                      [committed](const DnState& n) { return n.up == Proc::SHUTDOWN && !(n.ver > committed); });
}
/// The true leader believes it leads; only an SCM that believes it leads can be ready.
inline bool leader_beliefs_consistent(const State& s) {
  return s.is_leader.contains(s.true_leader) && s.leader_ready.subset_of(s.is_leader);
}
inline bool control_fenced(const Config& c, const State& s) {
  return !c.control || s.dx.up == Proc::SHUTDOWN;  // vacuous without dx
}
/// The state where the as-is code fences a finalized datanode: it is about to register
/// with an SCM whose apparent version is below its own and that is not the ready leader
/// (the patch makes that a retry). Vacuous without restarts: nothing registers then.
inline bool bug_window(const Config& c, const State& s) {
  if (c.restarts == 0) return true;
  for (int i = 0; i < c.datanodes; ++i)
    for (int m = 0; m < scms; ++m) {
      const DnId d(i);
      const ScmId scm(m);
      if (register_enabled(s, d, scm) && fenced(s, d, scm) && !s.leader_ready.contains(scm)) return true;
    }
  return false;
}

}  // namespace specs::hdds::finalization_fencing
