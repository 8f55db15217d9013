// The level-synchronous parallel BFS; the only module that uses oneTBB.
// Determinism argument: detail/search.hpp and detail/level_table.hpp.
#include "statecheck/detail/search.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>

#include "search/parallel_loops.hpp"
#include "search/progress.hpp"
#include "search/search_state.hpp"
#include "report/trace_builder.hpp"

namespace statecheck::detail {

namespace {

constexpr std::size_t chunk_states = 64;  // states per call into the spec
// Level-end inserts go in key order to random visited-set slots: prefetch this many ahead.
constexpr std::uint64_t prefetch_ahead = 16;
std::atomic<bool> stop_requested{false};
static_assert(std::atomic<bool>::is_always_lock_free, "request_stop must be async-signal-safe");

class Search : public SearchState {
 public:
  Search(const ModelOps& model_ops, const CheckOptions& opts)
      : SearchState(model_ops, opts), arena_(static_cast<int>(threads)) {}

  CheckResult run() {
    const bool restored = options.checkpoint.resume.empty() || frontier_io([&] { restore_checkpoint(); });
    started = std::chrono::steady_clock::now();
    progress.start(options.progress_seconds, forecast);
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
      if (!fit_memory(0, "level " + std::to_string(level)) || !checkpoint_if_due()) return;
      if (!check_level()) return;
      if (options.max_depth != 0 && level >= options.max_depth) {
        result.depth_bounded = true;
        break;
      }
      if (!expand_level()) return;
      if (table.size() == 0) break;  // nothing new: the search is complete
      if (!finish_level(false)) return;
    }
    report_unreached_goals();
  }

  bool initial_level() {
    Worker& w = *workers[0];
    try {
      ops.initial(ops.model, w);
    } catch (const std::exception& e) {
      w.error(w.error_rank, 0, e.what());
    } catch (...) {
      w.error(w.error_rank, 0, non_std_exception);
    }
    // make_room_for_initial_state grows the table before each initial state: no claim can fail.
    if (table.full()) throw std::logic_error("the level table filled while making the initial states");
    table.set_size(w.found.size());
    if (stop_requested.load()) {  // the spec's init loop returned early
      stop_on_limit("interrupted while making the initial states (" + std::to_string(ops.init_combinations) +
                    " combinations); nothing was checked");
      return false;
    }
    if (w.error_rank != Worker::none) {
      fail_in_init(w.error_rank, w.error_message);
      return false;
    }
    if (table.size() == 0) {
      throw config_error("spec '" + ops.name + "' has no initial state: check its init function");
    }
    return finish_level(true);
  }

  /// Orders the states of the level table into the next frontier.
  bool finish_level(bool initial) {
    const std::uint64_t n = table.size();
    const std::uint64_t parent_count = level == 0 ? 1 : frontier_count;
    frontier.release();  // expanded: no checkpoint or trace needs it now; its room goes to the set and the next level
    const std::string next = "level " + std::to_string(level + 1) + " (" + std::to_string(n) + " states)";
    // The sort keys (32 B a state) replace the table (42.7 B+) before the set grows and the level is made.
    if (!fit_memory(static_cast<std::size_t>(n) * sizeof(LevelTable::Entry), next)) return false;
    std::vector<LevelTable::Entry> entries = collect_entries();
    table.release_pages();
    bool on_disk = false;
    const std::size_t extra = plan_next_level(n, on_disk);  // counts the entries as the extra they were
    if (!make_room(n, extra)) return false;
    if (!fit_memory(extra, next)) return false;
    sort_by_key(entries);
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
    log.begin_level(n, parent_count, initial ? ops.init_combinations : ops.transitions);
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t key = entries[i].key;
      if (initial) {
        log.set(i, 0, static_cast<std::uint32_t>(key));
      } else {
        const auto tid = static_cast<std::uint32_t>(key & ((std::uint64_t{1} << tid_bits) - 1));
        log.set(i, key >> tid_bits, tid);
        ++result.stats.actions[ops.action_of_transition[tid]].new_states;
        ++result.stats.transition_new[tid];
      }
    }
    frontier_count = n;
    ++level;
    result.stats.distinct += n;
    result.stats.depth = level;
    result.stats.level_sizes.push_back(n);
    forecast.level_done(n, seconds_before + std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count(),
                        memory_use().total());
    table.clear();
    for (auto& w : workers) w->found.clear();
    progress.publish(level, result.stats.distinct, generated_so_far(), n, table_load());
    return true;
  }

