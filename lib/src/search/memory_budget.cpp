// What --memory allows; see memory_budget.hpp.
#include "search/memory_budget.hpp"

#include <unistd.h>

#include <fstream>
#include <limits>

namespace statecheck::detail {

namespace {

std::size_t physical_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : std::size_t{8} << 30;
}

/// A field of /proc/self/status in bytes ("RssAnon:  812 kB"), 0 when absent.
std::size_t status_bytes(const std::string& field) {
  std::ifstream status("/proc/self/status");
  std::string name;
  std::size_t kib = 0;
  while (status >> name) {
    if (name == field + ":") {
      status >> kib;
      return kib << 10;
    }
    status.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

constexpr std::size_t mib = std::size_t{1} << 20;

/// The program's own memory when the search starts, counted so that one
/// command stops at one level however the page cache stands: its code and
/// libraries as mapped (VmExe, VmLib: fixed for a binary), not as resident
/// (RssFile moves by hundreds of KiB from run to run with the kernel's
/// read-around, and a share that moved with it moved a --memory stop from one
/// level to another); its heap and shared memory (RssAnon, RssShmem) to the
/// nearest MiB, so that a few pages more or less of environment do not count.
std::size_t program_bytes() {
  const std::size_t code = status_bytes("VmExe") + status_bytes("VmLib");
  const std::size_t heap = status_bytes("RssAnon") + status_bytes("RssShmem");
  return code + (heap + mib / 2) / mib * mib;
}

/// Beside what the search counts: allocator slack, thread stacks, the
/// scheduler's own memory (docs/long-runs.md). 6 MiB, not the 8 MiB of when
/// the resident code was counted: the mapped code counted now is about 2 MiB
/// more than what is resident of it.
constexpr std::size_t uncounted_slack = std::size_t{6} << 20;

}  // namespace

std::size_t default_memory() { return physical_memory() / 2; }

std::string mib_text(std::size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

MemoryBudget::MemoryBudget(std::size_t memory) : limit_(memory != 0 ? memory : default_memory()) {}

void MemoryBudget::set_aside_program() { overhead_ = program_bytes() + uncounted_slack; }

std::string MemoryBudget::less_program() const {
  if (overhead_ == 0) return "";
  return " less the " + mib_text(overhead_) + " of the program itself";
}

MemoryBudget::Fit MemoryBudget::fit(const MemoryUse& use, std::size_t extra, const std::string& what,
                                    bool force_spill) const {
  const std::size_t budget = data_budget();
  const std::size_t used = use.total() + extra;
  const std::size_t without_log = used - use.log;
  Fit f;
  if (used > budget && without_log > budget) {
    f.kind = Fit::Kind::stop;
    f.stop_message = what + " needs " + mib_text(without_log) + " beside the trace log, more than --memory " +
                     mib_text(limit_) + less_program() + " (visited set " + mib_text(use.set_size) + "); raise --memory";
  } else if (used > budget && !use.log_can_spill) {
    f.kind = Fit::Kind::stop;
    f.stop_message = "the trace log (" + mib_text(use.log) + " in RAM) no longer fits in --memory " + mib_text(limit_) +
                     less_program() + " beside the visited set and the levels (" + mib_text(without_log) +
                     "); raise --memory, or give --workdir DIR to spill the trace log to disk";
  } else if (used > budget || (force_spill && use.log_can_spill)) {
    f.kind = Fit::Kind::spill;
    f.log_in_ram = force_spill ? 0 : budget - without_log;
  }
  return f;
}

std::size_t MemoryBudget::room_for_visited(const MemoryUse& use, std::size_t extra) const {
  const std::size_t rest = use.rest + (use.log_can_spill ? 0 : use.log) + extra;
  return rest < data_budget() ? data_budget() - rest : 0;
}

}  // namespace statecheck::detail
