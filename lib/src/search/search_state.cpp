// Search bookkeeping and result assembly; see detail/search_state.hpp.
#include "search/search_state.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <fstream>
#include <thread>

#include "store/fault.hpp"
#include "statecheck/detail/search.hpp"
#include "tools/self_check.hpp"
#include "report/trace_builder.hpp"

namespace statecheck::detail {

namespace {

std::size_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : std::size_t{8} << 30;
}

}  // namespace

std::size_t default_memory() { return physical_memory() / 2; }

namespace {

std::size_t peak_rss_bytes() {
  std::ifstream status("/proc/self/status");
  std::string word;
  while (status >> word) {
    if (word == "VmHWM:") {
      std::size_t kib = 0;
      status >> kib;
      return kib * 1024;
    }
  }
  return 0;
}

std::size_t round_up(std::size_t n, std::size_t to) { return (n + to - 1) / to * to; }

/// The process's resident memory now: the program, its libraries, the spec.
std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  const long page = sysconf(_SC_PAGE_SIZE);
  return resident * static_cast<std::size_t>(page > 0 ? page : 4096);
}

/// Beside what the search counts: allocator slack, thread stacks, the
/// scheduler's own memory (documented in the README's --memory paragraph).
constexpr std::size_t uncounted_slack = std::size_t{8} << 20;

}  // namespace

SearchState::SearchState(const ModelOps& model_ops, const CheckOptions& opts) : ops(model_ops), options(opts) {
  invariant_mask = detail::invariant_mask(ops, options.invariants);
  threads = options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  if (options.memory == 0) options.memory = default_memory();
  layout.state_size = ops.state_size;
  layout.encoding_size = ops.encoding_size;
  layout.stride = round_up(ops.state_size + ops.encoding_size, 8);  // alignof(State) <= 8
  frontier_stride = round_up(ops.state_size, 8);
  tid_bits = static_cast<unsigned>(std::bit_width(std::max<std::uint32_t>(ops.transitions, 2) - 1));
  log.set_workdir(options.workdir);
  ctx = {nullptr, nullptr, &table, layout, tid_bits};  // the set comes below, once the overhead is known
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
  if (options.memory_bounds_process) overhead = resident_bytes() + uncounted_slack;
  if (options.exact) exact = std::make_unique<ExactSet>(layout.encoded_bytes());
  else visited = std::make_unique<VisitedSet>(data_budget());
  ctx.visited = visited.get();
  ctx.exact = exact.get();
  for (auto& w : workers) w->peers = &peers;
  if (options.self_check_states > 0) view = std::make_unique<ModelView>(ops);
  goal_level.assign(ops.goal_names.size(), 0);
  goal_rank.assign(ops.goal_names.size(), 0);
  result.spec = ops.name;
  result.stats.threads = threads;
  result.stats.exact = options.exact;
  for (const std::string& name : ops.action_names) result.stats.actions.push_back({name, 0, 0});
  result.stats.transition_new.assign(ops.transitions, 0);
}

std::unique_ptr<std::byte[]> SearchState::allocate_states(std::uint64_t n) const {
  return std::unique_ptr<std::byte[]>(new std::byte[static_cast<std::size_t>(std::max<std::uint64_t>(n, 1)) * frontier_stride]);
}

std::uint64_t SearchState::generated_so_far() const {
  std::uint64_t g = 0;
  for (const auto& w : workers) g += w->generated;
  return g;
}

void SearchState::merge_outcome(CheckOutcome& best, const CheckOutcome& o) {
  if (o.violation_rank < best.violation_rank ||
      (o.violation_rank == best.violation_rank && o.violated < best.violated)) {
    best.violation_rank = o.violation_rank;
    best.violated = o.violated;
  }
  if (o.error_rank < best.error_rank) {
    best.error_rank = o.error_rank;
    best.error = o.error;
  }
  for (std::size_t g = 0; g < best.goal_ranks.size() && g < o.goal_ranks.size(); ++g)
    best.goal_ranks[g] = std::min(best.goal_ranks[g], o.goal_ranks[g]);
}