  /// States [begin, end) of the sorted level into `out` (rank order), each inserted into the
  /// visited (or exact) set; with symmetry, counts the concrete states they stand for.
  void store_states(const std::vector<LevelTable::Entry>& entries, std::uint64_t begin, std::uint64_t end, std::byte* out) {
    const std::uint64_t first_id = result.stats.distinct;
    parallel(begin, end, 1024, [&](const auto& r) {
      for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
        if (visited && i + prefetch_ahead < r.end()) visited->prefetch({entries[i + prefetch_ahead].lo, entries[i + prefetch_ahead].hi});
        const LevelTable::Entry& e = entries[i];
        const std::byte* record = workers[e.worker]->found.at(e.record);
        std::memcpy(out + (i - begin) * frontier_stride, record, ops.state_size);
        const Hash128 h{e.lo, e.hi};
        if (exact) {
          std::memcpy(exact->encoding_slot(first_id + i), layout.encoding(record), layout.encoded_bytes());
          exact->insert(first_id + i, h);
        } else if (visited->insert(h) == VisitedSet::Insert::overflow) {
          overflow.store(true, std::memory_order_relaxed);
        }
      }
    });
    if (ops.stabilizer != nullptr) count_orbit_states(out, end - begin);
  }

  /// With symmetry: adds the concrete states that the n new representatives
  /// stand for to the stats (once per new state, never per successor).
  void count_orbit_states(const std::byte* states, std::uint64_t n) {
    struct Sum {
      double states = 0;
      std::uint64_t uncounted = 0;
    };
    tbb::enumerable_thread_specific<Sum> parts;
    const double group = result.stats.symmetry_group;
    parallel(0, n, 1024, [&](const auto& r) {
      Sum& sum = parts.local();
      for (std::uint64_t i = r.begin(); i != r.end(); ++i) {
        const std::uint64_t fixing = ops.stabilizer(ops.model, states + i * frontier_stride);
        sum.states += fixing == 0 ? 1 : group / static_cast<double>(fixing);
        sum.uncounted += fixing == 0;
      }
    });
    for (const Sum& s : parts) {
      result.stats.symmetry_states += s.states;
      result.stats.symmetry_uncounted += s.uncounted;
    }
  }

  /// The level table's entries (any order), in one array of exactly its size (no per-thread copies).
  std::vector<LevelTable::Entry> collect_entries() {
    std::vector<LevelTable::Entry> all(static_cast<std::size_t>(table.size()));
    std::atomic<std::size_t> filled{0};
    parallel(0, table.capacity(), 1u << 14, [&](const auto& r) {
      std::vector<LevelTable::Entry> part;  // at most 2^14 entries
      table.collect(r.begin(), r.end(), part);
      const std::size_t at = filled.fetch_add(part.size());
      if (at + part.size() <= all.size()) std::copy(part.begin(), part.end(), all.begin() + static_cast<std::ptrdiff_t>(at));
    });
    if (filled.load() != all.size()) throw std::logic_error("the level table holds another number of entries than counted");
    return all;
  }

  /// Grows the visited set for `n` more states within the budget (the rest, `extra` bytes to come, its growth peak).
  bool make_room(std::uint64_t n, std::size_t extra) {
    const std::uint64_t total = result.stats.distinct + n;
    if (exact) {
      exact->reserve(total);
      return true;
    }
    while (visited->needs_growth(total) && visited->can_grow() && visited->growth_peak_bytes(threads) <= room_for_visited(extra)) {
      visited->begin_growth();
      parallel(0, visited->old_segments(), 1, [&](const auto& r) {
        if (visited->migrate(r.begin(), r.end()) == VisitedSet::Insert::overflow)
          overflow.store(true, std::memory_order_relaxed);
      });
      visited->end_growth();
    }
    if (overflow.load()) {
      stop_on_limit("the visited set's probe sequence grew beyond its limit while growing; raise --memory");
      return false;
    }
    if (!visited->can_hold(total)) {
      stop_on_limit(visited_full_message(n, extra));
      return false;
    }
    return true;
  }

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
    if (!self_check_frontier()) return false;
    for (auto& w : workers) w->reset_level();
    std::uint64_t i = 0;
    std::uint64_t boost = 1;  // doubles each time a batch filled the table
    while (i < frontier_count) {
      if (stop_asked(i)) return false;
      const std::uint64_t fanout = expected_fanout(i, boost);
      const std::uint64_t batch = batch_size(frontier_count - i, fanout);
      if (batch == 0) return false;  // the table cannot grow within --memory
      load_window(i, i + batch);
      for (auto& w : workers) w->begin_batch();
      parallel(i, i + batch, chunk_states, [&](const auto& r) {
        Worker& w = *workers[static_cast<std::size_t>(tbb::this_task_arena::current_thread_index())];
        ops.expand(ops.model, chunk(r.begin(), r.end()), w);
      });
      const bool filled = table.full();
      std::uint64_t found = 0;
      for (const auto& w : workers) found += w->found.size();
      table.set_size(found);
      for (auto& w : workers) w->drop_room();
      if (filled) {
        for (auto& w : workers) w->undo_batch();
        boost *= 2;
        ++result.stats.level_table_retries;
        continue;  // the same states again: what was inserted stays, the counts start over
      }
      i += batch;
      if (stop_asked(i)) return false;
      if (!fit_memory(0, "expanding level " + std::to_string(level))) return false;
      progress.publish(level, result.stats.distinct + table.size(), generated_so_far(), frontier_count - i,
                       table_load());
    }
    last_fanout_ = frontier_count == 0 ? 1.0 : static_cast<double>(table.size()) / static_cast<double>(frontier_count);
    return report_expansion_failures();
  }

  /// New states to expect per state expanded: twice what this level (or, at
  /// its start, the last one) found per state, times `boost`, and never more
  /// than the transition ids, which bound every state's successors.
  std::uint64_t expected_fanout(std::uint64_t expanded, std::uint64_t boost) const {
    const double seen = expanded == 0 ? last_fanout_ : static_cast<double>(table.size()) / static_cast<double>(expanded);
    const double want = (2 * seen + 1) * static_cast<double>(boost);
    const auto most = std::max<std::uint64_t>(ops.transitions, 1);
    return want >= static_cast<double>(most) ? most : static_cast<std::uint64_t>(want);
  }

  /// States of the next batch, growing the table for them when it lacks room;
  /// 0 when that does not fit in --memory.
  std::uint64_t batch_size(std::uint64_t left, std::uint64_t fanout) {
    const double room = LevelTable::max_load * static_cast<double>(table.capacity()) - static_cast<double>(table.size());
    // At most 2^18 states a batch, so that progress and Ctrl-C are seen within a fraction of a second.
    // On disk, at most a window of the frontier.
    left = std::min(left, frontier.window());
    std::uint64_t batch = std::min<std::uint64_t>({left, static_cast<std::uint64_t>(std::max(0.0, room)) / fanout,
                                                   std::uint64_t{1} << 18});
    // At least a few thousand states a batch, fewer (down to one) when each is
    // expected to find many: growing for a batch reserves at most 2^16 entries
    // beyond what the table holds (2 MiB+), however wrong the guess; the next
    // batch's guess comes from what this one found.
    const std::uint64_t least = std::min<std::uint64_t>(left, std::clamp<std::uint64_t>((std::uint64_t{1} << 16) / fanout, 1, 4096));
    if (batch >= least) return batch;
    // Growing holds the old table, its entries and the new table at once.
    const std::size_t grown = LevelTable::bytes_for(table.size() + least * fanout, table.capacity());
    const std::size_t moving = grown == table.bytes() ? 0 : grown + table.size() * sizeof(LevelTable::Entry);
    if (!fit_memory(moving, "expanding level " + std::to_string(level))) return 0;
    table.reserve(table.size() + least * fanout);
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

  /// A spec error or a deadlock found while expanding (smallest rank first).
  bool report_expansion_failures() {
    const Worker* err = nullptr;
    std::uint64_t dead = Worker::none;
    for (const auto& w : workers) {
      if (w->error_rank != Worker::none &&
          (err == nullptr || w->error_rank < err->error_rank ||
           (w->error_rank == err->error_rank && w->error_tid < err->error_tid)))
        err = w.get();
      dead = std::min(dead, w->deadlock_rank);
    }
    if (err != nullptr && err->error_rank <= dead) {
      fail_with_error({level, err->error_rank}, err->error_message, "", err->error_tid);
      return false;
    }
    if (dead != Worker::none && options.check_deadlock && !ops.deadlock_allowed) {
      report_violation(Violation::Kind::deadlock, "Deadlock", {level, dead});
      return false;
    }
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
