// The level-synchronous parallel BFS; the only module that uses oneTBB.
// Determinism argument: detail/search.hpp and detail/level_table.hpp.
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

#include "model/model_view.hpp"
#include "search/parallel_loops.hpp"
#include "search/progress.hpp"
#include "search/level_writer.hpp"

namespace statecheck::detail {

namespace {

constexpr std::size_t chunk_states = 64;  // states per call into the spec
std::atomic<bool> stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "request_stop must be async-signal-safe");

class Search : public LevelWriter {
 public:
  Search(const ModelOps& model_ops, const CheckOptions& opts)
      : LevelWriter(model_ops, opts), arena_(static_cast<int>(threads)) {}

  CheckResult run() {
    // Across processes, each restores its own part, and the parts must be of one save (shared_checkpoint.cpp).
    const bool restored = options.checkpoint.resume.empty() || frontier_io([&] { restore_parts(); });
    started = std::chrono::steady_clock::now();
    // Across processes only the first prints, and what it knows mid-level is its own share.
    progress.start(options.progress_seconds, forecast,
                   net ? "process 0 of " + std::to_string(net->size()) + ", its share: " : std::string());
    // As many threads as asked for, even beyond the cores (tests oversubscribe).
    const tbb::global_control allow(tbb::global_control::max_allowed_parallelism, threads);
    if (restored) arena_.execute([&] { frontier_io([&] { search(); }); });
    progress.stop();
    result.stats.seconds = seconds_before + std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    finish_stats();
    return std::move(result);
  }

 private:
  void search() {
    if (!resumed() && !initial_level()) return;
    for (;;) {
      // A level boundary: what a checkpoint holds (the frontier is not yet checked).
      mark_boundary();
      if (!together_if_shared(fit_memory(0, "level " + std::to_string(level))) || !together_if_shared(checkpoint_if_due())) return;
      if (!check_level()) return;
      if (options.max_depth != 0 && level >= options.max_depth) {
        result.depth_bounded = true;
        break;
      }
      if (!together_if_shared(expand_level()) || !report_expansion_failures()) return;
      if (net) shared_ = share_level(collect_entries(), false);
      if ((net ? shared_total : level_found()) == 0) break;  // nothing new: the search is complete
      if (!together_if_shared(finish_level(false))) return;
    }
    report_unreached_goals();
  }

  /// Across processes, a stop on one (Ctrl-C, memory) stops all at the same boundary.
  bool together_if_shared(bool ok) { return net ? together(ok) : ok; }

  bool initial_level() {
    Worker& w = *workers[0];
    if (!begin_level_keys(ops.init_combinations)) return false;
    try {
      ops.initial(ops.model, w);
    } catch (const std::exception& e) {
      w.error(w.error_rank, 0, e.what());
    } catch (...) {
      w.error(w.error_rank, 0, non_std_exception);
    }
    // make_room_for_initial_state grows the table before each initial state: no claim can fail.
    if (table->full()) throw std::logic_error("the level table filled while making the initial states");
    table->set_size(w.found.size());
    // The spec's init loop returned early; across processes, a Ctrl-C seen by one only stops all
    // (the others must not go on to the level's exchange without it).
    const bool interrupted = stop_requested.load();
    if (interrupted)
      stop_on_limit("interrupted while making the initial states (" + std::to_string(ops.init_combinations) +
                    " combinations); nothing was checked");
    if (!together_if_shared(!interrupted)) return false;
    if (w.error_rank != Worker::none) {
      refuse_id_arrays_before_init_error();
      fail_in_init(w.error_rank, w.error_message);
      return false;
    }
    if (table->size() == 0) {
      throw no_initial_state(ops, w.generated);
    }
    check_initial_state();
    if (net) shared_ = share_level(collect_entries(), true);
    return together_if_shared(finish_level(true));  // a memory stop on one process stops all, as for later levels
  }

  /// ModelOps::check_initial (id_arrays against the ids the spec names) on the first initial state.
  void check_initial_state() {
    OwnedState s(ops.state_size);
    for (std::uint32_t c = 0; c < ops.init_combinations; ++c)
      if (ops.make_initial(ops.model, c, s.bytes())) return ops.check_initial(ops.model, s.bytes());
  }
  /// After an error in init: an id_array smaller than its symmetric range fails in the renaming.
  void refuse_id_arrays_before_init_error() {
    try { check_initial_state(); } catch (const config_error&) { throw; } catch (...) {}  // else: init's own error
  }

