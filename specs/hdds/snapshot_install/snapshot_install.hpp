// HDDS-16930: a follower SCM exits when it installs a Ratis snapshot while its
// removed-transaction set (deletingTxIDs) is not yet flushed; as-is and with
// the patch that flushes the transaction buffer before the install.
// The report and the model: README.md ("What the report says", "What is modelled").
#pragma once

#include <algorithm>
#include <vector>

#include "types.hpp"

namespace specs::hdds::snapshot_install {

inline bool is_remove(Entry e) { return e != Entry::other; }
inline TxId txid_of(Entry e) { return TxId(static_cast<int>(e)); }  // remove_t1 -> t1

/// The state machine side of an install (SCMHAManagerImpl.installCheckpoint):
/// the patched code flushes, then the store is stopped, the DB swapped and the
/// services reloaded; the reload asserts that deletingTxIDs is empty.
/// Where the follower's next needed entry is: its own log's end with ratis_log,
/// else its applied index (receipt and apply are one step).
inline std::uint8_t next_needed(const Config& c, const Follower& f) { return c.ratis_log ? f.logged : f.applied; }
/// The leader has purged an entry the follower still needs: Ratis sends a snapshot.
inline bool needs_install(const Config& c, const State& s, const Follower& f) {
  return f.status == Status::running && next_needed(c, f) < s.purged_to;
}

inline void install_checkpoint(const Config& c, State& s, Follower& f, std::uint8_t snapshot_index) {
  if (c.variant == Variant::patched) {
    f.flushed = f.applied;
    f.deleting.clear();
    f.dirty = false;
  }
  if (f.flushed != f.applied) s.swapped_unflushed = true;
  if (!f.deleting.empty()) {
    // Reload and rollback reload both fail the check: exitSystem(1). The
    // rollback restored the old DB, so flushed keeps its value.
    f.status = Status::exited;
    return;
  }
  f.applied = f.flushed = snapshot_index;
  if (c.ratis_log) f.logged = snapshot_index;  // the log restarts after the snapshot
  f.dirty = false;
  f.status = Status::running;
}

/// The bug window: an install is due on a follower whose deletingTxIDs is not
/// empty, where the as-is reload fails. Under the default purge rule a running
/// follower never needs an install, so there is no window (vacuous).
inline bool bug_window(const Config& c, const State& s) {
  if (c.scenario == Scenario::default_purge) return true;
  return std::any_of(s.f.begin(), s.f.end(),
                     [&](const Follower& f) { return needs_install(c, s, f) && !f.deleting.empty(); });
}

inline auto make_spec(const Config& c) {
  std::vector<Entry> kinds;
  for (int t = 0; t < c.txids; ++t) kinds.push_back(static_cast<Entry>(t));
  kinds.push_back(Entry::other);
  const auto entry = statecheck::param("entry", std::move(kinds));
  const auto fol = statecheck::ids<Fol>("f", c.followers);
  const auto upto = statecheck::param("p", 1, c.max_log);

  return statecheck::spec<State>(
      "snapshot-install",
      statecheck::init([c](State& s) {
        // t1.. are in every DB already (flushed), so a removal can come first.
        statecheck::use_ids<Fol>(s, c.followers);
        for (Follower& f : s.f) f.status = Status::running;
      }),
      statecheck::actions(
          statecheck::action(
              "LeaderAppend", entry,
              [c](const State& s, Entry e) {
                return s.log.size() < c.max_log && !(is_remove(e) && s.log.contains(e));
              },
              [](State& s, Entry e) { s.log.push_back(e); }),
          // ratis_log: the follower appends the next entry to its own persisted
          // log; it must still be in the leader's log.
          statecheck::when(c.ratis_log, statecheck::action(
              "FollowerAppend", fol,
              [](const State& s, FolId i) {
                const Follower& f = s.f[i];
                return f.status == Status::running && f.logged < s.log.size() && f.logged + 1 > s.purged_to;
              },
              [](State& s, FolId i) { ++s.f[i].logged; })),
          // Without ratis_log receiving and applying an entry are one step, and the
          // entry must still be in the leader's log; with it, the follower applies
          // from its own log (also after a restart, whatever the leader purged).
          statecheck::action(
              "FollowerApply", fol,
              [c](const State& s, FolId i) {
                const Follower& f = s.f[i];
                if (f.status != Status::running) return false;
                if (c.ratis_log) return f.applied < f.logged;
                return f.applied < s.log.size() && f.applied + 1 > s.purged_to;
              },
              [](State& s, FolId i) {
                Follower& f = s.f[i];
                const Entry e = s.log[f.applied];
                if (is_remove(e)) f.deleting.insert(txid_of(e));
                f.dirty = true;
                ++f.applied;
              }),
          // Every follower flush trigger folded into one step (the periodic
          // flush runs on the leader only).
          statecheck::action(
              "FollowerFlush", fol,
              [c](const State& s, FolId i) { return c.follower_flush && s.f[i].status == Status::running; },
              [](State& s, FolId i) {
                Follower& f = s.f[i];
                f.flushed = f.applied;
                f.deleting.clear();
                f.dirty = false;
              }),
          statecheck::action(
              "LeaderSnapshotPurge", upto,
              [c](const State& s, int p) {
                if (p <= s.purged_to || p > s.log.size()) return false;
                if (c.scenario == Scenario::purge) return true;
                // Default rule: below every follower's position (its log end with ratis_log).
                for (int i = 0; i < c.followers; ++i)
                  if (p > next_needed(c, s.f[FolId(i)])) return false;
                return true;
              },
              [](State& s, int p) { s.purged_to = static_cast<std::uint8_t>(p); }),
          // One atomic step: the updater thread runs the install and applies
          // nothing else meanwhile. The snapshot is the leader's whole log.
          statecheck::action(
              "InstallSnapshot", fol,
              [c](const State& s, FolId i) { return !c.split_install && needs_install(c, s, s.f[i]); },
              [c](State& s, FolId i) { install_checkpoint(c, s, s.f[i], static_cast<std::uint8_t>(s.log.size())); }),
          // split_install, first half (SnapshotInstallationHandler): Ratis
          // purges the follower's log to the snapshot index and replies
          // SNAPSHOT_INSTALLED before the state machine reinitializes.
          statecheck::action(
              "RatisInstallAck", fol,
              [c](const State& s, FolId i) { return c.split_install && needs_install(c, s, s.f[i]); },
              [c](State& s, FolId i) {
                Follower& f = s.f[i];
                f.status = Status::installing;
                f.log_purged = static_cast<std::uint8_t>(s.log.size());
                if (c.ratis_log) f.logged = f.log_purged;
              }),
          statecheck::action(
              "Reinitialize", fol,
              [](const State& s, FolId i) { return s.f[i].status == Status::installing; },
              [c](State& s, FolId i) {
                Follower& f = s.f[i];
                install_checkpoint(c, s, f, f.log_purged);
              }),
          // flush_fails (patched): the flush the patch adds fails (an I/O error
          // committing the batch; onFlush does not run). installCheckpoint fails,
          // and its finally block calls exitSystem(1). Only with something to flush.
          statecheck::when(c.flush_fails && c.variant == Variant::patched, statecheck::action(
              "InstallFlushFails", fol,
              [c](const State& s, FolId i) {
                const Follower& f = s.f[i];
                const bool installing = c.split_install ? f.status == Status::installing : needs_install(c, s, f);
                return installing && f.dirty;
              },
              [](State& s, FolId i) { s.f[i].status = Status::exited; })),
          // Crash and restart: the in-memory set and buffer are lost and the
          // state machine restarts from its DB. An exited (or installing)
          // follower restarts only in the split model, which tracks its log.
          statecheck::action(
              "CrashRestart", fol,
              [c](const State& s, FolId i) {
                return s.crashes_used < c.crashes && (c.split_install || s.f[i].status == Status::running);
              },
              [](State& s, FolId i) {
                Follower& f = s.f[i];
                f.applied = f.flushed;
                f.deleting.clear();
                f.dirty = false;
                f.status = Status::running;
                ++s.crashes_used;
              })),
      statecheck::invariants(
          statecheck::invariant("InstallNeverExits",
                                [](const State& s) {
                                  return std::none_of(s.f.begin(), s.f.end(), [](const Follower& f) {
                                    return f.status == Status::exited;
                                  });
                                }),
          // Diagnostic only: as-is violates it with any unflushed entry.
          statecheck::invariant("FlushedBeforeReplace", [](const State& s) { return !s.swapped_unflushed; }),
          // A running state machine is never behind the start of its own Ratis
          // log; after a restart applied = flushed (only split_install moves it).
          statecheck::invariant("NoLogGap",
                                [](const State& s) {
                                  return std::all_of(s.f.begin(), s.f.end(), [](const Follower& f) {
                                    return f.status != Status::running || f.applied >= f.log_purged;
                                  });
                                })),
      // Non-vacuity: a follower does hold an unflushed removal in every scenario, and
      // (purge) an install comes due while it does: where the as-is code exits.
      statecheck::reachable(statecheck::goal("RemovalPending",
                                             [](const State& s) {
                                               return std::any_of(s.f.begin(), s.f.end(), [](const Follower& f) {
                                                 return f.status == Status::running && !f.deleting.empty();
                                               });
                                             }),
                          statecheck::goal("BugWindow", [c](const State& s) { return bug_window(c, s); })),
      // The run is bounded by max_log and crashes; a follower that cannot
      // flush (follower_flush=false) or has exited may end with nothing to do.
      statecheck::allow_deadlock,
      // f1..fN start alike and no guard or property names one (README "Symmetry").
      statecheck::symmetric<Fol>(c.followers));
}

}  // namespace specs::hdds::snapshot_install
