// The STATECHECK_FAULT test hook; see store/fault.hpp.
#include "store/fault.hpp"

#include <unistd.h>

#include <cstdlib>
#include <string_view>

namespace statecheck::detail {

Fault injected_fault() {
  static const Fault fault = [] {
    const char* v = std::getenv("STATECHECK_FAULT");
    const std::string_view name = v == nullptr ? "" : v;
    if (name == "checkpoint-write") return Fault::checkpoint_write;
    if (name == "checkpoint-fsync") return Fault::checkpoint_fsync;
    if (name == "checkpoint-rename") return Fault::checkpoint_rename;
    if (name == "spill-write") return Fault::spill_write;
    if (name == "spill-read") return Fault::spill_read;
    if (name == "frontier-write") return Fault::frontier_write;
    if (name == "frontier-read") return Fault::frontier_read;
    if (name == "frontier-spill") return Fault::frontier_spill;
    if (name == "frontier-stream") return Fault::frontier_stream;
    if (name == "frontier-stream-write") return Fault::frontier_stream_write;
    if (name == "frontier-stream-interrupt") return Fault::frontier_stream_interrupt;
    if (name == "frontier-corrupt") return Fault::frontier_corrupt;
    if (name == "spill-corrupt") return Fault::spill_corrupt;
    return Fault::none;
  }();
  return fault;
}

void damage_if_injected(Fault f, int fd, std::uint64_t offset, std::size_t bytes) {
  if (injected_fault() != f || bytes == 0) return;
  const std::size_t n = bytes < 4 ? bytes : 4;
  const auto at = static_cast<off_t>(offset + (bytes - n) / 2);
  unsigned char b[4] = {};
  if (pread(fd, b, n, at) != static_cast<ssize_t>(n)) return;
  for (std::size_t i = 0; i < n; ++i) b[i] ^= 0x5a;
  if (pwrite(fd, b, n, at) != static_cast<ssize_t>(n)) return;
}

}  // namespace statecheck::detail
