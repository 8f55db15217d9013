// Result assembly; see findings.hpp.
#include "search/findings.hpp"

#include <algorithm>
#include <fstream>

#include "model/trace_builder.hpp"
#include "search/level_keys.hpp"
#include "search/readable_trace.hpp"

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

Findings::Findings(LevelData& data, Distribution* dist, const MemoryPlan& memory, CheckResult& result)
    : d_(data), dist_(dist), memory_(memory), result_(result) {
  goals.level.assign(d_.ops.goal_names.size(), 0);
  goals.rank.assign(d_.ops.goal_names.size(), 0);
  result_.spec = d_.ops.name;
  result_.stats.threads = d_.threads;
  result_.stats.exact = d_.options.exact;
  // Every range, in the order declared; an empty one (count 0: a spec whose
  // configuration leaves it nothing) renames nothing and is not listed.
  for (const SymmetryKind& k : d_.ops.symmetry)
    if (k.count > 0) result_.stats.symmetry.push_back(k.first + ".." + k.last);
  result_.stats.symmetry_group = symmetry_group_size(d_.ops.symmetry);
  for (const std::string& name : d_.ops.action_names) result_.stats.actions.push_back({name, 0, 0});
  result_.stats.transition_new.assign(d_.ops.transitions, 0);
  if (dist_ && d_.options.trace == CheckOptions::TracePolicy::fewest_switches) {
    shared_trace_fallback_ = true;
    d_.options.trace = CheckOptions::TracePolicy::first_found;
  }
}

