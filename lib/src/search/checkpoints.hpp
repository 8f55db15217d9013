// lib/src/search/checkpoints.hpp - a search's checkpoints: what it saves at a
// level boundary (the file format is store/checkpoint.hpp), when, and how a
// run resumes from one. Across processes each process saves its own part in
// DIR/process-P-of-K/, beside the ranks file of its states (shared_checkpoint.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "search/distribution.hpp"
#include "search/findings.hpp"
#include "search/level_data.hpp"
#include "search/memory_plan.hpp"
#include "search/run_clock.hpp"
#include "store/checkpoint.hpp"

namespace statecheck::detail {

class Checkpoints {
 public:
  /// Refuses (config_error) to resume a checkpoint of another number of
  /// processes; across processes, points --checkpoint and --resume at this
  /// process's directory (in data.options).
  Checkpoints(LevelData& data, Distribution* dist, const MemoryPlan& memory, CheckResult& result,
              Findings::Goals& goals, RunClock& clock);

  /// Records the statistics of the level boundary the search is at (the
  /// frontier not yet expanded), which a checkpoint written later describes.
  void mark_boundary();
  /// Writes the checkpoint of the last boundary when one is due (every
  /// --checkpoint-every minutes); the stop message when writing fails.
  std::optional<std::string> checkpoint_if_due();
  /// On a stop: writes the checkpoint of the last boundary; returns the text
  /// for the stop message ("; checkpoint written to ...").
  std::string on_stop();
  /// Whether on_stop() wrote one.
  bool written_on_stop() const { return stop_checkpointed_; }
  /// Loads --resume into the search (config_error when it does not belong to
  /// this spec and options, or is damaged); across processes on every
  /// process, and the parts must be of one save.
  void restore();

 private:
  void place();
  void restore_checkpoint();
  /// Refuses (config_error, on every process) parts of --resume saved at other levels or by other runs.
  void agree_on_checkpoint();
  CheckpointMeta checkpoint_meta() const;
  /// The symmetric kinds this search reduces by, as the checkpoint records them.
  std::string symmetry_text() const;
  std::string write_checkpoint_file();
  std::string resume_command() const;
  /// The one list of what a checkpoint carries of the search besides the
  /// bulk data and the spec's shape: copy(meta field, search field) for each.
  /// Saving copies search to meta and restoring meta to search, so nothing
  /// can be saved and forgotten on restore (checkpoints.cpp).
  template <class Self, class Meta, class Copy>
  static void each_saved(Self& search, Meta& meta, Copy&& copy);

  LevelData& d_;
  Distribution* dist_;
  const MemoryPlan& memory_;
  CheckResult& result_;
  Findings::Goals& goals_;
  RunClock& clock_;
  std::string checkpoint_root_;      // --checkpoint as given (options.checkpoint.dir is this process's part)
  std::string resume_root_;          // --resume as given
  std::uint64_t run_ = 0;            // the run's id, in each part it saves: process 0's draw, or the resumed checkpoint's
  bool stop_checkpointed_ = false;   // on_stop wrote one
  std::uint64_t boundary_generated_ = 0;
  std::vector<std::uint64_t> boundary_enabled_;
  double boundary_seconds_ = 0;
  std::chrono::steady_clock::time_point last_checkpoint_ = std::chrono::steady_clock::now();
};

}  // namespace statecheck::detail
