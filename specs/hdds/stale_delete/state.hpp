// State, constants and helpers of the stale-delete spec (HDDS-16897).
// The actions are in stale_delete.hpp; the model is described in README.md.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>

#include "types.hpp"

namespace specs::hdds::stale_delete {

/// One datanode: its command channel from SCM, the delete commands waiting
/// for the delete threads, and its report channel to SCM.
struct Datanode {
  BOOST_HANA_DEFINE_STRUCT(Datanode,
      (statecheck::bounded_vec<Cmd, max_channel>, cmds),      // FIFO, SCM -> datanode
      (statecheck::bounded_set<QDel, max_queued>, del_q),     // sorted by id (ids are unique): threads run any
      (statecheck::bounded_vec<Report, max_channel>, reports),  // FIFO, datanode -> SCM
      (std::uint8_t, term),  // the SCM leader term this datanode knows (StateContext)
      // The timed reading only (README "Timed reading"); untimed, these stay empty, false, stopped.
      // With `timed`, `cmds` is SCM's CommandQueue for this datanode and `inbox` the
      // datanode's own command queue, filled by the heartbeat's reply.
      (statecheck::bounded_vec<Cmd, max_channel>, inbox),
      (bool, down),                     // its heartbeats do not reach SCM (an outage)
      (bool, dead),                     // SCM declared it DEAD (dead-node interval)
      (statecheck::clock<Hb>, hb),      // since the last heartbeat (down), or since work waited for one
      (statecheck::clock<Stall>, stall),   // the inbox's head has waited this long
      (statecheck::clock<ScmWait>, del_age),  // SCM's pending DELETE op on this datanode (C1)
      (statecheck::clock<Copy>, copy));  // the push replication streaming to this datanode
  friend bool operator==(const Datanode&, const Datanode&) = default;
};

/// One container: the real replicas and SCM's view of them.
struct Container {
  BOOST_HANA_DEFINE_STRUCT(Container,
      (DnSet, has),           // datanodes that really hold a replica
      (DnSet, scm),           // SCM's replica set
      (DnSet, pend_del),      // pending DELETE ops, at most one per target
      (DnSet, pend_add),      // pending ADD ops (the move's replication)
      (DnSet, importing),     // replicate command received, import not done
      (MoveSlot, move),       // MoveManager: the move in progress, if any
      (MoveResult, result));  // how the last move ended
  friend bool operator==(const Container&, const Container&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (statecheck::id_array<Dn, Datanode, max_datanodes>, dn),  // d1..d<datanodes> in use (init: use_ids<Dn>)
      (statecheck::bounded_vec<Container, max_containers>, c),  // not symmetric: see README "Symmetry"
      (std::uint8_t, next_id),          // id of the next DeleteContainerCommand
      (std::uint8_t, rm_deletes_left),  // budgets
      (std::uint8_t, resends_left),
      (std::uint8_t, moves_left),
      (std::uint8_t, volume_failures_left),
      (std::uint8_t, replica_losses_left),
      (std::uint8_t, failovers_left),
      (std::uint8_t, term),       // the SCM leader's term; a failover raises it
      (bool, untracked_delete),   // ghost: a datanode deleted a replica SCM had no pending DELETE for
      (bool, resend_at_rf),       // ghost: ExpireDelete resent while |scm| <= RF
      // The timed reading only:
      (std::array<statecheck::clock<CmdAge>, max_ids>, cmd_age),  // DEL#(i+1) since SCM sent it
      (statecheck::clock<RmWait>, rm_wait),  // since the last failover (stopped: the leader is old)
      (std::uint8_t, outages_left),
      (bool, late_exchange));  // ghost: one heartbeat delivered a GONE that completed the op and fetched a live DELETE
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  Variant variant = Variant::as_is;
  Replication replication = Replication::push;  // how a balancer move copies the replica
  Scenario scenario = Scenario::base;
  int datanodes = 4;
  int containers = 1;
  int rm_deletes = 1;  // MAX_RM_DELETES
  int resends = 1;     // MAX_RESENDS
  int moves = 1;       // MAX_MOVES
  int volume_failures = 0;
  int replica_losses = 0;
  bool fifo = true;    // FIFO_CMDS
  int channel = 2;     // capacity of each channel
  bool resend_check = false;  // the optional ResendOnlyIfStillOverReplicated
  bool clock_skew = false;    // datanode clocks lag SCM's by more than the datanode offset
  int failovers = 0;          // SCM leader changes
  bool prompt_dispatch = false;  // a report is processed only after the datanode took every queued command
  // The timed reading (README "Timed reading"): off by default, and then none of the below matters.
  bool timed = false;
  statecheck::duration unit = std::chrono::seconds(30);
  statecheck::duration heartbeat = std::chrono::seconds(30);      // hdds.heartbeat.interval
  statecheck::duration scm_deadline = std::chrono::minutes(12);   // ReplicationManager's event timeout
  statecheck::duration dn_offset = std::chrono::minutes(6);       // datanode deadline = SCM deadline - offset
  statecheck::duration dead_interval = std::chrono::minutes(10);  // ozone.scm.dead.node.interval
  statecheck::duration rm_wait = std::chrono::minutes(5);         // hdds.scm.wait.time.after.safemode.exit
  statecheck::duration dispatch_stall = std::chrono::seconds(30); // a datanode's dispatcher takes its queue's head within this
  statecheck::duration copy_time = std::chrono::minutes(1);       // a push replication takes at least this (0: no bound)
  int outages = 1;  // heartbeat outages (a datanode's heartbeats stop reaching SCM for a while)

