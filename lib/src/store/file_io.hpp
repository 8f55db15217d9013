// lib/src/store/file_io.hpp - whole-buffer pread/pwrite for the spill files
// (trace log, frontier): a short transfer is retried, EINTR is not an error.
#pragma once

#include <sys/types.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>

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

}  // namespace statecheck::detail
