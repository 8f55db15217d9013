// A BFS level's states in RAM or in a file under --workdir; see frontier_store.hpp.
#include "store/frontier_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

#include "statecheck/detail/hash.hpp"
#include "store/fault.hpp"
#include "store/frontier_codec.hpp"
#include "store/file_io.hpp"
#include "store/table_memory.hpp"

namespace statecheck::detail {

FrontierStore::~FrontierStore() { close_file(); }

namespace {

// A block's header on disk: its stored bytes, its states and their XXH3-64, checked against the index
// when read back (the index, in RAM, is what a damaged file cannot change).
struct BlockHeader {
  std::uint64_t packed;
  std::uint64_t states;
  std::uint64_t checksum;
};
constexpr std::size_t header_bytes = sizeof(BlockHeader);

}  // namespace

void FrontierStore::configure(std::size_t stride, std::string workdir, std::size_t window_bytes, bool compress) {
  stride_ = stride;
  workdir_ = std::move(workdir);
  window_bytes_ = window_bytes;
  compress_ = compress;
}

void FrontierStore::fail(const std::string& what) const {
  throw FrontierIoError("cannot " + what + " the frontier spill file " + file_ + ": " +
                        write_failure(errno, "free space in --workdir, give another --workdir, or raise --memory"));
}

void FrontierStore::fail_corrupt(std::size_t k, const std::string& why) const {
  const std::uint64_t last = (k + 1 < blocks_.size() ? blocks_[k + 1].first : written_) - 1;
  throw FrontierIoError("frontier spill file " + file_ + " block " + std::to_string(k + 1) + " (states " +
                        std::to_string(blocks_[k].first) + " to " + std::to_string(last) + ") is damaged (" + why +
                        "): the disk or another process changed it after it was written; check the disk under "
                        "--workdir or give another --workdir, and rerun");
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
  packed_.reset();
  packed_capacity_ = 0;
  blocks_.clear();
  written_ = file_end_ = 0;
  count_ = n;
  window_begin_ = window_end_ = 0;
  if (!on_disk) {
    window_states_ = 0;
    span_ = 0;
    if (n != 0) states_ = allocate(static_cast<std::size_t>(n) * stride_);
    return;
  }
  span_ = span(n);
  // A view reads (and checks) whole blocks from the one holding its first state (3 spans, or the level).
  window_states_ = static_cast<std::size_t>(std::min(std::max<std::uint64_t>(n, 1), 3 * span_));
  states_ = allocate(window_states_ * stride_);
  if (compress_) {
    packed_capacity_ = header_bytes + FrontierCodec::bound(static_cast<std::size_t>(span_) * stride_);
    packed_ = allocate(packed_capacity_);
  }
  open_file();
}

std::uint64_t FrontierStore::window() const { return on_disk() ? span_ : std::max<std::uint64_t>(count_, 1); }

std::uint64_t FrontierStore::span(std::uint64_t n) const {
  // The decoded window (3 spans) and, compressed, the frame buffer (about 1) share window_bytes.
  const std::uint64_t most = std::max<std::size_t>(window_bytes_ / stride_ / (compress_ ? 4 : 3), 1);
  return std::clamp<std::uint64_t>(n, 1, most);
}

std::size_t FrontierStore::ram_bytes() const {
  const std::size_t codec = codec_.ram_bytes();  // kept once made
  if (!states_) return codec;
  return on_disk() ? window_states_ * stride_ + packed_capacity_ + codec : static_cast<std::size_t>(count_) * stride_;
}

std::size_t FrontierStore::window_ram_bytes(std::uint64_t n) const {
  const std::uint64_t s = span(n);
  const auto decoded = static_cast<std::size_t>(std::min(std::max<std::uint64_t>(n, 1), 3 * s)) * stride_;
  if (!compress_) return decoded;
  return decoded + header_bytes + FrontierCodec::bound(static_cast<std::size_t>(s) * stride_) + FrontierCodec::planned_bytes;
}

std::byte* FrontierStore::block(std::uint64_t begin, std::uint64_t end) {
  if (end < begin || end > count_ || end - begin > window()) throw std::logic_error("frontier block out of range");
  return on_disk() ? states_.get() : states_.get() + begin * stride_;
}

void FrontierStore::commit(std::uint64_t begin, std::uint64_t end) {
  if (!on_disk()) return;
  window_begin_ = window_end_ = 0;  // the window now holds what was written, not a view
  write_block(begin, end);
}

void FrontierStore::start_appending() {
  start(~std::uint64_t{0} / stride_, true);  // a level of unknown size: the largest window
  count_ = 0;
}

std::byte* FrontierStore::append_block(std::uint64_t n) {
  if (!on_disk() || n > span_) throw std::logic_error("frontier append out of range");
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
  std::swap(span_, other.span_);
  std::swap(packed_, other.packed_);
  std::swap(packed_capacity_, other.packed_capacity_);
  std::swap(blocks_, other.blocks_);
  std::swap(written_, other.written_);
  std::swap(file_end_, other.file_end_);
  std::swap(fd_, other.fd_);
  std::swap(file_, other.file_);
  std::swap(window_begin_, other.window_begin_);
  std::swap(window_end_, other.window_end_);
}

const std::byte* FrontierStore::view(std::uint64_t begin, std::uint64_t end) const {
  if (end < begin || end > count_ || end - begin > window()) throw std::logic_error("frontier view out of range");
  if (!on_disk()) return states_.get() + begin * stride_;
  if (begin < window_begin_ || end > window_end_) load_blocks(begin, end);
  return states_.get() + (begin - window_begin_) * stride_;
}

void FrontierStore::spill() {
  if (on_disk() || count_ == 0) return;
  Buffer held = std::move(states_);
  const std::uint64_t n = count_;
  try {
    start(n, true);
    for (std::uint64_t b = 0; b < n; b += window()) {
      const std::uint64_t e = std::min(n, b + window());
      std::memcpy(block(b, e), held.get() + b * stride_, static_cast<std::size_t>(e - b) * stride_);
      commit(b, e);
    }
  } catch (...) {  // the level stays in RAM, whole, as before the attempt
    close_file();
    states_ = std::move(held);
    packed_.reset();
    packed_capacity_ = 0;
    blocks_.clear();
    written_ = file_end_ = 0;
    window_states_ = 0;
    span_ = 0;
    count_ = n;
    throw;
  }
}

void FrontierStore::write_block(std::uint64_t begin, std::uint64_t end) {
  if (begin != written_ || end - begin > span_) throw std::logic_error("frontier block written out of order");
  const std::size_t raw = static_cast<std::size_t>(end - begin) * stride_;
  // Raw, the header is written apart and the states straight from the window: no copy of a block.
  std::byte raw_header[header_bytes];
  std::byte* const head = compress_ ? packed_.get() : raw_header;
  const std::byte* const stored = compress_ ? packed_.get() + header_bytes : states_.get();
  const std::size_t packed =
      compress_ ? codec_.compress(states_.get(), raw, packed_.get() + header_bytes, packed_capacity_ - header_bytes) : raw;
  const BlockHeader header{packed, end - begin, XXH3_64bits(stored, packed)};
  std::memcpy(head, &header, header_bytes);
  const bool written = compress_ ? transfer(pwrite, fd_, reinterpret_cast<const char*>(head), header_bytes + packed, file_end_)
                                 : transfer(pwrite, fd_, reinterpret_cast<const char*>(head), header_bytes, file_end_) &&
                                       transfer(pwrite, fd_, reinterpret_cast<const char*>(stored), packed, file_end_ + header_bytes);
  if (!written || fault_injected(Fault::frontier_write, ENOSPC) || fault_injected(Fault::frontier_stream_write, ENOSPC))
    fail("write");
  damage_if_injected(Fault::frontier_corrupt, fd_, file_end_ + header_bytes, packed);
  blocks_.push_back({begin, file_end_, packed, header.checksum});
  written_ = end;
  file_end_ += header_bytes + packed;
  disk_bytes_ += header_bytes + packed;
  raw_bytes_ += raw;
}

std::size_t FrontierStore::block_holding(std::uint64_t rank) const {
  const auto after = std::upper_bound(blocks_.begin(), blocks_.end(), rank,
                                     [](std::uint64_t r, const Block& b) { return r < b.first; });
  return static_cast<std::size_t>(after - blocks_.begin()) - 1;
}

void FrontierStore::load_blocks(std::uint64_t begin, std::uint64_t end) const {
  if (end > written_) throw std::logic_error("frontier view beyond what was written");
  // The block holding `begin`, then the next ones while they fit whole: a view
  // (<= a span) from inside a block (<= a span) then fits in 3 spans.
  std::size_t k = block_holding(begin);
  const std::uint64_t first = blocks_[k].first;
  std::uint64_t filled = 0;
  if (begin >= window_begin_ && begin < window_end_) {
    // Reading on in rank order: the blocks decoded already from `first` on move to the front, not decoded again.
    filled = window_end_ - first;
    std::memmove(states_.get(), states_.get() + (first - window_begin_) * stride_, static_cast<std::size_t>(filled) * stride_);
    k = block_holding(window_end_);  // the window ends where a block begins
  }
  window_begin_ = window_end_ = 0;
  for (; k < blocks_.size(); ++k) {
    const std::uint64_t last = k + 1 < blocks_.size() ? blocks_[k + 1].first : written_;
    if (filled + (last - blocks_[k].first) > window_states_) break;
    read_block(k, states_.get() + filled * stride_);
    filled = last - first;
  }
  if (first + filled < end) throw std::logic_error("frontier view does not fit the decoded window");
  window_begin_ = first;
  window_end_ = first + filled;
}

void FrontierStore::read_block(std::size_t k, std::byte* out) const {
  const Block& b = blocks_[k];
  const std::uint64_t states = (k + 1 < blocks_.size() ? blocks_[k + 1].first : written_) - b.first;
  const auto packed = static_cast<std::size_t>(b.packed);
  // Raw, the states are read straight into the window; they are not handed out before the checksum matched.
  std::byte raw_header[header_bytes];
  std::byte* const head = compress_ ? packed_.get() : raw_header;
  std::byte* const stored = compress_ ? packed_.get() + header_bytes : out;
  const bool read = compress_ ? transfer(pread, fd_, reinterpret_cast<char*>(head), header_bytes + packed, b.offset)
                              : transfer(pread, fd_, reinterpret_cast<char*>(head), header_bytes, b.offset) &&
                                    transfer(pread, fd_, reinterpret_cast<char*>(stored), packed, b.offset + header_bytes);
  if (!read || fault_injected(Fault::frontier_read, EIO)) fail("read back");
  BlockHeader header{};
  std::memcpy(&header, head, header_bytes);
  if (header.packed != b.packed || header.states != states || header.checksum != b.checksum)
    fail_corrupt(k, "its header says " + std::to_string(header.states) + " states in " + std::to_string(header.packed) +
                        " bytes, not " + std::to_string(states) + " in " + std::to_string(b.packed));
  // Before a byte is decoded: a damaged frame never reaches zstd, damaged raw states never the search.
  if (XXH3_64bits(stored, packed) != b.checksum) fail_corrupt(k, "checksum mismatch");
  if (!compress_) return;
  const std::string why = codec_.decompress(stored, packed, out, static_cast<std::size_t>(states) * stride_);
  if (!why.empty()) fail_corrupt(k, "zstd: " + why);
}

}  // namespace statecheck::detail
