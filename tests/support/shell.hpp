// Runs a command line through /bin/sh with standard output and standard error
// kept apart, so that a test can redirect one of them to a hostile sink
// (`> /dev/full`, `>&-`) and still read what the checker said on the other.
// (test::run merges the two, for tests that read them as a user sees them.)
#pragma once

#include <string>

#include "support/files.hpp"
#include "support/process.hpp"
#include "support/run_binary.hpp"  // test::lines, for what sh() captured
#include "support/temp_dir.hpp"

namespace test {

struct ShellResult {
  int code;         // exit status; 128 + N when killed by signal N
  std::string out;  // standard output, unless the command sent it elsewhere
  std::string err;  // standard error, unless the command sent it elsewhere
};

/// `command` (a shell command line; its own redirections win) with stdout
/// and stderr captured to files (a Child of support/process.hpp).
inline ShellResult sh(const std::string& command) {
  const TempDir capture("shell");
  const std::string line = "{ " + command + " ; } >" + capture.sub("out") + " 2>" + capture.sub("err");
  Child child("/bin/sh", {"-c", line}, "/dev/null");
  const Child::End end = child.wait();
  const int code = end.signal != 0 ? 128 + end.signal : end.code;
  return {code, read_text(capture.sub("out")), read_text(capture.sub("err"))};
}

}  // namespace test