void Findings::merge_outcome(CheckOutcome& best, const CheckOutcome& o) {
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

Trace Findings::trace_to(Location at, bool compare_last, std::vector<std::byte>* last_state,
                            std::vector<std::uint32_t> path) {
  std::string problem;
  Trace steps;
  try {
    // A copy: on disk, the frontier's window may be reread while the trace is built.
    std::vector<std::byte> state;
    if (compare_last && dist_) {
      state = dist_->shared_state(at);
    } else if (compare_last) {
      const std::byte* at_rank = d_.frontier.view(at.rank, at.rank + 1);
      state.assign(at_rank, at_rank + d_.frontier_stride);
    }
    const std::byte* last = compare_last ? state.data() : nullptr;
    // A given path was chosen for its actors: with symmetry it is followed renamed, step by step.
    const bool follow = !path.empty();
    if (path.empty()) path = dist_ ? dist_->shared_path(at) : d_.log.path(at.level, at.rank);
    // Across processes each holds a part of the visited states: the replay is checked against the last state only.
    steps = TraceBuilder(d_.ops, dist_ ? nullptr : d_.visited.get(), dist_ ? nullptr : d_.exact.get()).build(path, problem, last, last_state, follow);
  } catch (const std::runtime_error& e) {  // a spill file (trace log, frontier) could not be read back: an I/O stop, not the spec's fault
    const std::string found = result_.violation ? "a violation of " + result_.violation->property
                                               : result_.error ? "a spec error" : "a result";
    const std::string why = std::string(e.what()) + "; " + found + " was found, but its trace could not be rebuilt";
    if (dist_) throw run_error(why);  // the others wait for this process's part of the trace: the command ends them all
    result_.violation.reset();
    result_.error.reset();
    stop_on_limit(why);
    return {};
  }
  if (!problem.empty()) {
    result_.outcome = Outcome::error;
    result_.violation.reset();
    result_.error = SpecError{problem, "replay", {}};
  }
  return steps;
}

std::vector<std::uint64_t> Findings::violating_ranks(std::uint32_t invariant) const {
  std::vector<std::uint64_t> ranks;
  CheckOutcome out;
  out.goal_ranks.assign(d_.ops.goal_names.size(), CheckOutcome::none);
  for (std::uint64_t begin = 0; begin < d_.frontier_count; begin += d_.frontier.window()) {  // in RAM: one window
    const std::uint64_t end = std::min(d_.frontier_count, begin + d_.frontier.window());
    const std::byte* states = d_.frontier.view(begin, end);
    for (std::uint64_t from = begin; from < end; from = out.violation_rank + 1) {
      out.violation_rank = CheckOutcome::none;
      const StateChunk rest{states + (from - begin) * d_.frontier_stride, d_.frontier_stride, static_cast<std::size_t>(end - from), from};
      d_.ops.check(d_.ops.model, rest, std::uint64_t{1} << invariant, out);
      if (out.error_rank != CheckOutcome::none) return ranks;
      if (out.violation_rank == CheckOutcome::none) break;
      ranks.push_back(out.violation_rank);
    }
  }
  return ranks;
}

std::vector<std::uint32_t> Findings::readable_path(const std::string& property, Location& at,
                                                     std::uint64_t& switches) {
  result_.trace_policy = "first-found";
  if (d_.options.trace != CheckOptions::TracePolicy::fewest_switches || d_.log.levels() != at.level || at.level < 3) {
    if (d_.options.trace == CheckOptions::TracePolicy::fewest_switches && at.level < 3)
      result_.trace_policy = "fewest-switches";  // at most one step: nothing to choose
    return {};
  }
  const auto named = std::find(d_.ops.invariant_names.begin(), d_.ops.invariant_names.end(), property);
  std::string note;
  std::optional<ReadablePath> chosen;
  try {
    const std::vector<std::uint64_t> targets =
        violating_ranks(static_cast<std::uint32_t>(named - d_.ops.invariant_names.begin()));
    chosen = fewest_switch_path(d_.ops, d_.log, targets, memory_.room(), note);
  } catch (const std::exception& e) {
    note = std::string("the most readable trace was not computed (") + e.what() + "); the first shortest trace found is shown";
  }
  if (!chosen) {
    if (!note.empty()) result_.warnings.push_back(note);
    return {};
  }
  result_.trace_policy = "fewest-switches";
  at.rank = chosen->rank;
  switches = chosen->switches;
  return std::move(chosen->path);
}

void Findings::name_timelock(Violation& v, const std::vector<std::byte>& state) const {
  if (d_.ops.blocking_deadline == nullptr || state.empty()) return;
  const std::string deadline = d_.ops.blocking_deadline(d_.ops.model, state.data());
  if (deadline.empty()) return;
  v.kind = Violation::Kind::timelock;
  v.property = deadline;
}

void Findings::report_violation(Violation::Kind kind, const std::string& property, Location at) {
  result_.outcome = Outcome::violation;
  result_.violation = Violation{kind, property, {}};
  std::vector<std::uint32_t> path;
  std::uint64_t claimed = 0;
  if (kind == Violation::Kind::invariant) path = readable_path(property, at, claimed);
  else result_.trace_policy = "first-found";
  if (kind == Violation::Kind::invariant && shared_trace_fallback_)
    result_.warnings.push_back("with several processes the trace is the first shortest one found (--trace "
                              "fewest-switches needs one process)");
  const bool chosen = !path.empty();
  std::vector<std::byte> last;
  Trace steps = trace_to(at, true, &last, std::move(path));
  if (kind == Violation::Kind::deadlock && result_.violation) name_timelock(*result_.violation, last);
  // Under symmetry the concrete trace renames the chosen one step by step; it must switch as often.
  const std::uint64_t switches = chosen && result_.violation ? actor_switches(steps) : claimed;
  if (switches != claimed)
    result_.warnings.push_back("the most readable trace was counted with " + std::to_string(claimed) +
                              " actor switches, but its concrete steps have " + std::to_string(switches) +
                              "; the spec may not be symmetric: run --self-check");
  if (result_.violation) result_.violation->trace = std::move(steps);
}

void Findings::fail_with_error(Location at, const std::string& message, const std::string& where,
                                  std::optional<std::uint32_t> tid) {
  result_.outcome = Outcome::error;
  result_.error = SpecError{message, where, {}};
  std::vector<std::byte> concrete;
  Trace steps = trace_to(at, true, &concrete);
  if (tid && result_.error) {
    // With symmetry the failing transition was taken from the representative: name the concrete one.
    const std::uint32_t taken = *tid == constraint_tid || concrete.empty()
                                    ? *tid
                                    : TraceBuilder(d_.ops, d_.visited.get(), d_.exact.get()).concrete_failing(concrete.data(), *tid, message);
    if (result_.error->where != "replay")
      result_.error->where = taken == constraint_tid ? "the constraint" : failing_part(d_.ops, concrete.empty() ? nullptr : concrete.data(), taken);
  }
  if (result_.error && result_.error->where != "replay") result_.error->trace = std::move(steps);
}

/// A spec error or a deadlock found while expanding (smallest rank first).
bool Findings::report_expansion_failures() {
  std::uint64_t error_rank = Worker::none, dead = Worker::none;
  std::uint32_t error_tid = 0;
  std::string message;
  for (const auto& w : d_.workers) {
    if (w->error_rank < error_rank || (w->error_rank == error_rank && w->error_rank != Worker::none && w->error_tid < error_tid)) {
      error_rank = w->error_rank;
      error_tid = w->error_tid;
      message = w->error_message;
    }
    dead = std::min(dead, w->deadlock_rank);
  }
  if (dist_) dist_->agree_failure(error_rank, error_tid, message, dead);
  if (error_rank != Worker::none && error_rank <= dead) {
    fail_with_error({d_.level, error_rank}, message, "", error_tid);
    return false;
  }
  // A timed spec's expansion leaves out the dead ends it allows (Model::note_dead_end).
  if (dead != Worker::none && d_.options.check_deadlock && (d_.ops.time_unit_ms > 0 || !d_.ops.deadlock_allowed)) {
    report_violation(Violation::Kind::deadlock, "Deadlock", {d_.level, dead});
    return false;
  }
  return true;
}

void Findings::fail_in_init(std::uint64_t combination, const std::string& message) {
  result_.outcome = Outcome::error;
  result_.error = SpecError{message, "init (combination " + std::to_string(combination) + ")", {}};
}

void Findings::stop_on_limit(const std::string& message) {
  result_.outcome = Outcome::limit;
  result_.limit_message = message;
}

bool Findings::go_on(const std::optional<std::string>& stop) {
  if (!stop) return true;
  stop_on_limit(*stop);
  return false;
}

void Findings::report_unreached_goals() {
  for (std::size_t g = 0; g < goals.level.size(); ++g) {
    if (goals.level[g] != 0) continue;
    if (!result_.violation) {
      result_.outcome = Outcome::violation;
      result_.violation = Violation{Violation::Kind::goal, d_.ops.goal_names[g], {}};
    } else {
      result_.warnings.push_back("goal " + d_.ops.goal_names[g] + " was never reached either" +
                                (result_.depth_bounded ? " within depth " + std::to_string(d_.level) : ""));
    }
  }
}

void Findings::finish_stats(const Forecast& forecast) {
  Stats& s = result_.stats;
  s.generated = d_.generated_so_far();
  s.transition_enabled = d_.enabled_so_far();
  const std::uint64_t own_distinct = s.distinct;
  if (dist_) dist_->reduce_stats(s);
  for (std::size_t t = 0; t < s.transition_enabled.size(); ++t)
    s.actions[d_.ops.action_of_transition[t]].enabled += s.transition_enabled[t];
  std::vector<bool> present(s.actions.size(), false);  // actions left out with when(false, ...) have no ids
  for (std::uint32_t a : d_.ops.action_of_transition) present[a] = true;
  for (std::size_t a = 0; a < s.actions.size(); ++a)
    if (present[a] && s.actions[a].enabled == 0 && result_.outcome == Outcome::ok)
      result_.warnings.push_back("action " + s.actions[a].name + " was never enabled");
  s.trace_bytes = d_.log.bytes();
  s.trace_disk_bytes = d_.log.disk_bytes();
  s.frontier_spilled_levels = d_.frontier.spilled_levels() + d_.next_level.spilled_levels();
  s.frontier_disk_bytes = d_.frontier.disk_bytes() + d_.next_level.disk_bytes();
  s.frontier_raw_bytes = d_.frontier.raw_bytes() + d_.next_level.raw_bytes();
  s.memory_peak = std::max(memory_.budget().peak(), memory_.memory_use().total());
  s.forecast = forecast.points(s.seconds);
  s.level_table_slots = d_.table->capacity();  // it never shrinks: its largest
  if (d_.visited) {
    s.visited_bytes = d_.visited->bytes();
    s.visited_capacity = d_.visited->capacity();
    s.load = d_.visited->load();
    s.fingerprint_bits = VisitedSet::fingerprint_bits();
    // The visited set's pairs, and those a level table compared (level_table.hpp): a union bound.
    s.omission_probability = std::min(1.0, d_.visited->omission_probability() + level_table_omission());
    s.compaction_collisions = d_.visited->collisions();
  } else {
    s.visited_bytes = d_.exact->bytes();
  }
  s.peak_rss = peak_rss_bytes();
  if (dist_) dist_->reduce_resources(s, own_distinct);  // after every process's own figures are in
}

double Findings::level_table_omission() const {
  return detail::level_table_omission(result_.stats.level_sizes, d_.ops.init_combinations, d_.tid_bits,
                                      dist_ ? dist_->size() : 1);
}

}  // namespace statecheck::detail