  /// Orders the states of the level table into the next frontier.
  bool finish_level(bool initial) {
    const std::uint64_t parent_count = level == 0 ? 1 : net ? global_frontier_count : frontier_count;
    if (streaming) {  // the level is on disk already, in rank order (never with processes: stream_possible)
      std::uint64_t n = 0;
      if (!end_stream(n) || !fit_memory(0, "level " + std::to_string(level + 1) + " (" + std::to_string(n) + " states)"))
        return false;
      record_level(n, parent_count, initial, StreamedKeyReader{streamed_keys, n});
      streamed_keys.release();  // its file: the next level may fit in RAM
      return true;
    }
    const std::uint64_t n = net ? shared_.size() : table->size();
    frontier.release();  // expanded: no checkpoint or trace needs it now; its room goes to the set and the next level
    const std::string next = "level " + std::to_string(level + 1) + " (" + std::to_string(n) + " states)";
    // The sort keys (16 B a state) take the table's place, in its memory, before the set grows and the level is made.
    std::vector<LevelTable::Entry> shared = std::move(shared_);  // across processes: freed with this level's end
    const std::span<LevelTable::Entry> entries =
        net ? std::span<LevelTable::Entry>(shared)
            : take_level_entries(keep_table_pages(n) ? LevelTable::Pages::keep : LevelTable::Pages::give_back);
    bool on_disk = false;
    // Across processes the entries are a vector of their own, beside the table's.
    const std::size_t extra = plan_next_level(n, on_disk) + (net ? static_cast<std::size_t>(n) * sizeof(LevelTable::Entry) : 0);
    if (!together_if_shared(make_room(n, extra) && fit_memory(extra, next))) return false;  // a level made by all or none
    if (!net) sort_by_key(entries, table->scratch());
    // The keys go into the trace log first: storing the states turns each entry into its state's hash.
    const std::vector<std::uint64_t> new_per_tid =
        log_level(n, parent_count, initial, [&](std::uint64_t i) { return entries[i].key; }, true);
    frontier.start(n, on_disk);
    for (std::uint64_t b = 0; b < n; b += frontier.window()) {  // in RAM: one block, the whole level
      const std::uint64_t e = std::min(n, b + frontier.window());
      store_states(entries, b, e, frontier.block(b, e));
      frontier.commit(b, e);
    }
    if (overflow.load()) {
      stop_on_limit("the visited set's probe sequence grew beyond its limit; raise --memory");
      return false;
    }
    close_level(n, new_per_tid);
    return true;
  }

  /// The new level's `n` states, whose sort keys key(i) gives in rank order,
  /// into the trace log and the statistics; the level table is emptied.
  template <class Key>
  void record_level(std::uint64_t n, std::uint64_t parent_count, bool initial, const Key& key_of) {
    close_level(n, log_level(n, parent_count, initial, key_of, false));  // a streamed level's keys are read in order
  }

  /// The new level's keys into the trace log (key_of(i) for rank i); returns
  /// the new states per transition id, for close_level. With `in_parallel`
  /// (key_of may be called from any thread), blocks of records are written
  /// at once: on one thread this took 0.23 s of filter N=7's level ends.
  template <class Key>
  std::vector<std::uint64_t> log_level(std::uint64_t n, std::uint64_t parent_count, bool initial, const Key& key_of,
                                       bool in_parallel) {
    std::vector<std::uint64_t> new_per_tid(initial ? 0 : ops.transitions, 0);
    log.begin_level(n, parent_count, initial ? ops.init_combinations : ops.transitions);
    const std::uint64_t tid_mask = (std::uint64_t{1} << tid_bits) - 1;
    const auto write = [&](std::uint64_t begin, std::uint64_t end, std::vector<std::uint64_t>& per_tid) {
      log.set_range(begin, end, [&](std::uint64_t i) {
        const std::uint64_t key = key_of(i);
        if (initial) return TraceLog::Step{0, static_cast<std::uint32_t>(key)};
        const auto tid = static_cast<std::uint32_t>(key & tid_mask);
        ++per_tid[tid];
        return TraceLog::Step{key >> tid_bits, tid};
      });
    };
    constexpr std::uint64_t block = std::uint64_t{1} << 16;
    static_assert(block % TraceLog::concurrent_range_step == 0, "blocks of records are written at once");
    if (!in_parallel || n <= block) {
      write(0, n, new_per_tid);
      return new_per_tid;
    }
    tbb::enumerable_thread_specific<std::vector<std::uint64_t>> per_task(new_per_tid);  // zeros each
    parallel(0, (n + block - 1) / block, 1, [&](const auto& r) {
      for (std::uint64_t b = r.begin(); b != r.end(); ++b) write(b * block, std::min(n, (b + 1) * block), per_task.local());
    });
    for (const std::vector<std::uint64_t>& counts : per_task)
      for (std::size_t tid = 0; tid < counts.size(); ++tid) new_per_tid[tid] += counts[tid];
    return new_per_tid;
  }

