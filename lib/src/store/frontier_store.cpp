// A BFS level's states in RAM or in a file under --workdir; see frontier_store.hpp.
#include "store/frontier_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "store/fault.hpp"
#include "store/file_io.hpp"
#include "store/table_memory.hpp"

namespace statecheck::detail {

FrontierStore::~FrontierStore() { close_file(); }

void FrontierStore::configure(std::size_t stride, std::string workdir, std::size_t window_bytes) {
  stride_ = stride;
  workdir_ = std::move(workdir);
  window_bytes_ = window_bytes;
}

void FrontierStore::fail(const std::string& what) const {
  throw FrontierIoError("cannot " + what + " the frontier spill file " + file_ + ": " + std::strerror(errno) +
                        "; free space in --workdir, give another --workdir, or raise --memory");
}

void FrontierStore::close_file() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

void FrontierStore::open_file() {
  file_ = workdir_ + "/statecheck-frontier-XXXXXX";
  fd_ = mkstemp(file_.data());
  if (fd_ < 0) {
    file_ += " (in --workdir)";
    fail("create");
  }
  unlink(file_.c_str());  // removed with the process, whatever happens to it
  file_ += " (deleted, in --workdir)";
  ++spilled_levels_;
}

void FrontierStore::Unmap::operator()(std::byte* p) const noexcept { free_table_memory(p, bytes); }

FrontierStore::Buffer FrontierStore::allocate(std::size_t bytes) {
  return Buffer(static_cast<std::byte*>(allocate_table_memory(bytes)), Unmap{bytes});
}

void FrontierStore::start(std::uint64_t n, bool on_disk) {
  close_file();
  states_.reset();
  count_ = n;
  window_begin_ = window_end_ = 0;
  if (!on_disk) {
    window_states_ = 0;
    if (n != 0) states_ = allocate(static_cast<std::size_t>(n) * stride_);
    return;
  }
  window_states_ = window_ram_bytes(n) / stride_;
  states_ = allocate(window_states_ * stride_);
  open_file();
}

std::uint64_t FrontierStore::window() const { return on_disk() ? window_states_ : std::max<std::uint64_t>(count_, 1); }

std::size_t FrontierStore::ram_bytes() const {
  if (!states_) return 0;
  return on_disk() ? window_states_ * stride_ : static_cast<std::size_t>(count_) * stride_;
}

std::size_t FrontierStore::window_ram_bytes(std::uint64_t n) const {
  const std::uint64_t most = std::max<std::size_t>(window_bytes_ / stride_, 1);
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(n, 1, most)) * stride_;
}

std::byte* FrontierStore::block(std::uint64_t begin, std::uint64_t end) {
  if (end < begin || end > count_ || end - begin > window()) throw std::logic_error("frontier block out of range");
  return on_disk() ? states_.get() : states_.get() + begin * stride_;
}

void FrontierStore::commit(std::uint64_t begin, std::uint64_t end) {
  if (!on_disk()) return;
  window_begin_ = window_end_ = 0;  // the window now holds what was written, not a view
  const std::size_t bytes = static_cast<std::size_t>(end - begin) * stride_;
  if (!transfer(pwrite, fd_, reinterpret_cast<const char*>(states_.get()), bytes, begin * stride_) ||
      fault_injected(Fault::frontier_write, ENOSPC) || fault_injected(Fault::frontier_stream_write, ENOSPC))
    fail("write");
  disk_bytes_ += bytes;
}

void FrontierStore::start_appending() {
  start(0, false);
  window_states_ = window_ram_bytes(~std::uint64_t{0} / stride_) / stride_;
  states_ = allocate(window_states_ * stride_);  // with its size, which the table-memory deleter needs
  open_file();
}

std::byte* FrontierStore::append_block(std::uint64_t n) {
  if (!on_disk() || n > window_states_) throw std::logic_error("frontier append out of range");
  return states_.get();
}

void FrontierStore::append_commit(std::uint64_t n) {
  const std::uint64_t begin = count_;
  count_ += n;
  commit(begin, count_);
}

void FrontierStore::swap_level(FrontierStore& other) noexcept {
  std::swap(count_, other.count_);
  std::swap(states_, other.states_);
  std::swap(window_states_, other.window_states_);
  std::swap(fd_, other.fd_);
  std::swap(file_, other.file_);
  std::swap(window_begin_, other.window_begin_);
  std::swap(window_end_, other.window_end_);
}

const std::byte* FrontierStore::view(std::uint64_t begin, std::uint64_t end) const {
  if (end < begin || end > count_ || end - begin > window()) throw std::logic_error("frontier view out of range");
  if (!on_disk()) return states_.get() + begin * stride_;
  if (begin < window_begin_ || end > window_end_) {
    window_begin_ = window_end_ = 0;
    // Read a whole window from `begin` on: the next view (the search reads in rank order) is then a hit.
    const std::uint64_t last = std::min(count_, begin + window_states_);
    if (!transfer(pread, fd_, reinterpret_cast<char*>(states_.get()), static_cast<std::size_t>(last - begin) * stride_,
                  begin * stride_) ||
        fault_injected(Fault::frontier_read, EIO))
      fail("read back");
    window_begin_ = begin;
    window_end_ = last;
  }
  return states_.get() + (begin - window_begin_) * stride_;
}

void FrontierStore::spill() {
  if (on_disk() || count_ == 0) return;
  Buffer held = std::move(states_);
  const std::uint64_t n = count_;
  try {
    start(n, true);
    for (std::uint64_t b = 0; b < n; b += window_states_) {
      const std::uint64_t e = std::min(n, b + window_states_);
      std::memcpy(block(b, e), held.get() + b * stride_, static_cast<std::size_t>(e - b) * stride_);
      commit(b, e);
    }
  } catch (...) {  // the level stays in RAM, whole, as before the attempt
    close_file();
    states_ = std::move(held);
    window_states_ = 0;
    count_ = n;
    throw;
  }
}

}  // namespace statecheck::detail
