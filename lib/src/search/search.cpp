// The level-synchronous parallel BFS: the pipeline of its parts (the class
// map is in docs/design.md, "The search"). Determinism argument:
// detail/search.hpp and detail/level_table.hpp.
#include "statecheck/detail/search.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>

#include "search/checkpoints.hpp"
#include "search/distribution.hpp"
#include "search/expansion_batches.hpp"
#include "search/findings.hpp"
#include "search/forecast.hpp"
#include "search/frontier_self_check.hpp"
#include "search/level_data.hpp"
#include "search/level_keys.hpp"
#include "search/level_writer.hpp"
#include "search/memory_plan.hpp"
#include "search/parallel_loops.hpp"
#include "search/progress.hpp"
#include "search/run_clock.hpp"

namespace statecheck::detail {

namespace {

constexpr std::size_t chunk_states = 64;  // states per call into the spec
std::atomic<bool> stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "request_stop must be async-signal-safe");

/// The breadth-first search as a pipeline over its parts (docs/design.md,
/// "The search"): each level is checked (invariants, goals), expanded into
/// the level table, fingerprinted, and stored as the next frontier in key
/// order; the parts below plan memory, write checkpoints, share levels
/// across processes and assemble the result.
class Search {
 public:
  Search(const ModelOps& model_ops, const CheckOptions& opts)
      : budget_(opts.memory),
        d_(model_ops, opts, budget_),
        dist_(Distribution::join(d_)),
        memory_(budget_, d_, dist_.get(), result_.stats),
        findings_(d_, dist_.get(), memory_, result_),
        checkpoints_(d_, dist_.get(), memory_, result_, findings_.goals, clock_),
        writer_(d_, memory_, findings_, result_.stats),
        self_check_(d_, dist_.get(), findings_, result_.stats, progress_),
        batches_(d_, memory_, writer_, findings_),
        arena_(static_cast<int>(d_.threads)) {}

  CheckResult run() {
    // Across processes, each restores its own part, and the parts must be of one save (shared_checkpoint.cpp).
    const bool restored = d_.options.checkpoint.resume.empty() || frontier_io([&] { checkpoints_.restore(); });
    clock_.restart();
    // Across processes only the first prints, and what it knows mid-level is its own share.
    progress_.start(d_.options.progress_seconds, forecast_,
                   dist_ ? "process 0 of " + std::to_string(dist_->size()) + ", its share: " : std::string());
    // As many threads as asked for, even beyond the cores (tests oversubscribe).
    const tbb::global_control allow(tbb::global_control::max_allowed_parallelism, d_.threads);
    if (restored) arena_.execute([&] { frontier_io([&] { search(); }); });
    progress_.stop();
    result_.stats.seconds = clock_.elapsed();
    findings_.finish_stats(forecast_);
    return std::move(result_);
  }

 private:
  void search() {
    if (result_.resumed_from_level == 0 && !initial_level()) return;
    for (;;) {
      // A level boundary: what a checkpoint holds (the frontier is not yet checked).
      checkpoints_.mark_boundary();
      if (!together(fit(0, "level " + std::to_string(d_.level))) || !together(findings_.go_on(checkpoints_.checkpoint_if_due()))) return;
      if (!check_level()) return;
      if (d_.options.max_depth != 0 && d_.level >= d_.options.max_depth) {
        result_.depth_bounded = true;
        break;
      }
      if (!together(expand_level()) || !findings_.report_expansion_failures()) return;
      if (dist_) shared_ = dist_->share_level(writer_.collect_entries(), false);
      if ((dist_ ? dist_->level_total() : d_.level_found()) == 0) break;  // nothing new: the search is complete
      if (!together(finish_level(false))) return;
    }
    findings_.report_unreached_goals();
  }

  /// Across processes, a stop on one (Ctrl-C, memory) stops all at the same
  /// boundary: true on every process when `ok` is true on every process;
  /// otherwise each that was fine takes the stop of the first that was not.
  bool together(bool ok) {
    if (!dist_) return ok;
    const std::optional<Distribution::Stop> stop = dist_->first_stop(ok, result_.limit_message, checkpoints_.written_on_stop());
    if (!stop) return true;
    if (ok) {
      if (stop->checkpointed) checkpoints_.on_stop();  // the others' parts need this one's
      findings_.stop_on_limit(stop->message);
    }
    return false;
  }

  /// Keeps what the search holds plus `extra` within --memory (MemoryPlan::fit), or stops.
  bool fit(std::size_t extra, const std::string& what) { return findings_.go_on(memory_.fit(extra, what)); }

