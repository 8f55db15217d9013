// lib/src/search/search_state.hpp - what the BFS keeps between levels. The
// parallel loops live in search.cpp; the jobs around them each have a file:
// the memory budget (memory_budget.hpp decides, search_state.cpp describes the
// search to it), checkpoints (search_checkpoint.cpp, one list of what is saved)
// and result assembly (search_result.cpp).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/checkpoint.hpp"
#include "statecheck/detail/exact_set.hpp"
#include "statecheck/detail/level_table.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "model/model_view.hpp"
#include "search/exchange.hpp"
#include "search/memory_budget.hpp"
#include "search/rank_set.hpp"
#include "model/self_check.hpp"
#include "search/forecast.hpp"
#include "search/progress.hpp"
#include "store/frontier_store.hpp"
#include "store/trace_log.hpp"
#include "statecheck/detail/visited_set.hpp"
#include "statecheck/detail/worker.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

/// A state of the search: `rank` within BFS level `level` (1-based).
struct Location {
  std::uint32_t level;
  std::uint64_t rank;
};

/// A level table's entry with its state's hash, as processes exchange them
/// (the hash picks the owner; distributed_level.cpp).
struct SharedEntry {
  std::uint64_t key;
  std::uint64_t lo;
  std::uint64_t hi;
  std::uint32_t worker;
  std::uint32_t record;
};

class SearchState {
 protected:
  SearchState(const ModelOps& ops, const CheckOptions& options);

  std::uint64_t generated_so_far() const;
  double table_load() const { return visited ? visited->load() : 0.0; }
  /// Spec self-checks on the frontier's first states, within the budget of
  /// options.self_check_states; false (and an error result) on a failure.
  bool self_check_frontier();

  // Result assembly (search_result.cpp): each finding becomes `result`, with
  // its trace rebuilt from the trace log; nothing else writes the outcome.
  static void merge_outcome(CheckOutcome& best, const CheckOutcome& o);
  void report_violation(Violation::Kind kind, const std::string& property, Location at);
  void name_timelock(Violation& v, const std::vector<std::byte>& state) const;
  void fail_with_error(Location at, const std::string& message, const std::string& where,
                       std::optional<std::uint32_t> tid);
  void fail_in_init(std::uint64_t combination, const std::string& message);
  /// A spec error or a deadlock found while expanding the frontier (smallest
  /// rank first); false when there is one (the search ends).
  bool report_expansion_failures();
  void stop_on_limit(const std::string& message);
  void report_unreached_goals();
  void finish_stats();

  // Memory (search_state.cpp): the budget decides (memory_budget.hpp); these
  // describe the search to it and carry out its decision.
  MemoryUse memory_use() const;
  /// What the visited (or exact) set holds resident, with `more` states in it.
  std::size_t set_bytes(std::uint64_t more = 0) const;
  /// Keeps what the search holds plus `extra` within --memory, spilling trace
  /// levels to --workdir when that suffices; otherwise stops (`what` says what
  /// was growing) and returns false.
  /// When that is not enough and --workdir is given, the frontier moves
  /// there first.
  bool fit_memory(std::size_t extra, const std::string& what);
  /// Whether the next level, of `n` states, goes to --workdir: it does when
  /// holding it in RAM (`extra_in_ram` beside what is held now) would stop the
  /// search or keep the visited set from growing, and a workdir is given.
  bool next_level_on_disk(std::uint64_t n, std::size_t extra_in_ram) const;
  /// What making the next level of `n` states adds to what is held now (the
  /// sort keys, the next frontier or its window on disk, the visited set's
  /// pages the new states touch; the expanded frontier is dropped first), and
  /// whether it goes to disk.
  std::size_t plan_next_level(std::uint64_t n, bool& on_disk) const;
  /// Whether the level being made goes to --workdir while it is made
  /// (level_writer.hpp): it does when, grown to the `n` states expected, it
  /// could not be finished in RAM. Fingerprint mode only (--exact compares
  /// encodings held in RAM). Not concurrent with expansion.
  bool stream_wanted(std::uint64_t n) const;
  bool stream_possible() const { return !exact && !net && frontier.can_spill(); }  // processes share whole levels
  /// The test hook (store/fault.hpp) streams every expanded level, in batches
  /// of at most 64 states flushed one by one, so that the tests meet many flushes.
  static bool stream_forced();
  /// Runs `f`; a frontier spill file that cannot be written or read back stops the search (exit 3).
  template <class F>
  bool frontier_io(F&& f) {
    try {
      f();
      return true;
    } catch (const FrontierIoError& e) {
      if (net) throw;  // the other processes would wait for this one: the command ends them all (abort_processes)
      stop_on_limit(e.what());
      return false;
    }
  }
  /// Whether holding `extra` more bytes (for a next level of `n` states)
  /// would stop the search or keep the visited set from growing.
  bool ram_short(std::uint64_t n, std::size_t extra) const;
  /// Whether the end of a level of `n` new states may keep the level table's
  /// pages resident: with the whole table, the next frontier and the visited
  /// set's growth, it stays within half of --memory (the visited set's own
  /// doubling rule). Otherwise they are given back for the level's end.
  bool keep_table_pages(std::uint64_t n) const;
  std::size_t room_for_visited(std::size_t extra) const { return budget.room_for_visited(memory_use(), extra); }

