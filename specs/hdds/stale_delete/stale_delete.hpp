// HDDS-16897: a DeleteContainerCommand that SCM resent after its deadline is
// still queued on the datanode when the late "replica gone" report completes
// the pending op. SCM forgets the copy, the balancer moves the container back
// to that datanode, and the queued copy deletes the imported replica while the
// move reports COMPLETED. The report and the model: README.md.
#pragma once

#include "state.hpp"

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
      }),
      statecheck::actions(
          // ReplicationManager: the container is over-replicated, delete one replica.
          statecheck::action(
              "RMDelete", ct, dn,
              [cap](const State& s, CtrId k, DnId d) {
                const Container& box = s.c[k];
                return s.rm_deletes_left > 0 && box.scm.size() > rf && box.pend_del.empty() &&
                       box.pend_add.empty() && box.scm.contains(d) &&
                       s.dn[d].cmds.size() < cap;
              },
              [](State& s, CtrId k, DnId d) {
                --s.rm_deletes_left;
                send_delete(s, k, d);
              }).sends("dn"),
          // The SCM deadline of the pending DELETE passes before a report
          // (HDDS-12127): the same command goes out again with a new deadline.
          // The datanode deadline of every earlier copy is earlier still, unless
          // the datanode's clock lags SCM's by more than the offset (clock_skew).
          statecheck::action(
              "ExpireDelete", ct, dn,
              [cap](const State& s, CtrId k, DnId d) {
                return s.resends_left > 0 && s.c[k].pend_del.contains(d) &&
                       s.dn[d].cmds.size() < cap;
              },
              [cfg](State& s, CtrId k, DnId d) {
                Container& box = s.c[k];
                Datanode& node = s.dn[d];
                if (cfg.resend_checked() && box.scm.size() <= rf) s.resend_at_rf = true;
                if (!cfg.clock_skew) {
                  for (Cmd& cmd : node.cmds)
                    if (cmd.is_delete() && cmd.c == k) cmd.expired = true;
                  expire_queued(node, [k](const QDel& q) { return q.c == k; });
                }
                --s.resends_left;
                send_delete(s, k, d);  // replaces the pending op: pend_del keeps d
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
                       box.scm.size() == rf && s.dn[cfg.push() ? from : to].cmds.size() < cap;
              },
              [cfg](State& s, CtrId k, DnId from, DnId to) {
                Container& box = s.c[k];
                --s.moves_left;
                s.dn[cfg.push() ? from : to].cmds.push_back(Cmd{0, k, to, s.term, false});
                box.pend_add.insert(to);
                box.move.push_back(Move{Phase::adding, from, to});
              }).sends("tgt"),
          // SCM processes the oldest report of a datanode. GONE completes the
          // pending DELETE, whichever command removed the replica. With
          // prompt_dispatch, only once the datanode's handlers took every
          // command queued for it (the report's heartbeat fetched them).
          statecheck::action(
              "ScmReport", dn,
              [cfg, cap](const State& s, DnId d) {
                const Datanode& node = s.dn[d];
                if (node.reports.empty() || (cfg.prompt_dispatch && !node.cmds.empty())) return false;
                const Report& r = node.reports.front();
                return !add_deletes_source(s, d, r) ||
                       s.dn[s.c[r.c].move.front().src].cmds.size() < cap;
              },
              [](State& s, DnId d) {
                const Report r = s.dn[d].reports.front();
                const bool delete_source = add_deletes_source(s, d, r);
                s.dn[d].reports.pop_front();
                Container& box = s.c[r.c];
                if (r.kind == ReportKind::gone) {
                  box.scm.erase(d);
                  box.pend_del.erase(d);
                  if (deleting_from(box, d)) {
                    box.move.clear();
                    box.result = MoveResult::completed;
                  }
                  return;
                }
                box.scm.insert(d);
                box.pend_add.erase(d);
                if (!adding_to(box, d)) return;
                // MoveManager.handleSuccessfulAdd
                if (delete_source) {
                  send_delete(s, r.c, box.move.front().src);
                  box.move.front().phase = Phase::deleting;
                  return;
                }
                box.result = box.scm.contains(box.move.front().src) ? MoveResult::failed : MoveResult::completed;
                box.move.clear();
              }),
          // The datanode's dispatcher takes the oldest command; a DELETE goes
          // to the delete threads, remembering whether the replica is there.
          statecheck::action(
              "DnDispatch", dn, [](const State& s, DnId d) { return can_receive(s, d, 0); },
              [](State& s, DnId d) {
                const Cmd cmd = s.dn[d].cmds.front();
                s.dn[d].cmds.pop_front();
                receive(s, d, cmd);
              }),
          // Only with unordered dispatch: a later command overtakes the head.
          statecheck::action(
              "DnDispatchOutOfOrder", dn, pos,
              [cfg](const State& s, DnId d, int p) { return !cfg.fifo_dispatch() && can_receive(s, d, p); },
              [](State& s, DnId d, int p) {
                const Cmd cmd = s.dn[d].cmds[p];
                s.dn[d].cmds.erase(p);
                receive(s, d, cmd);
              }),
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
                if (!wipes(cfg, s, d, q)) return;
                Container& box = s.c[q.c];
                if (!box.pend_del.contains(d)) s.untracked_delete = true;
                box.has.erase(d);
                node.reports.push_back(Report{ReportKind::gone, q.c});
              }),
          // The replication job of a move finishes: the target holds the replica.
          statecheck::action(
              "DnImport", ct, dn,
              [cap](const State& s, CtrId k, DnId d) {
                return s.c[k].importing.contains(d) && s.dn[d].reports.size() < cap;
              },
              [](State& s, CtrId k, DnId d) {
                Container& box = s.c[k];
                box.importing.erase(d);
                box.has.insert(d);
                s.dn[d].reports.push_back(Report{ReportKind::added, k});
              }),
          // Any DELETE copy, on the wire or queued, may reach its datanode deadline.
          statecheck::action(
              "DnCmdExpire", dn, id,
              [](const State& s, DnId d, int i) {
                const Datanode& node = s.dn[d];
                for (const Cmd& cmd : node.cmds)
                  if (cmd.id == i && !cmd.expired) return true;
                const QDel* q = find_queued(node, i);
                return q != nullptr && !q->expired;
              },
              [](State& s, DnId d, int i) {
                Datanode& node = s.dn[d];
                for (Cmd& cmd : node.cmds)
                  if (cmd.id == i) cmd.expired = true;
                expire_queued(node, [i](const QDel& q) { return q.id == i; });
              }),
          // Faults: the replica disappears for another reason and a GONE report follows.
          statecheck::action(
              "VolumeFailure", ct, dn,
              [cap](const State& s, CtrId k, DnId d) {
                return s.volume_failures_left > 0 && s.c[k].has.contains(d) &&
                       s.dn[d].reports.size() < cap;
              },
              [](State& s, CtrId k, DnId d) {
                --s.volume_failures_left;
                lose_replica(s, k, d);
              }),
          statecheck::action(
              "ReplicaLoss", ct, dn,
              [cap](const State& s, CtrId k, DnId d) {
                return s.replica_losses_left > 0 && s.c[k].has.contains(d) &&
                       s.dn[d].reports.size() < cap;
              },
              [](State& s, CtrId k, DnId d) {
                --s.replica_losses_left;
                lose_replica(s, k, d);
              }),
          // SCM leader change: the new leader starts with empty
          // ContainerReplicaPendingOps and no moves (both in memory), its
          // replica view from the reports every SCM receives, and a higher term.
          // Commands already sent stay on their way.
          statecheck::when(cfg.failovers > 0, statecheck::action(
              "ScmFailover", [](const State& s) { return s.failovers_left > 0; },
              [](State& s) {
                --s.failovers_left;
                ++s.term;
                for (Container& box : s.c) {
                  box.pend_del = DnSet{};
                  box.pend_add = DnSet{};
                  if (!box.move.empty()) box.result = MoveResult::failed;
                  box.move.clear();
                }
              })),
          // A datanode heartbeats to the new leader and learns its term; from
          // then on its delete handler drops commands of older terms.
          statecheck::when(cfg.failovers > 0, statecheck::action(
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
          statecheck::goal("ForgottenDeleteQueued",
                           [](const State& s) {
                             for (int i = 0; i < s.dn.size(); ++i) {
                               const DnId d(i);
                               for (const Cmd& cmd : s.dn[d].cmds)
                                 if (cmd.is_delete() && !cmd.expired && !s.c[cmd.c].pend_del.contains(d)) return true;
                               for (const QDel& q : s.dn[d].del_q)
                                 if (!q.expired && !s.c[q.c].pend_del.contains(d)) return true;
                             }
                             return false;
                           }),
          // The bug window: a live DELETE that SCM does not track is queued on a
          // datanode that holds the replica again, where the as-is handler deletes.
          statecheck::goal("BugWindow", [](const State& s) {
            for (int i = 0; i < s.dn.size(); ++i) {
              const DnId d(i);
              for (const QDel& q : s.dn[d].del_q)
                if (!q.expired && q.term >= s.dn[d].term && s.c[q.c].has.contains(d) &&
                    !s.c[q.c].pend_del.contains(d))
                  return true;
            }
            return false;
          })),
      // Runs end when every budget is spent and the channels are drained.
      statecheck::allow_deadlock,
      // Datanodes that start alike are interchangeable, run by run (README "Symmetry").
      statecheck::symmetric<Dn>(sym.main.first, sym.main.count),
      statecheck::symmetric<Dn>(sym.other.first, sym.other.count));
}

}  // namespace specs::hdds::stale_delete
