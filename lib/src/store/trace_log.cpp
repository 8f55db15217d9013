// Per-level trace records, Elias-Fano coded parents; see store/trace_log.hpp.
#include "store/trace_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <stdexcept>

#include "statecheck/detail/hash.hpp"
#include "statecheck/result.hpp"
#include "store/fault.hpp"
#include "store/file_io.hpp"

namespace statecheck::detail {

namespace {
unsigned bits_for(std::uint64_t limit) {  // bits to store values 0..limit-1
  return limit <= 1 ? 0u : static_cast<unsigned>(std::bit_width(limit - 1));
}

[[noreturn]] void spill_failed(const std::string& what, const std::string& file) {
  throw run_error("cannot " + what + " the trace log spill file " + file + ": " + write_failure(errno));
}

/// XXH3-64 of a spilled level's words, in file order (low, high, tids), each seeded with the one before.
std::uint64_t words_checksum(std::initializer_list<const std::vector<std::uint64_t>*> parts) {
  std::uint64_t h = 0;
  for (const std::vector<std::uint64_t>* v : parts) h = XXH3_64bits_withSeed(v->data(), v->size() * 8, h);
  return h;
}

}  // namespace

TraceLog::~TraceLog() {
  if (spill_fd_ >= 0) close(spill_fd_);
}

void TraceLog::begin_level(std::uint64_t count, std::uint64_t parent_count, std::uint64_t tid_limit) {
  Level l;
  l.count = count;
  l.tid_limit = tid_limit;
  l.low_bits = elias_fano::low_bits(count, parent_count);
  l.low.assign(count, l.low_bits);
  l.high.assign(static_cast<std::size_t>(elias_fano::high_words(count, parent_count, l.low_bits)), 0);
  l.tids.assign(count, bits_for(tid_limit));
  ram_bytes_ += l.ram_bytes();
  levels_.push_back(std::move(l));
}

bool TraceLog::add_level(Level l, std::uint64_t parent_count) {
  // Bounds first, so that no product below can overflow.
  if (l.count > (std::uint64_t{1} << 48) || parent_count > (std::uint64_t{1} << 48) || l.low_bits >= 48 ||
      l.tid_limit > (std::uint64_t{1} << 32) || l.spilled)
    return false;
  if (l.low.width() != l.low_bits || l.tids.width() != bits_for(l.tid_limit) ||
      l.low.words().size() != PackedBits::words_for(l.count, l.low_bits) ||
      l.tids.words().size() != PackedBits::words_for(l.count, l.tids.width()) ||
      l.high.size() != elias_fano::high_words(l.count, parent_count, l.low_bits))
    return false;
  std::uint64_t ones = 0;
  for (std::uint64_t w : l.high) ones += static_cast<std::uint64_t>(std::popcount(w));
  if (ones != l.count) return false;  // get() relies on finding every record's bit
  ram_bytes_ += l.ram_bytes();
  levels_.push_back(std::move(l));
  return true;
}

TraceLog::Step TraceLog::decode(const Level& l, std::uint64_t rank) const {
  const std::optional<std::uint64_t> position = elias_fano::select(l.high, rank);
  if (!position) throw std::runtime_error("the trace log is inconsistent (a record is missing)");
  const std::uint64_t parent = elias_fano::value(*position, rank, l.low_bits, l.low.get(rank));
  return {parent, static_cast<std::uint32_t>(l.tids.get(rank))};
}

TraceLog::Step TraceLog::get(std::uint32_t level, std::uint64_t rank) const {
  const Level copy = levels_[level - 1].spilled ? load(level) : Level{};
  const Level& l = levels_[level - 1].spilled ? copy : levels_[level - 1];
  if (rank >= l.count) throw std::runtime_error("the trace log is inconsistent (a parent rank is out of range)");
  const Step s = decode(l, rank);
  if (s.tid >= l.tid_limit) throw std::runtime_error("the trace log is inconsistent (a transition id is out of range)");
  return s;
}

std::vector<TraceLog::Step> TraceLog::records(std::uint32_t level) const {
  const Level copy = levels_[level - 1].spilled ? load(level) : Level{};
  const Level& l = levels_[level - 1].spilled ? copy : levels_[level - 1];
  std::vector<Step> out;
  out.reserve(static_cast<std::size_t>(l.count));
  elias_fano::for_each_position(l.high, l.count, [&](std::uint64_t rank, std::uint64_t position) {
    const auto tid = static_cast<std::uint32_t>(l.tids.get(rank));
    if (tid >= l.tid_limit) throw std::runtime_error("the trace log is inconsistent (a transition id is out of range)");
    out.push_back({elias_fano::value(position, rank, l.low_bits, l.low.get(rank)), tid});
    return true;
  });
  if (out.size() != l.count) throw std::runtime_error("the trace log is inconsistent (a record is missing)");
  return out;
}

std::vector<std::uint32_t> TraceLog::path(std::uint32_t level, std::uint64_t rank) const {
  std::vector<std::uint32_t> ids(level);
  for (std::uint32_t l = level; l >= 1; --l) {
    const Step s = get(l, rank);
    ids[l - 1] = s.tid;
    rank = s.parent_rank;
  }
  return ids;
}

TraceLog::Level TraceLog::load(std::uint32_t level) const {
  const Level& l = levels_[level - 1];
  if (!l.spilled) {
    Level copy;
    copy.count = l.count;
    copy.tid_limit = l.tid_limit;
    copy.low_bits = l.low_bits;
    copy.low = l.low;
    copy.high = l.high;
    copy.tids = l.tids;
    return copy;
  }
  Level back;
  back.count = l.count;
  back.tid_limit = l.tid_limit;
  back.low_bits = l.low_bits;
  std::vector<std::uint64_t> low(static_cast<std::size_t>(l.low_words));
  std::vector<std::uint64_t> tids(static_cast<std::size_t>(l.tid_words));
  back.high.resize(static_cast<std::size_t>(l.high_words));
  std::uint64_t at = l.offset;
  auto read = [&](std::vector<std::uint64_t>& v) {
    if (!transfer(pread, spill_fd_, reinterpret_cast<char*>(v.data()), v.size() * 8, at) ||
        fault_injected(Fault::spill_read, EIO))
      spill_failed("read back", spill_name_);
    at += v.size() * 8;
  };
  read(low);
  read(back.high);
  read(tids);
  if (words_checksum({&low, &back.high, &tids}) != l.checksum)
    throw run_error("trace log spill file " + spill_name_ + " block of level " + std::to_string(level) +
                    " is damaged (checksum mismatch): the disk or another process changed it "
                    "after it was written; check the disk under --workdir or give another --workdir, and rerun");
  back.low.restore(l.low.width(), std::move(low));
  back.tids.restore(l.tids.width(), std::move(tids));
  return back;
}

void TraceLog::spill(std::size_t ram_target) {
  while (ram_bytes_ > ram_target && spilled_levels_ < levels_.size()) {
    if (spill_fd_ < 0) {
      spill_name_ = workdir_ + "/statecheck-trace-XXXXXX";
      spill_fd_ = mkstemp(spill_name_.data());
      if (spill_fd_ < 0) spill_failed("create", spill_name_ + " (in --workdir)");
      unlink(spill_name_.c_str());  // removed with the process, whatever happens to it
      spill_name_ += " (deleted, in --workdir)";
    }
    Level& l = levels_[spilled_levels_];
    l.offset = disk_bytes_;
    l.low_words = l.low.words().size();
    l.high_words = l.high.size();
    l.tid_words = l.tids.words().size();
    l.checksum = words_checksum({&l.low.words(), &l.high, &l.tids.words()});
    std::uint64_t at = l.offset;
    for (const std::vector<std::uint64_t>* v : {&l.low.words(), &l.high, &l.tids.words()}) {
      if (!transfer(pwrite, spill_fd_, reinterpret_cast<const char*>(v->data()), v->size() * 8, at) ||
          fault_injected(Fault::spill_write, ENOSPC))
        spill_failed("write", spill_name_);
      at += v->size() * 8;
    }
    damage_if_injected(Fault::spill_corrupt, spill_fd_, l.offset, static_cast<std::size_t>(at - l.offset));
    const std::size_t freed = l.ram_bytes();
    l.low.restore(l.low.width(), {});
    l.tids.restore(l.tids.width(), {});
    std::vector<std::uint64_t>().swap(l.high);
    l.spilled = true;
    ram_bytes_ -= freed;
    disk_bytes_ += static_cast<std::size_t>(at - l.offset);
    ++spilled_levels_;
  }
}

}  // namespace statecheck::detail
