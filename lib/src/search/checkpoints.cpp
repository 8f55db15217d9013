// Writing the search state at a level boundary and resuming from it; see
// checkpoints.hpp (the file format is in store/checkpoint.hpp).
#include "search/checkpoints.hpp"

#include <cstring>
#include <stdexcept>

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
void Checkpoints::each_saved(Self& search, Meta& meta, Copy&& copy) {
  copy(meta.level, search.d_.level);
  copy(meta.distinct, search.result_.stats.distinct);
  copy(meta.level_sizes, search.result_.stats.level_sizes);
  copy(meta.transition_new, search.result_.stats.transition_new);  // per action and for --coverage
  copy(meta.generated, search.boundary_generated_);
  copy(meta.transition_enabled, search.boundary_enabled_);
  copy(meta.seconds, search.boundary_seconds_);
  copy(meta.goal_level, search.goals_.level);
  copy(meta.goal_rank, search.goals_.rank);
}

void Checkpoints::mark_boundary() {
  if (d_.options.checkpoint.dir.empty()) return;
  boundary_generated_ = d_.generated_so_far();
  boundary_enabled_ = d_.enabled_so_far();
  boundary_seconds_ = clock_.elapsed();
}

CheckpointMeta Checkpoints::checkpoint_meta() const {
  CheckpointMeta m;
  m.spec = d_.ops.name;
  m.constants = constants_text(d_.options);
  m.invariants = invariants_text(d_.ops, d_.invariant_mask);
  m.invariant_mask = d_.invariant_mask;
  m.check_deadlock = d_.options.check_deadlock;
  m.exact = d_.options.exact;
  m.symmetry = symmetry_text();
  m.max_depth = d_.options.max_depth;
  m.state_size = d_.ops.state_size;
  m.encoding_size = d_.ops.encoding_size;
  m.transitions = d_.ops.transitions;
  m.init_combinations = d_.ops.init_combinations;
  m.actions = d_.ops.action_names.size();
  each_saved(*this, m, [](auto& meta, const auto& search) { assign(meta, search); });
  if (d_.visited) {
    m.visited_segments = d_.visited->segment_count();
    m.visited_size = d_.visited->size();
    m.collisions = d_.visited->collisions();
  }
  return m;
}

std::string Checkpoints::symmetry_text() const {
  std::string text;
  for (const std::string& k : result_.stats.symmetry) text += (text.empty() ? "" : " x ") + k;
  return text;
}

std::string Checkpoints::resume_command() const {
  std::string c = d_.options.checkpoint.invocation.empty() ? "statecheck check " + d_.ops.name : d_.options.checkpoint.invocation;
  for (const auto& [name, value] : d_.options.checkpoint.constants) c += " --set " + name + "=" + value;
  for (const std::string& i : d_.options.invariants) c += " --invariant " + i;
  if (!d_.options.check_deadlock) c += " --no-deadlock";
  if (d_.options.max_depth != 0) c += " --max-depth " + std::to_string(d_.options.max_depth);
  if (d_.options.exact) c += " --exact";
  if (!d_.options.symmetry) c += " --no-symmetry";
  if (dist_) return "mpirun -np " + std::to_string(dist_->size()) + " " + c + " --resume " + checkpoint_root_;
  return c + " --resume " + d_.options.checkpoint.dir;
}