  // The level table's keys (search_state.cpp).
  /// Bits of level l's keys when its parents are `parents` states (level 0: initial combinations).
  unsigned key_bits_of_level(std::uint64_t l, std::uint64_t parents) const;
  /// Sets the level table's key width for the level made from `parents`
  /// states (the initial level: combinations); false, with a stop, when the
  /// keys would leave the table too few hash bits.
  bool begin_level_keys(std::uint64_t parents);
  /// The chance that a level table took two of the recorded levels' states for one.
  double level_table_omission() const;
  /// Why the visited set cannot take `n` more states: how full it is, and
  /// what keeps it from doubling (its own cap, or the rest of --memory).
  std::string visited_full_message(std::uint64_t n, std::size_t extra) const;

  // Several processes (distributed_level.cpp): called only when `net` is
  // set, at level boundaries. Each process owns the states whose fingerprint
  // falls to it and orders them by their rank in the whole level ("global
  // rank"), so keys, outcomes and traces are those of one process.
  /// This process's states of the next level, from its level table's
  /// `entries` and what the others found for it, in global order (keys carry
  /// global parent ranks); sets shared_total and next_ranks.
  std::vector<LevelTable::Entry> share_level(std::vector<SharedEntry> entries, bool initial);
  /// Sorts `mine` by hash and keeps one entry per state, the one with the
  /// smallest key (with --exact, a state is its encoding, not its hash).
  void keep_smallest_keys(std::vector<SharedEntry>& mine) const;
  /// Sends to[p] (entries of this process's level table) to process p, in rounds
  /// of bounded size, and adds to `mine` what the others sent that this
  /// process's visited set does not hold (records kept in worker 0's buffer).
  void send_successors(const std::vector<std::vector<SharedEntry>>& to, std::vector<SharedEntry>& mine);
  /// The global ranks of this process's states `mine` (sorted by key); sets shared_total.
  std::vector<std::uint64_t> rank_keys(const std::vector<SharedEntry>& mine, bool initial);
  /// True on every process when `ok` is true on every process; otherwise each
  /// that was fine takes the stop of the first that was not.
  bool together(bool ok);
  /// `best` (local frontier ranks) becomes the whole level's first outcome.
  void agree_outcome(CheckOutcome& best);
  /// The first spec error (rank, tid, message) and deadlock of the whole level.
  void agree_failure(std::uint64_t& error_rank, std::uint32_t& error_tid, std::string& message, std::uint64_t& dead);
  /// The whole level's first self-check failure (`rank` global; unchanged when none fails anywhere).
  void agree_self_check(std::optional<SelfCheckFailure>& failure, std::uint64_t& rank);
  /// Sums the statistics over the processes (at the end).
  void reduce_stats();
  /// Sums the memory, visited-set and spill statistics over the processes, and makes the omission
  /// bound, load and forecast the run's (`own_distinct`: this process's states, before reduce_stats).
  void reduce_resources(std::uint64_t own_distinct);
  /// `mine` summed over the processes, in process order.
  double shared_sum(double mine);
  /// The path to global rank `at` (TraceLog::path's form), and the frontier state there.
  std::vector<std::uint32_t> shared_path(Location at);
  std::vector<std::byte> shared_state(Location at);
  std::uint64_t global_rank(std::uint64_t local) const { return local == CheckOutcome::none ? local : frontier_ranks[local]; }
  /// The level just finished becomes the frontier: its ranks from next_ranks, the last frontier's kept coded.
  void adopt_ranks();
  /// Bytes of the global ranks held (they stay in RAM).
  std::size_t rank_bytes() const;

  // Checkpoints across processes (shared_checkpoint.cpp).
  /// Refuses to resume a checkpoint of another number of processes; across
  /// processes, points --checkpoint and --resume at this process's directory.
  void place_checkpoints();
  void write_ranks() const;
  /// The ranks file of --resume: returns every level's size over all processes.
  std::vector<std::uint64_t> load_ranks();
  void check_ranks() const;
  /// restore_checkpoint on every process, then agree_on_checkpoint.
  void restore_parts();
  /// Refuses (config_error, on every process) parts of --resume saved at other levels or by other runs.
  void agree_on_checkpoint();
  std::string checkpoint_root;      // --checkpoint as given (options.checkpoint.dir is this process's part)
  std::string resume_root;          // --resume as given
  std::uint64_t checkpoint_run = 0;  // the run's id, in each part it saves: process 0's draw, or the resumed checkpoint's
  bool stop_checkpointed = false;   // checkpoint_on_stop wrote one