  /// The level of `n` states is made: it becomes the frontier, and the statistics count it.
  void close_level(std::uint64_t n, const std::vector<std::uint64_t>& new_per_tid) {
    for (std::size_t tid = 0; tid < new_per_tid.size(); ++tid) {
      result.stats.actions[ops.action_of_transition[tid]].new_states += new_per_tid[tid];
      result.stats.transition_new[tid] += new_per_tid[tid];
    }
    frontier_count = n;
    if (net) adopt_ranks();
    ++level;
    result.stats.distinct += n;
    result.stats.depth = level;
    result.stats.level_sizes.push_back(n);
    forecast.level_done(n, seconds_before + std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
                        memory_use().total());
    table->clear();
    for (auto& w : workers) w->found.clear();
    progress.publish(level, result.stats.distinct, generated_so_far(), n, table_load());
  }

  /// New states of the level being made: in the table, or streamed already.
  std::uint64_t level_found() const { return table->size() + streamed; }

  /// Checks invariants and goals on the frontier; false when the search ends.
  bool check_level() {
    tbb::enumerable_thread_specific<CheckOutcome> parts([&] {
      CheckOutcome o;
      o.goal_ranks.assign(ops.goal_names.size(), CheckOutcome::none);
      return o;
    });
    for (std::uint64_t b = 0; b < frontier_count; b += frontier.window()) {  // in RAM: one window, the whole level
      const std::uint64_t e = std::min(frontier_count, b + frontier.window());
      load_window(b, e);
      parallel(b, e, chunk_states, [&](const auto& r) {
        CheckOutcome& out = parts.local();
        if (out.violation_rank < r.begin() || out.error_rank < r.begin()) return;
        ops.check(ops.model, chunk(r.begin(), r.end()), invariant_mask, out);
      });
    }
    CheckOutcome best;
    best.goal_ranks.assign(ops.goal_names.size(), CheckOutcome::none);
    for (const CheckOutcome& o : parts) merge_outcome(best, o);
    if (net) agree_outcome(best);
    for (std::size_t g = 0; g < best.goal_ranks.size(); ++g)
      if (best.goal_ranks[g] != CheckOutcome::none && goal_level[g] == 0) {
        goal_level[g] = level;
        goal_rank[g] = best.goal_ranks[g];
      }
    if (best.error_rank != CheckOutcome::none && best.error_rank <= best.violation_rank) {
      fail_with_error({level, best.error_rank}, best.error, "property check", std::nullopt);
      return false;
    }
    if (best.violation_rank != CheckOutcome::none) {
      report_violation(Violation::Kind::invariant, ops.invariant_names[best.violated], {level, best.violation_rank});
      return false;
    }
    return true;
  }

  /// Expands the frontier into the level table, in batches sized from the
  /// fan-out observed so far; a batch that fills the table is expanded again
  /// once the table has grown (detail/level_table.hpp).
  bool expand_level() {
    if (!self_check_frontier() || !begin_level_keys(frontier_count)) return false;
    for (auto& w : workers) w->reset_level();
    // With --workdir, the level streams from its start when the last level's
    // fan-out says it will not fit (one batch may make all of it).
    streaming = stream_possible() && stream_wanted(predicted_level(0));
    if (streaming) shed_level_memory();
    std::uint64_t i = 0;
    std::uint64_t boost = 1;  // doubles each time a batch filled the table
    bool settled = true;      // the last batch was completed: every key in the table is final
    while (i < frontier_count) {
      if (stop_asked(i)) return false;
      const std::uint64_t fanout = expected_fanout(i, boost);
      const std::uint64_t batch = std::min(batch_size(frontier_count - i, fanout, settled), stream_forced() ? 64 : ~std::uint64_t{0});
      if (batch == 0) return false;  // the table cannot grow within --memory
      load_window(i, i + batch);
      for (auto& w : workers) w->begin_batch();
      parallel(i, i + batch, chunk_states, [&](const auto& r) {
        Worker& w = *workers[static_cast<std::size_t>(tbb::this_task_arena::current_thread_index())];
        ops.expand(ops.model, chunk(r.begin(), r.end()), w);
      });
      const bool filled = table->full();
      std::uint64_t found = 0;
      for (const auto& w : workers) found += w->found.size();
      table->set_size(found);
      for (auto& w : workers) w->drop_room();
      settled = !filled;
      if (filled) {
        for (auto& w : workers) w->undo_batch();
        boost *= 2;
        ++result.stats.level_table_retries;
        continue;  // the same states again: what was inserted stays, the counts start over
      }
      i += batch;
      if (stop_asked(i)) return false;
      // A completed batch: every key in the table is final (level_writer.hpp).
      if (!streaming && stream_possible()) streaming = stream_wanted(predicted_level(i));
      if (streaming && flush_due() && !flush_stream()) return false;
      interrupt_hook(i);
      if (!fit_memory(0, "expanding level " + std::to_string(level))) return false;
      progress.publish(level, result.stats.distinct + level_found(), generated_so_far(), frontier_count - i,
                       table_load());
    }
    last_fanout_ = frontier_count == 0 ? 1.0 : static_cast<double>(level_found()) / static_cast<double>(frontier_count);
    return true;
  }

