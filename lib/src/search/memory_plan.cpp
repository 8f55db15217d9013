// The search's memory planning; see memory_plan.hpp.
#include "search/memory_plan.hpp"

#include <algorithm>
#include <stdexcept>

#include "store/fault.hpp"

namespace statecheck::detail {

MemoryUse MemoryPlan::memory_use() const {
  MemoryUse use;
  use.set = d_.set_bytes();
  use.set_size = d_.visited ? d_.visited->bytes() : d_.exact->bytes();
  use.log = d_.log.bytes();
  use.log_can_spill = d_.log.can_spill();
  use.rest = d_.table->resident_bytes() + d_.frontier.ram_bytes() + d_.next_level.ram_bytes() + d_.streamed_keys.ram_bytes();
  use.rest += d_.found_bytes();
  use.rest += (dist_ != nullptr ? dist_->rank_bytes() : 0);  // 0 for one process
  use.rest += d_.log.shape_bytes();  // stays in RAM when the log spills: a deep, narrow spec has a level a state
  return use;
}

std::size_t MemoryPlan::room() const {
  const std::size_t held = memory_use().total();
  return budget_.data_budget() > held ? budget_.data_budget() - held : 0;
}

std::string MemoryPlan::visited_full_message(std::uint64_t n, std::size_t extra) const {
  const auto percent = [](double x) { return std::to_string(static_cast<int>(x * 100 + 0.5)) + "%"; };
  const std::size_t set = d_.visited->bytes();
  const std::size_t rest = memory_use().total() - set + extra;
  const std::string why =
      !d_.visited->can_grow()
          ? "it is at its cap of " + mib_text(d_.visited->budget()) + " (--memory)"
          : "growing it to " + mib_text(d_.visited->least_segments(stats_.distinct + n) * VisitedSet::segment_bytes) +
                " (moved 8 MiB segment by segment) does not fit in --memory " +
                mib_text(budget_.limit()) + budget_.less_program() + " beside the " + mib_text(rest) +
                " of the trace log, frontier and level tables";
  return "the visited set is full: " + mib_text(set) + " holding " + std::to_string(stats_.distinct) +
         " states (" + percent(d_.visited->load()) + " full) cannot take the " + std::to_string(n) + " states of level " +
         std::to_string(d_.level + 1) + " (it would be " +
         percent(static_cast<double>(stats_.distinct + n) / static_cast<double>(d_.visited->capacity())) +
         " full), and " + why + "; raise --memory" +
         (d_.log.bytes() != 0 && !d_.log.can_spill() ? ", or give --workdir DIR to spill the trace log to disk" : "");
}

namespace {

/// The I/O fault-injection hook (store/fault.hpp): a spill fault spills
/// every level, as if RAM were short, so that the fault is met (frontier-spill: no fault, only the spilling).
bool spill_fault_injected(bool frontier) {
  const Fault f = injected_fault();
  if (frontier) return f == Fault::frontier_write || f == Fault::frontier_read || f == Fault::frontier_spill ||
                       f == Fault::frontier_corrupt;
  return f == Fault::spill_write || f == Fault::spill_read || f == Fault::spill_corrupt;
}

}  // namespace

bool MemoryPlan::next_level_on_disk(std::uint64_t n, std::size_t extra_in_ram) const {
  if (!d_.frontier.can_spill()) return false;
  return spill_fault_injected(true) || ram_short(n, extra_in_ram);
}

bool MemoryPlan::ram_short(std::uint64_t n, std::size_t extra) const {
  const MemoryUse use = memory_use();
  if (budget_.fit(use, extra, "", false).kind == MemoryBudget::Fit::Kind::stop) return true;
  // The visited set grows only with room for its peak while doubling beside the rest (LevelWriter::make_room).
  const std::uint64_t total = stats_.distinct + d_.streamed + n;
  return d_.visited && d_.visited->needs_growth(total) && d_.visited->can_grow() &&
         d_.visited->growth_peak_bytes(d_.visited->least_segments(total), d_.threads) > budget_.room_for_visited(use, extra);
}

bool MemoryPlan::keep_table_pages(std::uint64_t n) const {
  bool on_disk = false;
  std::size_t need = memory_use().total() + plan_next_level(n, on_disk);  // the table counted whole
  const std::uint64_t total = stats_.distinct + n;
  if (d_.visited && d_.visited->needs_growth(total))
    need += d_.visited->growth_peak_bytes(d_.visited->wanted_segments(total), d_.threads);
  return need <= budget_.data_budget() / 2;
}

bool MemoryPlan::stream_forced() {
  const Fault f = injected_fault();
  return f == Fault::frontier_stream || f == Fault::frontier_stream_write || f == Fault::frontier_stream_interrupt;
}

bool MemoryPlan::stream_wanted(std::uint64_t n) const {
  if (!stream_possible()) return false;
  if (stream_forced()) return true;
  n = std::max(n, d_.table->size());
  // Making the rest of the level in the table and the workers' records (growing
  // the table holds the old one and the new one at once), then sorting it.
  const std::size_t grown = d_.table->bytes_for(n, d_.table->capacity());
  const std::size_t growing = static_cast<std::size_t>(n - d_.table->size()) * d_.layout.found_stride() + (grown == d_.table->bytes() ? 0 : grown);
  bool on_disk = false;
  const std::size_t finishing = plan_next_level(n, on_disk);
  return ram_short(n, growing + finishing);
}

std::size_t MemoryPlan::plan_next_level(std::uint64_t n, bool& on_disk) const {
  // The sort keys are the level table's own memory (LevelTable::take_entries), counted with it.
  const std::size_t set_growth = d_.set_bytes(n) - d_.set_bytes();
  const std::size_t in_ram = set_growth + static_cast<std::size_t>(n) * d_.frontier_stride;
  on_disk = next_level_on_disk(n, in_ram);
  return on_disk ? set_growth + d_.frontier.window_ram_bytes(n) : in_ram;
}

std::optional<std::string> MemoryPlan::fit(std::size_t extra, const std::string& what) {
  MemoryBudget::Fit fit = budget_.fit(memory_use(), extra, what, spill_fault_injected(false));
  try {
    if (fit.kind == MemoryBudget::Fit::Kind::stop && d_.frontier.can_spill() && !d_.frontier.on_disk() && d_.frontier_count > 0) {
      d_.frontier.spill();  // the level being expanded leaves RAM; the trace log may have to follow
      fit = budget_.fit(memory_use(), extra, what, spill_fault_injected(false));
    }
    if (fit.kind == MemoryBudget::Fit::Kind::stop) return fit.stop_message;
    if (fit.kind == MemoryBudget::Fit::Kind::spill) d_.log.spill(fit.log_in_ram);
  } catch (const std::runtime_error& e) {  // a spill file could not be written: the message names it
    return std::string(e.what());
  }
  budget_.note_use(memory_use().total() + extra);
  return std::nullopt;
}

}  // namespace statecheck::detail
