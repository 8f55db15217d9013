// Output the checker must not lose: standard output through a checked buffer
// and files written whole or not at all. A failed write is exit 3 with one
// line naming where it went (write_error), never a truncated "ok".
#pragma once

#include <string>

#include "statecheck/result.hpp"

namespace statecheck::cli {

/// A write that failed: "cannot write WHERE: OS error" (exit 3).
struct write_error : run_error {
  using run_error::run_error;
};

/// Puts std::cout on a buffer whose writes are checked, and parks /dev/null on
/// a closed descriptor 0, 1 or 2 so that no file the run opens takes its
/// place (a checkpoint written through std::cout's descriptor). Call first.
void guard_standard_streams();

/// Flushes standard output; "" when everything written reached it, else the
/// error line ("cannot write standard output: ...").
std::string standard_output_problem();

/// Whether two paths name one file: the same device and inode (./t.json and
/// t.json, a link and its target), or for a file not there yet the same
/// canonical path.
bool same_file(const std::string& a, const std::string& b);

/// config_error "FLAG OUTPUT is the input file; write to another file" when
/// the output names the file the command reads: its AtomicFile would replace
/// the input (view -o, replay --emit-test). Call before anything is written.
void refuse_input_as_output(const std::string& flag, const std::string& output, const std::string& input);

/// A file written through a temporary file in the same directory and renamed
/// over `path` by commit(): an existing file is replaced only by a complete
/// new one. A path that exists and is not a regular file (a device, a FIFO)
/// is written in place; a symbolic link keeps pointing at its file, which is
/// the one replaced. `what` names the file in messages ("--dump-graph
/// file"). The constructor throws config_error when the file cannot be
/// created (nothing run yet); write()/commit() throw write_error.
class AtomicFile {
 public:
  AtomicFile(std::string path, std::string what);
  ~AtomicFile();  // removes the temporary file unless committed
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  void write(const std::string& text);
  void commit();

 private:
  [[noreturn]] void failed(const std::string& verb);
  std::string path_, what_, temp_;
  std::string target_;  // what commit() renames over: path_, or the file a symbolic link names
  int fd_ = -1;
};

}  // namespace statecheck::cli
