// The search's state: construction, the frontier's storage, what it tells the
// memory budget, the self-checks; see search_state.hpp.
#include "search/search_state.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <thread>

#include "store/fault.hpp"
#include "statecheck/detail/search.hpp"
#include "search/self_check_plan.hpp"
#include "model/self_check.hpp"
#include "model/symmetry_check.hpp"

namespace statecheck::detail {

namespace {

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

}  // namespace

SearchState::SearchState(const ModelOps& model_ops, const CheckOptions& opts)
    : ops(model_ops), options(opts), budget(opts.memory) {
  invariant_mask = detail::invariant_mask(ops, options.invariants);
  threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  options.memory = budget.limit();  // --memory 0 means the default
  layout.state_size = ops.state_size;
  layout.encoding_size = ops.encoding_size;
  // sizeof(State) is a multiple of alignof(State): states packed at that
  // stride stay aligned in buffers that are (new and mmap align to 16 and
  // more). A record that holds an encoding after the state rounds to 8, the
  // largest alignof(State) there is (model.hpp). Rounding the raw states to 8
  // as well cost two-phase 4 bytes of its 20 and filter 5 of its 27 in every
  // frontier state and record.
  layout.stride = ops.encoding_size == 0 ? ops.state_size : round_up(ops.state_size + ops.encoding_size, 8);
  frontier_stride = ops.state_size;
  tid_bits = static_cast<unsigned>(std::bit_width(std::max<std::uint32_t>(ops.transitions, 2) - 1));
  log.set_workdir(options.workdir);
  ctx = {nullptr, nullptr, table.get(), layout, tid_bits};  // the set comes below, once the overhead is known
  // Successors staged per flush: a state's whole fan-out when small, else
  // what fits in staging_bytes (the staging area flushes when full).
  constexpr std::size_t staging_bytes = std::size_t{256} << 10;
  const std::size_t staging = std::clamp<std::size_t>(ops.transitions, 1, std::max<std::size_t>(16, staging_bytes / layout.stride));
  for (unsigned i = 0; i < threads; ++i) {
    workers.push_back(std::make_unique<Worker>(i, ctx, ops.transitions, staging));
    peers.push_back(workers.back().get());
  }
  // --memory bounds the whole process: what is resident now (the program, its
  // libraries, the workers' fixed buffers) and a slack are not the search's.
  if (options.memory_bounds_process) budget.set_aside_program();
  // A frontier on disk goes through a window of 8 MiB, or 1/256 of --memory when that is less (64 KiB at least).
  const std::size_t window = std::clamp<std::size_t>(budget.data_budget() / 256, std::size_t{64} << 10, std::size_t{8} << 20);
  const bool compress = options.workdir_compression == CheckOptions::WorkdirCompression::zstd;
  frontier.configure(frontier_stride, options.workdir, window, compress);
  next_level.configure(frontier_stride, options.workdir, window, compress);
  // A streamed level's keys go to disk beside it (read back in order into the trace log at the level's
  // end): 8 B a state would otherwise stay in RAM, unbounded by --memory's plan. Raw, not compressed:
  // a codec's contexts and buffers (0.7 MiB and more) would take more of --memory than the keys'
  // disk is worth (8 B a state beside the states' 20 to 400).
  streamed_keys.configure(sizeof(std::uint64_t), options.workdir, window, false);
  if (options.exact) {
    exact = std::make_unique<ExactSet>(layout.encoded_bytes());
    table = std::make_unique<LevelTable>(true);  // its inserts compare encodings
    ctx.table = table.get();
  } else {
    visited = std::make_unique<VisitedSet>(budget.data_budget());
  }
  ctx.visited = visited.get();
  ctx.exact = exact.get();
  for (auto& w : workers) w->peers = &peers;
  if (options.self_check_states > 0) view = std::make_unique<ModelView>(ops);
  goal_level.assign(ops.goal_names.size(), 0);
  goal_rank.assign(ops.goal_names.size(), 0);
  result.spec = ops.name;
  result.stats.threads = threads;
  result.stats.exact = options.exact;
  // Every range, in the order declared; an empty one (count 0: a spec whose
  // configuration leaves it nothing) renames nothing and is not listed.
  for (const SymmetryKind& k : ops.symmetry)
    if (k.count > 0) result.stats.symmetry.push_back(k.first + ".." + k.last);
  result.stats.symmetry_group = symmetry_group_size(ops.symmetry);
  for (const std::string& name : ops.action_names) result.stats.actions.push_back({name, 0, 0});
  result.stats.transition_new.assign(ops.transitions, 0);
  net = join_processes();
  if (net) agree_with_processes();  // before any collective call that the arguments shape
  place_checkpoints();
  if (net) {
    // The fewest-switch pass reads a whole level: one process's. A violation's report says so (search_result.cpp).
    shared_trace_fallback = options.trace == CheckOptions::TracePolicy::fewest_switches;
    options.trace = CheckOptions::TracePolicy::first_found;
  }
}

unsigned SearchState::key_bits_of_level(std::uint64_t l, std::uint64_t parents) const {
  // Keys: an initial combination's index, then (parent rank << tid bits) | tid.
  const auto width = [](std::uint64_t n) { return static_cast<unsigned>(std::bit_width(std::max<std::uint64_t>(n, 2) - 1)); };
  return l == 0 ? width(parents) : width(parents) + tid_bits;
}

bool SearchState::begin_level_keys(std::uint64_t parents) {
  const std::uint64_t made = result.stats.level_sizes.size();  // the index of the level being made
  level_key_bits = key_bits_of_level(made, parents);
  if (LevelTable::key_bits_fit(level_key_bits)) {
    table->set_key_bits(level_key_bits);
    return true;
  }
  stop_on_limit("BFS level " + std::to_string(made) + " has " + std::to_string(parents) + " parents and " +
                std::to_string(ops.transitions) + " transition ids: its keys (" + std::to_string(level_key_bits) +
                " bits) leave the level table fewer than " + std::to_string(LevelTable::min_hash_bits) +
                " hash bits; split the spec's actions or bound the level");
  return false;
}

double SearchState::level_table_omission() const {
  // A level table tells states apart on lo and 64 less the key's bits of hi
  // (level_table.hpp). One process's table holds the level's new states;
  // across K processes each holds what it found that its own visited set
  // lacks: states of this level or earlier ones.
  const std::vector<std::uint64_t>& sizes = result.stats.level_sizes;
  const double processes = net ? static_cast<double>(net->size()) : 1.0;
  double sum = 0, before = 0;
  for (std::size_t l = 0; l < sizes.size(); ++l) {
    const auto n = static_cast<double>(sizes[l]);
    const double m = net ? before + n : n;
    const std::uint64_t parents = l == 0 ? ops.init_combinations : sizes[l - 1];
    const unsigned compared = 64 + LevelTable::hash_bits_for(key_bits_of_level(l, parents));
    sum += processes * m * (m - 1) / 2 * std::ldexp(1.0, -static_cast<int>(compared));
    before += n;
  }
  return sum;
}

std::uint64_t SearchState::generated_so_far() const {
  std::uint64_t g = 0;
  for (const auto& w : workers) g += w->generated;
  return g;
}

MemoryUse SearchState::memory_use() const {
  MemoryUse use;
  use.set = set_bytes();
  use.set_size = visited ? visited->bytes() : exact->bytes();
  use.log = log.bytes();
  use.log_can_spill = log.can_spill();
  use.rest = table->resident_bytes() + frontier.ram_bytes() + next_level.ram_bytes() + streamed_keys.ram_bytes();
  for (const auto& w : workers) use.rest += w->found.bytes();
  use.rest += rank_bytes();  // 0 for one process
  use.rest += log.shape_bytes();  // stays in RAM when the log spills: a deep, narrow spec has a level a state
  return use;
}

std::size_t SearchState::set_bytes(std::uint64_t more) const {
  if (!visited) return exact->bytes();
  // The table is calloc'd: a page becomes resident when the first entry lands
  // on it, and entries land uniformly, so a fresh 8 MiB table holding a small
  // spec costs little (--memory 16M still checks one). A loaded one: all of it.
  const double pages = static_cast<double>(visited->bytes()) / 4096;
  const double touched = -pages * std::expm1(-static_cast<double>(visited->size() + more) / pages);
  return std::min(visited->bytes(), (static_cast<std::size_t>(touched) + 1) * 4096);
}

std::string SearchState::visited_full_message(std::uint64_t n, std::size_t extra) const {
  const auto percent = [](double x) { return std::to_string(static_cast<int>(x * 100 + 0.5)) + "%"; };
  const std::size_t set = visited->bytes();
  const std::size_t rest = memory_use().total() - set + extra;
  const std::string why =
      !visited->can_grow()
          ? "it is at its cap of " + mib_text(visited->budget()) + " (--memory)"
          : "growing it to " + mib_text(visited->least_segments(result.stats.distinct + n) * VisitedSet::segment_bytes) +
                " (moved 8 MiB segment by segment) does not fit in --memory " +
                mib_text(budget.limit()) + budget.less_program() + " beside the " + mib_text(rest) +
                " of the trace log, frontier and level tables";
  return "the visited set is full: " + mib_text(set) + " holding " + std::to_string(result.stats.distinct) +
         " states (" + percent(visited->load()) + " full) cannot take the " + std::to_string(n) + " states of level " +
         std::to_string(level + 1) + " (it would be " +
         percent(static_cast<double>(result.stats.distinct + n) / static_cast<double>(visited->capacity())) +
         " full), and " + why + "; raise --memory" +
         (log.bytes() != 0 && !log.can_spill() ? ", or give --workdir DIR to spill the trace log to disk" : "");
}

namespace {

/// The I/O fault-injection hook (store/fault.hpp): a spill fault spills
/// every level, as if RAM were short, so that the fault is met (frontier-spill: no fault, only the spilling).
bool spill_fault_injected(bool frontier) {
  const Fault f = injected_fault();
  if (frontier) return f == Fault::frontier_write || f == Fault::frontier_read || f == Fault::frontier_spill ||
                       f == Fault::frontier_corrupt;
  return f == Fault::spill_write || f == Fault::spill_read || f == Fault::spill_corrupt;
}

}  // namespace

bool SearchState::next_level_on_disk(std::uint64_t n, std::size_t extra_in_ram) const {
  if (!frontier.can_spill()) return false;
  return spill_fault_injected(true) || ram_short(n, extra_in_ram);
}

bool SearchState::ram_short(std::uint64_t n, std::size_t extra) const {
  const MemoryUse use = memory_use();
  if (budget.fit(use, extra, "", false).kind == MemoryBudget::Fit::Kind::stop) return true;
  // The visited set grows only with room for its peak while doubling beside the rest (LevelWriter::make_room).
  const std::uint64_t total = result.stats.distinct + streamed + n;
  return visited && visited->needs_growth(total) && visited->can_grow() &&
         visited->growth_peak_bytes(visited->least_segments(total), threads) > budget.room_for_visited(use, extra);
}

bool SearchState::keep_table_pages(std::uint64_t n) const {
  bool on_disk = false;
  std::size_t need = memory_use().total() + plan_next_level(n, on_disk);  // the table counted whole
  const std::uint64_t total = result.stats.distinct + n;
  if (visited && visited->needs_growth(total))
    need += visited->growth_peak_bytes(visited->wanted_segments(total), threads);
  return need <= budget.data_budget() / 2;
}

bool SearchState::stream_forced() {
  const Fault f = injected_fault();
  return f == Fault::frontier_stream || f == Fault::frontier_stream_write || f == Fault::frontier_stream_interrupt;
}

bool SearchState::stream_wanted(std::uint64_t n) const {
  if (!stream_possible()) return false;
  if (stream_forced()) return true;
  n = std::max(n, table->size());
  // Making the rest of the level in the table and the workers' records (growing
  // the table holds the old one and the new one at once), then sorting it.
  const std::size_t grown = table->bytes_for(n, table->capacity());
  const std::size_t growing = static_cast<std::size_t>(n - table->size()) * layout.found_stride() + (grown == table->bytes() ? 0 : grown);
  bool on_disk = false;
  const std::size_t finishing = plan_next_level(n, on_disk);
  return ram_short(n, growing + finishing);
}

std::size_t SearchState::plan_next_level(std::uint64_t n, bool& on_disk) const {
  // The sort keys are the level table's own memory (LevelTable::take_entries), counted with it.
  const std::size_t set_growth = set_bytes(n) - set_bytes();
  const std::size_t in_ram = set_growth + static_cast<std::size_t>(n) * frontier_stride;
  on_disk = next_level_on_disk(n, in_ram);
  return on_disk ? set_growth + frontier.window_ram_bytes(n) : in_ram;
}

bool SearchState::fit_memory(std::size_t extra, const std::string& what) {
  MemoryBudget::Fit fit = budget.fit(memory_use(), extra, what, spill_fault_injected(false));
  try {
    if (fit.kind == MemoryBudget::Fit::Kind::stop && frontier.can_spill() && !frontier.on_disk() && frontier_count > 0) {
      frontier.spill();  // the level being expanded leaves RAM; the trace log may have to follow
      fit = budget.fit(memory_use(), extra, what, spill_fault_injected(false));
    }
    if (fit.kind == MemoryBudget::Fit::Kind::stop) {
      stop_on_limit(fit.stop_message);
      return false;
    }
    if (fit.kind == MemoryBudget::Fit::Kind::spill) log.spill(fit.log_in_ram);
  } catch (const std::runtime_error& e) {  // a spill file could not be written: the message names it
    stop_on_limit(e.what());
    return false;
  }
  budget.note_use(memory_use().total() + extra);
  return true;
}

bool SearchState::self_check_frontier() {
  if (!view) return true;
  std::uint64_t& done = result.stats.self_checked;
  // Across processes the plan is over the whole level, in global rank order,
  // each process checking its own states, so the same states are checked and
  // the same first failure is reported as by one process.
  const std::uint64_t level_states = net ? global_frontier_count : frontier_count;
  if (done == 0 && level_states > 0) {
    try {
      if (const std::optional<SelfCheckFailure> f = check_initial_symmetry(*view)) {  // the same on every process
        fail_with_error({level, 0}, "self-check failed: " + f->message, f->where, std::nullopt);
        return false;
      }
    } catch (...) {
      // init threw: the search has reported it already
    }
  }
  const auto self_check_start = std::chrono::steady_clock::now();
  const SelfCheckPlan plan(options.self_check_states, done, level_states);
  std::optional<SelfCheckFailure> failure;
  std::uint64_t reached = plan.end();  // the (global) rank the scan stopped at: the selected states before it passed
  std::uint64_t checked = 0;
  progress.publish_self_check(0, plan.total());
  for (std::uint64_t rank = 0; rank < frontier_count && !failure; ++rank) {
    const std::uint64_t global = net ? frontier_ranks[rank] : rank;
    if (global >= plan.end()) break;
    if (!plan.selected(global)) continue;
    if (stop_flag().load(std::memory_order_relaxed)) {  // Ctrl-C: the level's expansion stops right after
      reached = global;
      break;
    }
    const std::byte* state = frontier.view(rank, rank + 1);  // on disk: a miss reads a window from `rank` on
    failure = self_check(*view, state, invariant_mask);
    if (failure) reached = global;
    progress.publish_self_check(++checked, plan.total());
  }
  progress.publish_self_check(0, 0);
  result.stats.self_check_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - self_check_start).count();
  if (net) agree_self_check(failure, reached);
  const std::uint64_t passed = plan.count_below(reached);
  done += passed;
  if (passed > 0) {
    auto& by_depth = result.stats.self_checked_by_depth;
    if (by_depth.size() < level) by_depth.resize(level);
    by_depth[level - 1] += passed;
  }
  if (!failure) return true;
  fail_with_error({level, reached}, "self-check failed: " + failure->message, failure->where, std::nullopt);
  return false;
}

}  // namespace statecheck::detail