  /// The states of the level being made once all of the frontier is
  /// expanded, at the rate of new states seen so far (of the last level's at its start).
  std::uint64_t predicted_level(std::uint64_t expanded) const {
    const double rate = expanded == 0 ? last_fanout_ : static_cast<double>(level_found()) / static_cast<double>(expanded);
    return static_cast<std::uint64_t>(std::ceil(rate * static_cast<double>(frontier_count)));
  }

  /// New states to expect per state expanded: twice what this level (or, at
  /// its start, the last one) found per state, times `boost`, and never more
  /// than the transition ids, which bound every state's successors.
  std::uint64_t expected_fanout(std::uint64_t expanded, std::uint64_t boost) const {
    const double seen = expanded == 0 ? last_fanout_ : static_cast<double>(level_found()) / static_cast<double>(expanded);
    const double want = (2 * seen + 1) * static_cast<double>(boost);
    const auto most = std::max<std::uint64_t>(ops.transitions, 1);
    return want >= static_cast<double>(most) ? most : static_cast<std::uint64_t>(want);
  }

  /// States of the next batch, growing the table for them when it lacks room
  /// (or, when the level streams or growing would not fit in --memory, and
  /// every key in the table is final (`settled`), emptying it to --workdir);
  /// 0 when that does not fit in --memory.
  std::uint64_t batch_size(std::uint64_t left, std::uint64_t fanout, bool settled) {
    // At most 2^18 states a batch, so that progress and Ctrl-C are seen within a fraction of a second.
    // On disk, at most a window of the frontier.
    left = std::min(left, frontier.window());
    const auto fitting = [&] {
      const double room = LevelTable::max_load * static_cast<double>(table->capacity()) - static_cast<double>(table->size());
      return std::min<std::uint64_t>({left, static_cast<std::uint64_t>(std::max(0.0, room)) / fanout, std::uint64_t{1} << 18});
    };
    // At least a few thousand states a batch, fewer (down to one) when each is
    // expected to find many: growing for a batch reserves at most 2^16 entries
    // beyond what the table holds (2 MiB+), however wrong the guess; the next
    // batch's guess comes from what this one found.
    const std::uint64_t least = std::min<std::uint64_t>(left, std::clamp<std::uint64_t>((std::uint64_t{1} << 16) / fanout, 1, 4096));
    if (const std::uint64_t batch = fitting(); batch >= least) return batch;
    // Growing holds the old table and the new one at once (LevelTable::reserve).
    const std::size_t grown = table->bytes_for(table->size() + least * fanout, table->capacity());
    const std::size_t moving = grown == table->bytes() ? 0 : grown;
    if (settled && table->size() != 0 && (streaming || (stream_possible() && ram_short(0, moving)))) {
      streaming = true;
      if (!flush_stream()) return 0;
      if (const std::uint64_t batch = fitting(); batch >= least) return batch;
    }
    if (!fit_memory(moving, "expanding level " + std::to_string(level))) return 0;
    grow_table(table->size() + least * fanout);
    return std::min(least, frontier.window());  // fit_memory may have moved the frontier to disk
  }

  /// Ctrl-C, or CheckOptions::stop_after_level reached: stops with the
  /// statistics of the levels before this one, writing their checkpoint.
  bool stop_asked(std::uint64_t expanded) {
    const bool asked = options.stop_after_level != 0 && level >= options.stop_after_level;
    if (!asked && !stop_requested.load(std::memory_order_relaxed)) return false;
    const std::string where = std::to_string(level) + " (" + std::to_string(expanded) + " of " +
                              std::to_string(frontier_count) + " states expanded)";
    stop_on_limit((asked ? "stopped as asked before expanding level " : "interrupted while expanding level ") + where +
                  "; the statistics cover the levels before it" + checkpoint_on_stop());
    return true;
  }

  /// Frontier states [begin, end) into reach of chunk() (in RAM: a pointer; on disk: read).
  void load_window(std::uint64_t begin, std::uint64_t end) {
    window_ = frontier.view(begin, end);
    window_begin_ = begin;
  }

  StateChunk chunk(std::uint64_t begin, std::uint64_t end) const {
    return {window_ + (begin - window_begin_) * frontier_stride, frontier_stride, static_cast<std::size_t>(end - begin), begin};
  }

  tbb::task_arena arena_;
  const std::byte* window_ = nullptr;  // frontier states from rank window_begin_ on (load_window)
  std::uint64_t window_begin_ = 0;
  double last_fanout_ = 1;  // new states per state expanded in the last level
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