  /// Sets the level table's key width for the level made from `parents`
  /// states (the initial level: combinations); false, with a stop, when the
  /// keys would leave the table too few hash bits (level_keys.hpp).
  bool begin_level_keys(std::uint64_t parents) {
    const std::uint64_t made = result_.stats.level_sizes.size();  // the index of the level being made
    if (!findings_.go_on(keys_too_wide(made, parents, d_.ops.transitions, d_.tid_bits))) return false;
    d_.level_key_bits = key_bits_of_level(made, parents, d_.tid_bits);
    d_.table->set_key_bits(d_.level_key_bits);
    return true;
  }

  /// Runs `f`; a frontier spill file that cannot be written or read back stops the search (exit 3).
  template <class F>
  bool frontier_io(F&& f) {
    try {
      f();
      return true;
    } catch (const FrontierIoError& e) {
      if (dist_) throw;  // the other processes would wait for this one: the command ends them all (abort_processes)
      findings_.stop_on_limit(e.what());
      return false;
    }
  }

  bool initial_level() {
    Worker& w = *d_.workers[0];
    if (!begin_level_keys(d_.ops.init_combinations)) return false;
    try {
      d_.ops.initial(d_.ops.model, w);
    } catch (const std::exception& e) {
      w.error(w.error_rank, 0, e.what());
    } catch (...) {
      w.error(w.error_rank, 0, non_std_exception);
    }
    // make_room_for_initial_state grows the table before each initial state: no claim can fail.
    if (d_.table->full()) throw std::logic_error("the level table filled while making the initial states");
    d_.table->set_size(w.found.size());
    // The spec's init loop returned early; across processes, a Ctrl-C seen by one only stops all
    // (the others must not go on to the level's exchange without it).
    const bool interrupted = stop_requested.load();
    if (interrupted)
      findings_.stop_on_limit("interrupted while making the initial states (" + std::to_string(d_.ops.init_combinations) +
                    " combinations); nothing was checked");
    if (!together(!interrupted)) return false;
    if (w.error_rank != Worker::none) {
      refuse_id_arrays_before_init_error();
      findings_.fail_in_init(w.error_rank, w.error_message);
      return false;
    }
    if (d_.table->size() == 0) {
      throw no_initial_state(d_.ops, w.generated);
    }
    check_initial_state();
    if (dist_) shared_ = dist_->share_level(writer_.collect_entries(), true);
    return together(finish_level(true));  // a memory stop on one process stops all, as for later levels
  }

  /// ModelOps::check_initial (id_arrays against the ids the spec names) on the first initial state.
  void check_initial_state() {
    OwnedState s(d_.ops.state_size);
    for (std::uint32_t c = 0; c < d_.ops.init_combinations; ++c)
      if (d_.ops.make_initial(d_.ops.model, c, s.bytes())) return d_.ops.check_initial(d_.ops.model, s.bytes());
  }
  /// After an error in init: an id_array smaller than its symmetric range fails in the renaming.
  void refuse_id_arrays_before_init_error() {
    try { check_initial_state(); } catch (const config_error&) { throw; } catch (...) {}  // else: init's own error
  }

  /// Orders the states of the level table into the next frontier.
  bool finish_level(bool initial) {
    const std::uint64_t parent_count = d_.level == 0 ? 1 : dist_ ? dist_->frontier_total() : d_.frontier_count;
    if (d_.streaming) {  // the level is on disk already, in rank order (never with processes: stream_possible)
      std::uint64_t n = 0;
      if (!writer_.end_stream(n) || !fit(0, "level " + std::to_string(d_.level + 1) + " (" + std::to_string(n) + " states)"))
        return false;
      close_level(n, writer_.log_streamed_keys(n, parent_count, initial));
      d_.streamed_keys.release();  // its file: the next level may fit in RAM
      return true;
    }
    const std::uint64_t n = dist_ ? shared_.size() : d_.table->size();
    d_.frontier.release();  // expanded: no checkpoint or trace needs it now; its room goes to the set and the next level
    const std::string next = "level " + std::to_string(d_.level + 1) + " (" + std::to_string(n) + " states)";
    // The sort keys (16 B a state) take the table's place, in its memory, before the set grows and the level is made.
    std::vector<LevelTable::Entry> shared = std::move(shared_);  // across processes: freed with this level's end
    const std::span<LevelTable::Entry> entries =
        dist_ ? std::span<LevelTable::Entry>(shared)
            : writer_.take_level_entries(memory_.keep_table_pages(n) ? LevelTable::Pages::keep : LevelTable::Pages::give_back);
    bool on_disk = false;
    // Across processes the entries are a vector of their own, beside the table's.
    const std::size_t extra = memory_.plan_next_level(n, on_disk) + (dist_ ? static_cast<std::size_t>(n) * sizeof(LevelTable::Entry) : 0);
    if (!together(writer_.make_room(n, extra) && fit(extra, next))) return false;  // a level made by all or none
    if (!dist_) sort_by_key(entries, d_.table->scratch());
    // The keys go into the trace log first: storing the states turns each entry into its state's hash.
    const std::vector<std::uint64_t> new_per_tid = writer_.log_keys(n, parent_count, initial, entries);
    d_.frontier.start(n, on_disk);
    for (std::uint64_t b = 0; b < n; b += d_.frontier.window()) {  // in RAM: one block, the whole level
      const std::uint64_t e = std::min(n, b + d_.frontier.window());
      writer_.store_states(entries, b, e, d_.frontier.block(b, e));
      d_.frontier.commit(b, e);
    }
    if (d_.overflow.load()) {
      findings_.stop_on_limit("the visited set's probe sequence grew beyond its limit; raise --memory");
      return false;
    }
    close_level(n, new_per_tid);
    return true;
  }

