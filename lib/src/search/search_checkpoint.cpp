// Writing the search state at a level boundary and resuming from it; the file
// format is in store/checkpoint.hpp, the search state in search/search_state.hpp.
#include <cstring>
#include <stdexcept>

#include "search/search_state.hpp"

namespace statecheck::detail {

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

std::string constants_text(const CheckOptions& o) {
  std::vector<std::string> parts;
  for (const auto& [name, value] : o.checkpoint.constants) parts.push_back(name + "=" + value);
  return joined(parts);
}

std::string invariants_text(const ModelOps& ops, std::uint64_t mask) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < ops.invariant_names.size(); ++i)
    if ((mask >> i) & 1u) names.push_back(ops.invariant_names[i]);
  return names.size() == ops.invariant_names.size() ? "all" : joined(names);
}

std::string mib(std::uint64_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

/// to = from, for a number or a vector of numbers of either width.
template <class To, class From>
void assign(To& to, const From& from) {
  if constexpr (requires { to.assign(from.begin(), from.end()); }) to.assign(from.begin(), from.end());
  else to = static_cast<To>(from);
}

}  // namespace

template <class Self, class Meta, class Copy>
void SearchState::each_saved(Self& search, Meta& meta, Copy&& copy) {
  copy(meta.level, search.level);
  copy(meta.distinct, search.result.stats.distinct);
  copy(meta.level_sizes, search.result.stats.level_sizes);
  copy(meta.transition_new, search.result.stats.transition_new);  // per action and for --coverage
  copy(meta.generated, search.boundary_generated_);
  copy(meta.transition_enabled, search.boundary_enabled_);
  copy(meta.seconds, search.boundary_seconds_);
  copy(meta.goal_level, search.goal_level);
  copy(meta.goal_rank, search.goal_rank);
}

