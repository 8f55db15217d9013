// Checkpoint files: the writer and the bounds-checked reader (the file itself, mapped:
// checkpoint_file.cpp). Format in store/checkpoint.hpp.
#include "store/checkpoint.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "store/fault.hpp"
#include "store/file_io.hpp"
#include "statecheck/detail/hash.hpp"  // xxhash, inlined
#include "statecheck/result.hpp"

namespace statecheck::detail {

namespace {

constexpr char magic[8] = {'s', 't', 'a', 't', 'e', 'c', 'h', 'k'};
constexpr std::uint32_t version = 5;  // 2: per-transition new-state counts (--coverage after --resume); 3: compact visited table, symmetry; 4: visited-set probes wrap inside 2 MiB segments; 5: any number of 8 MiB segments
enum Tag : std::uint32_t { meta_tag = 1, visited_tag = 2, trace_tag = 3, frontier_tag = 4 };
constexpr const char* tag_names[] = {"?", "meta", "visited", "trace", "frontier"};
constexpr std::size_t section_header = 24;

// ---------------------------------------------------------------- writing

[[noreturn]] void io_failed(const std::string& what, const std::string& path) {
  throw std::runtime_error("cannot " + what + " checkpoint " + path + ": " + write_failure(errno));
}

mode_t current_umask() {
  const mode_t mask = umask(0);
  umask(mask);
  return mask;
}

/// Appends plain values to a byte string (the meta section): strings and
/// vectors as a u64 length then the bytes, every number as 8 bytes.
struct Bytes {
  std::vector<std::byte> out;
  void raw(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::byte*>(p);
    out.insert(out.end(), b, b + n);
  }
  void operator()(const std::string& s) {
    (*this)(std::uint64_t{s.size()});
    raw(s.data(), s.size());
  }
  void operator()(const std::vector<std::uint64_t>& v) {
    (*this)(std::uint64_t{v.size()});
    raw(v.data(), v.size() * 8);
  }
  void operator()(double v) { raw(&v, 8); }
  template <class T>
    requires std::is_integral_v<T>
  void operator()(T v) {
    const auto wide = static_cast<std::uint64_t>(v);
    raw(&wide, 8);
  }
};

/// One section: header, then payload pieces hashed as they go; the length
/// and checksum are patched into the header at the end.
class SectionWriter {
 public:
  SectionWriter(std::FILE* f, Tag tag, const std::string& path) : f_(f), path_(path) {
    start_ = std::ftell(f_);
    const std::uint64_t header[3] = {tag, 0, 0};
    put(header, sizeof header, false);
    XXH3_64bits_reset(&state_);
  }
  void put(const void* p, std::size_t n, bool hash = true) {
    if (n != 0 && (std::fwrite(p, 1, n, f_) != n || fault_injected(Fault::checkpoint_write, ENOSPC)))
      io_failed("write", path_);
    if (hash) {
      XXH3_64bits_update(&state_, p, n);
      length_ += n;
    }
  }
  void words(const std::vector<std::uint64_t>& v) { put(v.data(), v.size() * 8); }
  void u64(std::uint64_t v) { put(&v, 8); }
  void finish() {
    const long end = std::ftell(f_);
    const std::uint64_t patch[2] = {length_, XXH3_64bits_digest(&state_)};
    if (std::fseek(f_, start_ + 8, SEEK_SET) != 0 || std::fwrite(patch, 1, 16, f_) != 16 ||
        std::fseek(f_, end, SEEK_SET) != 0)
      io_failed("write", path_);
  }

