// lib/src/search/distribution.hpp - one search across several processes (MPI
// ranks), at its level boundaries. The search holds a Distribution only when
// it runs in more than one process (join()); with one process it is null and
// nothing here runs.
//
// Each process owns the states whose fingerprint falls to it and orders them
// by their rank in the whole level ("global rank"), so keys, outcomes and
// traces are those of one process (distributed_level.cpp says why).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/self_check.hpp"
#include "search/exchange.hpp"
#include "search/level_data.hpp"
#include "search/rank_set.hpp"

namespace statecheck::detail {

/// A level table's entry with its state's hash, as processes exchange them
/// (the hash picks the owner; distributed_level.cpp).
struct SharedEntry {
  std::uint64_t key;
  std::uint64_t lo;
  std::uint64_t hi;
  std::uint32_t worker;
  std::uint32_t record;
};

class Distribution {
 public:
  /// The processes of this check, once they agree they were started alike
  /// (config_error otherwise); null when this is the only process.
  static std::unique_ptr<Distribution> join(LevelData& data);
  Distribution(LevelData& data, std::unique_ptr<Exchange> net);

  Exchange& net() { return *net_; }
  int size() const { return net_->size(); }
  int rank() const { return net_->rank(); }

  // The level's states, shared out by owner.
  /// This process's states of the next level, from its level table's
  /// `entries` and what the others found for it, in global order (keys carry
  /// global parent ranks); sets level_total() and the ranks the level adopts.
  std::vector<LevelTable::Entry> share_level(std::vector<SharedEntry> entries, bool initial);
  /// The level just finished becomes the frontier: its ranks, the last frontier's kept coded.
  void adopt_ranks();
  std::uint64_t level_total() const { return shared_total_; }
  std::uint64_t frontier_total() const { return global_frontier_count_; }
  std::uint64_t global_rank(std::uint64_t local) const {
    return local == CheckOutcome::none ? local : frontier_ranks_[local];
  }
  /// Bytes of the global ranks held (they stay in RAM).
  std::size_t rank_bytes() const;

  // What the processes agree on.
  /// The first process's stop (its message, and whether it wrote a
  /// checkpoint) when `ok` is false on any; nothing when all are fine.
  struct Stop {
    std::string message;
    bool checkpointed;
  };
  std::optional<Stop> first_stop(bool ok, const std::string& message, bool checkpointed);
  /// `best` (local frontier ranks) becomes the whole level's first outcome.
  void agree_outcome(CheckOutcome& best);
  /// The first spec error (rank, tid, message) and deadlock of the whole level.
  void agree_failure(std::uint64_t& error_rank, std::uint32_t& error_tid, std::string& message, std::uint64_t& dead);
  /// The whole level's first self-check failure (`rank` global; unchanged when none fails anywhere).
  void agree_self_check(std::optional<SelfCheckFailure>& failure, std::uint64_t& rank);
  /// Sums the statistics over the processes (at the end).
  void reduce_stats(Stats& s);
  /// Sums the memory, visited-set and spill statistics over the processes, and makes the omission
  /// bound, load and forecast the run's (`own_distinct`: this process's states, before reduce_stats).
  void reduce_resources(Stats& s, std::uint64_t own_distinct);

  // Traces.
  /// The path to global rank `at` (TraceLog::path's form), and the frontier state there.
  std::vector<std::uint32_t> shared_path(Location at);
  std::vector<std::byte> shared_state(Location at);

  // The ranks file of a checkpoint (shared_checkpoint.cpp), beside this process's part.
  void write_ranks(const std::string& dir, std::uint64_t run) const;
  /// Reads the ranks file in `dir`: returns every level's size over all processes; sets `run`.
  std::vector<std::uint64_t> load_ranks(const std::string& dir, std::uint64_t& run);
  void check_ranks(const std::string& dir) const;

 private:
  void keep_smallest_keys(std::vector<SharedEntry>& mine) const;
  void send_successors(const std::vector<std::vector<SharedEntry>>& to, std::vector<SharedEntry>& mine);
  std::vector<std::uint64_t> rank_keys(const std::vector<SharedEntry>& mine, bool initial);
  double shared_sum(double mine);
  /// The spec, constants, options and binary of this search, each as a user would name it (start_agreement.cpp).
  std::vector<std::string> started_with() const;
  /// Refuses (config_error, on every process) a search whose processes were started with other arguments.
  void agree_with_processes();

  LevelData& d_;
  std::unique_ptr<Exchange> net_;
  std::vector<std::uint64_t> frontier_ranks_;  // global ranks of this process's frontier states (ascending)
  std::vector<RankSet> past_ranks_;            // per earlier level (1-based level l at l - 1): the same, coded, for traces
  std::vector<std::uint64_t> next_ranks_;      // share_level's, for the level being finished
  std::uint64_t shared_total_ = 0;             // share_level's: the next level's size over all processes
  std::uint64_t global_frontier_count_ = 0;
};

}  // namespace statecheck::detail
