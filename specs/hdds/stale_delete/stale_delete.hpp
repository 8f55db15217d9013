// HDDS-16897: a DeleteContainerCommand that SCM resent after its deadline is
// still queued on the datanode when the late "replica gone" report completes
// the pending op. SCM forgets the copy, the balancer moves the container back
// to that datanode, and the queued copy deletes the imported replica while the
// move reports COMPLETED. The report and the model: README.md.
#pragma once

#include <string>

#include "rules.hpp"

namespace specs::hdds::stale_delete {

inline auto make_spec(const Config& cfg) {
  const int n = cfg.datanodes;
  const int cap = cfg.channel;
  const auto ct = statecheck::ids<Ctr>("c", cfg.containers);
  const auto dn = statecheck::ids<Dn>("dn", n);
  const auto src = statecheck::ids<Dn>("src", n);
  const auto tgt = statecheck::ids<Dn>("tgt", n);
  const auto id = statecheck::param("id", 1, cfg.max_delete_id());
  const auto pos = statecheck::param("pos", 1, cap - 1);  // a command overtaking the head
  const DnRanges sym = interchangeable_datanodes(cfg);
  const bool timed = cfg.timed;

  // The timed reading (README "Timed reading"). The bounds are made in every
  // configuration (the spec has one type); untimed, no clock ever runs.
  if (timed) {
    auto refuse = [](const std::string& why) { throw statecheck::config_error("stale-delete: timed=true " + why); };
    if (cfg.containers != 1) refuse("models one container (containers=1)");
    if (cfg.clock_skew) refuse("has no clock skew (the datanode deadline is the SCM deadline minus the offset)");
    if (cfg.prompt_dispatch) refuse("replaces prompt_dispatch by the heartbeat exchange and dispatch_stall");
    if (cfg.max_delete_id() > max_ids) refuse("allows at most " + std::to_string(max_ids) + " DELETE commands (rm_deletes + resends + moves)");
    if (cfg.dn_offset >= cfg.scm_deadline) refuse("needs dn_offset below scm_deadline");
  }
  statecheck::timing time(cfg.unit);
  const auto heartbeat = time.bound<Hb>("heartbeat", cfg.heartbeat);
  const auto dead_interval = time.bound<Hb>("dead_interval", cfg.dead_interval);
  const auto dispatch_stall = time.bound<Stall>("dispatch_stall", cfg.dispatch_stall);
  const auto scm_deadline = time.bound<ScmWait>("scm_deadline", cfg.scm_deadline);
  const auto dn_deadline =
      time.bound<CmdAge>("scm_deadline - dn_offset", cfg.dn_offset < cfg.scm_deadline ? cfg.dn_deadline() : cfg.scm_deadline);
  const bool copy_bounded = cfg.copy_time.count() > 0;
  const auto copy_time = time.bound<Copy>("copy_time", copy_bounded ? cfg.copy_time : cfg.unit);
  const auto rm_wait = time.bound<RmWait>("rm_wait", cfg.rm_wait);
  // ReplicationManager acts only after a new leader's wait (stopped: no failover yet).
  auto rm_ready = [rm_wait](const State& s) { return !s.rm_wait.running() || s.rm_wait >= rm_wait; };

  return statecheck::spec<State>(
      "stale-delete",
      // Each container starts CLOSED on RF + 1 datanodes, SCM knowing all of them.
      statecheck::init([cfg](State& s) {
        statecheck::use_ids<Dn>(s, cfg.datanodes);
        for (int k = 0; k < cfg.containers; ++k) {
          Container box{};
          for (int i = 0; i <= rf; ++i) box.has.insert(DnId((k + i) % cfg.datanodes));
          box.scm = box.has;
          s.c.push_back(box);
        }
        s.next_id = 1;
        s.rm_deletes_left = static_cast<std::uint8_t>(cfg.rm_deletes);
        s.resends_left = static_cast<std::uint8_t>(cfg.resends);
        s.moves_left = static_cast<std::uint8_t>(cfg.moves);
        s.volume_failures_left = static_cast<std::uint8_t>(cfg.volume_failure_budget());
        s.replica_losses_left = static_cast<std::uint8_t>(cfg.replica_loss_budget());
        s.failovers_left = static_cast<std::uint8_t>(cfg.failovers);
        if (cfg.timed) s.outages_left = static_cast<std::uint8_t>(cfg.outages);
      }),
      statecheck::actions(
          // ReplicationManager: the container is over-replicated, delete one replica.
          statecheck::action(
              "RMDelete", ct, dn,
              [cap, rm_ready](const State& s, CtrId k, DnId d) {
                const Container& box = s.c[k];
                return s.rm_deletes_left > 0 && box.scm.size() > rf && box.pend_del.empty() &&
                       box.pend_add.empty() && box.scm.contains(d) &&
                       s.dn[d].cmds.size() < cap && rm_ready(s);
              },
              [timed](State& s, CtrId k, DnId d) {
                --s.rm_deletes_left;
                send_delete(s, k, d, timed);
              }).sends("dn"),
          // The SCM deadline of the pending DELETE passes before a report
          // (HDDS-12127): the same command goes out again with a new deadline.
          // The datanode deadline of every earlier copy is earlier still, unless
          // the datanode's clock lags SCM's by more than the offset (clock_skew).
          statecheck::action(
              "ExpireDelete", ct, dn,
              // Timed: once the pending op is scm_deadline old; every earlier copy's
              // datanode deadline has then passed (DatanodeDeadline saw to it).
              [cap, timed, rm_ready, scm_deadline](const State& s, CtrId k, DnId d) {
                if (timed && !(s.dn[d].del_age.running() && s.dn[d].del_age >= scm_deadline && rm_ready(s))) return false;
                return s.resends_left > 0 && s.c[k].pend_del.contains(d) &&
                       s.dn[d].cmds.size() < cap;
              },
              [cfg](State& s, CtrId k, DnId d) {
                Container& box = s.c[k];
                Datanode& node = s.dn[d];
                if (cfg.resend_checked() && box.scm.size() <= rf) s.resend_at_rf = true;
                if (!cfg.clock_skew && !cfg.timed) {
                  for (Cmd& cmd : node.cmds)
                    if (cmd.is_delete() && cmd.c == k) cmd.expired = true;
                  expire_queued(node, [k](const QDel& q) { return q.c == k; });
                }
                --s.resends_left;
                send_delete(s, k, d, cfg.timed);  // replaces the pending op: pend_del keeps d
                if (deleting_from(box, d)) {
                  box.move.clear();  // MoveManager: deletion timed out
                  box.result = MoveResult::failed;
                }
              }).sends("dn"),
          // MoveManager.move: checks only SCM's replicas and pending ops, not
          // commands already handed to the target. The replicate command goes
          // to the source with push (sendLowPriorityReplicateContainerCommand:
          // the replica reaches the target over gRPC, past the target's command
          // queue), to the target with pull.
          statecheck::action(
              "BalancerMove", ct, src, tgt,
              [cfg, cap](const State& s, CtrId k, DnId from, DnId to) {
                const Container& box = s.c[k];
                return s.moves_left > 0 && box.move.empty() && box.scm.contains(from) &&
                       !box.scm.contains(to) && box.pend_del.empty() && box.pend_add.empty() &&
                       box.scm.size() == rf && s.dn[cfg.push() ? from : to].cmds.size() < cap && !s.dn[to].dead;
              },
              [cfg](State& s, CtrId k, DnId from, DnId to) {
                Container& box = s.c[k];
                --s.moves_left;
                s.dn[cfg.push() ? from : to].cmds.push_back(Cmd{0, k, to, s.term, false});
                if (cfg.timed) touch(s, cfg.push() ? from : to);
                box.pend_add.insert(to);
                box.move.push_back(Move{Phase::adding, from, to});
              }).sends("tgt"),
          // SCM processes the oldest report of a datanode. GONE completes the
          // pending DELETE, whichever command removed the replica. With
          // prompt_dispatch, only once the datanode's handlers took every
          // command queued for it (the report's heartbeat fetched them).
          // Timed, reports reach SCM only in heartbeats (Heartbeat below).
          statecheck::action(
              "ScmReport", dn,
              [cfg, cap](const State& s, DnId d) {
                const Datanode& node = s.dn[d];
                if (cfg.timed || node.reports.empty() || (cfg.prompt_dispatch && !node.cmds.empty())) return false;
                const Report& r = node.reports.front();
                return !add_deletes_source(s, d, r) ||
                       s.dn[s.c[r.c].move.front().src].cmds.size() < cap;
              },
              [](State& s, DnId d) { process_report(s, d, false); }),
          // Timed: the heartbeat exchange (README "Timed reading"). A datanode
          // with something to exchange heartbeats within `heartbeat`; an outage
          // starts after a heartbeat (Disconnect) and ends with one (Reconnect),
          // unless SCM declares the datanode DEAD first.
          statecheck::when(timed, statecheck::action(
              "Heartbeat", dn,
              [cap](const State& s, DnId d) {
                const Datanode& node = s.dn[d];
                return !node.down && !node.dead && has_work(s, d) && exchange_fits(s, d, cap);
              },
              [](State& s, DnId d) { exchange(s, d); })),
          statecheck::when(timed, statecheck::action(
              "Disconnect", dn,
              [cap](const State& s, DnId d) {
                const Datanode& node = s.dn[d];
                return s.outages_left > 0 && !node.down && !node.dead && exchange_fits(s, d, cap);
              },
              [](State& s, DnId d) {
                --s.outages_left;
                exchange(s, d);  // the last heartbeat that gets through
                s.dn[d].down = true;
                s.dn[d].hb.reset();
              })),
          statecheck::when(timed, statecheck::action(
              "Reconnect", dn,
              [cap](const State& s, DnId d) {
                const Datanode& node = s.dn[d];
                return node.down && !node.dead && exchange_fits(s, d, cap);
              },
              [](State& s, DnId d) {
                s.dn[d].down = false;
                exchange(s, d);  // the first heartbeat that gets through again
              })),
          // Timed: no heartbeat for dead_interval. SCM's DeadNodeHandler drops the
          // datanode's replicas (completing its pending ops) and its command queue
          // is cleared; a dead datanode is not brought back (README).
          statecheck::when(timed, statecheck::action(
              "NodeDead", dn,
              [dead_interval](const State& s, DnId d) {
                const Datanode& node = s.dn[d];
                return node.down && !node.dead && node.hb >= dead_interval;
              },
              [](State& s, DnId d) {
                Datanode& node = s.dn[d];
                node.dead = true;
                node.cmds.clear();
                node.hb.stop();
                node.del_age.stop();
                for (Container& box : s.c) {
                  box.scm.erase(d);
                  box.pend_del.erase(d);
                  box.pend_add.erase(d);
                  if (!box.move.empty() && (box.move.front().src == d || box.move.front().tgt == d)) {
                    box.move.clear();
                    box.result = MoveResult::failed;
                  }
                }
                tidy_ages(s);
              })),
          // The datanode's dispatcher takes the oldest command; a DELETE goes
          // to the delete threads, remembering whether the replica is there.
          // Timed: from the datanode's own queue, which the heartbeat filled.
          statecheck::action(
              "DnDispatch", dn, [timed](const State& s, DnId d) { return can_receive(s, d, 0, timed); },
              [timed](State& s, DnId d) { dispatch(s, d, 0, timed); }),
          // Only with unordered dispatch: a later command overtakes the head.
          statecheck::action(
              "DnDispatchOutOfOrder", dn, pos,
              [cfg](const State& s, DnId d, int p) { return !cfg.fifo_dispatch() && can_receive(s, d, p, cfg.timed); },
              [timed](State& s, DnId d, int p) { dispatch(s, d, p, timed); }),
          // A delete thread runs a queued DELETE: it checks only the deadline
          // (and the SCM term, constant here) and deletes by container id.
          statecheck::action(
              "DnRunDelete", dn, id,
              [cfg, cap](const State& s, DnId d, int i) {
                const Datanode& node = s.dn[d];
                const QDel* q = find_queued(node, i);
                return q != nullptr && (!wipes(cfg, s, d, *q) || node.reports.size() < cap);
              },
              [cfg](State& s, DnId d, int i) {
                Datanode& node = s.dn[d];
                const QDel q = *find_queued(node, i);
                node.del_q.erase(q);
                if (cfg.timed) tidy_ages(s);
                if (!wipes(cfg, s, d, q)) return;
                Container& box = s.c[q.c];
                if (!box.pend_del.contains(d)) s.untracked_delete = true;
                box.has.erase(d);
                node.reports.push_back(Report{ReportKind::gone, q.c});
                if (cfg.timed) touch(s, d);
              }),
          // The replication job of a move finishes: the target holds the replica.
          statecheck::action(
              "DnImport", ct, dn,
              // Timed: a push takes at least copy_time from the source's dispatch.
              [cap, timed, copy_bounded, copy_time](const State& s, CtrId k, DnId d) {
                if (timed && copy_bounded && !(s.dn[d].copy.running() && s.dn[d].copy >= copy_time)) return false;
                return s.c[k].importing.contains(d) && s.dn[d].reports.size() < cap;
              },
              [timed](State& s, CtrId k, DnId d) {
                Container& box = s.c[k];
                box.importing.erase(d);
                box.has.insert(d);
                s.dn[d].reports.push_back(Report{ReportKind::added, k});
                if (timed) {
                  s.dn[d].copy.stop();
                  touch(s, d);
                }
              }),
          // Any DELETE copy, on the wire or queued, may reach its datanode deadline.
          // Timed: exactly once it is scm_deadline - dn_offset old (the handler
          // compares strictly after the deadline; closed bounds allow both at it).
          statecheck::action(
              "DnCmdExpire", dn, id,
              [timed, dn_deadline](const State& s, DnId d, int i) {
                if (timed && !(s.cmd_age[static_cast<std::size_t>(i - 1)].running() &&
                               s.cmd_age[static_cast<std::size_t>(i - 1)] >= dn_deadline))
                  return false;
                const Datanode& node = s.dn[d];
                for (const Cmd& cmd : node.cmds)
                  if (cmd.id == i && !cmd.expired) return true;
                for (const Cmd& cmd : node.inbox)
                  if (cmd.id == i && !cmd.expired) return true;
                const QDel* q = find_queued(node, i);
                return q != nullptr && !q->expired;
              },
              [timed](State& s, DnId d, int i) {
                Datanode& node = s.dn[d];
                for (Cmd& cmd : node.cmds)
                  if (cmd.id == i) cmd.expired = true;
                for (Cmd& cmd : node.inbox)
                  if (cmd.id == i) cmd.expired = true;
                expire_queued(node, [i](const QDel& q) { return q.id == i; });
                if (timed) tidy_ages(s);
              }),
          // Faults: the replica disappears for another reason and a GONE report follows.
          statecheck::action(
              "VolumeFailure", ct, dn,
              [cap](const State& s, CtrId k, DnId d) {
                return s.volume_failures_left > 0 && s.c[k].has.contains(d) &&
                       s.dn[d].reports.size() < cap;
              },
              [timed](State& s, CtrId k, DnId d) {
                --s.volume_failures_left;
                lose_replica(s, k, d, timed);
              }),
          statecheck::action(
              "ReplicaLoss", ct, dn,
              [cap](const State& s, CtrId k, DnId d) {
                return s.replica_losses_left > 0 && s.c[k].has.contains(d) &&
                       s.dn[d].reports.size() < cap;
              },
              [timed](State& s, CtrId k, DnId d) {
                --s.replica_losses_left;
                lose_replica(s, k, d, timed);
              }),
          // SCM leader change: the new leader starts with empty
          // ContainerReplicaPendingOps and no moves (both in memory), its
          // replica view from the reports every SCM receives, and a higher term.
          // Commands already sent stay on their way.
          statecheck::when(cfg.failovers > 0, statecheck::action(
              "ScmFailover", [](const State& s) { return s.failovers_left > 0; },
              // Timed: ReplicationManager's wait restarts; datanodes learn the
              // term from their next heartbeat.
              [timed](State& s) {
                --s.failovers_left;
                ++s.term;
                for (Container& box : s.c) {
                  box.pend_del = DnSet{};
                  box.pend_add = DnSet{};
                  if (!box.move.empty()) box.result = MoveResult::failed;
                  box.move.clear();
                }
                if (timed) {
                  s.rm_wait.reset();
                  for (int i = 0; i < s.dn.size(); ++i) {
                    s.dn[DnId(i)].del_age.stop();
                    touch(s, DnId(i));
                  }
                }
              })),
          // A datanode heartbeats to the new leader and learns its term; from
          // then on its delete handler drops commands of older terms.
          statecheck::when(cfg.failovers > 0 && !timed, statecheck::action(
              "DnLearnTerm", dn, [](const State& s, DnId d) { return s.dn[d].term < s.term; },
              [](State& s, DnId d) { s.dn[d].term = s.term; }))),
      statecheck::invariants(
          statecheck::invariant("NoUntrackedDelete", [](const State& s) { return !s.untracked_delete; }),
          statecheck::invariant("MoveCompletedImpliesReplicated",
                                [](const State& s) {
                                  for (int k = 0; k < s.c.size(); ++k)
                                    if (s.c[k].result == MoveResult::completed && s.c[k].has.size() < rf) return false;
                                  return true;
                                }),
          statecheck::invariant("ResendOnlyIfStillOverReplicated", [](const State& s) { return !s.resend_at_rf; })),
      // Against a vacuous pass: a move can complete, and a resent DELETE can
      // be left on a datanode that SCM no longer has a pending op for.
      statecheck::reachable(
          statecheck::goal("MoveCompletes",
                           [](const State& s) {
                             for (int k = 0; k < s.c.size(); ++k)
                               if (s.c[k].result == MoveResult::completed) return true;
                             return false;
                           }),
          statecheck::goal("ForgottenDeleteQueued", forgotten_delete_queued),
          statecheck::goal("BugWindow", in_bug_window),
          // Timed only (untimed it holds at once): one heartbeat delivered the
          // late GONE that completed the pending DELETE and fetched a live DELETE.
          statecheck::goal("LateReportInExchange", [timed](const State& s) { return !timed || s.late_exchange; })),
      time,
      statecheck::deadlines(
          // A datanode with something to exchange heartbeats within `heartbeat`.
          statecheck::deadline("HeartbeatInTime", [heartbeat](const State& s) {
            for (const Datanode& node : s.dn)
              if (!node.down && node.hb.running() && !(node.hb <= heartbeat)) return false;
            return true;
          }),
          // A datanode out of touch comes back, or is declared DEAD, by dead_interval.
          statecheck::deadline("DeadNodeInTime", [dead_interval](const State& s) {
            for (const Datanode& node : s.dn)
              if (node.down && !node.dead && !(node.hb <= dead_interval)) return false;
            return true;
          }),
          // The dispatcher takes its queue's head within dispatch_stall.
          statecheck::deadline("DispatchInTime", [dispatch_stall](const State& s) {
            for (const Datanode& node : s.dn)
              if (!node.inbox.empty() && !(node.stall <= dispatch_stall)) return false;
            return true;
          }),
          // A live DELETE copy expires at its datanode deadline.
          statecheck::deadline("DatanodeDeadline", [dn_deadline](const State& s) {
            for (const auto& age : s.cmd_age)
              if (age.running() && !(age <= dn_deadline)) return false;
            return true;
          })),
      // Runs end when every budget is spent and the channels are drained.
      statecheck::allow_deadlock,
      // Datanodes that start alike are interchangeable, run by run (README "Symmetry").
      statecheck::symmetric<Dn>(sym.main.first, sym.main.count),
      statecheck::symmetric<Dn>(sym.other.first, sym.other.count));
}

}  // namespace specs::hdds::stale_delete
