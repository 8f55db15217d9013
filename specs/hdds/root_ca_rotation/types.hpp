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
// PREPARE, at most one ACK per prepare task run (one per SCM plus one per
// crash: a replayed PREPARE needs a rollback), COMMIT and COMMITTED.
inline constexpr std::size_t log_capacity = 1 + max_scms + max_crashes + 2;

STATECHECK_ENUM(Variant, as_is, patched);
STATECHECK_ENUM(Scenario, atomic_task, split_task);
STATECHECK_ENUM(RestartRule, from_disk, until_committed);
STATECHECK_ENUM(FlushRule, any, observable);
// The background SubCARotationPrepareTask; running only with the split task.
STATECHECK_ENUM(Task, none, pending, running);
// The on-disk scm/sub-ca directory: under the old root, under the new root
// (COMMIT applied), missing (COMMIT found no sub-ca-next), or moved_out (killed
// between COMMIT's two moves: sub-ca is in sub-ca-previous, sub-ca-next not yet
// moved). Either of the last two leaves an SCM that cannot start.
STATECHECK_ENUM(SubCa, old_root, new_root, missing, moved_out);
// Rotation state in the leader's RootCARotationManager.
STATECHECK_ENUM(Rot, idle, waiting, committed, failed);
STATECHECK_ENUM(EntryKind, prepare, ack, commit, committed);

/// SCMs, printed s1, s2, ...; s1 is the fixed leader.
struct Scm {
  static constexpr std::string_view prefix = "s";
};
using ScmId = statecheck::id<Scm>;
using ScmSet = statecheck::id_set<max_scms, Scm>;  // printed {s1, s2}
inline constexpr ScmId leader{0};

/// A sub-CA certificate id: the SCM it was issued to and its serial (>= 1).
/// The patched tally holds SCM ids, stored as serial 0.
struct CertId {
  BOOST_HANA_DEFINE_STRUCT(CertId, (ScmId, scm), (std::uint8_t, serial));
  friend bool operator==(const CertId&, const CertId&) = default;
};

/// One replicated log entry. Only an ACK carries a certificate id (its sender
/// is the certificate's SCM); the others keep scm = s1 and serial = 0.
struct Entry {
  BOOST_HANA_DEFINE_STRUCT(Entry, (EntryKind, kind), (ScmId, scm), (std::uint8_t, serial));
  friend bool operator==(const Entry&, const Entry&) = default;
  static Entry make(EntryKind k, ScmId scm = leader, std::uint8_t serial = 0) { return {k, scm, serial}; }
};

// The leader tallies at most one certificate per ACK in the log: one per SCM
// plus one per crash.
inline constexpr std::size_t max_tally = max_scms + max_crashes;
using Tally = statecheck::bounded_set<CertId, max_tally>;

/// Everything one SCM holds. Memory: up, applied, task, rotated, cert_id.
/// Disk: flushed (the persisted applied index), sub_ca_next, sub_ca, issued,
/// stale_serial.
struct ScmView {
  BOOST_HANA_DEFINE_STRUCT(ScmView,
      (bool, up),                 // process running
      (std::uint8_t, applied),    // entries applied, in memory
      (std::uint8_t, flushed),    // applied index persisted by the last flush
      (Task, task),               // the prepare task
      (bool, sub_ca_next),        // scm/sub-ca-next exists (READY)
      (SubCa, sub_ca),            // scm/sub-ca
      (bool, rotated),            // the in-memory root is the new one: skip PREPARE and COMMIT
      (bool, cert_id),            // the handler's newSubCACertId is set (not null)
      (std::uint8_t, issued),     // sub-CA certificates issued to this SCM
      (bool, stale_serial));      // COMMIT moved sub-ca but could not persist the new serial
  friend bool operator==(const ScmView&, const ScmView&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (statecheck::bounded_vec<Entry, log_capacity>, log),  // committed log: commit on append
      (statecheck::bounded_vec<ScmView, max_scms>, scm),    // scm[0] is s1, the leader; symmetry: id_array<Scm, ScmView, max_scms>
      (std::uint8_t, crashes_left),
      (Rot, rot),                                           // leader only
      (Tally, tally),                                       // leader only
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
                        "a follower may be killed between rotationCommit's two moves"));

}  // namespace specs::hdds::root_ca_rotation