  std::unique_ptr<Exchange> net;  // null for one process
  /// The spec, constants, options and binary of this search, each as a user would name it (start_agreement.cpp).
  std::vector<std::string> started_with() const;
  /// Refuses (config_error, on every process) a search whose processes were started with other arguments.
  void agree_with_processes();
  std::vector<std::uint64_t> frontier_ranks;  // global ranks of this process's frontier states (ascending)
  std::vector<RankSet> past_ranks;            // per earlier level (1-based level l at l - 1): the same, coded, for traces
  std::vector<std::uint64_t> next_ranks;  // share_level's, for the level being finished
  std::uint64_t shared_total = 0;          // share_level's: the next level's size over all processes
  std::uint64_t global_frontier_count = 0;
  std::uint64_t exchanged_bytes = 0;  // reduce_stats': sent between all processes
  bool shared_trace_fallback = false;  // --trace fewest-switches asked for, first-found given

  // Checkpoints (search_checkpoint.cpp).
  /// Records the statistics of the level boundary the search is at (the
  /// frontier not yet expanded), which a checkpoint written later describes.
  void mark_boundary();
  /// Writes the checkpoint of the last boundary when one is due (every
  /// --checkpoint-every minutes); false (and a stop) when writing fails.
  bool checkpoint_if_due();
  /// On a stop: writes the checkpoint of the last boundary; returns the text
  /// for the stop message ("; checkpoint written to ...").
  std::string checkpoint_on_stop();
  /// Loads options.checkpoint.resume into the search (config_error when it
  /// does not belong to this spec and options, or is damaged).
  void restore_checkpoint();
  bool resumed() const { return result.resumed_from_level != 0; }

  const ModelOps& ops;
  CheckOptions options;
  unsigned threads = 1;
  RecordLayout layout;
  std::size_t frontier_stride = 0;
  unsigned tid_bits = 1;
  unsigned level_key_bits = 1;  // of the level being made (begin_level_keys)
  std::unique_ptr<VisitedSet> visited;  // fingerprint mode
  std::unique_ptr<ExactSet> exact;      // --exact
  std::unique_ptr<LevelTable> table = std::make_unique<LevelTable>();  // replaced, smaller, by LevelWriter::shed_level_memory
  LevelContext ctx;
  std::vector<std::unique_ptr<Worker>> workers;
  std::vector<Worker*> peers;
  TraceLog log;
  FrontierStore frontier;  // the level being checked and expanded, in RAM or in --workdir
  std::uint64_t frontier_count = 0;  // frontier.size()
  // The next level streamed to --workdir while it is made (level_writer.hpp).
  bool streaming = false;               // this level streams
  FrontierStore next_level;             // its states so far, in rank order
  std::uint64_t streamed = 0;           // next_level.size(): in the visited set already
  FrontierStore streamed_keys;          // their discovery keys (8 B each), for the trace log: on disk too
  std::uint32_t level = 0;  // the frontier's BFS level
  std::uint64_t invariant_mask = 0;
  std::vector<std::uint64_t> goal_level;  // 0: not reached yet
  std::vector<std::uint64_t> goal_rank;
  std::atomic<bool> overflow{false};
  std::unique_ptr<ModelView> view;  // for the self-checks; null when they are off
  MemoryBudget budget;
  Forecast forecast;  // before progress, which reads it until stopped
  Progress progress;
  CheckResult result;
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  double seconds_before = 0;  // spent before the checkpoint this run resumed from

 private:
  /// The trace to `at`: along `path` when given (with symmetry, each step
  /// renamed as TraceBuilder::build's follow does), else the trace log's discoverers.
  Trace trace_to(Location at, bool compare_last, std::vector<std::byte>* last_state = nullptr,
                 std::vector<std::uint32_t> path = {});
  /// With CheckOptions::trace fewest_switches, the path of the most readable
  /// shortest trace to a state of `at`'s level violating `property` (`at`
  /// becomes that state); empty for the first found (a note in the warnings
  /// says why when the pass could not run). Sets result.trace_policy.
  /// `switches` receives the switches the pass counted on it.
  std::vector<std::uint32_t> readable_path(const std::string& property, Location& at, std::uint64_t& switches);
  /// The ranks of the frontier's states that violate invariant `invariant`, ascending.
  std::vector<std::uint64_t> violating_ranks(std::uint32_t invariant) const;
  CheckpointMeta checkpoint_meta() const;
  /// The symmetric kinds this search reduces by, as the checkpoint records them.
  std::string symmetry_text() const;
  std::string write_checkpoint_file();
  std::string resume_command() const;
  double elapsed() const;
  /// The one list of what a checkpoint carries of the search besides the
  /// bulk data and the spec's shape: copy(meta field, search field) for each.
  /// Saving copies search to meta and restoring meta to search, so nothing
  /// can be saved and forgotten on restore (search_checkpoint.cpp).
  template <class Self, class Meta, class Copy>
  static void each_saved(Self& search, Meta& meta, Copy&& copy);

  std::uint64_t boundary_generated_ = 0;
  std::vector<std::uint64_t> boundary_enabled_;
  double boundary_seconds_ = 0;
  std::chrono::steady_clock::time_point last_checkpoint_ = started;
};

}  // namespace statecheck::detail