 private:
  std::FILE* f_;
  const std::string& path_;
  long start_ = 0;
  std::uint64_t length_ = 0;
  XXH3_state_t state_{};
};

std::vector<std::byte> meta_bytes(const CheckpointMeta& m) {
  Bytes b;
  CheckpointMeta::each_field(m, b);
  return std::move(b.out);
}

void write_trace(SectionWriter& s, const TraceLog& log) {
  s.u64(log.levels());
  for (std::uint32_t l = 1; l <= log.levels(); ++l) {
    const TraceLog::Level copy = log.stored(l).spilled ? log.load(l) : TraceLog::Level{};
    const TraceLog::Level& lv = log.stored(l).spilled ? copy : log.stored(l);
    for (std::uint64_t v : {lv.count, lv.tid_limit, std::uint64_t{lv.low_bits}, std::uint64_t{lv.low.width()},
                            std::uint64_t{lv.tids.width()}, std::uint64_t{lv.low.words().size()},
                            std::uint64_t{lv.high.size()}, std::uint64_t{lv.tids.words().size()}})
      s.u64(v);
    s.words(lv.low.words());
    s.words(lv.high);
    s.words(lv.tids.words());
  }
}

// ---------------------------------------------------------------- reading

/// The first reason a checkpoint is refused (caught in parse_checkpoint).
struct Corrupt {
  std::string why;
};
/// A checkpoint of another format version (caught in parse_checkpoint).
struct OtherVersion {
  std::uint32_t version;
};

/// Bounds-checked reads from a byte range.
struct Reader {
  const std::byte* p;
  std::size_t left;
  const char* section;

  void need(std::uint64_t n) const {
    if (n > left) throw Corrupt{std::string("section ") + section + " is shorter than its contents say"};
  }
  void raw(void* out, std::size_t n) {
    need(n);
    if (n != 0) std::memcpy(out, p, n);
    p += n;
    left -= n;
  }
  std::uint64_t u64() {
    std::uint64_t v = 0;
    raw(&v, 8);
    return v;
  }
  std::string str() {
    const std::uint64_t n = u64();
    need(n);
    std::string s(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n));
    p += n;
    left -= static_cast<std::size_t>(n);
    return s;
  }
  std::vector<std::uint64_t> words(std::uint64_t n) {
    need(n);  // cheap test first: n words need 8n bytes, n <= left keeps 8n from overflowing
    need(n * 8);
    std::vector<std::uint64_t> v(static_cast<std::size_t>(n));
    raw(v.data(), static_cast<std::size_t>(n) * 8);
    return v;
  }
  std::vector<std::uint64_t> vec() { return words(u64()); }