/// Writes the checkpoint of the last boundary; "" on success, else why not.
std::string Checkpoints::write_checkpoint_file() {
  const CheckpointMeta meta = checkpoint_meta();
  CheckpointParts parts;
  if (d_.visited) parts.visited_set = d_.visited.get();
  else parts.exact_encodings = {d_.exact->encodings(), static_cast<std::size_t>(meta.distinct * meta.encoded_bytes())};
  parts.frontier = &d_.frontier;
  parts.log = &d_.log;
  try {
    write_checkpoint(d_.options.checkpoint.dir, meta, parts);
    if (dist_) dist_->write_ranks(d_.options.checkpoint.dir, run_);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  result_.checkpoint_written = checkpoint_path(d_.options.checkpoint.dir);
  last_checkpoint_ = std::chrono::steady_clock::now();
  return "";
}

std::optional<std::string> Checkpoints::checkpoint_if_due() {
  const double every = d_.options.checkpoint.every_minutes;
  if (d_.options.checkpoint.dir.empty() || every <= 0) return std::nullopt;
  bool due = std::chrono::duration<double>(std::chrono::steady_clock::now() - last_checkpoint_).count() >= every * 60;
  if (dist_) due = dist_->net().one_min(due ? 0 : 1) == 0;  // due on one process: all write, at this boundary
  if (!due) return std::nullopt;
  std::string problem = write_checkpoint_file();
  if (problem.empty()) return std::nullopt;
  return problem;
}

std::string Checkpoints::on_stop() {
  if (d_.options.checkpoint.dir.empty()) return "";
  // The visited set holds part of the next level: what it would save is no boundary's.
  if (d_.streamed != 0)
    return "; no checkpoint was written: the visited set already holds " + std::to_string(d_.streamed) + " states of level " +
           std::to_string(d_.level + 1) + " (streamed to --workdir while it was made), so the last level boundary cannot be saved" +
           (result_.checkpoint_written.empty() ? std::string("; give --checkpoint-every to have boundaries saved")
                                              : "; the checkpoint written before is still valid: continue with: " + resume_command());
  const std::string problem = write_checkpoint_file();
  if (!problem.empty()) return "; no checkpoint was written: " + problem;
  stop_checkpointed_ = true;
  return "; checkpoint written to " + (dist_ ? checkpoint_root_ : d_.options.checkpoint.dir) + "; continue with: " + resume_command();
}

void Checkpoints::restore_checkpoint() {
  const MappedCheckpoint file(d_.options.checkpoint.resume);
  const std::string& name = file.path();
  std::vector<std::uint64_t> totals;  // across processes: the whole levels' sizes, from the ranks file
  if (dist_) totals = dist_->load_ranks(d_.options.checkpoint.resume, run_);
  const CheckpointData d = parse_checkpoint(file.bytes(), name, d_.log, Checksums::verify, dist_ ? &totals : nullptr);
  const CheckpointMeta& m = d.meta;
  const auto refuse = [&](const std::string& why) {
    throw config_error("checkpoint " + name + " " + why);  // `why` ends with what to do
  };
  if (m.spec != d_.ops.name) refuse("was written by spec '" + m.spec + "', not '" + d_.ops.name + "'; resume it with: statecheck check " + m.spec);
  if (m.constants != constants_text(d_.options))
    refuse("was written with constants (" + m.constants + "), not (" + constants_text(d_.options) +
           "); resume with the same --set values");
  if (m.state_size != d_.ops.state_size || m.encoding_size != d_.ops.encoding_size || m.transitions != d_.ops.transitions ||
      m.init_combinations != d_.ops.init_combinations || m.actions != d_.ops.action_names.size() ||
      m.goal_level.size() != d_.ops.goal_names.size())
    refuse("was written by a build of '" + m.spec + "' with another state layout, actions or goals; it cannot be "
           "resumed by this build: start a new run");
  if (m.invariant_mask != d_.invariant_mask)
    refuse("checks invariants (" + m.invariants + "), this run (" + invariants_text(d_.ops, d_.invariant_mask) +
           "); resume with the same --invariant options");
  if (m.check_deadlock != d_.options.check_deadlock)
    refuse(std::string("was written with deadlock checking ") + (m.check_deadlock ? "on; resume without" : "off; resume with") +
           " --no-deadlock");
  if (m.max_depth != d_.options.max_depth)
    refuse("was written with --max-depth " + std::to_string(m.max_depth) + " (0: none); resume with the same --max-depth");
  if (m.exact != d_.options.exact)
    refuse(std::string("was written ") + (m.exact ? "with --exact; resume with" : "without --exact; resume without") + " --exact");
  if (m.symmetry != symmetry_text())
    refuse(m.symmetry.empty() ? "was written without symmetry reduction; resume with --no-symmetry"
                              : "was written with symmetry reduction (" + m.symmetry + "); resume without --no-symmetry");
  // Threads may differ. --memory may differ, but must hold what the checkpoint
  // holds: the frontier too, unless it can go to --workdir.
  const std::uint64_t set_bytes_needed = d_.visited ? m.visited_segments * VisitedSet::segment_bytes : d.visited.size();
  const std::uint64_t frontier_bytes = m.level_sizes.back() * d_.frontier_stride;
  const std::uint64_t held = set_bytes_needed + (d_.log.can_spill() ? 0 : d_.log.bytes());
  const bool on_disk = d_.frontier.can_spill() && (held + frontier_bytes > memory_.budget().data_budget() || memory_.next_level_on_disk(0, 0));  // the latter: the fault hook
  const std::uint64_t needed = held + (on_disk ? d_.frontier.window_ram_bytes(m.level_sizes.back()) : frontier_bytes);
  if (needed > memory_.budget().data_budget())
    throw config_error("checkpoint " + name + " holds " + mib(needed) + " (visited set, frontier, trace log), more than --memory " +
                       mib(d_.options.memory) + memory_.budget().less_program() + "; raise --memory to at least " +
                       mib(memory_.budget().overhead() + needed + (needed >> 2)));
  if (d_.visited) {
    if (!d_.visited->restore(m.visited_segments, d.visited, m.visited_size, m.collisions))
      throw config_error("checkpoint " + name + " is truncated/corrupt (section visited does not hold " +
                         std::to_string(m.visited_size) + " states); it cannot be resumed");
  } else {
    d_.exact->restore(d.visited.data(), m.distinct);
  }
  d_.frontier_count = m.level_sizes.back();
  d_.frontier.start(d_.frontier_count, on_disk);
  for (std::uint64_t begin = 0; begin < d_.frontier_count; begin += d_.frontier.window()) {  // in RAM: one block
    const std::uint64_t end = std::min(d_.frontier_count, begin + d_.frontier.window());
    std::byte* states = d_.frontier.block(begin, end);
    for (std::uint64_t i = begin; i < end; ++i)
      std::memcpy(states + (i - begin) * d_.frontier_stride, d.frontier.data() + i * m.state_size, d_.ops.state_size);
    d_.frontier.commit(begin, end);
  }
  each_saved(*this, m, [](const auto& meta, auto& search) { assign(search, meta); });
  // What follows from the saved fields.
  result_.stats.depth = d_.level;
  if (d_.ops.stabilizer != nullptr) {  // the orbit sizes of the levels before are not saved: a lower bound
    result_.stats.symmetry_states = static_cast<double>(result_.stats.distinct);
    result_.stats.symmetry_uncounted = result_.stats.distinct;
  }
  for (std::size_t t = 0; t < result_.stats.transition_new.size(); ++t)
    result_.stats.actions[d_.ops.action_of_transition[t]].new_states += result_.stats.transition_new[t];
  d_.workers[0]->generated = boundary_generated_;  // the counts so far, as if one worker had made them
  d_.workers[0]->enabled = boundary_enabled_;
  clock_.seconds_before = boundary_seconds_;
  result_.resumed_from_level = d_.level;
  if (dist_) dist_->check_ranks(d_.options.checkpoint.resume);
}

}  // namespace statecheck::detail
