// HDDS-16914: the SCM leader counts root CA rotation prepare acks per
// certificate, so one SCM that acks twice (crash before flush, PREPARE
// replayed) lets it commit before every SCM prepared. The patch counts SCM
// ids; the split-task scenario shows the residual HDDS-16913.
// The leader's two manager tasks are serialised (see leader_task_ran); README.md
// says what is modelled and why.
#pragma once

#include <vector>

#include "types.hpp"

namespace specs::hdds::root_ca_rotation {

/// The prepare task's last half: sub-ca-next written, a certificate with a
/// new serial issued, the ack appended to the log (commits on append).
inline void finish_prepare(State& st, ScmId s) {
  ScmView& v = st.scm[s];
  v.sub_ca_next = true;
  ++v.issued;
  v.cert_id = true;  // sendRotationPrepareAck: setSubCACertId, then the ack
  st.log.push_back(Entry::make(EntryKind::ack, s, v.issued));
  st.prepared_once.insert(s);
  v.task = Task::none;
}

/// A task that finds the root already rotated only re-acks with the current
/// certificate (BRIEFS 2.4); by then the leader no longer counts acks.
inline void reack(State& st, ScmId s) {
  st.log.push_back(Entry::make(EntryKind::ack, s, st.scm[s].issued));
  st.scm[s].cert_id = true;
  st.scm[s].task = Task::none;
}

/// Memory is lost, the disk survives: a kill, or the SCM's own exit.
inline void lose_memory(ScmView& v) {
  v.up = false;
  v.applied = v.flushed;
  v.task = Task::none;
  v.rotated = false;
  v.cert_id = false;
}

/// rotationCommit: move sub-ca to sub-ca-previous, sub-ca-next to sub-ca,
/// then persist newSubCACertId as the SCM's certificate serial.
inline void apply_commit(ScmView& v) {
  if (!v.sub_ca_next) {
    // The second move fails: shutDown, and the SCM cannot start again
    // without scm/sub-ca.
    v.sub_ca = SubCa::missing;
    v.up = false;
    v.task = Task::none;
    return;
  }
  v.sub_ca_next = false;
  v.sub_ca = SubCa::new_root;
  if (!v.cert_id) {
    // setScmCertSerialId(null) throws NullPointerException, which the
    // handler's IOException catch misses; the state machine's applyTransaction
    // terminates the SCM. VERSION keeps the old serial; applied is not advanced.
    v.stale_serial = true;
    lose_memory(v);
    return;
  }
  ++v.applied;
}

/// Apply(s) of the next log entry, as the SCM state machine's handler does.
/// RootCARotationManager runs its tasks on one single-thread executor, both
/// synchronized on the manager class: applying PREPARE queues the leader's
/// prepare task (delay 0) before the ack-wait task (1 s initial delay). So the
/// wait task, which both commits and times out, runs only after the leader's
/// own prepare task has finished and acked.
/// The next entry s applies is a COMMIT that rotationCommit will act on, and
/// sub-ca-next is there, so its first move (sub-ca to sub-ca-previous) succeeds.
inline bool commit_moves_next(const State& st, ScmId s) {
  const ScmView& v = st.scm[s];
  return v.up && v.applied < st.log.size() && st.log[v.applied].kind == EntryKind::commit &&
         !v.rotated && v.sub_ca_next;
}

inline bool leader_task_ran(const State& st) {
  const ScmView& v = st.scm[leader];
  return v.up && v.applied >= 1 && v.task == Task::none;
}

inline void apply_entry(State& st, ScmId s, Variant variant) {
  ScmView& v = st.scm[s];
  const Entry e = st.log[v.applied];
  switch (e.kind) {
    case EntryKind::prepare:
      // shouldSkipRootCert compares the in-memory root only.
      if (v.rotated) break;
      v.task = Task::pending;
      v.cert_id = false;  // newSubCACertId.set(null)
      if (s == leader) {
        st.tally.clear();
        st.ack_senders = {};
        st.acks_tallied = 0;
      }
      break;
    case EntryKind::ack:
      // Only the leader's running manager counts, and only while waiting.
      if (s != leader || st.rot != Rot::waiting) break;
      st.tally.insert(CertId{e.scm, variant == Variant::as_is ? e.serial : std::uint8_t{0}});
      st.ack_senders.insert(e.scm);
      ++st.acks_tallied;
      break;
    case EntryKind::commit:
      if (v.rotated) break;
      apply_commit(v);
      return;
    case EntryKind::committed:
      v.rotated = true;
      v.cert_id = false;  // reset state after reloading the certificate
      break;
  }
  ++v.applied;
}

inline auto make_spec(const Config& c) {
  const int n = c.scms;
  const bool split = c.scenario == Scenario::split_task;
  std::vector<ScmId> followers;
  for (int i = 1; i < n; ++i) followers.push_back(ScmId(i));  // s1 is the leader
  const auto scm = statecheck::ids<Scm>("scm", n);
  const auto follower = statecheck::param("scm", followers);

  return statecheck::spec<State>(
      "root-ca-rotation",
      statecheck::init([c](State& st) {
        for (int i = 0; i < c.scms; ++i) {
          ScmView v{};
          v.up = true;
          st.scm.push_back(v);
        }
        st.crashes_left = static_cast<std::uint8_t>(c.crashes);
      }),
      // Terminal states are normal: the rotation committed or timed out and
      // every live SCM applied the whole log.
      statecheck::allow_deadlock,
      statecheck::actions(
          // The leader's manager submits rotationPrepare.
          statecheck::action(
              "StartRotation", [](const State& st) { return st.scm[leader].up && st.rot == Rot::idle; },
              [](State& st) {
                st.log.push_back(Entry::make(EntryKind::prepare));
                st.rot = Rot::waiting;
              }),
          statecheck::action(
              "Apply", scm,
              [](const State& st, ScmId s) {
                const ScmView& v = st.scm[s];
                return v.up && v.applied < st.log.size();
              },
              [c](State& st, ScmId s) { apply_entry(st, s, c.variant); }),
          // Atomic task (scenario=atomic-task) or split in two (split-task); when() keeps one.
          statecheck::when(!split, statecheck::action(
              "PrepTask", scm,
              [](const State& st, ScmId s) {
                const ScmView& v = st.scm[s];
                return v.up && v.task == Task::pending;
              },
              [](State& st, ScmId s) {
                if (st.scm[s].rotated) reack(st, s);
                else finish_prepare(st, s);
              })),
          // Split task: the task deletes scm/sub-ca-next before it regenerates it.
          statecheck::when(split, statecheck::action(
              "PrepBegin", scm,
              [](const State& st, ScmId s) {
                const ScmView& v = st.scm[s];
                return v.up && v.task == Task::pending;
              },
              [](State& st, ScmId s) {
                ScmView& v = st.scm[s];
                if (v.rotated) {
                  reack(st, s);
                  return;
                }
                v.sub_ca_next = false;
                v.task = Task::running;
              })),
          statecheck::when(split, statecheck::action(
              "PrepEnd", scm,
              [](const State& st, ScmId s) {
                const ScmView& v = st.scm[s];
                return v.up && v.task == Task::running;
              },
              [](State& st, ScmId s) { finish_prepare(st, s); })),
          // WaitSubCARotationPrepareAckTask: exact equality with the peer count.
          statecheck::action(
              "CheckAcks",
              [n](const State& st) {
                return leader_task_ran(st) && st.rot == Rot::waiting && st.tally.size() == n;
              },
              [](State& st) {
                st.log.push_back(Entry::make(EntryKind::commit));
                st.log.push_back(Entry::make(EntryKind::committed));
                st.rot = Rot::committed;
                st.prepared_at_decision = st.prepared_once;
              }),
          // hdds.x509.ca.rotation.ack.timeout, as an untimed event.
          statecheck::action(
              "AckTimeout", [](const State& st) { return leader_task_ran(st) && st.rot == Rot::waiting; },
              [](State& st) { st.rot = Rot::failed; }),
          // Environment: the transaction buffer flush persists the applied index.
          // A no-op flush is left out. flush=observable also leaves out the
          // flushes no crash can roll back to: the leader's, and any after the last crash.
          statecheck::action(
              "Flush", scm,
              [c](const State& st, ScmId s) {
                const ScmView& v = st.scm[s];
                if (c.flush == FlushRule::observable && (s == leader || st.crashes_left == 0)) return false;
                return v.up && v.flushed < v.applied;
              },
              [](State& st, ScmId s) {
                ScmView& v = st.scm[s];
                v.flushed = v.applied;
              }),
          // Faults: a follower is killed; memory is lost, disk survives.
          statecheck::action(
              "Crash", follower,
              [](const State& st, ScmId s) { return st.scm[s].up && st.crashes_left > 0; },
              [](State& st, ScmId s) {
                lose_memory(st.scm[s]);
                --st.crashes_left;
              }),
          // commit-crash: killed after rotationCommit moved sub-ca to
          // sub-ca-previous and before it moved sub-ca-next to sub-ca.
          statecheck::when(c.commit_crash, statecheck::action(
              "CrashMidCommit", follower,
              [](const State& st, ScmId s) { return st.crashes_left > 0 && commit_moves_next(st, s); },
              [](State& st, ScmId s) {
                ScmView& v = st.scm[s];
                v.sub_ca = SubCa::moved_out;
                lose_memory(v);
                --st.crashes_left;
              })),
          statecheck::action(
              "Restart", follower,
              [](const State& st, ScmId s) {
                const ScmView& v = st.scm[s];
                return !v.up && v.sub_ca != SubCa::missing && v.sub_ca != SubCa::moved_out;
              },
              [c](State& st, ScmId s) {
                ScmView& v = st.scm[s];
                v.up = true;
                // from-disk: the loaded sub-CA chain already has the new root
                // once COMMIT was applied (see README.md, "Restart rule").
                v.rotated = c.restart == RestartRule::from_disk && v.sub_ca == SubCa::new_root;
              })),
      statecheck::invariants(
          statecheck::invariant("OneAckPerScm",
                                [](const State& st) { return st.tally.size() <= st.ack_senders.size(); }),
          statecheck::invariant("CommitOnlyWhenAllPrepared",
                                [n](const State& st) {
                                  return st.rot != Rot::committed || st.prepared_at_decision.size() == n;
                                }),
          statecheck::invariant("NoScmFailsCommit",
                                [](const State& st) {
                                  for (const ScmView& v : st.scm)
                                    if (v.sub_ca == SubCa::missing || v.sub_ca == SubCa::moved_out) return false;
                                  return true;
                                }),
          // rotationCommit persisted newSubCACertId; a null one kills the SCM
          // and leaves VERSION naming the old sub-CA certificate.
          statecheck::invariant("CommitPersistsNewSerial",
                                [](const State& st) {
                                  for (const ScmView& v : st.scm)
                                    if (v.stale_serial) return false;
                                  return true;
                                })),
      // Guards against a vacuous model: both ends of a rotation are reachable.
      statecheck::reachable(
          statecheck::goal("RotationCompletes",
                           [](const State& st) {
                             if (st.rot != Rot::committed) return false;
                             for (const ScmView& v : st.scm)
                               if (!v.rotated || v.sub_ca != SubCa::new_root) return false;
                             return true;
                           }),
          statecheck::goal("RotationTimesOut", [](const State& st) { return st.rot == Rot::failed; }),
          // The bug window: the leader waits with as many acks as peers from
          // fewer SCMs, where the as-is tally lets CheckAcks commit. A patched
          // "ok" is not vacuous only if the patched run gets here too.
          statecheck::goal("DuplicateAckWindow", [n](const State& st) {
            return st.rot == Rot::waiting && st.acks_tallied == n && st.ack_senders.size() < n;
          })));
}

}  // namespace specs::hdds::root_ca_rotation