  /// The level of `n` states is made: it becomes the frontier, and the statistics count it.
  void close_level(std::uint64_t n, const std::vector<std::uint64_t>& new_per_tid) {
    for (std::size_t tid = 0; tid < new_per_tid.size(); ++tid) {
      result_.stats.actions[d_.ops.action_of_transition[tid]].new_states += new_per_tid[tid];
      result_.stats.transition_new[tid] += new_per_tid[tid];
    }
    d_.frontier_count = n;
    if (dist_) dist_->adopt_ranks();
    ++d_.level;
    result_.stats.distinct += n;
    result_.stats.depth = d_.level;
    result_.stats.level_sizes.push_back(n);
    forecast_.level_done(n, clock_.elapsed(), memory_.memory_use().total());
    d_.table->clear();
    d_.drop_found();
    progress_.publish(d_.level, result_.stats.distinct, d_.generated_so_far(), n, d_.table_load());
  }

  /// Checks invariants and goals on the frontier; false when the search ends.
  bool check_level() {
    tbb::enumerable_thread_specific<CheckOutcome> parts([&] {
      CheckOutcome o;
      o.goal_ranks.assign(d_.ops.goal_names.size(), CheckOutcome::none);
      return o;
    });
    for (std::uint64_t b = 0; b < d_.frontier_count; b += d_.frontier.window()) {  // in RAM: one window, the whole level
      const std::uint64_t e = std::min(d_.frontier_count, b + d_.frontier.window());
      load_window(b, e);
      parallel(b, e, chunk_states, [&](const auto& r) {
        CheckOutcome& out = parts.local();
        if (out.violation_rank < r.begin() || out.error_rank < r.begin()) return;
        d_.ops.check(d_.ops.model, chunk(r.begin(), r.end()), d_.invariant_mask, out);
      });
    }
    CheckOutcome best;
    best.goal_ranks.assign(d_.ops.goal_names.size(), CheckOutcome::none);
    for (const CheckOutcome& o : parts) Findings::merge_outcome(best, o);
    if (dist_) dist_->agree_outcome(best);
    for (std::size_t g = 0; g < best.goal_ranks.size(); ++g)
      if (best.goal_ranks[g] != CheckOutcome::none && findings_.goals.level[g] == 0) {
        findings_.goals.level[g] = d_.level;
        findings_.goals.rank[g] = best.goal_ranks[g];
      }
    if (best.error_rank != CheckOutcome::none && best.error_rank <= best.violation_rank) {
      findings_.fail_with_error({d_.level, best.error_rank}, best.error, "property check", std::nullopt);
      return false;
    }
    if (best.violation_rank != CheckOutcome::none) {
      findings_.report_violation(Violation::Kind::invariant, d_.ops.invariant_names[best.violated], {d_.level, best.violation_rank});
      return false;
    }
    return true;
  }