  // The meta fields (CheckpointMeta::each_field), read as Bytes wrote them.
  void operator()(std::string& s) { s = str(); }
  void operator()(std::vector<std::uint64_t>& v) { v = vec(); }
  void operator()(double& v) { raw(&v, 8); }
  void operator()(bool& v) { v = u64() != 0; }
  template <class T>
    requires std::is_integral_v<T>
  void operator()(T& v) { v = static_cast<T>(u64()); }
};

/// The sections in order, each checked against the buffer and its checksum.
std::vector<Reader> split_sections(std::span<const std::byte> bytes, Checksums checksums) {
  Reader file{bytes.data(), bytes.size(), "header"};
  char seen[8];
  if (bytes.size() < 16) throw Corrupt{"it is shorter than a header"};
  file.raw(seen, 8);
  if (std::memcmp(seen, magic, 8) != 0) throw Corrupt{"it does not start with the checkpoint magic"};
  std::uint32_t v[2];
  file.raw(v, 8);
  if (v[0] != version) throw OtherVersion{v[0]};
  if (v[1] != 4) throw Corrupt{"it has " + std::to_string(v[1]) + " sections, not 4"};
  std::vector<Reader> sections;
  for (std::uint32_t tag = meta_tag; tag <= frontier_tag; ++tag) {
    file.section = tag_names[tag];
    if (file.left < section_header) throw Corrupt{std::string("section ") + tag_names[tag] + " is missing"};
    const std::uint64_t t = file.u64(), length = file.u64(), sum = file.u64();
    if (t != tag) throw Corrupt{std::string("section ") + tag_names[tag] + " has the wrong tag"};
    if (length > file.left) throw Corrupt{std::string("section ") + tag_names[tag] + " is cut short"};
    if (checksums == Checksums::verify && XXH3_64bits(file.p, static_cast<std::size_t>(length)) != sum)
      throw Corrupt{std::string("section ") + tag_names[tag] + " checksum mismatch"};
    sections.push_back({file.p, static_cast<std::size_t>(length), tag_names[tag]});
    file.p += length;
    file.left -= static_cast<std::size_t>(length);
  }
  if (file.left != 0) throw Corrupt{"it has bytes after its last section"};
  return sections;
}

CheckpointMeta read_meta(Reader r) {
  CheckpointMeta m;
  CheckpointMeta::each_field(m, r);
  if (r.left != 0) throw Corrupt{"section meta has unread bytes"};
  return m;
}

void check_meta(const CheckpointMeta& m, const std::vector<std::uint64_t>* level_totals) {
  std::uint64_t sum = 0;
  if (level_totals != nullptr && level_totals->size() != m.level_sizes.size())
    throw Corrupt{"its level sizes do not match those of the whole search"};
  for (std::size_t l = 0; l < m.level_sizes.size(); ++l) {
    const std::uint64_t n = m.level_sizes[l];
    if ((n == 0 && level_totals == nullptr) || n > (std::uint64_t{1} << 48) || (level_totals != nullptr && n > (*level_totals)[l]))
      throw Corrupt{"a level size is out of range"};
    sum += n;
  }
  if (m.level == 0 || m.level != m.level_sizes.size() || sum != m.distinct)
    throw Corrupt{"the level sizes do not add up"};
  if (m.state_size == 0 || m.state_size > (1u << 24) || m.encoding_size > (1u << 24) || m.transitions > (1u << 31) ||
      m.init_combinations > (1u << 31) || m.transition_enabled.size() != m.transitions ||
      m.transition_new.size() != m.transitions || m.goal_level.size() != m.goal_rank.size())
    throw Corrupt{"the spec's shape is inconsistent"};
}

void read_trace(Reader r, const CheckpointMeta& m, TraceLog& log, const std::vector<std::uint64_t>* level_totals) {
  if (r.u64() != m.level) throw Corrupt{"the trace has the wrong number of levels"};
  for (std::uint32_t l = 1; l <= m.level; ++l) {
    TraceLog::Level lv;
    std::uint64_t f[8];
    for (std::uint64_t& x : f) x = r.u64();
    lv.count = f[0];
    lv.tid_limit = f[1];
    if (f[2] > 63 || f[3] > 64 || f[4] > 64) throw Corrupt{"a trace level has impossible field widths"};
    lv.low_bits = static_cast<unsigned>(f[2]);
    lv.low.restore(static_cast<unsigned>(f[3]), r.words(f[5]));
    lv.high = r.words(f[6]);
    lv.tids.restore(static_cast<unsigned>(f[4]), r.words(f[7]));
    const std::uint64_t tid_limit = l == 1 ? m.init_combinations : m.transitions;
    if (lv.count != m.level_sizes[l - 1] || lv.tid_limit != tid_limit ||
        !log.add_level(std::move(lv), l == 1 ? 1 : (level_totals != nullptr ? *level_totals : m.level_sizes)[l - 2]))
      throw Corrupt{"trace level " + std::to_string(l) + " is inconsistent"};
  }
  if (r.left != 0) throw Corrupt{"section trace has unread bytes"};
}

}  // namespace

std::FILE* create_checkpoint_temporary(const std::string& path, std::string& temp) {
  temp = path + ".tmp-XXXXXX";
  const int fd = mkstemp(temp.data());
  if (fd < 0) io_failed("create", path);
  std::FILE* f = fchmod(fd, 0666 & ~current_umask()) == 0 ? fdopen(fd, "wb") : nullptr;
  if (f == nullptr) {
    const int error = errno;
    close(fd);
    std::remove(temp.c_str());
    errno = error;
    io_failed("create", path);
  }
  return f;
}

