// HDDS-16897: a DeleteContainerCommand that SCM resent after its deadline is
// still queued on the datanode when the late "replica gone" report completes
// the pending op. SCM forgets the copy, the balancer moves the container back
// to that datanode, and the queued copy deletes the imported replica while the
// move reports COMPLETED. The report and the model: README.md.
#pragma once

#include <vector>

#include "state.hpp"

namespace specs::hdds::stale_delete {

inline auto make_spec(const Config& cfg) {
  const int n = cfg.datanodes;
  const int cap = cfg.channel;
  std::vector<Dn> dns;
  for (int d = 0; d < n; ++d) dns.push_back(static_cast<Dn>(d));
  std::vector<Cid> cids;
  for (int k = 0; k < cfg.containers; ++k) cids.push_back(static_cast<Cid>(k));
  const auto ct = statecheck::param("c", cids);
  const auto dn = statecheck::param("dn", dns);
  const auto src = statecheck::param("src", dns);
  const auto tgt = statecheck::param("tgt", dns);
  const auto id = statecheck::param("id", 1, cfg.max_delete_id());
  const auto pos = statecheck::param("pos", 1, cap - 1);  // a command overtaking the head

  return statecheck::spec<State>(
      "stale-delete",
      // Each container starts CLOSED on RF + 1 datanodes, SCM knowing all of them.
      statecheck::init([cfg](State& s) {
        for (int d = 0; d < cfg.datanodes; ++d) s.dn.items.push_back(Datanode{});
        for (int k = 0; k < cfg.containers; ++k) {
          Container box{};
          for (int i = 0; i <= rf; ++i) box.has.insert((k + i) % cfg.datanodes);
          box.scm = box.has;
          s.c.items.push_back(box);
        }
        s.next_id = 1;
        s.rm_deletes_left = static_cast<std::uint8_t>(cfg.rm_deletes);
        s.resends_left = static_cast<std::uint8_t>(cfg.resends);
        s.moves_left = static_cast<std::uint8_t>(cfg.moves);
        s.volume_failures_left = static_cast<std::uint8_t>(cfg.volume_failure_budget());
        s.replica_losses_left = static_cast<std::uint8_t>(cfg.replica_loss_budget());
      }),
      statecheck::actions(
          // ReplicationManager: the container is over-replicated, delete one replica.
          statecheck::action(
              "RMDelete", ct, dn,
              [cap](const State& s, Cid k, Dn d) {
                const Container& box = s.c[idx(k)];
                return s.rm_deletes_left > 0 && box.scm.size() > rf && box.pend_del.empty() &&
                       box.pend_add.empty() && box.scm.contains(idx(d)) &&
                       s.dn[idx(d)].cmds.size() < cap;
              },
              [](State& s, Cid k, Dn d) {
                --s.rm_deletes_left;
                send_delete(s, idx(k), idx(d));
              }),
          // The SCM deadline of the pending DELETE passes before a report
          // (HDDS-12127): the same command goes out again with a new deadline.
          // The datanode deadline of every earlier copy is earlier still.
          statecheck::action(
              "ExpireDelete", ct, dn,
              [cap](const State& s, Cid k, Dn d) {
                return s.resends_left > 0 && s.c[idx(k)].pend_del.contains(idx(d)) &&
                       s.dn[idx(d)].cmds.size() < cap;
              },
              [cfg](State& s, Cid k, Dn d) {
                Container& box = s.c[idx(k)];
                Datanode& node = s.dn[idx(d)];
                if (cfg.resend_checked() && box.scm.size() <= rf) s.resend_at_rf = true;
                for (Cmd& cmd : node.cmds)
                  if (cmd.is_delete() && cmd.c == idx(k)) cmd.expired = true;
                for (QDel& q : node.del_q)
                  if (q.c == idx(k)) q.expired = true;
                --s.resends_left;
                send_delete(s, idx(k), idx(d));  // replaces the pending op: pend_del keeps d
                if (box.move.phase == Phase::deleting && idx(box.move.src) == idx(d)) {
                  box.move = Move{};  // MoveManager: deletion timed out
                  box.result = MoveResult::failed;
                }
              }),
          // MoveManager.move: checks only SCM's replicas and pending ops, not
          // commands already handed to the target.
          statecheck::action(
              "BalancerMove", ct, src, tgt,
              [cap](const State& s, Cid k, Dn from, Dn to) {
                const Container& box = s.c[idx(k)];
                return s.moves_left > 0 && box.move.phase == Phase::none && box.scm.contains(idx(from)) &&
                       !box.scm.contains(idx(to)) && box.pend_del.empty() && box.pend_add.empty() &&
                       box.scm.size() == rf && s.dn[idx(to)].cmds.size() < cap;
              },
              [](State& s, Cid k, Dn from, Dn to) {
                Container& box = s.c[idx(k)];
                --s.moves_left;
                s.dn[idx(to)].cmds.push_back(Cmd{0, static_cast<std::uint8_t>(idx(k)), false});
                box.pend_add.insert(idx(to));
                box.move = Move{Phase::adding, from, to};
              }),
          // SCM processes the oldest report of a datanode. GONE completes the
          // pending DELETE, whichever command removed the replica.
          statecheck::action(
              "ScmReport", dn,
              [cap](const State& s, Dn d) {
                const Datanode& node = s.dn[idx(d)];
                if (node.reports.empty()) return false;
                const Report& r = node.reports.front();
                return !add_deletes_source(s, idx(d), r) ||
                       s.dn[idx(s.c[r.c].move.src)].cmds.size() < cap;
              },
              [](State& s, Dn d) {
                const Report r = s.dn[idx(d)].reports.front();
                const bool delete_source = add_deletes_source(s, idx(d), r);
                s.dn[idx(d)].reports.pop_front();
                Container& box = s.c[r.c];
                if (!r.added) {
                  box.scm.erase(idx(d));
                  box.pend_del.erase(idx(d));
                  if (box.move.phase == Phase::deleting && idx(box.move.src) == idx(d)) {
                    box.move = Move{};
                    box.result = MoveResult::completed;
                  }
                  return;
                }
                box.scm.insert(idx(d));
                box.pend_add.erase(idx(d));
                if (box.move.phase != Phase::adding || idx(box.move.tgt) != idx(d)) return;
                // MoveManager.handleSuccessfulAdd
                if (delete_source) {
                  send_delete(s, r.c, idx(box.move.src));
                  box.move.phase = Phase::deleting;
                  return;
                }
                box.result = box.scm.contains(idx(box.move.src)) ? MoveResult::failed : MoveResult::completed;
                box.move = Move{};
              }),
          // The datanode's dispatcher takes the oldest command; a DELETE goes
          // to the delete threads, remembering whether the replica is there.
          statecheck::action(
              "DnDispatch", dn, [](const State& s, Dn d) { return can_receive(s, idx(d), 0); },
              [](State& s, Dn d) {
                const Cmd cmd = s.dn[idx(d)].cmds.front();
                s.dn[idx(d)].cmds.pop_front();
                receive(s, idx(d), cmd);
              }),
          // Only with unordered dispatch: a later command overtakes the head.
          statecheck::action(
              "DnDispatchOutOfOrder", dn, pos,
              [cfg](const State& s, Dn d, int p) { return !cfg.fifo_dispatch() && can_receive(s, idx(d), p); },
              [](State& s, Dn d, int p) {
                const Cmd cmd = s.dn[idx(d)].cmds[static_cast<std::size_t>(p)];
                s.dn[idx(d)].cmds.erase(static_cast<std::size_t>(p));
                receive(s, idx(d), cmd);
              }),
          // A delete thread runs a queued DELETE: it checks only the deadline
          // (and the SCM term, constant here) and deletes by container id.
          statecheck::action(
              "DnRunDelete", dn, id,
              [cfg, cap](const State& s, Dn d, int i) {
                const Datanode& node = s.dn[idx(d)];
                const int at = find_queued(node, i);
                if (at < 0) return false;
                return !wipes(cfg, s, idx(d), node.del_q[static_cast<std::size_t>(at)]) ||
                       node.reports.size() < cap;
              },
              [cfg](State& s, Dn d, int i) {
                Datanode& node = s.dn[idx(d)];
                const auto at = static_cast<std::size_t>(find_queued(node, i));
                const QDel q = node.del_q[at];
                node.del_q.erase(at);
                if (!wipes(cfg, s, idx(d), q)) return;
                Container& box = s.c[q.c];
                if (!box.pend_del.contains(idx(d))) s.untracked_delete = true;
                box.has.erase(idx(d));
                node.reports.push_back(Report{false, q.c});
              }),
          // The replication job of a move finishes: the target holds the replica.
          statecheck::action(
              "DnImport", ct, dn,
              [cap](const State& s, Cid k, Dn d) {
                return s.c[idx(k)].importing.contains(idx(d)) && s.dn[idx(d)].reports.size() < cap;
              },
              [](State& s, Cid k, Dn d) {
                Container& box = s.c[idx(k)];
                box.importing.erase(idx(d));
                box.has.insert(idx(d));
                s.dn[idx(d)].reports.push_back(Report{true, static_cast<std::uint8_t>(idx(k))});
              }),
          // Any DELETE copy, on the wire or queued, may reach its datanode deadline.
          statecheck::action(
              "DnCmdExpire", dn, id,
              [](const State& s, Dn d, int i) {
                const Datanode& node = s.dn[idx(d)];
                for (const Cmd& cmd : node.cmds)
                  if (cmd.id == i && !cmd.expired) return true;
                const int at = find_queued(node, i);
                return at >= 0 && !node.del_q[static_cast<std::size_t>(at)].expired;
              },
              [](State& s, Dn d, int i) {
                Datanode& node = s.dn[idx(d)];
                for (Cmd& cmd : node.cmds)
                  if (cmd.id == i) cmd.expired = true;
                const int at = find_queued(node, i);
                if (at >= 0) node.del_q[static_cast<std::size_t>(at)].expired = true;
              }),
          // Faults: the replica disappears for another reason and a GONE report follows.
          statecheck::action(
              "VolumeFailure", ct, dn,
              [cap](const State& s, Cid k, Dn d) {
                return s.volume_failures_left > 0 && s.c[idx(k)].has.contains(idx(d)) &&
                       s.dn[idx(d)].reports.size() < cap;
              },
              [](State& s, Cid k, Dn d) {
                --s.volume_failures_left;
                lose_replica(s, idx(k), idx(d));
              }),
          statecheck::action(
              "ReplicaLoss", ct, dn,
              [cap](const State& s, Cid k, Dn d) {
                return s.replica_losses_left > 0 && s.c[idx(k)].has.contains(idx(d)) &&
                       s.dn[idx(d)].reports.size() < cap;
              },
              [](State& s, Cid k, Dn d) {
                --s.replica_losses_left;
                lose_replica(s, idx(k), idx(d));
              })),
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
                             for (int d = 0; d < s.dn.size(); ++d) {
                               for (const Cmd& cmd : s.dn[d].cmds)
                                 if (cmd.is_delete() && !cmd.expired && !s.c[cmd.c].pend_del.contains(d)) return true;
                               for (const QDel& q : s.dn[d].del_q)
                                 if (!q.expired && !s.c[q.c].pend_del.contains(d)) return true;
                             }
                             return false;
                           })),
      // Runs end when every budget is spent and the channels are drained.
      statecheck::allow_deadlock);
}

}  // namespace specs::hdds::stale_delete
