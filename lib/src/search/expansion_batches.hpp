// lib/src/search/expansion_batches.hpp - how many frontier states each batch
// of an expansion takes. The frontier is expanded in batches of increasing
// rank into the level table (level_table.hpp); a batch is sized from the
// fan-out seen so far so that the table has room for what it finds, and the
// table grows (or, short of --memory, streams to --workdir) before a batch
// that would not fit.
#pragma once

#include <cstdint>

#include "search/findings.hpp"
#include "search/level_data.hpp"
#include "search/level_writer.hpp"
#include "search/memory_plan.hpp"

namespace statecheck::detail {

class ExpansionBatches {
 public:
  ExpansionBatches(LevelData& data, MemoryPlan& memory, LevelWriter& writer, Findings& findings)
      : d_(data), memory_(memory), writer_(writer), findings_(findings) {}

  /// The states of the level being made once all of the frontier is
  /// expanded, at the rate of new states seen so far (of the last level's at its start).
  std::uint64_t predicted_level(std::uint64_t expanded) const;
  /// New states to expect per state expanded: twice what this level (or, at
  /// its start, the last one) found per state, times `boost`, and never more
  /// than the transition ids, which bound every state's successors.
  std::uint64_t expected_fanout(std::uint64_t expanded, std::uint64_t boost) const;
  /// States of the next batch, growing the table for them when it lacks room
  /// (or, when the level streams or growing would not fit in --memory, and
  /// every key in the table is final (`settled`), emptying it to --workdir);
  /// 0 (and a stop) when that does not fit in --memory.
  std::uint64_t batch_size(std::uint64_t left, std::uint64_t fanout, bool settled);
  /// The whole frontier is expanded: its fan-out guides the next level's first batch.
  void level_expanded();

 private:
  LevelData& d_;
  MemoryPlan& memory_;
  LevelWriter& writer_;
  Findings& findings_;
  double last_fanout_ = 1;  // new states per state expanded in the last level
};

}  // namespace statecheck::detail
