// HDDS-16930: the state and the constants of the snapshot-install spec.
// See README.md for the mechanism and the abstraction.
#pragma once

#include <cstdint>
#include <string_view>
#include <statecheck/statecheck.hpp>

namespace specs::hdds::snapshot_install {

inline constexpr int max_followers = 3;
inline constexpr int max_txids = 3;
inline constexpr int max_log_cap = 8;

// A leader log entry: the removal of one delete transaction t1..t3, or any
// other entry (all other SCM requests behave alike for this bug).
STATECHECK_ENUM(Entry, remove_t1, remove_t2, remove_t3, other);

/// Follower SCMs, printed f1, f2, f3 (the leader is not a state machine here).
struct Fol {
  static constexpr std::string_view prefix = "f";
};
using FolId = statecheck::id<Fol>;
/// Delete transactions, printed t1, t2, t3.
struct Tx {
  static constexpr std::string_view prefix = "t";
};
using TxId = statecheck::id<Tx>;

// installing: Ratis has acknowledged the snapshot but reinitialize has not run
// yet (only reachable with split_install).
STATECHECK_ENUM(Status, running, installing, exited);

struct Follower {
  BOOST_HANA_DEFINE_STRUCT(Follower,
      (std::uint8_t, applied),                    // last log index the state machine applied
      (std::uint8_t, flushed),                    // last log index persisted in its scm.db
      (statecheck::id_set<max_txids, Tx>, deleting),  // in-memory deletingTxIDs
      (bool, dirty),                              // the transaction buffer holds unflushed writes
      (Status, status),
      (std::uint8_t, log_purged),                 // own Ratis log purged up to here (split_install)
      (std::uint8_t, logged));                    // ratis_log: last index in its own persisted Ratis log
  friend bool operator==(const Follower&, const Follower&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (statecheck::bounded_vec<Entry, max_log_cap>, log),  // leader log, index i is log[i - 1]
      (std::uint8_t, purged_to),                           // entries <= this exist only in a checkpoint
      (statecheck::id_array<Fol, Follower, max_followers>, f),  // symmetry: f1..fN interchangeable
      (std::uint8_t, crashes_used),
      (bool, swapped_unflushed));  // ghost: a DB swap happened with flushed != applied
  friend bool operator==(const State&, const State&) = default;
};

enum class Variant { as_is, patched };
// purge: log purge enabled and a gap passed, so the leader may purge past a
// follower. default_purge: the default rule, purge only below every follower.
enum class Scenario { purge, default_purge };

struct Config {
  Variant variant = Variant::as_is;
  Scenario scenario = Scenario::purge;
  int followers = 1;
  int txids = 1;
  int max_log = 3;
  bool follower_flush = true;
  int crashes = 0;
  bool split_install = false;
  bool ratis_log = false;    // the follower's own Ratis log, apart from its applied index
  bool flush_fails = false;  // patched only: the install's flush may fail
};

inline const auto config = statecheck::constants<Config>(
    statecheck::choice("variant", &Config::variant,
                       {{"as-is", Variant::as_is}, {"patched", Variant::patched}},
                       "as-is: install without a flush; patched: installCheckpoint flushes first"),
    statecheck::choice("scenario", &Config::scenario,
                       {{"purge", Scenario::purge}, {"default-purge", Scenario::default_purge}},
                       "purge: leader may purge past followers (purge enabled, gap passed); "
                       "default-purge: only below every follower's index"),
    statecheck::integer("followers", &Config::followers, 1, max_followers,
                        "follower SCMs (the second one is the report's control follower)"),
    statecheck::integer("txids", &Config::txids, 1, max_txids,
                        "delete transactions t1.. that may be removed (all in every DB initially)"),
    statecheck::integer("max_log", &Config::max_log, 1, max_log_cap, "MAX_LOG: leader log entries"),
    statecheck::boolean("follower_flush", &Config::follower_flush,
                        "followers reach a flush trigger (snapshot threshold, pending-ops limit, "
                        "checkpoint download, config save); false: a follower that stopped applying"),
    statecheck::integer("crashes", &Config::crashes, 0, 3, "crash-restarts of followers, in all"),
    statecheck::boolean("split_install", &Config::split_install,
                        "split the install into RatisInstallAck and Reinitialize (HDDS-16928 window); "
                        "an exited follower may then be restarted"),
    statecheck::boolean("ratis_log", &Config::ratis_log,
                        "a follower appends entries to its own persisted Ratis log (FollowerAppend) apart from "
                        "applying them; a crash-restart replays its own log from the flushed index"),
    statecheck::boolean("flush_fails", &Config::flush_fails,
                        "patched only: the flush that the patch adds to the install may fail (InstallFlushFails); "
                        "the install then fails and the follower exits"));

}  // namespace specs::hdds::snapshot_install
