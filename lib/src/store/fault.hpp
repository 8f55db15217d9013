// lib/src/store/fault.hpp - a test hook that makes one kind of file I/O
// fail, so that the hostile tests can show each failure ends in a clean exit 3
// naming the file. Not for users: STATECHECK_FAULT (read once, at the first
// call) names the one operation to fail:
//   checkpoint-write, checkpoint-fsync, checkpoint-rename, spill-write, spill-read,
//   spill-corrupt, frontier-write, frontier-read
// A spill fault also spills every level (trace log or frontier) so that it is
// met. frontier-spill fails nothing: it only puts every level's frontier on
// disk (with --workdir), so that tests can compare that path with RAM.
// frontier-stream streams every expanded level to --workdir while it is made,
// one batch at a time (search/level_writer.hpp); frontier-stream-write does so
// and fails the first write; frontier-stream-interrupt does so and acts as a
// Ctrl-C right after the first batch of level 3 went to disk.
// frontier-corrupt puts every level's frontier on disk, as frontier-spill, and
// flips 4 bytes of each block in the file once it is written (a failing disk,
// compressed or not), so that its checksum must catch it when read back;
// spill-corrupt does the same to each level the trace log spills.
// Unset (or anything else): no fault.
#pragma once

#include <cerrno>
#include <cstddef>
#include <cstdint>

namespace statecheck::detail {

enum class Fault { none, checkpoint_write, checkpoint_fsync, checkpoint_rename, spill_write, spill_read,
                   frontier_write, frontier_read, frontier_spill, frontier_stream, frontier_stream_write,
                   frontier_stream_interrupt, frontier_corrupt, spill_corrupt };

/// The fault STATECHECK_FAULT asks for.
Fault injected_fault();

/// True (with errno set to `error`, as the failed call would) when `f` is the
/// injected fault; cold: called once per file operation, not per state.
inline bool fault_injected(Fault f, int error) {
  if (injected_fault() != f) return false;
  errno = error;
  return true;
}

/// The corrupt hooks: when `f` is the injected fault, flips 4 bytes in the
/// middle of the `bytes` written at `offset` of `fd`, in the file itself, as
/// a disk or another process would after the write (the writer's checksum is
/// of the bytes it wrote). Best effort: a test hook, its own I/O unchecked.
void damage_if_injected(Fault f, int fd, std::uint64_t offset, std::size_t bytes);

}  // namespace statecheck::detail
