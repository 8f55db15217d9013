// HDDS-17090: guards and effects of the finalization-fencing spec, brief section 3.4/3.5.
// Free functions, so that the tests can replay the brief's traces step by step.
#pragma once

#include <vector>

#include "types.hpp"

namespace specs::hdds::finalization_fencing {

inline bool is_control(const Config& c, Dn d) { return c.control && d == Dn::dx; }

/// The datanode parameter's values: d1..dn, then dx (stored right after them).
inline std::vector<Dn> datanode_ids(const Config& c, bool with_control) {
  std::vector<Dn> out;
  for (int i = 0; i < c.datanodes; ++i) out.push_back(static_cast<Dn>(i));
  if (with_control && c.control) out.push_back(Dn::dx);
  return out;
}
/// State slot of a datanode: dx sits right after the configured ones.
inline int slot(const Config& c, Dn d) { return d == Dn::dx ? c.datanodes : idx(d); }

inline void initial(const Config& c, State& s) {
  s.true_leader = s1;
  s.is_leader.insert(s1);
  s.leader_ready.insert(s1);
  for (int i = 0; i < c.datanodes; ++i) s.dn.push_back(DnState{Ver::PRE, Proc::RUNNING, {}});  // HEARTBEAT everywhere
  // dx is a datanode just started with newer software: it has yet to register anywhere.
  if (c.control)
    s.dn.push_back(DnState{Ver::PRE, Proc::RUNNING,
                           {EndPointState::REGISTER, EndPointState::REGISTER, EndPointState::REGISTER}});
  s.restarts_left = static_cast<std::uint8_t>(c.restarts);
}

// FINALIZE is committed by a quorum that need not include a lagging follower.
inline bool finalize_enabled(const State& s) { return !s.fin_logged && s.leader_ready.contains(s.true_leader); }
inline void finalize(State& s) { s.fin_logged = true; }

// Receiving and applying the entry are one step; any SCM may lag (untimed model), so
// there is no explicit Stall action.
inline bool apply_finalize_enabled(const State& s, ScmId m) { return s.fin_logged && s.scm_ver[m] == Ver::PRE; }
inline void apply_finalize(State& s, ScmId m) { s.scm_ver[m] = Ver::FIN; }

// Heartbeat, FinalizeVersionCommand and the datanode's handler merged. Needs "is leader"
// and finalized, not "ready" (sendFinalizeToDatanodeIfNeeded).
inline bool send_finalize_enabled(const Config& c, const State& s, ScmId m, Dn d) {
  const DnState& n = s.dn[slot(c, d)];
  return s.is_leader.contains(m) && s.scm_ver[m] == Ver::FIN && n.ver == Ver::PRE &&
         n.up == Proc::RUNNING && n.ep[m] == EndPointState::HEARTBEAT;
}
inline void send_finalize(const Config& c, State& s, Dn d) { s.dn[slot(c, d)].ver = Ver::FIN; }

// A rolling restart: the datanode re-registers with every SCM. Its version is on disk.
inline bool dn_restart_enabled(const Config& c, const State& s, Dn d) {
  return s.dn[slot(c, d)].up == Proc::RUNNING && s.restarts_left > 0;
}
inline void dn_restart(const Config& c, State& s, Dn d) {
  s.dn[slot(c, d)].ep.fill(EndPointState::REGISTER);
  --s.restarts_left;
}

/// The fencing rule of SCMNodeManager.register with equal software for d1..d3; dx has newer software.
inline bool fenced(const Config& c, const State& s, Dn d, ScmId m) {
  return is_control(c, d) || s.dn[slot(c, d)].ver > s.scm_ver[m];
}

inline bool register_enabled(const Config& c, const State& s, Dn d, ScmId m) {
  const DnState& n = s.dn[slot(c, d)];
  return n.up == Proc::RUNNING && n.ep[m] == EndPointState::REGISTER;
}
inline void register_dn(const Config& c, State& s, Dn d, ScmId m) {
  DnState& n = s.dn[slot(c, d)];
  const bool reject = fenced(c, s, d, m);
  if (c.variant == Variant::patched && !s.leader_ready.contains(m) && (reject || c.retry_all))
    return;  // ServerNotLeaderException: an IOException, the endpoint stays in REGISTER and retries
  if (!reject) {
    n.ep[m] = EndPointState::HEARTBEAT;
    return;
  }
  // errorNodeNotPermitted: the endpoint goes to SHUTDOWN, and computeNextContainerState
  // shuts the whole datanode down (merged into this step).
  n.ep[m] = EndPointState::SHUTDOWN;
  n.up = Proc::SHUTDOWN;
  if (s.true_leader != m || !s.leader_ready.contains(m)) s.fenced_by_non_leader.insert(static_cast<int>(slot(c, d)));
}

// Leader change. The old leader is not told: it keeps believing it is the ready leader
// until StepDown. Receipt and apply being one step, "its log holds every committed
// entry" reads "it has applied FINALIZE once that is committed".
inline bool holds_committed(const State& s, ScmId m) { return !s.fin_logged || s.scm_ver[m] == Ver::FIN; }

inline bool elect_enabled(const State& s, ScmId m) { return s.true_leader != m && holds_committed(s, m); }
inline void elect(State& s, ScmId m) {
  s.true_leader = m;
  s.is_leader.insert(m);
  s.leader_ready.erase(m);
}

inline bool leader_ready_enabled(const State& s, ScmId m) {
  return s.true_leader == m && !s.leader_ready.contains(m) && holds_committed(s, m);
}
inline void make_ready(State& s, ScmId m) { s.leader_ready.insert(m); }

inline bool step_down_enabled(const State& s, ScmId m) { return s.is_leader.contains(m) && s.true_leader != m; }
inline void step_down(State& s, ScmId m) {
  s.is_leader.erase(m);
  s.leader_ready.erase(m);
}

// Invariants and goal, brief section 3.6 (with the section 7 wording).
/// A shut-down datanode must be incompatible with the committed cluster state.
inline bool no_finalized_datanode_fenced(const Config& c, const State& s) {
  const Ver committed = s.fin_logged ? Ver::FIN : Ver::PRE;
  for (int i = 0; i < s.dn.size(); ++i) {
    const bool incompatible = (c.control && i == slot(c, Dn::dx)) || s.dn[i].ver > committed;
    if (s.dn[i].up == Proc::SHUTDOWN && !incompatible) return false;
  }
  return true;
}
/// The true leader believes it leads; only an SCM that believes it leads can be ready.
inline bool leader_beliefs_consistent(const State& s) {
  return s.is_leader.contains(s.true_leader) && s.leader_ready.subset_of(s.is_leader);
}
inline bool control_fenced(const Config& c, const State& s) {
  return !c.control || s.dn[slot(c, Dn::dx)].up == Proc::SHUTDOWN;  // vacuous without dx
}

}  // namespace specs::hdds::finalization_fencing
