// lib/src/store/checkpoint.hpp - the search state at a level boundary, on disk.
//
// ============================== format (version 5) ==========================
// A file DIR/checkpoint.sckp, native byte order (the magic fails on another):
//   header   8-byte magic "statechk", u32 version, u32 section count (4)
//   section  u32 tag, u32 zero, u64 length, u64 XXH3-64 of the payload, payload
// in this order: meta (spec, constants, the options that change the answer,
// the spec's shape, the level and every statistic so far), visited (the
// fingerprint table in compact form, VisitedSet::write_compact: a mask per 64
// slots and the used slots' words, in slot order, the table's probes wrapping
// inside 8 MiB segments, any number of them, since version 5; or the exact set's encodings), trace (every
// level's Elias-Fano records, spilled ones included) and frontier (the
// states of the level about to be expanded, state_size bytes each).
// The reader checks the magic, the version, every length against the bytes
// left before it allocates, every checksum, and that the parts agree with each
// other; anything else is refused with one line (config_error), a file of
// another format version with a line of its own. It reads a
// byte buffer, so that it can be fuzzed. The writer writes a temporary file
// and renames it, so an interrupted write never destroys the previous file.
// ============================================================================
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "statecheck/detail/visited_set.hpp"
#include "store/frontier_store.hpp"
#include "store/trace_log.hpp"

namespace statecheck::detail {

/// Everything in a checkpoint except the bulk data.
struct CheckpointMeta {
  // What was checked: a resumed run must agree on all of it.
  std::string spec;
  std::string constants;    // "rms=8, x=on"
  std::string invariants;   // selected names, "" for all
  std::uint64_t invariant_mask = 0;
  bool check_deadlock = true;
  bool exact = false;
  std::string symmetry;     // the symmetric kinds the states were reduced by ("s1..s3 x d1..d2"), "" for none (version 3)
  std::uint32_t max_depth = 0;
  std::uint64_t state_size = 0, encoding_size = 0, transitions = 0, init_combinations = 0, actions = 0;
  // Where the search is: the frontier is level `level`, not yet checked or expanded.
  std::uint32_t level = 0;
  std::uint64_t distinct = 0;
  std::uint64_t generated = 0;
  double seconds = 0;
  std::vector<std::uint64_t> level_sizes;
  std::vector<std::uint64_t> transition_enabled;  // per transition id (--coverage)
  std::vector<std::uint64_t> transition_new;      // per transition id: new states it found (version 2)
  std::vector<std::uint64_t> goal_level;  // 0: not reached yet
  std::vector<std::uint64_t> goal_rank;
  std::uint64_t visited_segments = 0;  // fingerprint table of visited_segments * 2^20 words (version 5)
  std::uint64_t visited_size = 0;
  std::uint64_t collisions = 0;

  /// Every field, in file order: the one list the writer and the reader both
  /// walk, so that a field cannot be written and not read, or read out of order.
  template <class Self, class F>
  static void each_field(Self& m, F&& f) {
    f(m.spec), f(m.constants), f(m.invariants), f(m.invariant_mask), f(m.check_deadlock), f(m.exact);
    f(m.max_depth), f(m.state_size), f(m.encoding_size), f(m.transitions), f(m.init_combinations), f(m.actions);
    f(m.level), f(m.distinct), f(m.generated), f(m.seconds);
    f(m.level_sizes), f(m.transition_enabled), f(m.transition_new), f(m.goal_level), f(m.goal_rank);
    f(m.visited_segments), f(m.visited_size), f(m.collisions), f(m.symmetry);
  }

  std::uint64_t encoded_bytes() const { return encoding_size == 0 ? state_size : encoding_size; }
};

/// A parsed checkpoint; the spans point into the parsed buffer.
struct CheckpointData {
  CheckpointMeta meta;
  std::span<const std::byte> visited;   // the compact fingerprint table, or `distinct` exact encodings
  std::span<const std::byte> frontier;  // level_sizes.back() states of state_size bytes
};

/// What write_checkpoint() writes besides the meta.
struct CheckpointParts {
  const VisitedSet* visited_set = nullptr;  // fingerprint mode
  std::span<const std::byte> exact_encodings;  // --exact
  const FrontierStore* frontier = nullptr;  // level_sizes.back() states, in RAM or in --workdir (copied in)
  const TraceLog* log = nullptr;
};

/// DIR/checkpoint.sckp.
std::string checkpoint_path(const std::string& dir);

/// A new temporary file beside `path` (its name in `temp`), unique, so that two
/// runs writing checkpoints into one directory never write into one file; the
/// writer renames it over `path` when it is complete. Mode as fopen gives.
/// Throws std::runtime_error naming `path` when it cannot be created.
std::FILE* create_checkpoint_temporary(const std::string& path, std::string& temp);

/// Writes the checkpoint file in `dir` (created if missing) through a
/// temporary file and a rename; throws std::runtime_error on I/O failure.
void write_checkpoint(const std::string& dir, const CheckpointMeta& meta, const CheckpointParts& parts);

/// Parses a checkpoint image; its trace levels are appended to `log` (empty).
/// Throws config_error ("checkpoint NAME is truncated/corrupt (...); it cannot
/// be resumed") for anything but a well-formed, self-consistent checkpoint.
/// `Checksums::skip` is for the fuzzer only, so that its mutations reach the
/// parsing behind the checksums; every other reader verifies them.
/// `level_totals`: for one process's part of a checkpoint of several
/// (search/shared_checkpoint.cpp), every level's size over all processes:
/// its trace records' parents are numbered in those, and its own levels may be empty.
enum class Checksums { verify, skip };
CheckpointData parse_checkpoint(std::span<const std::byte> bytes, const std::string& name, TraceLog& log,
                                Checksums checksums = Checksums::verify,
                                const std::vector<std::uint64_t>* level_totals = nullptr);

/// What DIR's checkpoint holds, for a message: "a checkpoint of spec 'X'
/// (constants: ...) at level L", what is wrong with it, or "" when DIR has none.
std::string describe_checkpoint(const std::string& dir);

/// A checkpoint file mapped read-only; config_error when it cannot be opened.
class MappedCheckpoint {
 public:
  explicit MappedCheckpoint(const std::string& dir);
  ~MappedCheckpoint();
  MappedCheckpoint(const MappedCheckpoint&) = delete;
  MappedCheckpoint& operator=(const MappedCheckpoint&) = delete;
  std::span<const std::byte> bytes() const { return {data_, size_}; }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace statecheck::detail
