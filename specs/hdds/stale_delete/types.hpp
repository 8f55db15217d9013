// Value types of the stale-delete spec (HDDS-16897): datanode and container
// ids, replica sets, commands and reports, all built from the DSL's named ids,
// id sets and reflected records, so that traces print d2, C1 and {d1, d3}.
#pragma once

#include <cstdint>
#include <string_view>

#include <statecheck/statecheck.hpp>

namespace specs::hdds::stale_delete {

inline constexpr int max_datanodes = 8;
inline constexpr int max_containers = 3;
inline constexpr int max_channel = 4;  // per datanode and direction
inline constexpr int max_queued = 6;   // delete commands waiting for the delete threads
inline constexpr int rf = 3;           // CLOSED RATIS/THREE container
inline constexpr int max_ids = 8;      // DELETE ids a timed run may hand out (one clock each)

/// Datanodes, printed d1, d2, ...
struct Dn {
  static constexpr std::string_view prefix = "d";
};
using DnId = statecheck::id<Dn>;
using DnSet = statecheck::id_set<max_datanodes, Dn>;  // a set of datanodes, printed {d1, d3}

/// Containers, printed C1, C2, C3.
struct Ctr {
  static constexpr std::string_view prefix = "C";
};
using CtrId = statecheck::id<Ctr>;

STATECHECK_ENUM(Variant, as_is, patched);
STATECHECK_ENUM(Replication, push, pull);
STATECHECK_ENUM(Scenario, base, volume_failure, unordered_dispatch, replica_loss);
STATECHECK_ENUM(Phase, adding, deleting);
STATECHECK_ENUM(MoveResult, none, completed, failed);
STATECHECK_ENUM(ReportKind, gone, added);

/// A command SCM sent to a datanode: a DeleteContainerCommand (id >= 1, DEL#id
/// in the README) or, with id 0, the replicate command of a move (REPL) for the
/// move's target `tgt` (push: sent to the source, which streams the replica to
/// tgt over gRPC; pull: sent to tgt itself). A DELETE's tgt is its datanode.
/// `term`: the SCM leader term that sent it. `expired`: its datanode deadline passed.
struct Cmd {
  BOOST_HANA_DEFINE_STRUCT(Cmd, (std::uint8_t, id), (CtrId, c), (DnId, tgt), (std::uint8_t, term),
                           (bool, expired));
  friend bool operator==(const Cmd&, const Cmd&) = default;
  bool is_delete() const { return id != 0; }
};

/// A delete command handed to the delete threads. `present`: the replica
/// existed when the command was received (what the patch records).
struct QDel {
  BOOST_HANA_DEFINE_STRUCT(QDel, (std::uint8_t, id), (CtrId, c), (std::uint8_t, term), (bool, expired),
                           (bool, present));
  friend bool operator==(const QDel&, const QDel&) = default;
};

/// An incremental container report: the replica is gone, or was added.
struct Report {
  BOOST_HANA_DEFINE_STRUCT(Report, (ReportKind, kind), (CtrId, c));
  friend bool operator==(const Report&, const Report&) = default;
};

/// MoveManager's move of one container in progress: the phase, source and
/// target. A container without a move holds none (an empty MoveSlot), so an
/// idle container names no datanode and renaming datanodes leaves it alone.
struct Move {
  BOOST_HANA_DEFINE_STRUCT(Move, (Phase, phase), (DnId, src), (DnId, tgt));
  friend bool operator==(const Move&, const Move&) = default;
};
using MoveSlot = statecheck::bounded_vec<Move, 1>;  // empty: no move in progress

// The clock kinds of the timed reading (README "Timed reading"); every clock
// stays stopped unless `timed` is set. Each kind is compared only with its own bounds.
struct Hb {};        // a datanode's time since its last heartbeat, or since work waited for one
struct Stall {};     // time the head of a datanode's command queue has waited for the dispatcher
struct ScmWait {};   // age of SCM's pending DELETE op (its 12-minute SCM deadline)
struct CmdAge {};    // age of a DELETE command since SCM sent it (its datanode deadline)
struct Copy {};      // time a push replication has been streaming to its target
struct RmWait {};    // time since a new SCM leader took over (ReplicationManager's wait)

}  // namespace specs::hdds::stale_delete
