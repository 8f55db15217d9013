// State and constants of the stale-delete spec (HDDS-16897). The rules the
// actions share are in rules.hpp, the actions in stale_delete.hpp; the model is
// described in README.md.
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

}  // namespace specs::hdds::stale_delete
