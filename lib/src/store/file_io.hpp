// lib/src/store/file_io.hpp - whole-buffer pread/pwrite for the spill files
// (trace log, frontier): a short transfer is retried, EINTR is not an error;
// and the words every writer (spill, checkpoint, output files) uses for a
// failed write.
#pragma once

#include <sys/types.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace statecheck::detail {

/// io(fd, data, bytes, offset) until all `bytes` moved; false (errno set) on
/// failure, EIO when the file ends first (no OS error to name).
template <class Io, class Ptr>
bool transfer(Io io, int fd, Ptr data, std::size_t bytes, std::uint64_t offset) {
  std::size_t done = 0;
  while (done < bytes) {
    const ssize_t n = io(fd, data + done, bytes - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

/// "OS error; fix" for a failed write. The file size limit (ulimit -f,
/// RLIMIT_FSIZE; the CLI ignores SIGXFSZ, so a write past it fails with EFBIG)
/// fails every writer alike, and no writer's usual fix (free space, another
/// directory) lifts it: it gets its own. Otherwise `usual_fix`, if any.
inline std::string write_failure(int error, const std::string& usual_fix = "") {
  const std::string text = std::strerror(error);
  if (error == EFBIG) return text + "; raise the file size limit (ulimit -f), which this write exceeded";
  return usual_fix.empty() ? text : text + "; " + usual_fix;
}

}  // namespace statecheck::detail