std::vector<TraceStep> SearchState::trace_to(Location at, bool compare_last) {
  std::string problem;
  const std::byte* last = compare_last ? frontier.get() + at.rank * frontier_stride : nullptr;
  std::vector<TraceStep> steps;
  try {
    steps = TraceBuilder(ops, visited.get(), exact.get()).build(log.path(at.level, at.rank), problem, last);
  } catch (const std::runtime_error& e) {  // the spilled trace log could not be read back: an I/O stop, not the spec's fault
    const std::string found = result.violation ? "a violation of " + result.violation->property
                                               : result.error ? "a spec error" : "a result";
    result.violation.reset();
    result.error.reset();
    stop_on_limit(std::string(e.what()) + "; " + found + " was found, but its trace could not be rebuilt");
    return {};
  }
  if (!problem.empty()) {
    result.outcome = Outcome::error;
    result.violation.reset();
    result.error = SpecError{problem, "replay", {}};
  }
  return steps;
}

void SearchState::report_violation(Violation::Kind kind, const std::string& property, Location at) {
  result.outcome = Outcome::violation;
  result.violation = Violation{kind, property, {}};
  std::vector<TraceStep> steps = trace_to(at, true);
  if (result.violation) result.violation->trace = std::move(steps);
}

void SearchState::fail_with_error(Location at, const std::string& message, const std::string& where,
                                  std::optional<std::uint32_t> tid) {
  result.outcome = Outcome::error;
  result.error = SpecError{message, where, {}};
  if (tid) result.error->where = *tid == constraint_tid ? "the constraint" : "action " + transition_label(ops.describe(ops.model, nullptr, *tid));
  std::vector<TraceStep> steps = trace_to(at, true);
  if (result.error && result.error->where != "replay") result.error->trace = std::move(steps);
}

void SearchState::fail_in_init(std::uint64_t combination, const std::string& message) {
  result.outcome = Outcome::error;
  result.error = SpecError{message, "init (combination " + std::to_string(combination) + ")", {}};
}

void SearchState::stop_on_limit(const std::string& message) {
  result.outcome = Outcome::limit;
  result.limit_message = message;
}

