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
      (statecheck::bounded_set<QDel, max_queued>, del_q),     // sorted by id (ids are unique): threads run any
      (statecheck::bounded_vec<Report, max_channel>, reports),  // FIFO, datanode -> SCM
      (std::uint8_t, term));  // the SCM leader term this datanode knows (StateContext)
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
      (bool, resend_at_rf));      // ghost: ExpireDelete resent while |scm| <= RF
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
                        "SCM processes a datanode's report only once its handlers took every command queued for it"));

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

/// ReplicationManager (or MoveManager) sends DEL#id for container ct to d.
inline void send_delete(State& s, CtrId ct, DnId d) {
  s.dn[d].cmds.push_back(Cmd{s.next_id, ct, d, s.term, false});
  ++s.next_id;
  s.c[ct].pend_del.insert(d);
}

/// The datanode dispatcher takes a command off its channel; a command from a
/// newer leader came with that leader's heartbeat response, which carries its term.
/// A REPL starts the import on its target: pull, d is the target and pulls;
/// push, d is the source and streams the replica, which it must hold (a push
/// from a source that lost it fails; the move's timeout is not modelled).
inline void receive(State& s, DnId d, const Cmd& cmd) {
  Datanode& node = s.dn[d];
  node.term = std::max(node.term, cmd.term);
  if (cmd.is_delete()) {
    node.del_q.insert(QDel{cmd.id, cmd.c, cmd.term, cmd.expired, s.c[cmd.c].has.contains(d)});
  } else if (cmd.tgt == d || s.c[cmd.c].has.contains(d)) {
    s.c[cmd.c].importing.insert(cmd.tgt);
  }
}

/// Room for the command at channel position `pos` to be received.
inline bool can_receive(const State& s, DnId d, int pos) {
  const Datanode& n = s.dn[d];
  if (pos >= n.cmds.size()) return false;
  return !n.cmds[pos].is_delete() || n.del_q.size() < n.del_q.capacity();
}

/// A fault (volume failure, replica loss) removes the replica of ct on d.
inline void lose_replica(State& s, CtrId ct, DnId d) {
  s.c[ct].has.erase(d);
  s.dn[d].reports.push_back(Report{ReportKind::gone, ct});
}

}  // namespace specs::hdds::stale_delete