  /// Expands the frontier into the level table, in batches sized from the
  /// fan-out observed so far; a batch that fills the table is expanded again
  /// once the table has grown (detail/level_table.hpp).
  bool expand_level() {
    if (!self_check_.check() || !begin_level_keys(d_.frontier_count)) return false;
    for (auto& w : d_.workers) w->reset_level();
    // With --workdir, the level streams from its start when the last level's
    // fan-out says it will not fit (one batch may make all of it).
    d_.streaming = memory_.stream_possible() && memory_.stream_wanted(batches_.predicted_level(0));
    if (d_.streaming) writer_.shed_level_memory();
    std::uint64_t i = 0;
    std::uint64_t boost = 1;  // doubles each time a batch filled the table
    bool settled = true;      // the last batch was completed: every key in the table is final
    while (i < d_.frontier_count) {
      if (stop_asked(i)) return false;
      const std::uint64_t fanout = batches_.expected_fanout(i, boost);
      const std::uint64_t batch = std::min(batches_.batch_size(d_.frontier_count - i, fanout, settled), MemoryPlan::stream_forced() ? 64 : ~std::uint64_t{0});
      if (batch == 0) return false;  // the table cannot grow within --memory
      load_window(i, i + batch);
      for (auto& w : d_.workers) w->begin_batch();
      parallel(i, i + batch, chunk_states, [&](const auto& r) {
        Worker& w = *d_.workers[static_cast<std::size_t>(tbb::this_task_arena::current_thread_index())];
        d_.ops.expand(d_.ops.model, chunk(r.begin(), r.end()), w);
      });
      const bool filled = d_.table->full();
      std::uint64_t found = 0;
      for (const auto& w : d_.workers) found += w->found.size();
      d_.table->set_size(found);
      for (auto& w : d_.workers) w->drop_room();
      settled = !filled;
      if (filled) {
        for (auto& w : d_.workers) w->undo_batch();
        boost *= 2;
        ++result_.stats.level_table_retries;
        continue;  // the same states again: what was inserted stays, the counts start over
      }
      i += batch;
      if (stop_asked(i)) return false;
      // A completed batch: every key in the table is final (level_writer.hpp).
      if (!d_.streaming && memory_.stream_possible()) d_.streaming = memory_.stream_wanted(batches_.predicted_level(i));
      if (d_.streaming && writer_.flush_due() && !writer_.flush_stream()) return false;
      writer_.interrupt_hook(i);
      if (!fit(0, "expanding level " + std::to_string(d_.level))) return false;
      progress_.publish(d_.level, result_.stats.distinct + d_.level_found(), d_.generated_so_far(), d_.frontier_count - i,
                       d_.table_load());
    }
    batches_.level_expanded();
    return true;
  }

  /// Ctrl-C, or CheckOptions::stop_after_level reached: stops with the
  /// statistics of the levels before this one, writing their checkpoint.
  bool stop_asked(std::uint64_t expanded) {
    const bool asked = d_.options.stop_after_level != 0 && d_.level >= d_.options.stop_after_level;
    if (!asked && !stop_requested.load(std::memory_order_relaxed)) return false;
    const std::string where = std::to_string(d_.level) + " (" + std::to_string(expanded) + " of " +
                              std::to_string(d_.frontier_count) + " states expanded)";
    findings_.stop_on_limit((asked ? "stopped as asked before expanding level " : "interrupted while expanding level ") + where +
                  "; the statistics cover the levels before it" + checkpoints_.on_stop());
    return true;
  }

  /// Frontier states [begin, end) into reach of chunk() (in RAM: a pointer; on disk: read).
  void load_window(std::uint64_t begin, std::uint64_t end) {
    window_ = d_.frontier.view(begin, end);
    window_begin_ = begin;
  }

  StateChunk chunk(std::uint64_t begin, std::uint64_t end) const {
    return {window_ + (begin - window_begin_) * d_.frontier_stride, d_.frontier_stride, static_cast<std::size_t>(end - begin), begin};
  }

  MemoryBudget budget_;
  LevelData d_;
  std::unique_ptr<Distribution> dist_;  // null for one process
  CheckResult result_;  // Findings writes its outcome, the pipeline its level counts
  RunClock clock_;
  Forecast forecast_;  // before progress, which reads it until stopped
  Progress progress_;
  MemoryPlan memory_;
  Findings findings_;
  Checkpoints checkpoints_;
  LevelWriter writer_;
  FrontierSelfCheck self_check_;
  ExpansionBatches batches_;
  tbb::task_arena arena_;
  const std::byte* window_ = nullptr;  // frontier states from rank window_begin_ on (load_window)
  std::uint64_t window_begin_ = 0;
  std::vector<LevelTable::Entry> shared_;  // across processes: the next level's, from share_level
};

}  // namespace

CheckResult run_search(const ModelOps& ops, const CheckOptions& options) {
  stop_requested.store(false);
  // --no-symmetry searches the same spec with its plain expansion.
  const ModelOps searched = options.symmetry ? ops : without_symmetry(ops);
  Search search(searched, options);
  return search.run();
}

}  // namespace statecheck::detail

void statecheck::request_stop() noexcept { detail::stop_requested.store(true, std::memory_order_relaxed); }
std::atomic<bool>& statecheck::detail::stop_flag() noexcept { return stop_requested; }
