// Checkpoints of a search across processes: one per process, in
// DIR/process-P-of-K/ (the one-process format, with that process's share of
// the visited set, trace log, frontier and counts), beside a ranks file (the
// global ranks of its states, which the trace and the next level need). Every
// process writes at the same level boundary; a checkpoint of K processes is
// resumed only by K processes (the states are spread by fingerprint over K).
// The parts of one checkpoint carry the same run id and level: a part copied
// from another save is refused before the processes exchange a state.
#include <xxhash.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <stdexcept>

#include "search/exchange.hpp"
#include "search/checkpoints.hpp"
#include "search/distribution.hpp"
#include "store/checkpoint.hpp"
#include "store/file_io.hpp"

namespace statecheck::detail {

namespace {

constexpr std::uint64_t ranks_magic_without_run = 0x31534b4e41524353;  // "SCRANKS1": before run ids (refused)
constexpr std::uint64_t ranks_magic = 0x32534b4e41524353;              // "SCRANKS2"

std::string process_dir(int process, int processes) {
  return "process-" + std::to_string(process) + "-of-" + std::to_string(processes);
}

/// K of the checkpoint of K processes in `dir`; 0 when there is none (or it is one process's).
int checkpoint_processes(const std::string& dir) {
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    int p = 0, k = 0;
    if (std::sscanf(name.c_str(), "process-%d-of-%d", &p, &k) == 2 && k > 0) return k;
  }
  return 0;
}

std::string ranks_path(const std::string& dir) { return dir + "/ranks.bin"; }

/// A fresh run replaces the checkpoint in its directory (the command line refused that without
/// --overwrite-checkpoint): the parts of a checkpoint of another number of processes go, so
/// that what is left is one checkpoint.
void remove_other_counts(const std::string& dir, int processes) {
  std::error_code ec;
  std::vector<std::filesystem::path> stale;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    int p = 0, k = 0;
    if (std::sscanf(entry.path().filename().string().c_str(), "process-%d-of-%d", &p, &k) == 2 && k != processes)
      stale.push_back(entry.path());
  }
  for (const auto& path : stale) std::filesystem::remove_all(path, ec);
}

/// A run's id, drawn once by process 0: two runs of one command (whose parts
/// would otherwise look alike at the same level) get different ones.
std::uint64_t fresh_run_id() {
  std::random_device device;
  const std::uint64_t drawn = (std::uint64_t{device()} << 32) ^ device();
  return drawn ^ static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
}

}  // namespace

Checkpoints::Checkpoints(LevelData& data, Distribution* dist, const MemoryPlan& memory, CheckResult& result,
                         Findings::Goals& goals, RunClock& clock)
    : d_(data), dist_(dist), memory_(memory), result_(result), goals_(goals), clock_(clock) {
  place();
}

void Checkpoints::place() {
  const int k = dist_ ? dist_->size() : 1;
  if (!d_.options.checkpoint.resume.empty()) {
    const int written_by = checkpoint_processes(d_.options.checkpoint.resume);
    if (written_by != 0 && written_by != k)
      throw config_error("checkpoint " + d_.options.checkpoint.resume + " was written by " + std::to_string(written_by) +
                         " processes (each holds the states its fingerprints give it); resume it with mpirun -np " +
                         std::to_string(written_by));
    if (dist_ && written_by == 0 && std::filesystem::exists(checkpoint_path(d_.options.checkpoint.resume)))
      throw config_error("checkpoint " + d_.options.checkpoint.resume +
                         " was written by one process; resume it as one process, without mpirun");
  }
  if (!dist_) return;
  checkpoint_root_ = d_.options.checkpoint.dir;
  resume_root_ = d_.options.checkpoint.resume;
  // Every process takes this branch (--resume is agreed on): a resumed run keeps its checkpoint's id (load_ranks).
  if (d_.options.checkpoint.resume.empty()) run_ = dist_->net().one_sum(dist_->rank() == 0 ? fresh_run_id() : 0);
  // DIR itself, as one process makes it (its parent must exist): each process writes in its own
  // directory inside. A failure shows when the first checkpoint is written, as for one process.
  std::error_code ec;
  if (!checkpoint_root_.empty()) std::filesystem::create_directory(checkpoint_root_, ec);
  if (!checkpoint_root_.empty() && d_.options.checkpoint.resume.empty() && dist_->rank() == 0)
    remove_other_counts(checkpoint_root_, k);
  const std::string mine = process_dir(dist_->rank(), k);
  if (!d_.options.checkpoint.dir.empty()) d_.options.checkpoint.dir += "/" + mine;
  if (!d_.options.checkpoint.resume.empty()) d_.options.checkpoint.resume += "/" + mine;
}

