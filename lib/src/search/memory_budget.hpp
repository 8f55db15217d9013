// lib/src/search/memory_budget.hpp - what --memory allows the search to hold,
// and what to do when the next level would not fit: go on, spill the trace log
// to --workdir, or stop with a message that says what did not fit and why.
//
// The budget knows nothing of the search's structures: the search describes
// what it holds in a MemoryUse, and the budget decides. That keeps the policy
// (what counts, what may spill, the messages users read) in one place.
#pragma once

#include <cstddef>
#include <string>

#include "statecheck/detail/search.hpp"  // default_memory()

namespace statecheck::detail {

/// What the search holds resident now, by part (bytes).
struct MemoryUse {
  std::size_t set = 0;           // the visited (or exact) set's resident pages
  std::size_t set_size = 0;      // the visited (or exact) set's whole allocation, for messages
  std::size_t log = 0;           // the trace log in RAM
  bool log_can_spill = false;    // --workdir given: the trace log may move to disk
  std::size_t rest = 0;          // level table, frontier, the workers' found states
  std::size_t total() const { return set + log + rest; }
};

class MemoryBudget {
 public:
  /// --memory in bytes (0: default_memory()).
  explicit MemoryBudget(std::size_t memory);

  /// When --memory bounds the whole process: sets aside what is resident now
  /// (the program, its libraries, the workers' fixed buffers) and a slack.
  void set_aside_program();

  std::size_t limit() const { return limit_; }
  /// Set aside by set_aside_program() (0 when --memory bounds only the search).
  std::size_t overhead() const { return overhead_; }
  /// --memory less the program: what the search's own structures may hold.
  std::size_t data_budget() const { return limit_ > overhead_ ? limit_ - overhead_ : 0; }
  /// " less the N MiB of the program itself" when the program is set aside, else "".
  std::string less_program() const;

  /// The decision for `use` plus `extra` bytes about to be allocated.
  struct Fit {
    enum class Kind { fits, spill, stop } kind = Kind::fits;
    std::size_t log_in_ram = 0;  // spill: the trace log bytes that may stay in RAM
    std::string stop_message;    // stop: why (ends in the fix)
  };
  /// `what` names what is growing ("level 7 (1234 states)"); `force_spill`
  /// spills even when it fits (the I/O fault-injection hook).
  Fit fit(const MemoryUse& use, std::size_t extra, const std::string& what, bool force_spill) const;

  /// Bytes the visited set may take beside the rest (the trace log excluded
  /// when it can spill), with `extra` more coming.
  std::size_t room_for_visited(const MemoryUse& use, std::size_t extra) const;

  void note_use(std::size_t bytes) { peak_ = bytes > peak_ ? bytes : peak_; }
  std::size_t peak() const { return peak_; }

 private:
  std::size_t limit_;
  std::size_t overhead_ = 0;
  std::size_t peak_ = 0;
};

/// "12 MiB", rounded up.
std::string mib_text(std::size_t bytes);

}  // namespace statecheck::detail