  // A scenario switches its fault or ordering on, on top of the constants.
  int volume_failure_budget() const {
    return std::max(volume_failures, scenario == Scenario::volume_failure ? 1 : 0);
  }
  int replica_loss_budget() const { return std::max(replica_losses, scenario == Scenario::replica_loss ? 1 : 0); }
  bool fifo_dispatch() const { return fifo && scenario != Scenario::unordered_dispatch; }
  bool resend_checked() const { return resend_check || scenario == Scenario::replica_loss; }
  // Every DeleteContainerCommand has its own id: RM deletes, resends, one per move.
  int max_delete_id() const { return rm_deletes + resends + moves; }
  bool push() const { return replication == Replication::push; }
  statecheck::duration dn_deadline() const { return scm_deadline - dn_offset; }
};

inline const auto config = statecheck::constants<Config>(
    statecheck::choice("variant", &Config::variant,
                       {{"as-is", Variant::as_is}, {"patched", Variant::patched}},
                       "code version: as-is, or with the datanode skipping a container added after receipt"),
    statecheck::choice("replication", &Config::replication,
                       {{"push", Replication::push}, {"pull", Replication::pull}},
                       "move replication: push (MoveManager's default: the source streams to the target) or pull"),
    statecheck::choice("scenario", &Config::scenario,
                       {{"base", Scenario::base},
                        {"volume-failure", Scenario::volume_failure},
                        {"unordered-dispatch", Scenario::unordered_dispatch},
                        {"replica-loss", Scenario::replica_loss}},
                       "scenario (see README): adds one volume failure, unordered dispatch or one replica loss"),
    statecheck::integer("datanodes", &Config::datanodes, 4, max_datanodes, "datanodes (each container starts on 4)"),
    statecheck::integer("containers", &Config::containers, 1, max_containers, "CLOSED RATIS/THREE containers"),
    statecheck::integer("rm_deletes", &Config::rm_deletes, 0, 6, "over-replication deletes ReplicationManager may send"),
    statecheck::integer("resends", &Config::resends, 0, 6, "expired DELETEs ReplicationManager may resend"),
    statecheck::integer("moves", &Config::moves, 0, 6, "balancer moves"),
    statecheck::integer("volume_failures", &Config::volume_failures, 0, 3, "volume failures (fault)"),
    statecheck::integer("replica_losses", &Config::replica_losses, 0, 3, "replica losses (fault, linked resend issue)"),
    statecheck::boolean("fifo", &Config::fifo, "datanodes take commands in the order SCM queued them"),
    statecheck::integer("channel", &Config::channel, 1, max_channel, "capacity of each channel, per datanode"),
    statecheck::boolean("resend_check", &Config::resend_check,
                        "check ResendOnlyIfStillOverReplicated (always on in scenario replica-loss)"),
    statecheck::boolean("clock_skew", &Config::clock_skew,
                        "datanode clocks behind SCM's by more than the 6 min offset: a resend does not expire earlier copies"),
    statecheck::integer("failovers", &Config::failovers, 0, 1,
                        "SCM leader changes: in-memory pending ops and moves are lost, the term rises"),
    statecheck::boolean("prompt_dispatch", &Config::prompt_dispatch,
                        "SCM processes a datanode's report only once its handlers took every command queued for it"),
    statecheck::boolean("timed", &Config::timed,
                        "the timed reading: heartbeat exchanges, a dispatch step and the durations below"),
    statecheck::duration_constant("unit", &Config::unit, std::chrono::seconds(1), std::chrono::minutes(10),
                                  "timed: the time unit clocks count in"),
    statecheck::duration_constant("heartbeat", &Config::heartbeat, std::chrono::seconds(1), std::chrono::minutes(10),
                                  "timed: a datanode with something to exchange heartbeats within this"),
    statecheck::duration_constant("scm_deadline", &Config::scm_deadline, std::chrono::seconds(1), std::chrono::hours(2),
                                  "timed: SCM resends a pending DELETE once it is this old"),
    statecheck::duration_constant("dn_offset", &Config::dn_offset, std::chrono::seconds(0), std::chrono::hours(2),
                                  "timed: a command's datanode deadline is the SCM deadline minus this"),
    statecheck::duration_constant("dead_interval", &Config::dead_interval, std::chrono::seconds(1), std::chrono::hours(2),
                                  "timed: a datanode without a heartbeat this long is DEAD; its SCM command queue is cleared"),
    statecheck::duration_constant("rm_wait", &Config::rm_wait, std::chrono::seconds(1), std::chrono::hours(2),
                                  "timed: a new SCM leader's ReplicationManager waits this long before it acts"),
    statecheck::duration_constant("dispatch_stall", &Config::dispatch_stall, std::chrono::seconds(1), std::chrono::hours(2),
                                  "timed: the longest a datanode's dispatcher leaves its queue's head waiting"),
    statecheck::duration_constant("copy_time", &Config::copy_time, std::chrono::seconds(0), std::chrono::hours(2),
                                  "timed: the shortest push replication (0: no lower bound)"),
    statecheck::integer("outages", &Config::outages, 0, 2, "timed: heartbeat outages (a datanode out of touch)"));

/// The move of container k is in phase p (false: no move).
inline bool in_phase(const Container& k, Phase p) { return !k.move.empty() && k.move.front().phase == p; }
/// The move's deletion phase waits for source d.
inline bool deleting_from(const Container& k, DnId d) { return in_phase(k, Phase::deleting) && k.move.front().src == d; }
/// The move's replication phase waits for target d.
inline bool adding_to(const Container& k, DnId d) { return in_phase(k, Phase::adding) && k.move.front().tgt == d; }

/// Datanodes that start alike: runs of consecutive ids on which the same
/// containers start (with 1 container, d1..d4 hold it and d5.. are spares).
/// Only datanodes of one run are interchangeable. `main` is the longest run
/// (of equal ones the first), `other` the longest other run of 2 or more
/// (count 0: none), each declared as its own symmetric range; the configurations
/// up to 3 containers and 8 datanodes have at most two such runs.
struct DnRange {
  int first = 0, count = 0;
};
struct DnRanges {
  DnRange main, other;
};
inline DnRanges interchangeable_datanodes(const Config& cfg) {
  auto starts_on = [&cfg](int d) {  // bit k: container k starts with a replica on d
    unsigned bits = 0;
    for (int k = 0; k < cfg.containers; ++k)
      for (int i = 0; i <= rf; ++i)
        if ((k + i) % cfg.datanodes == d) bits |= 1u << k;
    return bits;
  };
  DnRanges out{{0, 1}, {0, 0}};
  for (int first = 0; first < cfg.datanodes;) {
    int end = first + 1;
    while (end < cfg.datanodes && starts_on(end) == starts_on(first)) ++end;
    const DnRange run{first, end - first};
    if (run.count > out.main.count) {
      if (out.main.count >= 2) out.other = out.main;
      out.main = run;
    } else if (run.count >= 2 && run.count > out.other.count) {
      out.other = run;
    }
    first = end;
  }
  return out;
}

/// The queued delete with this id, or nullptr.
inline const QDel* find_queued(const Datanode& n, int id) {
  for (const QDel& q : n.del_q)
    if (q.id == id) return &q;
  return nullptr;
}

/// Marks the queued deletes that `pick` selects as expired. Items of a set are
/// read-only, so the queue is rebuilt (its order, by id, is unchanged).
template <class Pick>
void expire_queued(Datanode& n, Pick pick) {
  statecheck::bounded_set<QDel, max_queued> out;
  for (QDel q : n.del_q) {
    if (pick(q)) q.expired = true;
    out.insert(q);
  }
  n.del_q = out;
}

/// Whether a delete thread running `q` on datanode d removes the replica.
inline bool wipes(const Config& cfg, const State& s, DnId d, const QDel& q) {
  if (q.expired || !s.c[q.c].has.contains(d)) return false;  // past the deadline, or absent: no-op
  if (q.term < s.dn[d].term) return false;  // sent by a deposed leader: the handler's term check
  if (cfg.variant == Variant::patched && !q.present) return false;  // the patch: added after receipt
  return true;
}

/// An ADDED report from the move target makes MoveManager send a DELETE to the
/// source when the replica set without the source is healthy.
inline bool add_deletes_source(const State& s, DnId d, const Report& r) {
  const Container& k = s.c[r.c];
  if (r.kind != ReportKind::added || !adding_to(k, d)) return false;
  DnSet after = k.scm;
  after.insert(d);
  const DnId src = k.move.front().src;
  if (!after.contains(src)) return false;
  after.erase(src);
  return after.size() == rf;
}

/// Timed: datanode d has something to exchange with SCM (commands queued for
/// it, reports to send, a new term to learn).
inline bool has_work(const State& s, DnId d) {
  const Datanode& n = s.dn[d];
  return !n.cmds.empty() || !n.reports.empty() || n.term < s.term;
}

/// Timed: work now waits on d. A connected datanode heartbeats every 30 s at a
/// phase the model does not know, so from an arbitrary moment its next heartbeat
/// comes within `heartbeat`: an idle connected datanode's clock starts here.
inline void touch(State& s, DnId d) {
  Datanode& n = s.dn[d];
  if (!n.down && !n.dead && !n.hb.running()) n.hb.reset();
}

/// ReplicationManager (or MoveManager) sends DEL#id for container ct to d.
/// Timed: the command's age (its datanode deadline) and the pending op's age
/// (its SCM deadline) start now.
inline void send_delete(State& s, CtrId ct, DnId d, bool timed = false) {
  s.dn[d].cmds.push_back(Cmd{s.next_id, ct, d, s.term, false});
  if (timed) {
    s.cmd_age[s.next_id - 1].reset();
    s.dn[d].del_age.reset();
    touch(s, d);
  }
  ++s.next_id;
  s.c[ct].pend_del.insert(d);
}

/// The datanode dispatcher takes a command off its channel; a command from a
/// newer leader came with that leader's heartbeat response, which carries its term.
/// A REPL starts the import on its target: pull, d is the target and pulls;
/// push, d is the source and streams the replica, which it must hold (a push
/// from a source that lost it fails; the move's timeout is not modelled).
inline void receive(State& s, DnId d, const Cmd& cmd, bool timed = false) {
  Datanode& node = s.dn[d];
  node.term = std::max(node.term, cmd.term);
  if (cmd.is_delete()) {
    node.del_q.insert(QDel{cmd.id, cmd.c, cmd.term, cmd.expired, s.c[cmd.c].has.contains(d)});
  } else if (cmd.tgt == d || s.c[cmd.c].has.contains(d)) {
    s.c[cmd.c].importing.insert(cmd.tgt);
    if (timed) s.dn[cmd.tgt].copy.reset();  // the replication starts streaming
  }
}

/// The queue the datanode's dispatcher takes commands from: untimed, the
/// channel from SCM itself; timed, the datanode's own queue the heartbeat filled.
inline const statecheck::bounded_vec<Cmd, max_channel>& dispatch_queue(const Datanode& n, bool timed) {
  return timed ? n.inbox : n.cmds;
}
inline statecheck::bounded_vec<Cmd, max_channel>& dispatch_queue(Datanode& n, bool timed) {
  return timed ? n.inbox : n.cmds;
}

/// Room for the command at queue position `pos` to be received.
inline bool can_receive(const State& s, DnId d, int pos, bool timed = false) {
  const Datanode& n = s.dn[d];
  const auto& q = dispatch_queue(n, timed);
  if (pos >= q.size()) return false;
  return !q[pos].is_delete() || n.del_q.size() < n.del_q.capacity();
}

/// The dispatcher takes the command at `pos`. Timed: the stall clock times
/// the new head, if any.
inline void dispatch(State& s, DnId d, int pos, bool timed) {
  auto& q = dispatch_queue(s.dn[d], timed);
  const Cmd cmd = q[pos];
  q.erase(pos);
  if (timed) {
    if (s.dn[d].inbox.empty()) s.dn[d].stall.stop();
    else if (pos == 0) s.dn[d].stall.reset();
  }
  receive(s, d, cmd, timed);
}

/// Timed: a DELETE id's age clock runs while a live (unexpired) copy of it is
/// on its way, queued or waiting for a delete thread; stopped otherwise.
inline bool delete_live(const State& s, int id) {
  for (const Datanode& n : s.dn) {
    for (const Cmd& c : n.cmds)
      if (c.id == id && !c.expired) return true;
    for (const Cmd& c : n.inbox)
      if (c.id == id && !c.expired) return true;
    for (const QDel& q : n.del_q)
      if (q.id == id && !q.expired) return true;
  }
  return false;
}
inline void tidy_ages(State& s) {
  for (int i = 0; i < max_ids; ++i)
    if (s.cmd_age[static_cast<std::size_t>(i)].running() && !delete_live(s, i + 1))
      s.cmd_age[static_cast<std::size_t>(i)].stop();
}

/// A fault (volume failure, replica loss) removes the replica of ct on d.
inline void lose_replica(State& s, CtrId ct, DnId d, bool timed = false) {
  s.c[ct].has.erase(d);
  s.dn[d].reports.push_back(Report{ReportKind::gone, ct});
  if (timed) touch(s, d);
}

/// SCM processes the oldest report of d (the untimed ScmReport, and each report
/// a timed heartbeat carries). GONE completes the pending DELETE, whichever
/// command removed the replica; ADDED runs MoveManager.handleSuccessfulAdd.
inline void process_report(State& s, DnId d, bool timed) {
  const Report r = s.dn[d].reports.front();
  const bool delete_source = add_deletes_source(s, d, r);
  s.dn[d].reports.pop_front();
  Container& box = s.c[r.c];
  if (r.kind == ReportKind::gone) {
    box.scm.erase(d);
    box.pend_del.erase(d);
    if (timed) s.dn[d].del_age.stop();
    if (deleting_from(box, d)) {
      box.move.clear();
      box.result = MoveResult::completed;
    }
    return;
  }
  box.scm.insert(d);
  box.pend_add.erase(d);
  if (!adding_to(box, d)) return;
  if (delete_source) {
    send_delete(s, r.c, box.move.front().src, timed);
    box.move.front().phase = Phase::deleting;
    return;
  }
  box.result = box.scm.contains(box.move.front().src) ? MoveResult::failed : MoveResult::completed;
  box.move.clear();
}

/// Timed: one heartbeat of d (SCMDatanodeHeartbeatDispatcher.dispatch): the
/// reply carries every command SCM queued for d, appended to d's own queue, and
/// SCM processes every report the heartbeat carries; d learns the leader's term.
/// (Commands that processing queues go to other datanodes, the move's source,
/// so fetching first or processing first comes to the same.)
inline void exchange(State& s, DnId d) {
  bool fetched_live_delete = false;
  {
    Datanode& n = s.dn[d];
    const bool was_empty = n.inbox.empty();
    for (const Cmd& c : n.cmds) {
      n.inbox.push_back(c);
      if (c.is_delete() && !c.expired) fetched_live_delete = true;
    }
    n.cmds.clear();
    if (was_empty && !n.inbox.empty()) n.stall.reset();
    n.term = std::max(n.term, s.term);
  }
  while (!s.dn[d].reports.empty()) {
    const Report r = s.dn[d].reports.front();
    const bool completes = r.kind == ReportKind::gone && s.c[r.c].pend_del.contains(d);
    process_report(s, d, true);
    if (completes && fetched_live_delete) s.late_exchange = true;
  }
  s.dn[d].hb.stop();  // nothing waits for a heartbeat now
}

/// Timed: the heartbeat fits the model's bounded queues (d's own queue, and the
/// source's channel for the DELETE a move's ADDED report sends).
inline bool exchange_fits(const State& s, DnId d, int cap) {
  const Datanode& n = s.dn[d];
  if (n.inbox.size() + n.cmds.size() > max_channel) return false;
  State t = s;
  while (!t.dn[d].reports.empty()) {
    const Report& r = t.dn[d].reports.front();
    if (add_deletes_source(t, d, r) && t.dn[t.c[r.c].move.front().src].cmds.size() >= cap) return false;
    process_report(t, d, true);
  }
  return true;
}

}  // namespace specs::hdds::stale_delete
