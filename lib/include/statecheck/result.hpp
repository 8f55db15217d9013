// statecheck/result.hpp - what a check is asked to do and what it found.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "statecheck/trace.hpp"
#include "statecheck/value.hpp"

namespace statecheck {

/// A configuration the user can fix (unknown property, bad option): exit 2.
struct config_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A run-time failure that is neither the user's input nor a finding: a spec
/// that cannot be built, a write that failed (exit 3, one line).
struct run_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Checkpoints: the search state at a level boundary, written to a directory
/// so that a stopped run can continue where it was (lib/src/store/checkpoint.hpp).
struct CheckpointOptions {
  std::string dir;              // write checkpoints here (empty: never)
  double every_minutes = 0;     // also at the first level boundary after every this many minutes; 0: only on a stop
  std::string resume;           // continue from the checkpoint in this directory
  /// The constants the spec was built with (name, value as shown): recorded,
  /// compared on resume, and shown in the command that continues the run.
  std::vector<std::pair<std::string, std::string>> constants;
  /// How the user runs this check: the binary, and the subcommand and spec when it
  /// takes them ("statecheck check two-phase", "my-checker"); the hint that continues
  /// an interrupted run starts with it. Empty: "statecheck check SPEC".
  std::string invocation;
};

struct CheckOptions {
  unsigned threads = 0;                 // 0: every core
  /// Total budget in bytes (0: half the RAM) for what the search holds in RAM:
  /// the visited set, the trace log kept in RAM, the frontier states, and the
  /// level being built (its table, the workers' record buffers, the sort keys).
  /// Checked at level boundaries and between expansion batches (so the states
  /// one batch finds may pass it before the search stops); the moments a table
  /// grows (old and new copies at once) are counted.
  std::size_t memory = 0;
  /// `memory` bounds the whole process (the CLI's --memory): what is resident
  /// when the search starts, and an 8 MiB slack, are set aside from it.
  bool memory_bounds_process = false;
  std::string workdir;                  // where the trace log and the frontier spill when they outgrow --memory (empty: stop instead)
  /// How a frontier level on disk is written: zstd -1 per window-sized block
  /// (about 12x smaller on two-phase, bench/frontier.txt), or raw.
  enum class WorkdirCompression { none, zstd };
  WorkdirCompression workdir_compression = WorkdirCompression::zstd;
  CheckpointOptions checkpoint;
  std::uint32_t stop_after_level = 0;   // tests: behave as if Ctrl-C came once this level is complete
  std::uint32_t max_depth = 0;          // 0: unbounded; else levels beyond it are not expanded
  bool check_deadlock = true;           // and the spec does not allow deadlock
  bool exact = false;                   // store full states instead of fingerprints
  bool symmetry = true;                 // reduce by the spec's symmetric<Tag>(n) parts, if any (--no-symmetry: false)
  double progress_seconds = 0;          // 0: no progress lines
  std::vector<std::string> invariants;  // empty: all
  /// Run the spec self-checks on the first this many states (0: none), then on
  /// one state in 1,000 of every level (self_check_all: on every state).
  std::uint64_t self_check_states = 1000;
  static constexpr std::uint64_t self_check_all = ~std::uint64_t{0};
  /// Which of the shortest counterexamples of an invariant to print: the one
  /// with the fewest switches between actors (a second pass once a violation
  /// is found: search/readable_trace.cpp), or the first one found.
  enum class TracePolicy { fewest_switches, first_found };
  TracePolicy trace = TracePolicy::fewest_switches;
};

struct Violation {
  /// timelock: a timed spec's state where no action is enabled and a deadline keeps time from passing.
  enum class Kind { invariant, deadlock, goal, timelock };
  Kind kind = Kind::invariant;
  std::string property;          // invariant or goal name; "Deadlock" for a deadlock; a timelock's deadline
  Trace trace;  // empty for an unreached goal
  std::size_t length() const { return trace.empty() ? 0 : trace.size() - 1; }
};

/// Spec code threw, or replay found it non-deterministic.
struct SpecError {
  std::string message;
  std::string where;             // "action Decommission(om=2)", "invariant X", "init"
  Trace trace;  // to the state where it happened
};

struct ActionStats {
  std::string name;
  std::uint64_t enabled = 0;     // times the guard held
  std::uint64_t new_states = 0;  // distinct states it was first to reach
};

/// What the progress forecast projected for the whole run, as made at some
/// point of it: the summary compares it with what the run turned out to be.
struct ForecastPoint {
  double fraction = 0;          // of the run's time when the forecast was made (0.25: a quarter in)
  std::uint32_t level = 0;      // the last level finished then
  std::uint64_t states = 0;     // projected distinct states
  double seconds = 0;           // projected run time
  std::size_t memory = 0;       // projected peak memory (what --memory counts)
};
/// How far off a projection was: +0.2 when 20% too high, -0.1 when 10% too low.
inline double forecast_error(double projected, double actual) {
  return actual > 0 ? projected / actual - 1 : 0;
}

struct Stats {
  std::uint64_t distinct = 0;
  std::uint64_t generated = 0;   // initial states + every successor, duplicates included
  std::uint32_t depth = 0;       // BFS levels, the initial states being level 1
  double seconds = 0;
  unsigned threads = 1;
  std::vector<std::uint64_t> level_sizes;
  std::vector<ActionStats> actions;
  std::vector<std::uint64_t> transition_enabled;  // per transition id
  std::vector<std::uint64_t> transition_new;      // per transition id: distinct states it was first to reach
  bool exact = false;
  std::size_t visited_bytes = 0;
  std::size_t trace_bytes = 0;       // trace log in RAM
  std::size_t trace_disk_bytes = 0;  // trace log spilled to --workdir
  /// Levels whose states (as frontier) went to sequential files in --workdir
  /// because they did not fit in --memory, and the bytes written there.
  std::uint32_t frontier_spilled_levels = 0;
  std::uint64_t frontier_disk_bytes = 0;  // as written (compressed with --workdir-compression zstd)
  std::uint64_t frontier_raw_bytes = 0;   // the states those bytes hold, uncompressed
  std::size_t memory_peak = 0;       // largest total counted against --memory
  std::uint64_t visited_capacity = 0;
  /// The per-level table: its largest capacity (slots of 32 bytes), and how
  /// many batches filled it and were expanded again after it grew.
  std::uint64_t level_table_slots = 0;
  std::uint64_t level_table_retries = 0;
  double load = 0;
  unsigned fingerprint_bits = 0;
  double omission_probability = 0;
  std::uint64_t compaction_collisions = 0;
  std::size_t peak_rss = 0;
  std::uint64_t self_checked = 0;  // states the spec self-checks ran on
  /// Of them, per BFS level (index 0: the initial states): where they were
  /// drawn (search/self_check_plan.hpp: the first states, then a sample of every level).
  std::vector<std::uint64_t> self_checked_by_depth;
  double self_check_seconds = 0;   // of `seconds`, spent in the self-checks (this process's)
  /// The symmetry the counts are reduced by: per kind "s1..s3"; empty when none
  /// (no symmetric part, or --no-symmetry). distinct then counts orbits.
  std::vector<std::string> symmetry;
  double symmetry_group = 1;       // renamings in the group: the product of count! over the kinds
  /// With symmetry: the concrete states the `distinct` orbits stand for (the
  /// sum of group / stabilizer over the representatives). An orbit whose
  /// stabilizer was too costly to count (or one found before a --resume) adds
  /// 1 and is counted in symmetry_uncounted: the sum is then a lower bound.
  double symmetry_states = 0;
  std::uint64_t symmetry_uncounted = 0;
  std::vector<ForecastPoint> forecast;  // the forecasts in force at 25%, 50% and 75% of the run
};

enum class Outcome {
  ok,         // every checked property holds (in the explored part, if bounded)
  violation,  // an invariant failed, a deadlock, or a goal unreached
  error,      // spec code threw or is not deterministic
  limit,      // stopped early: the memory budget, or request_stop() (Ctrl-C)
};

/// Asks running checks to stop at the next batch boundary with their partial
/// statistics (Outcome::limit). Async-signal-safe: the CLI calls it on SIGINT
/// and SIGTERM. Each check clears the request when it starts.
void request_stop() noexcept;

struct CheckResult {
  std::string spec;
  Outcome outcome = Outcome::ok;
  Stats stats;
  std::optional<Violation> violation;
  std::optional<SpecError> error;
  std::string limit_message;
  bool depth_bounded = false;       // --max-depth cut the search short
  std::uint32_t resumed_from_level = 0;  // the checkpoint's level when resumed, else 0
  std::string checkpoint_written;        // the last checkpoint file written, if any
  std::vector<std::string> warnings;
  /// How the printed counterexample was chosen among the shortest ones:
  /// "fewest-switches" or "first-found" (CheckOptions::trace); "" without one.
  std::string trace_policy;
};

/// Keeps the result's traces as steps (Trace::materialize), so that it no
/// longer reads the model of its spec: statecheck::check and check_entry
/// return results that stand alone.
void materialize_traces(CheckResult& r);

}  // namespace statecheck
