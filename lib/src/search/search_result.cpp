// Result assembly: how a finding (violation, spec error, limit, unreached
// goal) and the run's statistics become the CheckResult; see search_state.hpp.
#include <algorithm>
#include <fstream>

#include "model/trace_builder.hpp"
#include "search/readable_trace.hpp"
#include "search/search_state.hpp"

namespace statecheck::detail {

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

}  // namespace

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

Trace SearchState::trace_to(Location at, bool compare_last, std::vector<std::byte>* last_state,
                            std::vector<std::uint32_t> path) {
  std::string problem;
  Trace steps;
  try {
    // A copy: on disk, the frontier's window may be reread while the trace is built.
    std::vector<std::byte> state;
    if (compare_last && net) {
      state = shared_state(at);
    } else if (compare_last) {
      const std::byte* at_rank = frontier.view(at.rank, at.rank + 1);
      state.assign(at_rank, at_rank + frontier_stride);
    }
    const std::byte* last = compare_last ? state.data() : nullptr;
    // A given path was chosen for its actors: with symmetry it is followed renamed, step by step.
    const bool follow = !path.empty();
    if (path.empty()) path = net ? shared_path(at) : log.path(at.level, at.rank);
    // Across processes each holds a part of the visited states: the replay is checked against the last state only.
    steps = TraceBuilder(ops, net ? nullptr : visited.get(), net ? nullptr : exact.get()).build(path, problem, last, last_state, follow);
  } catch (const std::runtime_error& e) {  // a spill file (trace log, frontier) could not be read back: an I/O stop, not the spec's fault
    const std::string found = result.violation ? "a violation of " + result.violation->property
                                               : result.error ? "a spec error" : "a result";
    const std::string why = std::string(e.what()) + "; " + found + " was found, but its trace could not be rebuilt";
    if (net) throw run_error(why);  // the others wait for this process's part of the trace: the command ends them all
    result.violation.reset();
    result.error.reset();
    stop_on_limit(why);
    return {};
  }
  if (!problem.empty()) {
    result.outcome = Outcome::error;
    result.violation.reset();
    result.error = SpecError{problem, "replay", {}};
  }
  return steps;
}

std::vector<std::uint64_t> SearchState::violating_ranks(std::uint32_t invariant) const {
  std::vector<std::uint64_t> ranks;
  CheckOutcome out;
  out.goal_ranks.assign(ops.goal_names.size(), CheckOutcome::none);
  for (std::uint64_t begin = 0; begin < frontier_count; begin += frontier.window()) {  // in RAM: one window
    const std::uint64_t end = std::min(frontier_count, begin + frontier.window());
    const std::byte* states = frontier.view(begin, end);
    for (std::uint64_t from = begin; from < end; from = out.violation_rank + 1) {
      out.violation_rank = CheckOutcome::none;
      const StateChunk rest{states + (from - begin) * frontier_stride, frontier_stride, static_cast<std::size_t>(end - from), from};
      ops.check(ops.model, rest, std::uint64_t{1} << invariant, out);
      if (out.error_rank != CheckOutcome::none) return ranks;
      if (out.violation_rank == CheckOutcome::none) break;
      ranks.push_back(out.violation_rank);
    }
  }
  return ranks;
}

std::vector<std::uint32_t> SearchState::readable_path(const std::string& property, Location& at,
                                                     std::uint64_t& switches) {
  result.trace_policy = "first-found";
  if (options.trace != CheckOptions::TracePolicy::fewest_switches || log.levels() != at.level || at.level < 3) {
    if (options.trace == CheckOptions::TracePolicy::fewest_switches && at.level < 3)
      result.trace_policy = "fewest-switches";  // at most one step: nothing to choose
    return {};
  }
  const auto named = std::find(ops.invariant_names.begin(), ops.invariant_names.end(), property);
  std::string note;
  std::optional<ReadablePath> chosen;
  try {
    const std::vector<std::uint64_t> targets =
        violating_ranks(static_cast<std::uint32_t>(named - ops.invariant_names.begin()));
    const std::size_t held = memory_use().total();
    const std::size_t room = budget.data_budget() > held ? budget.data_budget() - held : 0;
    chosen = fewest_switch_path(ops, log, targets, room, note);
  } catch (const std::exception& e) {
    note = std::string("the most readable trace was not computed (") + e.what() + "); the first shortest trace found is shown";
  }
  if (!chosen) {
    if (!note.empty()) result.warnings.push_back(note);
    return {};
  }
  result.trace_policy = "fewest-switches";
  at.rank = chosen->rank;
  switches = chosen->switches;
  return std::move(chosen->path);
}

/// A dead end of a timed spec where a deadline keeps time from passing is a
/// timelock, reported with that deadline's name.
void SearchState::name_timelock(Violation& v, const std::vector<std::byte>& state) const {
  if (ops.blocking_deadline == nullptr || state.empty()) return;
  const std::string deadline = ops.blocking_deadline(ops.model, state.data());
  if (deadline.empty()) return;
  v.kind = Violation::Kind::timelock;
  v.property = deadline;
}

