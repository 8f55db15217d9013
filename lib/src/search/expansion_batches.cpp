// How many frontier states each expansion batch takes; see expansion_batches.hpp.
#include "search/expansion_batches.hpp"

#include <algorithm>
#include <cmath>

namespace statecheck::detail {

std::uint64_t ExpansionBatches::predicted_level(std::uint64_t expanded) const {
  const double rate = expanded == 0 ? last_fanout_ : static_cast<double>(d_.level_found()) / static_cast<double>(expanded);
  return static_cast<std::uint64_t>(std::ceil(rate * static_cast<double>(d_.frontier_count)));
}

std::uint64_t ExpansionBatches::expected_fanout(std::uint64_t expanded, std::uint64_t boost) const {
  const double seen = expanded == 0 ? last_fanout_ : static_cast<double>(d_.level_found()) / static_cast<double>(expanded);
  const double want = (2 * seen + 1) * static_cast<double>(boost);
  const auto most = std::max<std::uint64_t>(d_.ops.transitions, 1);
  return want >= static_cast<double>(most) ? most : static_cast<std::uint64_t>(want);
}

std::uint64_t ExpansionBatches::batch_size(std::uint64_t left, std::uint64_t fanout, bool settled) {
  // At most 2^18 states a batch, so that progress and Ctrl-C are seen within a fraction of a second.
  // On disk, at most a window of the frontier.
  left = std::min(left, d_.frontier.window());
  const auto fitting = [&] {
    const double room = LevelTable::max_load * static_cast<double>(d_.table->capacity()) - static_cast<double>(d_.table->size());
    return std::min<std::uint64_t>({left, static_cast<std::uint64_t>(std::max(0.0, room)) / fanout, std::uint64_t{1} << 18});
  };
  // At least a few thousand states a batch, fewer (down to one) when each is
  // expected to find many: growing for a batch reserves at most 2^16 entries
  // beyond what the table holds (2 MiB+), however wrong the guess; the next
  // batch's guess comes from what this one found.
  const std::uint64_t least = std::min<std::uint64_t>(left, std::clamp<std::uint64_t>((std::uint64_t{1} << 16) / fanout, 1, 4096));
  if (const std::uint64_t batch = fitting(); batch >= least) return batch;
  // Growing holds the old table and the new one at once (LevelTable::reserve).
  const std::size_t grown = d_.table->bytes_for(d_.table->size() + least * fanout, d_.table->capacity());
  const std::size_t moving = grown == d_.table->bytes() ? 0 : grown;
  if (settled && d_.table->size() != 0 && (d_.streaming || (memory_.stream_possible() && memory_.ram_short(0, moving)))) {
    d_.streaming = true;
    if (!writer_.flush_stream()) return 0;
    if (const std::uint64_t batch = fitting(); batch >= least) return batch;
  }
  if (!findings_.go_on(memory_.fit(moving, "expanding level " + std::to_string(d_.level)))) return 0;
  writer_.grow_table(d_.table->size() + least * fanout);
  return std::min(least, d_.frontier.window());  // the fit may have moved the frontier to disk
}

void ExpansionBatches::level_expanded() {
  last_fanout_ = d_.frontier_count == 0 ? 1.0 : static_cast<double>(d_.level_found()) / static_cast<double>(d_.frontier_count);
}

}  // namespace statecheck::detail