void Distribution::write_ranks(const std::string& dir, std::uint64_t run) const {
  std::vector<std::uint64_t> words{ranks_magic, static_cast<std::uint64_t>(size()),
                                   static_cast<std::uint64_t>(rank()), run, global_frontier_count_,
                                   past_ranks_.size()};
  auto add_level = [&](const std::vector<std::uint64_t>& ranks, std::uint64_t universe) {
    words.push_back(universe);
    words.push_back(ranks.size());
    words.insert(words.end(), ranks.begin(), ranks.end());
  };
  for (const RankSet& r : past_ranks_) add_level(r.values(), r.universe());
  add_level(frontier_ranks_, global_frontier_count_);
  words.push_back(XXH3_64bits(words.data(), words.size() * sizeof(std::uint64_t)));
  const std::string path = ranks_path(dir);
  std::string temp;
  std::FILE* out = create_checkpoint_temporary(path, temp);  // unique: another run may write into DIR too
  const std::size_t n = words.size();
  const bool written = std::fwrite(words.data(), sizeof(std::uint64_t), n, out) == n;
  if (std::fclose(out) != 0 || !written || std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temp.c_str());
    throw std::runtime_error("could not write " + path + " (" + write_failure(error) + ")");
  }
}

std::vector<std::uint64_t> Distribution::load_ranks(const std::string& dir, std::uint64_t& run) {
  const std::string path = ranks_path(dir);
  const auto damaged = [&](const std::string& why) {
    return config_error("checkpoint " + path + " " + why + "; it cannot be resumed");
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) throw damaged("is missing");
  std::vector<std::uint64_t> words;
  for (std::uint64_t w = 0; in.read(reinterpret_cast<char*>(&w), sizeof w);) words.push_back(w);
  if (!words.empty() && words[0] == ranks_magic_without_run)
    throw config_error("checkpoint " + path + " was written by an earlier statecheck, which did not record which run "
                       "each process's part belongs to (parts of different saves crashed the resume); start afresh");
  if (words.size() < 7 || words[0] != ranks_magic ||
      XXH3_64bits(words.data(), (words.size() - 1) * sizeof(std::uint64_t)) != words.back())
    throw damaged("is truncated or corrupt");
  if (words[1] != static_cast<std::uint64_t>(size()) || words[2] != static_cast<std::uint64_t>(rank()))
    throw damaged("belongs to another process");
  run = words[3];
  global_frontier_count_ = words[4];
  std::size_t at = 6;
  auto read_level_ranks = [&](std::uint64_t& universe) {
    if (at + 2 > words.size() - 1 || words[at + 1] > words.size() - 1 - (at + 2)) throw damaged("is truncated or corrupt");
    universe = words[at];
    const auto n = static_cast<std::size_t>(words[at + 1]);
    std::vector<std::uint64_t> ranks(words.begin() + static_cast<std::ptrdiff_t>(at + 2),
                                     words.begin() + static_cast<std::ptrdiff_t>(at + 2 + n));
    at += 2 + n;
    return ranks;
  };
  std::vector<std::uint64_t> totals;  // every level's size over all processes
  past_ranks_.clear();
  for (std::uint64_t l = 0; l < words[5]; ++l) {
    const std::vector<std::uint64_t> ranks = read_level_ranks(totals.emplace_back());
    past_ranks_.emplace_back(ranks, totals.back());
  }
  frontier_ranks_ = read_level_ranks(totals.emplace_back());
  if (totals.back() != global_frontier_count_ || at != words.size() - 1) throw damaged("is truncated or corrupt");
  return totals;
}

void Distribution::check_ranks(const std::string& dir) const {
  if (frontier_ranks_.size() != d_.frontier_count || past_ranks_.size() + 1 != d_.level)
    throw config_error("checkpoint " + ranks_path(dir) +
                       " does not match its checkpoint.sckp; it cannot be resumed");
}

void Checkpoints::restore() {
  // Each process restores its own part: a refusal on one is the refusal of all (exit 2).
  agree_on_config_error(dist_ ? &dist_->net() : nullptr, [&] { restore_checkpoint(); });
  if (dist_) agree_on_checkpoint();
}

void Checkpoints::agree_on_checkpoint() {
  std::vector<std::uint64_t> counts;
  const std::vector<std::uint64_t> all = dist_->net().all_gather({d_.level, run_}, counts);  // (level, run) by process
  std::size_t p = 1;
  while (p < counts.size() && all[2 * p] == all[0] && all[2 * p + 1] == all[1]) ++p;
  if (p == counts.size()) return;
  const std::string which = "process " + std::to_string(p) + "'s part was saved ";
  const std::string how = all[2 * p] != all[0] ? which + "at level " + std::to_string(all[2 * p]) + ", process 0's at level " + std::to_string(all[0])
                                               : which + "by another run than process 0's (both at level " + std::to_string(all[0]) + ")";
  throw config_error("checkpoint " + resume_root_ + " is not one checkpoint: " + how +
                     "; resume from a directory every process saved together, or start afresh");
}

}  // namespace statecheck::detail
