// State, constants and helpers of the stale-delete spec (HDDS-16897).
// The actions are in stale_delete.hpp; the model is described in README.md.
#pragma once

#include <algorithm>
#include <cstdint>

#include "types.hpp"

namespace specs::hdds::stale_delete {

/// One datanode: its command channel from SCM, the delete commands waiting
/// for the delete threads, and its report channel to SCM.
struct Datanode {
  BOOST_HANA_DEFINE_STRUCT(Datanode,
      (statecheck::bounded_vec<Cmd, max_channel>, cmds),      // FIFO, SCM -> datanode
      (statecheck::bounded_vec<QDel, max_queued>, del_q),     // multiset (sorted by id): threads run any
      (statecheck::bounded_vec<Report, max_channel>, reports));  // FIFO, datanode -> SCM
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
      (Move, move),           // MoveManager: the move in progress
      (MoveResult, result));  // how the last move ended
  friend bool operator==(const Container&, const Container&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (Named<Datanode, max_datanodes, 'd'>, dn),
      (Named<Container, max_containers, 'C'>, c),
      (std::uint8_t, next_id),          // id of the next DeleteContainerCommand
      (std::uint8_t, rm_deletes_left),  // budgets
      (std::uint8_t, resends_left),
      (std::uint8_t, moves_left),
      (std::uint8_t, volume_failures_left),
      (std::uint8_t, replica_losses_left),
      (bool, untracked_delete),   // ghost: a datanode deleted a replica SCM had no pending DELETE for
      (bool, resend_at_rf));      // ghost: ExpireDelete resent while |scm| <= RF
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  Variant variant = Variant::as_is;
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

  // A scenario switches its fault or ordering on, on top of the constants.
  int volume_failure_budget() const {
    return std::max(volume_failures, scenario == Scenario::volume_failure ? 1 : 0);
  }
  int replica_loss_budget() const { return std::max(replica_losses, scenario == Scenario::replica_loss ? 1 : 0); }
  bool fifo_dispatch() const { return fifo && scenario != Scenario::unordered_dispatch; }
  bool resend_checked() const { return resend_check || scenario == Scenario::replica_loss; }
  // Every DeleteContainerCommand has its own id: RM deletes, resends, one per move.
  int max_delete_id() const { return rm_deletes + resends + moves; }
};

inline const auto config = statecheck::constants<Config>(
    statecheck::choice("variant", &Config::variant,
                       {{"as-is", Variant::as_is}, {"patched", Variant::patched}},
                       "code version: as-is, or with the datanode skipping a container added after receipt"),
    statecheck::choice("scenario", &Config::scenario,
                       {{"base", Scenario::base},
                        {"volume-failure", Scenario::volume_failure},
                        {"unordered-dispatch", Scenario::unordered_dispatch},
                        {"replica-loss", Scenario::replica_loss}},
                       "brief 5.7 scenario: adds one volume failure, unordered dispatch or one replica loss"),
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
                        "check ResendOnlyIfStillOverReplicated (always on in scenario replica-loss)"));

inline int find_queued(const Datanode& n, int id) {
  for (int i = 0; i < n.del_q.size(); ++i)
    if (n.del_q[i].id == id) return i;
  return -1;
}

/// Whether a delete thread running `q` on datanode d removes the replica.
inline bool wipes(const Config& cfg, const State& s, int d, const QDel& q) {
  if (q.expired || !s.c[q.c].has.contains(d)) return false;  // past the deadline, or absent: no-op
  if (cfg.variant == Variant::patched && !q.present) return false;  // the patch: added after receipt
  return true;
}

/// An ADDED report from the move target makes MoveManager send a DELETE to the
/// source when the replica set without the source is healthy.
inline bool add_deletes_source(const State& s, int d, const Report& r) {
  const Container& k = s.c[r.c];
  if (!r.added || k.move.phase != Phase::adding || idx(k.move.tgt) != d) return false;
  DnSet after = k.scm;
  after.insert(d);
  const int src = idx(k.move.src);
  if (!after.contains(src)) return false;
  after.erase(src);
  return after.size() == rf;
}

/// ReplicationManager (or MoveManager) sends DEL#id for container ct to d.
inline void send_delete(State& s, int ct, int d) {
  s.dn[d].cmds.push_back(Cmd{s.next_id, static_cast<std::uint8_t>(ct), false});
  ++s.next_id;
  s.c[ct].pend_del.insert(d);
}

/// The datanode dispatcher takes a command off its channel.
inline void receive(State& s, int d, const Cmd& cmd) {
  if (cmd.is_delete()) {
    s.dn[d].del_q.insert_sorted(QDel{cmd.id, cmd.c, cmd.expired, s.c[cmd.c].has.contains(d)});
  } else {
    s.c[cmd.c].importing.insert(d);
  }
}

/// Room for the command at channel position `pos` to be received.
inline bool can_receive(const State& s, int d, int pos) {
  const Datanode& n = s.dn[d];
  if (pos >= n.cmds.size()) return false;
  return !n.cmds[static_cast<std::size_t>(pos)].is_delete() || !n.del_q.full();
}

/// A fault (volume failure, replica loss) removes the replica of ct on d.
inline void lose_replica(State& s, int ct, int d) {
  s.c[ct].has.erase(d);
  s.dn[d].reports.push_back(Report{false, static_cast<std::uint8_t>(ct)});
}

}  // namespace specs::hdds::stale_delete