double SearchState::elapsed() const {
  return seconds_before + std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

void SearchState::mark_boundary() {
  if (options.checkpoint.dir.empty()) return;
  boundary_generated_ = generated_so_far();
  boundary_enabled_.assign(ops.transitions, 0);
  for (const auto& w : workers)
    for (std::size_t t = 0; t < w->enabled.size(); ++t) boundary_enabled_[t] += w->enabled[t];
  boundary_seconds_ = elapsed();
}

CheckpointMeta SearchState::checkpoint_meta() const {
  CheckpointMeta m;
  m.spec = ops.name;
  m.constants = constants_text(options);
  m.invariants = invariants_text(ops, invariant_mask);
  m.invariant_mask = invariant_mask;
  m.check_deadlock = options.check_deadlock;
  m.exact = options.exact;
  m.symmetry = symmetry_text();
  m.max_depth = options.max_depth;
  m.state_size = ops.state_size;
  m.encoding_size = ops.encoding_size;
  m.transitions = ops.transitions;
  m.init_combinations = ops.init_combinations;
  m.actions = ops.action_names.size();
  each_saved(*this, m, [](auto& meta, const auto& search) { assign(meta, search); });
  if (visited) {
    m.visited_segments = visited->segment_count();
    m.visited_size = visited->size();
    m.collisions = visited->collisions();
  }
  return m;
}

std::string SearchState::symmetry_text() const {
  std::string text;
  for (const std::string& k : result.stats.symmetry) text += (text.empty() ? "" : " x ") + k;
  return text;
}

std::string SearchState::resume_command() const {
  std::string c = options.checkpoint.invocation.empty() ? "statecheck check " + ops.name : options.checkpoint.invocation;
  for (const auto& [name, value] : options.checkpoint.constants) c += " --set " + name + "=" + value;
  for (const std::string& i : options.invariants) c += " --invariant " + i;
  if (!options.check_deadlock) c += " --no-deadlock";
  if (options.max_depth != 0) c += " --max-depth " + std::to_string(options.max_depth);
  if (options.exact) c += " --exact";
  if (!options.symmetry) c += " --no-symmetry";
  if (net) return "mpirun -np " + std::to_string(net->size()) + " " + c + " --resume " + checkpoint_root;
  return c + " --resume " + options.checkpoint.dir;
}

/// Writes the checkpoint of the last boundary; "" on success, else why not.
std::string SearchState::write_checkpoint_file() {
  const CheckpointMeta meta = checkpoint_meta();
  CheckpointParts parts;
  if (visited) parts.visited_set = visited.get();
  else parts.exact_encodings = {exact->encodings(), static_cast<std::size_t>(meta.distinct * meta.encoded_bytes())};
  parts.frontier = &frontier;
  parts.log = &log;
  try {
    write_checkpoint(options.checkpoint.dir, meta, parts);
    if (net) write_ranks();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  result.checkpoint_written = checkpoint_path(options.checkpoint.dir);
  last_checkpoint_ = std::chrono::steady_clock::now();
  return "";
}

bool SearchState::checkpoint_if_due() {
  const double every = options.checkpoint.every_minutes;
  if (options.checkpoint.dir.empty() || every <= 0) return true;
  bool due = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_checkpoint_).count() >= every * 60;
  if (net) due = net->one_min(due ? 0 : 1) == 0;  // due on one process: all write, at this boundary
  if (!due) return true;
  const std::string problem = write_checkpoint_file();
  if (problem.empty()) return true;
  stop_on_limit(problem);
  return false;
}

std::string SearchState::checkpoint_on_stop() {
  if (options.checkpoint.dir.empty()) return "";
  // The visited set holds part of the next level: what it would save is no boundary's.
  if (streamed != 0)
    return "; no checkpoint was written: the visited set already holds " + std::to_string(streamed) + " states of level " +
           std::to_string(level + 1) + " (streamed to --workdir while it was made), so the last level boundary cannot be saved" +
           (result.checkpoint_written.empty() ? std::string("; give --checkpoint-every to have boundaries saved")
                                              : "; the checkpoint written before is still valid: continue with: " + resume_command());
  const std::string problem = write_checkpoint_file();
  if (!problem.empty()) return "; no checkpoint was written: " + problem;
  stop_checkpointed = true;
  return "; checkpoint written to " + (net ? checkpoint_root : options.checkpoint.dir) + "; continue with: " + resume_command();
}

void SearchState::restore_checkpoint() {
  const MappedCheckpoint file(options.checkpoint.resume);
  const std::string& name = file.path();
  std::vector<std::uint64_t> totals;  // across processes: the whole levels' sizes, from the ranks file
  if (net) totals = load_ranks();
  const CheckpointData d = parse_checkpoint(file.bytes(), name, log, Checksums::verify, net ? &totals : nullptr);
  const CheckpointMeta& m = d.meta;
  const auto refuse = [&](const std::string& why) {
    throw config_error("checkpoint " + name + " " + why);  // `why` ends with what to do
  };
  if (m.spec != ops.name) refuse("was written by spec '" + m.spec + "', not '" + ops.name + "'; resume it with: statecheck check " + m.spec);
  if (m.constants != constants_text(options))
    refuse("was written with constants (" + m.constants + "), not (" + constants_text(options) +
           "); resume with the same --set values");
  if (m.state_size != ops.state_size || m.encoding_size != ops.encoding_size || m.transitions != ops.transitions ||
      m.init_combinations != ops.init_combinations || m.actions != ops.action_names.size() ||
      m.goal_level.size() != ops.goal_names.size())
    refuse("was written by a build of '" + m.spec + "' with another state layout, actions or goals; it cannot be "
           "resumed by this build: start a new run");
  if (m.invariant_mask != invariant_mask)
    refuse("checks invariants (" + m.invariants + "), this run (" + invariants_text(ops, invariant_mask) +
           "); resume with the same --invariant options");
  if (m.check_deadlock != options.check_deadlock)
    refuse(std::string("was written with deadlock checking ") + (m.check_deadlock ? "on; resume without" : "off; resume with") +
           " --no-deadlock");
  if (m.max_depth != options.max_depth)
    refuse("was written with --max-depth " + std::to_string(m.max_depth) + " (0: none); resume with the same --max-depth");
  if (m.exact != options.exact)
    refuse(std::string("was written ") + (m.exact ? "with --exact; resume with" : "without --exact; resume without") + " --exact");
  if (m.symmetry != symmetry_text())
    refuse(m.symmetry.empty() ? "was written without symmetry reduction; resume with --no-symmetry"
                              : "was written with symmetry reduction (" + m.symmetry + "); resume without --no-symmetry");
  // Threads may differ. --memory may differ, but must hold what the checkpoint
  // holds: the frontier too, unless it can go to --workdir.
  const std::uint64_t set_bytes_needed = visited ? m.visited_segments * VisitedSet::segment_bytes : d.visited.size();
  const std::uint64_t frontier_bytes = m.level_sizes.back() * frontier_stride;
  const std::uint64_t held = set_bytes_needed + (log.can_spill() ? 0 : log.bytes());
  const bool on_disk = frontier.can_spill() && (held + frontier_bytes > budget.data_budget() || next_level_on_disk(0, 0));  // the latter: the fault hook
  const std::uint64_t needed = held + (on_disk ? frontier.window_ram_bytes(m.level_sizes.back()) : frontier_bytes);
  if (needed > budget.data_budget())
    throw config_error("checkpoint " + name + " holds " + mib(needed) + " (visited set, frontier, trace log), more than --memory " +
                       mib(options.memory) + budget.less_program() + "; raise --memory to at least " +
                       mib(budget.overhead() + needed + (needed >> 2)));
  if (visited) {
    if (!visited->restore(m.visited_segments, d.visited, m.visited_size, m.collisions))
      throw config_error("checkpoint " + name + " is truncated/corrupt (section visited does not hold " +
                         std::to_string(m.visited_size) + " states); it cannot be resumed");
  } else {
    exact->restore(d.visited.data(), m.distinct);
  }
  frontier_count = m.level_sizes.back();
  frontier.start(frontier_count, on_disk);
  for (std::uint64_t begin = 0; begin < frontier_count; begin += frontier.window()) {  // in RAM: one block
    const std::uint64_t end = std::min(frontier_count, begin + frontier.window());
    std::byte* states = frontier.block(begin, end);
    for (std::uint64_t i = begin; i < end; ++i)
      std::memcpy(states + (i - begin) * frontier_stride, d.frontier.data() + i * m.state_size, ops.state_size);
    frontier.commit(begin, end);
  }
  each_saved(*this, m, [](const auto& meta, auto& search) { assign(search, meta); });
  // What follows from the saved fields.
  result.stats.depth = level;
  if (ops.stabilizer != nullptr) {  // the orbit sizes of the levels before are not saved: a lower bound
    result.stats.symmetry_states = static_cast<double>(result.stats.distinct);
    result.stats.symmetry_uncounted = result.stats.distinct;
  }
  for (std::size_t t = 0; t < result.stats.transition_new.size(); ++t)
    result.stats.actions[ops.action_of_transition[t]].new_states += result.stats.transition_new[t];
  workers[0]->generated = boundary_generated_;  // the counts so far, as if one worker had made them
  workers[0]->enabled = boundary_enabled_;
  seconds_before = boundary_seconds_;
  result.resumed_from_level = level;
  if (net) check_ranks();
}

}  // namespace statecheck::detail