void SearchState::report_violation(Violation::Kind kind, const std::string& property, Location at) {
  result.outcome = Outcome::violation;
  result.violation = Violation{kind, property, {}};
  std::vector<std::uint32_t> path;
  std::uint64_t claimed = 0;
  if (kind == Violation::Kind::invariant) path = readable_path(property, at, claimed);
  else result.trace_policy = "first-found";
  if (kind == Violation::Kind::invariant && shared_trace_fallback)
    result.warnings.push_back("with several processes the trace is the first shortest one found (--trace "
                              "fewest-switches needs one process)");
  const bool chosen = !path.empty();
  std::vector<std::byte> last;
  Trace steps = trace_to(at, true, &last, std::move(path));
  if (kind == Violation::Kind::deadlock && result.violation) name_timelock(*result.violation, last);
  // Under symmetry the concrete trace renames the chosen one step by step; it must switch as often.
  const std::uint64_t switches = chosen && result.violation ? actor_switches(steps) : claimed;
  if (switches != claimed)
    result.warnings.push_back("the most readable trace was counted with " + std::to_string(claimed) +
                              " actor switches, but its concrete steps have " + std::to_string(switches) +
                              "; the spec may not be symmetric: run --self-check");
  if (result.violation) result.violation->trace = std::move(steps);
}

void SearchState::fail_with_error(Location at, const std::string& message, const std::string& where,
                                  std::optional<std::uint32_t> tid) {
  result.outcome = Outcome::error;
  result.error = SpecError{message, where, {}};
  std::vector<std::byte> concrete;
  Trace steps = trace_to(at, true, &concrete);
  if (tid && result.error) {
    // With symmetry the failing transition was taken from the representative: name the concrete one.
    const std::uint32_t taken = *tid == constraint_tid || concrete.empty()
                                    ? *tid
                                    : TraceBuilder(ops, visited.get(), exact.get()).concrete_failing(concrete.data(), *tid, message);
    if (result.error->where != "replay")
      result.error->where = taken == constraint_tid ? "the constraint" : failing_part(ops, concrete.empty() ? nullptr : concrete.data(), taken);
  }
  if (result.error && result.error->where != "replay") result.error->trace = std::move(steps);
}

/// A spec error or a deadlock found while expanding (smallest rank first).
bool SearchState::report_expansion_failures() {
  std::uint64_t error_rank = Worker::none, dead = Worker::none;
  std::uint32_t error_tid = 0;
  std::string message;
  for (const auto& w : workers) {
    if (w->error_rank < error_rank || (w->error_rank == error_rank && w->error_rank != Worker::none && w->error_tid < error_tid)) {
      error_rank = w->error_rank;
      error_tid = w->error_tid;
      message = w->error_message;
    }
    dead = std::min(dead, w->deadlock_rank);
  }
  if (net) agree_failure(error_rank, error_tid, message, dead);
  if (error_rank != Worker::none && error_rank <= dead) {
    fail_with_error({level, error_rank}, message, "", error_tid);
    return false;
  }
  // A timed spec's expansion leaves out the dead ends it allows (Model::note_dead_end).
  if (dead != Worker::none && options.check_deadlock && (ops.time_unit_ms > 0 || !ops.deadlock_allowed)) {
    report_violation(Violation::Kind::deadlock, "Deadlock", {level, dead});
    return false;
  }
  return true;
}

void SearchState::fail_in_init(std::uint64_t combination, const std::string& message) {
  result.outcome = Outcome::error;
  result.error = SpecError{message, "init (combination " + std::to_string(combination) + ")", {}};
}

void SearchState::stop_on_limit(const std::string& message) {
  result.outcome = Outcome::limit;
  result.limit_message = message;
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

void SearchState::finish_stats() {
  Stats& s = result.stats;
  s.generated = generated_so_far();
  s.transition_enabled.assign(ops.transitions, 0);
  for (const auto& w : workers)
    for (std::size_t t = 0; t < w->enabled.size(); ++t) s.transition_enabled[t] += w->enabled[t];
  const std::uint64_t own_distinct = s.distinct;
  if (net) reduce_stats();
  for (std::size_t t = 0; t < s.transition_enabled.size(); ++t)
    s.actions[ops.action_of_transition[t]].enabled += s.transition_enabled[t];
  std::vector<bool> present(s.actions.size(), false);  // actions left out with when(false, ...) have no ids
  for (std::uint32_t a : ops.action_of_transition) present[a] = true;
  for (std::size_t a = 0; a < s.actions.size(); ++a)
    if (present[a] && s.actions[a].enabled == 0 && result.outcome == Outcome::ok)
      result.warnings.push_back("action " + s.actions[a].name + " was never enabled");
  s.trace_bytes = log.bytes();
  s.trace_disk_bytes = log.disk_bytes();
  s.frontier_spilled_levels = frontier.spilled_levels() + next_level.spilled_levels();
  s.frontier_disk_bytes = frontier.disk_bytes() + next_level.disk_bytes();
  s.frontier_raw_bytes = frontier.raw_bytes() + next_level.raw_bytes();
  s.memory_peak = std::max(budget.peak(), memory_use().total());
  s.forecast = forecast.points(s.seconds);
  s.level_table_slots = table->capacity();  // it never shrinks: its largest
  if (visited) {
    s.visited_bytes = visited->bytes();
    s.visited_capacity = visited->capacity();
    s.load = visited->load();
    s.fingerprint_bits = VisitedSet::fingerprint_bits();
    // The visited set's pairs, and those a level table compared (level_table.hpp): a union bound.
    s.omission_probability = std::min(1.0, visited->omission_probability() + level_table_omission());
    s.compaction_collisions = visited->collisions();
  } else {
    s.visited_bytes = exact->bytes();
  }
  s.peak_rss = peak_rss_bytes();
  if (net) reduce_resources(own_distinct);  // after every process's own figures are in
}

}  // namespace statecheck::detail