void write_checkpoint(const std::string& dir, const CheckpointMeta& meta, const CheckpointParts& parts) {
  if (mkdir(dir.c_str(), 0777) != 0 && errno != EEXIST) io_failed("create the directory of", dir);
  const std::string path = checkpoint_path(dir);
  std::string temp;
  std::FILE* f = create_checkpoint_temporary(path, temp);
  try {
    const std::uint32_t head[2] = {version, 4};
    if (std::fwrite(magic, 1, 8, f) != 8 || std::fwrite(head, 1, 8, f) != 8) io_failed("write", path);
    const std::vector<std::byte> m = meta_bytes(meta);
    SectionWriter s1(f, meta_tag, path);
    s1.put(m.data(), m.size());
    s1.finish();
    SectionWriter s2(f, visited_tag, path);
    if (parts.visited_set != nullptr) parts.visited_set->write_compact([&](const void* p, std::size_t n) { s2.put(p, n); });
    else s2.put(parts.exact_encodings.data(), parts.exact_encodings.size());
    s2.finish();
    SectionWriter s3(f, trace_tag, path);
    write_trace(s3, *parts.log);
    s3.finish();
    SectionWriter s4(f, frontier_tag, path);
    const std::uint64_t count = meta.level_sizes.empty() ? 0 : meta.level_sizes.back();
    const FrontierStore& frontier = *parts.frontier;
    for (std::uint64_t begin = 0; begin < count; begin += frontier.window()) {  // on disk: read back window by window
      const std::uint64_t end = std::min(count, begin + frontier.window());
      const std::byte* states = frontier.view(begin, end);
      for (std::uint64_t i = 0; i < end - begin; ++i)
        s4.put(states + i * frontier.stride(), static_cast<std::size_t>(meta.state_size));
    }
    s4.finish();
    if (std::fflush(f) != 0) io_failed("write", path);
    if (fsync(fileno(f)) != 0 || fault_injected(Fault::checkpoint_fsync, EIO)) io_failed("sync", path);
  } catch (...) {
    std::fclose(f);
    std::remove(temp.c_str());
    throw;
  }
  if (std::fclose(f) != 0) {
    const int error = errno;
    std::remove(temp.c_str());
    errno = error;
    io_failed("write", path);
  }
  if (fault_injected(Fault::checkpoint_rename, EXDEV) || std::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temp.c_str());
    errno = error;
    io_failed("rename the new file over", path);
  }
  const int d = open(dir.c_str(), O_RDONLY | O_DIRECTORY);  // make the rename itself durable
  if (d >= 0) {
    (void)fsync(d);
    close(d);
  }
}

CheckpointData parse_checkpoint(std::span<const std::byte> bytes, const std::string& name, TraceLog& log,
                                Checksums checksums, const std::vector<std::uint64_t>* level_totals) {
  try {
    const std::vector<Reader> s = split_sections(bytes, checksums);
    CheckpointData d;
    d.meta = read_meta(s[0]);
    check_meta(d.meta, level_totals);
    const CheckpointMeta& m = d.meta;
    d.visited = {s[1].p, s[1].left};
    const std::uint64_t visited_bytes = m.exact ? m.distinct * m.encoded_bytes()
                                                : VisitedSet::compact_size_if_valid(m.visited_segments, d.visited, m.visited_size);
    if (visited_bytes == 0 || d.visited.size() != visited_bytes) throw Corrupt{"the visited set has the wrong size"};
    d.frontier = {s[3].p, s[3].left};
    if (d.frontier.size() / m.state_size != m.level_sizes.back() || d.frontier.size() % m.state_size != 0)
      throw Corrupt{"the frontier has the wrong size"};
    read_trace(s[2], m, log, level_totals);
    return d;
  } catch (const Corrupt& c) {
    throw config_error("checkpoint " + name + " is truncated/corrupt (" + c.why + "); it cannot be resumed");
  } catch (const OtherVersion& o) {
    throw config_error("checkpoint " + name + " has format version " + std::to_string(o.version) +
                       "; this statecheck reads version " + std::to_string(version) +
                       " only, so it cannot be resumed: start a new run (or resume with the statecheck that wrote it)");
  }
}

}  // namespace statecheck::detail
