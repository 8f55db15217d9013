// State and constants of the root-ca-rotation spec (HDDS-16914, HDDS-16913).
// See README.md for the report, the mechanism and the model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <statecheck/statecheck.hpp>

namespace specs::hdds::root_ca_rotation {

inline constexpr int max_scms = 5;
inline constexpr int max_crashes = 4;
// Root ids: 0 is the old root, 1..max_rotations the roots of the rotations the
// leader starts (each later rotation has a larger root serial).
inline constexpr int max_rotations = 2;
// Per rotation PREPARE, COMMIT and COMMITTED, and at most one ACK per prepare
// task run: one per SCM, plus one per crash and rotation (a crash can roll an
// SCM back over both PREPAREs).
inline constexpr std::size_t log_capacity = max_rotations * (3 + max_scms + max_crashes);

STATECHECK_ENUM(Variant, as_is, patched);
STATECHECK_ENUM(Scenario, atomic_task, split_task);
STATECHECK_ENUM(RestartRule, from_disk, until_committed);
STATECHECK_ENUM(FlushRule, any, observable);
// The on-disk scm/sub-ca directory: present (under the root sub_ca_root),
// missing (COMMIT found no sub-ca-next), or moved_out (killed between COMMIT's
// two moves: sub-ca is in sub-ca-previous, sub-ca-next not yet moved). Either
// of the last two leaves an SCM that cannot start.
STATECHECK_ENUM(SubCa, present, missing, moved_out);
// Rotation state in the leader's RootCARotationManager.
STATECHECK_ENUM(Rot, idle, waiting, committed, failed);
STATECHECK_ENUM(EntryKind, prepare, ack, commit, committed);

/// SCMs, printed s1, s2, ...; s1 is the leader at the start.
struct Scm {
  static constexpr std::string_view prefix = "s";
};
using ScmId = statecheck::id<Scm>;
using ScmSet = statecheck::id_set<max_scms, Scm>;  // printed {s1, s2}
inline constexpr ScmId first_leader{0};

/// A sub-CA certificate id: the SCM it was issued to and its serial (>= 1).
/// The patched tally holds SCM ids, stored as serial 0.
struct CertId {
  BOOST_HANA_DEFINE_STRUCT(CertId, (ScmId, scm), (std::uint8_t, serial));
  friend bool operator==(const CertId&, const CertId&) = default;
};

/// One replicated log entry, for the rotation to root `root` (1, 2). Only an
/// ACK carries a certificate id (its sender is the certificate's SCM); the
/// others keep scm = s1 and serial = 0.
struct Entry {
  BOOST_HANA_DEFINE_STRUCT(Entry, (EntryKind, kind), (std::uint8_t, root), (ScmId, scm), (std::uint8_t, serial));
  friend bool operator==(const Entry&, const Entry&) = default;
  static Entry make(EntryKind k, std::uint8_t root, ScmId scm = first_leader, std::uint8_t serial = 0) {
    return {k, root, scm, serial};
  }
};

// The leader tallies at most one certificate per ACK of one root: one per SCM
// plus one per crash.
inline constexpr std::size_t max_tally = max_scms + max_crashes;
using Tally = statecheck::bounded_set<CertId, max_tally>;

/// Everything one SCM holds. Memory: up, applied, tasks, running, root,
/// new_root, cert_id. Disk: flushed (the persisted applied index),
/// sub_ca_next, sub_ca, sub_ca_root, issued, stale_serial. Ghost: wrong_root.
struct ScmView {
  BOOST_HANA_DEFINE_STRUCT(ScmView,
      (bool, up),                 // process running
      (std::uint8_t, applied),    // entries applied, in memory
      (std::uint8_t, flushed),    // applied index persisted by the last flush
      (std::uint8_t, tasks),      // queued prepare tasks: bit r-1 for root r; FIFO = lowest root first
      (bool, running),            // split task: the lowest queued task deleted sub-ca-next and runs
      (std::uint8_t, sub_ca_next),  // scm/sub-ca-next: 0 absent, else the root its task prepared for
      (SubCa, sub_ca),            // scm/sub-ca
      (std::uint8_t, sub_ca_root),  // the root of the sub-CA certificate in scm/sub-ca
      (std::uint8_t, root),       // the in-memory trust-chain root: PREPARE/COMMIT of root <= it are skipped
      (std::uint8_t, new_root),   // the handler's newRootCACertId (0: null): acks of it are counted
      (bool, cert_id),            // the handler's newSubCACertId is set (not null)
      (std::uint8_t, issued),     // sub-CA certificates issued to this SCM
      (bool, stale_serial),       // COMMIT moved sub-ca but could not persist the new serial
      (bool, wrong_root));        // ghost: a COMMIT installed a sub-ca-next prepared for another root
  friend bool operator==(const ScmView&, const ScmView&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (statecheck::bounded_vec<Entry, log_capacity>, log),  // committed log: commit on append
      (statecheck::id_array<Scm, ScmView, max_scms>, scm),  // s1..s<scms> in use (init: use_ids<Scm>)
      (ScmId, leader),                  // s1 at the start; changes only with leader-change
      (std::uint8_t, round),            // rotations started (the current root id)
      (std::uint8_t, crashes_left),
      (std::uint8_t, leader_changes_left),
      (Rot, rot),                                           // the leader's manager
      (Tally, tally),                                       // the leader's handler
      (ScmSet, ack_senders),            // ghost: senders of the acks the leader tallied
      (std::uint8_t, acks_tallied),     // ghost: acks the leader tallied (= as-is tally size)
      (ScmSet, prepared_once),          // ghost: SCMs that finished a prepare task
      (ScmSet, prepared_at_decision));  // ghost: prepared_once when the leader committed
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  Variant variant = Variant::as_is;
  Scenario scenario = Scenario::atomic_task;
  int scms = 3;
  int crashes = 1;
  RestartRule restart = RestartRule::from_disk;
  FlushRule flush = FlushRule::any;
  bool commit_crash = false;
  int rotations = 1;
  bool leader_change = false;
};

inline const auto config = statecheck::constants<Config>(
    statecheck::choice("variant", &Config::variant, {{"as-is", Variant::as_is}, {"patched", Variant::patched}},
                       "as-is: the leader tallies certificate ids; patched: SCM ids"),
    statecheck::choice("scenario", &Config::scenario,
                       {{"atomic-task", Scenario::atomic_task}, {"split-task", Scenario::split_task}},
                       "prepare task atomic, or split: delete sub-ca-next first, then issue and ack"),
    statecheck::integer("scms", &Config::scms, 2, max_scms, "SCMs in the ring (s1 is the leader)"),
    statecheck::integer("crashes", &Config::crashes, 0, max_crashes, "follower crashes in total"),
    statecheck::choice("restart", &Config::restart,
                       {{"from-disk", RestartRule::from_disk}, {"until-committed", RestartRule::until_committed}},
                       "on restart 'already rotated' is re-derived from sub-ca on disk, or stays "
                       "false until COMMITTED is applied again"),
    statecheck::choice("flush", &Config::flush, {{"any", FlushRule::any}, {"observable", FlushRule::observable}},
                       "any: every running SCM flushes; observable: only a follower while "
                       "crashes are left, the only flushes a later crash can observe"),
    statecheck::boolean("commit-crash", &Config::commit_crash,
                        "a follower may be killed between rotationCommit's two moves"),
    statecheck::integer("rotations", &Config::rotations, 1, max_rotations,
                        "rotations the leader may start: 2 = a new root after AckTimeout or a leader change"),
    statecheck::boolean("leader-change", &Config::leader_change,
                        "one leader change: the tally and the old leader's wait tasks are dropped"));

}  // namespace specs::hdds::root_ca_rotation