std::size_t SearchState::memory_in_use() const {
  std::size_t n = set_bytes() + log.bytes() + table.bytes() +
                  static_cast<std::size_t>(frontier_count) * frontier_stride;
  for (const auto& w : workers) n += w->found.bytes();
  return n;
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

std::size_t SearchState::room_for_visited(std::size_t extra) const {
  const std::size_t set = set_bytes();
  const std::size_t rest = memory_in_use() - set - (log.can_spill() ? log.bytes() : 0) + extra;
  return rest < data_budget() ? data_budget() - rest : 0;
}

std::string SearchState::less_program() const {
  if (overhead == 0) return "";
  return " less the " + std::to_string((overhead + (1u << 20) - 1) >> 20) + " MiB of the program itself";
}

std::string SearchState::visited_full_message(std::uint64_t n, std::size_t extra) const {
  const auto mib = [](std::size_t b) { return std::to_string((b + (1u << 20) - 1) >> 20) + " MiB"; };
  const auto percent = [](double x) { return std::to_string(static_cast<int>(x * 100 + 0.5)) + "%"; };
  const std::size_t set = visited->bytes();
  const std::size_t rest = memory_in_use() - set + extra;
  const std::string why =
      !visited->can_grow()
          ? "it is at its cap of " + mib(visited->budget()) + " (--memory)"
          : "growing it to " + mib(2 * set) + " (the old table is held while it moves) does not fit in --memory " +
                mib(options.memory) + less_program() + " beside the " + mib(rest) +
                " of the trace log, frontier and level tables";
  return "the visited set is full: " + mib(set) + " holding " + std::to_string(result.stats.distinct) +
         " states (" + percent(visited->load()) + " full) cannot take the " + std::to_string(n) + " states of level " +
         std::to_string(level + 1) + " (it would be " +
         percent(static_cast<double>(result.stats.distinct + n) / static_cast<double>(visited->capacity())) +
         " full), and " + why + "; raise --memory" +
         (log.bytes() != 0 && !log.can_spill() ? ", or give --workdir DIR to spill the trace log to disk" : "");
}

bool SearchState::fit_memory(std::size_t extra, const std::string& what) {
  const std::size_t budget = data_budget();
  const std::size_t used = memory_in_use() + extra;
  const std::size_t rest = used - log.bytes();
  const auto mib = [](std::size_t b) { return std::to_string((b + (1u << 20) - 1) >> 20) + " MiB"; };
  if (used > budget && rest > budget) {
    stop_on_limit(what + " needs " + mib(used - log.bytes()) + " beside the trace log, more than --memory " +
                  mib(options.memory) + less_program() + " (visited set " + mib(visited ? visited->bytes() : exact->bytes()) +
                  "); raise --memory");
    return false;
  }
  if (used > budget && !log.can_spill()) {
    stop_on_limit("the trace log (" + mib(log.bytes()) + " in RAM) no longer fits in --memory " + mib(options.memory) +
                  less_program() + " beside the visited set and the levels (" + mib(rest) +
                  "); raise --memory, or give --workdir DIR to spill the trace log to disk");
    return false;
  }
  // Test hook (detail/fault.hpp): a spill fault spills every level, as if RAM were short, so that the fault is met.
  const bool forced = log.can_spill() && (injected_fault() == Fault::spill_write || injected_fault() == Fault::spill_read);
  if (used > budget || forced) {
    try {
      log.spill(forced ? 0 : budget - rest);
    } catch (const std::runtime_error& e) {
      stop_on_limit(e.what());
      return false;
    }
  }
  memory_peak_ = std::max(memory_peak_, memory_in_use() + extra);
  return true;
}

void SearchState::report_unreached_goals() {
  for (std::size_t g = 0; g < goal_level.size(); ++g) {
    if (goal_level[g] != 0) continue;
    if (!result.violation) {
      result.outcome = Outcome::violation;
      result.violation = Violation{Violation::Kind::goal, ops.goal_names[g], {}};
    } else {
      result.warnings.push_back("goal " + ops.goal_names[g] + " was never reached either" +
                                (result.depth_bounded ? " within depth " + std::to_string(level) : ""));
    }
  }
}

bool SearchState::self_check_frontier() {
  if (!view) return true;
  std::uint64_t& done = result.stats.self_checked;
  for (std::uint64_t rank = 0; rank < frontier_count && done < options.self_check_states; ++rank, ++done) {
    const std::optional<SelfCheckFailure> f = self_check(*view, frontier.get() + rank * frontier_stride, invariant_mask);
    if (!f) continue;
    fail_with_error({level, rank}, "self-check failed: " + f->message, f->where, std::nullopt);
    return false;
  }
  return true;
}

void SearchState::finish_stats() {
  Stats& s = result.stats;
  s.generated = generated_so_far();
  s.transition_enabled.assign(ops.transitions, 0);
  for (const auto& w : workers)
    for (std::size_t t = 0; t < w->enabled.size(); ++t) s.transition_enabled[t] += w->enabled[t];
  for (std::size_t t = 0; t < s.transition_enabled.size(); ++t)
    s.actions[ops.action_of_transition[t]].enabled += s.transition_enabled[t];
  std::vector<bool> present(s.actions.size(), false);  // actions left out with when(false, ...) have no ids
  for (std::uint32_t a : ops.action_of_transition) present[a] = true;
  for (std::size_t a = 0; a < s.actions.size(); ++a)
    if (present[a] && s.actions[a].enabled == 0 && result.outcome == Outcome::ok)
      result.warnings.push_back("action " + s.actions[a].name + " was never enabled");
  s.trace_bytes = log.bytes();
  s.trace_disk_bytes = log.disk_bytes();
  s.memory_peak = std::max(memory_peak_, memory_in_use());
  if (visited) {
    s.visited_bytes = visited->bytes();
    s.visited_capacity = visited->capacity();
    s.load = visited->load();
    s.fingerprint_bits = VisitedSet::fingerprint_bits();
    s.omission_probability = visited->omission_probability();
    s.compaction_collisions = visited->collisions();
  } else {
    s.visited_bytes = exact->bytes();
  }
  s.peak_rss = peak_rss_bytes();
}

}  // namespace statecheck::detail
