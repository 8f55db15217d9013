// HDDS-16914: the SCM leader counts root CA rotation prepare acks per
// certificate, so one SCM that acks twice (crash before flush, PREPARE
// replayed) lets it commit before every SCM prepared. The patch counts SCM
// ids; the split-task scenario shows the residual HDDS-16913. Constants add a
// second rotation (after AckTimeout or a leader change) and a leader change.
// The leader's two manager tasks are serialised (see leader_task_ran); README.md
// says what is modelled and why.
#pragma once

#include "rules.hpp"

namespace specs::hdds::root_ca_rotation {

/// Whether a flush of s can still be observed: only a later loss of memory
/// rolls back to it. That is a crash (budget left; never the leader, unless it
/// can still step down) or the null newSubCACertId exit, which needs s to
/// apply a COMMIT of a newer root than its own while newSubCACertId is null.
/// Once it is set, only a PREPARE clears it: one still to apply, or one of a
/// rotation not yet started. The leader without leader changes never exits:
/// it applies COMMIT only of its own rotation, after its own task set the id.
/// Without any crash nobody exits either: a COMMIT is submitted only after
/// every SCM's task acked its root, setting the id, and without a duplicate
/// ack nothing clears it before that SCM applies the COMMIT.
inline bool flush_observable(const State& st, ScmId s, const Config& c) {
  const ScmView& v = st.scm[s];
  if (st.crashes_left > 0 && (s != st.leader || st.leader_changes_left > 0)) return true;
  if (c.crashes == 0 || v.root >= c.rotations || (s == st.leader && !c.leader_change)) return false;
  if (!v.cert_id || st.round < c.rotations) return true;
  for (int i = v.applied; i < st.log.size(); ++i)
    if (st.log[i].kind == EntryKind::prepare) return true;
  return false;
}

inline auto make_spec(const Config& c) {
  const int n = c.scms;
  const bool split = c.scenario == Scenario::split_task;
  const auto scm = statecheck::ids<Scm>("scm", n);

  return statecheck::spec<State>(
      "root-ca-rotation",
      statecheck::init([c](State& st) {
        statecheck::use_ids<Scm>(st, c.scms);
        for (ScmView& v : st.scm) v.up = true;
        st.leader = first_leader;
        st.crashes_left = static_cast<std::uint8_t>(c.crashes);
        st.leader_changes_left = c.leader_change ? 1 : 0;
      }),
      // Terminal states are normal: the rotation committed or timed out and
      // every live SCM applied the whole log.
      statecheck::allow_deadlock,
      statecheck::actions(
          // The leader's MonitorTask and RotationTask submit rotationPrepare for
          // a new root while no rotation is in progress and the leader's own
          // root is still the old one (inside its grace period).
          statecheck::action(
              "StartRotation",
              [c](const State& st) {
                const ScmView& v = st.scm[st.leader];
                return v.up && (st.rot == Rot::idle || st.rot == Rot::failed) && st.round < c.rotations &&
                       v.root == 0;
              },
              [](State& st) {
                ++st.round;
                st.log.push_back(Entry::make(EntryKind::prepare, st.round));
                st.rot = Rot::waiting;
                st.prepared_once = {};
              }),
          statecheck::action(
              "Apply", scm,
              [](const State& st, ScmId s) {
                const ScmView& v = st.scm[s];
                return v.up && v.applied < st.log.size();
              },
              [c](State& st, ScmId s) { apply_entry(st, s, c.variant); }),
          // Atomic task (scenario=atomic-task) or split in two (split-task); when() keeps one.
          // A task whose root is already the SCM's only re-acks with the current certificate.
          statecheck::when(!split, statecheck::action(
              "PrepTask", scm,
              [](const State& st, ScmId s) { return st.scm[s].up && st.scm[s].tasks != 0; },
              [](State& st, ScmId s) {
                const std::uint8_t r = next_task_root(st.scm[s]);
                if (skips(st.scm[s], r)) send_ack(st, s, r);
                else finish_prepare(st, s, r);
              })),
          // Split task: the task deletes scm/sub-ca-next before it regenerates it.
          statecheck::when(split, statecheck::action(
              "PrepBegin", scm,
              [](const State& st, ScmId s) {
                const ScmView& v = st.scm[s];
                return v.up && v.tasks != 0 && !v.running;
              },
              [](State& st, ScmId s) {
                ScmView& v = st.scm[s];
                const std::uint8_t r = next_task_root(v);
                if (skips(v, r)) {
                  send_ack(st, s, r);
                  return;
                }
                v.sub_ca_next = 0;
                v.running = true;
              })),
          statecheck::when(split, statecheck::action(
              "PrepEnd", scm,
              [](const State& st, ScmId s) { return st.scm[s].up && st.scm[s].running; },
              [](State& st, ScmId s) { finish_prepare(st, s, next_task_root(st.scm[s])); })),
          // WaitSubCARotationPrepareAckTask: exact equality with the peer count.
          statecheck::action(
              "CheckAcks",
              [n](const State& st) {
                return leader_task_ran(st) && st.rot == Rot::waiting && st.tally.size() == n;
              },
              [](State& st) {
                st.log.push_back(Entry::make(EntryKind::commit, st.round));
                st.log.push_back(Entry::make(EntryKind::committed, st.round));
                st.rot = Rot::committed;
                st.prepared_at_decision = st.prepared_once;
              }),
          // hdds.x509.ca.rotation.ack.timeout, as an untimed event: cleanupAndStop.
          statecheck::action(
              "AckTimeout", [](const State& st) { return leader_task_ran(st) && st.rot == Rot::waiting; },
              [](State& st) { st.rot = Rot::failed; }),
          // leader-change: Ratis elects another running SCM. The old leader's
          // notifyStatusChanged cancels its rotation and wait tasks (not its
          // queued prepare tasks); the new one counts only acks it applies as
          // leader, and no wait task of the old rotation runs there.
          statecheck::when(c.leader_change, statecheck::action(
              "LeaderChange", scm,
              [](const State& st, ScmId s) {
                return st.leader_changes_left > 0 && s != st.leader && st.scm[s].up;
              },
              [](State& st, ScmId s) {
                st.leader = s;
                st.rot = Rot::idle;
                clear_tally(st);
                --st.leader_changes_left;
              })),
          // Environment: the transaction buffer flush persists the applied index.
          // A no-op flush is left out. flush=observable also leaves out the
          // flushes nothing can roll back to (see flush_observable).
          statecheck::action(
              "Flush", scm,
              [c](const State& st, ScmId s) {
                const ScmView& v = st.scm[s];
                if (c.flush == FlushRule::observable && !flush_observable(st, s, c)) return false;
                return v.up && v.flushed < v.applied;
              },
              [](State& st, ScmId s) {
                ScmView& v = st.scm[s];
                v.flushed = v.applied;
              }),
          // Faults: an SCM that is not the leader is killed; memory is lost, disk survives.
          statecheck::action(
              "Crash", scm,
              [](const State& st, ScmId s) { return s != st.leader && st.scm[s].up && st.crashes_left > 0; },
              [](State& st, ScmId s) {
                lose_memory(st.scm[s]);
                --st.crashes_left;
              }),
          // commit-crash: killed after rotationCommit moved sub-ca to
          // sub-ca-previous and before it moved sub-ca-next to sub-ca.
          statecheck::when(c.commit_crash, statecheck::action(
              "CrashMidCommit", scm,
              [](const State& st, ScmId s) {
                return s != st.leader && st.crashes_left > 0 && commit_moves_next(st, s);
              },
              [](State& st, ScmId s) {
                ScmView& v = st.scm[s];
                v.sub_ca = SubCa::moved_out;
                lose_memory(v);
                --st.crashes_left;
              })),
          statecheck::action(
              "Restart", scm,
              [](const State& st, ScmId s) {
                const ScmView& v = st.scm[s];
                return !v.up && v.sub_ca == SubCa::present;
              },
              [c](State& st, ScmId s) {
                ScmView& v = st.scm[s];
                v.up = true;
                // from-disk: the loaded sub-CA chain has the root of scm/sub-ca
                // (see README.md, "Restart rule").
                v.root = c.restart == RestartRule::from_disk ? v.sub_ca_root : std::uint8_t{0};
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
                                    if (v.sub_ca != SubCa::present) return false;
                                  return true;
                                }),
          // rotationCommit persisted newSubCACertId; a null one kills the SCM
          // and leaves VERSION naming the old sub-CA certificate.
          statecheck::invariant("CommitPersistsNewSerial",
                                [](const State& st) {
                                  for (const ScmView& v : st.scm)
                                    if (v.stale_serial) return false;
                                  return true;
                                }),
          // rotationCommit for root r installed the sub-CA prepared for root r,
          // not a leftover sub-ca-next of another rotation.
          statecheck::invariant("CommitInstallsItsRoot",
                                [](const State& st) {
                                  for (const ScmView& v : st.scm)
                                    if (v.wrong_root) return false;
                                  return true;
                                })),
      // Guards against a vacuous model: both ends of a rotation are reachable.
      statecheck::reachable(
          // With rotations=2 only the second rotation's commit counts.
          statecheck::goal("RotationCompletes",
                           [c](const State& st) {
                             if (st.rot != Rot::committed || st.round != c.rotations) return false;
                             for (int i = 0; i < c.scms; ++i) {
                               const ScmView& v = st.scm[ScmId(i)];
                               if (v.root != st.round || v.sub_ca != SubCa::present || v.sub_ca_root != st.round)
                                 return false;
                             }
                             return true;
                           }),
          statecheck::goal("RotationTimesOut", [](const State& st) { return st.rot == Rot::failed; }),
          // The bug window: the leader waits with as many acks as peers from
          // fewer SCMs, where the as-is tally lets CheckAcks commit. A patched
          // "ok" is not vacuous only if the patched run gets here too.
          statecheck::goal("DuplicateAckWindow", [n](const State& st) {
            return st.rot == Rot::waiting && st.acks_tallied == n && st.ack_senders.size() < n;
          })),
      // s2..sN are interchangeable; s1, the initial leader, is not (README, "Symmetry").
      statecheck::symmetric<Scm>(1, n - 1));
}

}  // namespace specs::hdds::root_ca_rotation
