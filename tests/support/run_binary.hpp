// Runs a checker binary as a user would, for the CLI tests.
#pragma once

#include <string>

#include "support/process.hpp"

namespace test {

/// How a binary run ended: `code` (-1 when killed by a signal) and `out`
/// (stdout and stderr together, as a user sees them).
using Run = Finished;

/// `binary args` as a user types them, through /bin/sh: `binary` may start
/// with environment settings ("STATECHECK_FAULT=x /path/statecheck") and
/// `args` may hold redirections, `;` or `$?` (peak_rss is then the shell's).
inline Run run(const std::string& binary, const std::string& args) {
  const TempDir dir("run");
  Child child("/bin/sh", {"-c", binary + " " + args}, dir.sub("out"));
  const Child::End end = child.wait();
  return {end.code, end.out, end.peak_rss};
}

inline Run statecheck(const std::string& args) { return run(STATECHECK_BIN, args); }

inline std::size_t lines(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) n += c == '\n' ? 1 : 0;
  return n;
}

}  // namespace test
