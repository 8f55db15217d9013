// A command run as a child process, its output captured: what `statecheck
// sweep` runs each configuration in, so that configurations run side by side
// without sharing a search's process-wide state (the stop request, the
// progress line), and a crash in one is that row's error, not the sweep's.
#pragma once

#include <atomic>
#include <string>
#include <vector>

namespace statecheck::cli {

struct ChildResult {
  int exit_code = -1;      // the child's exit status; -1 when a signal ended it
  int signal = 0;          // the signal that ended it, or 0
  std::string out;         // everything it wrote to standard output
  std::string err;         // and to standard error
};

/// Runs `argv` (argv[0] a path) to its end in a process group of its own (so
/// that a terminal's Ctrl-C reaches only the parent, which decides), and
/// returns what it wrote. When `stop` becomes true meanwhile, the child is
/// sent SIGINT once: a check then stops with its partial report. Throws
/// run_error when the child cannot be started.
ChildResult run_child(const std::vector<std::string>& argv, const std::atomic<bool>& stop);

/// The path of the running executable (/proc/self/exe), to run it again.
std::string own_executable();

}  // namespace statecheck::cli
