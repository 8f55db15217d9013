// The rules the stale-delete actions share (HDDS-16897): move phases, which
// datanodes are interchangeable, the delete queue, what a report triggers, and
// the timed reading's heartbeat bookkeeping. The state is in state.hpp.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "state.hpp"

namespace specs::hdds::stale_delete {

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

/// A live DELETE that SCM has no pending op for is on its way to, or queued
/// on, a datanode (goal ForgottenDeleteQueued).
inline bool forgotten_delete_queued(const State& s) {
  for (int i = 0; i < s.dn.size(); ++i) {
    const DnId d(i);
    for (const Cmd& cmd : s.dn[d].cmds)
      if (cmd.is_delete() && !cmd.expired && !s.c[cmd.c].pend_del.contains(d)) return true;
    for (const Cmd& cmd : s.dn[d].inbox)
      if (cmd.is_delete() && !cmd.expired && !s.c[cmd.c].pend_del.contains(d)) return true;
    for (const QDel& q : s.dn[d].del_q)
      if (!q.expired && !s.c[q.c].pend_del.contains(d)) return true;
  }
  return false;
}

/// The bug window (goal BugWindow): a live DELETE that SCM does not track is
/// queued on a datanode that holds the replica again, where the as-is handler deletes.
inline bool in_bug_window(const State& s) {
  for (int i = 0; i < s.dn.size(); ++i) {
    const DnId d(i);
    for (const QDel& q : s.dn[d].del_q)
      if (!q.expired && q.term >= s.dn[d].term && s.c[q.c].has.contains(d) && !s.c[q.c].pend_del.contains(d))
        return true;
  }
  return false;
}

}  // namespace specs::hdds::stale_delete
