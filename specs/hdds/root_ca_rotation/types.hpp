// State and constants of the root-ca-rotation spec (HDDS-16914, HDDS-16913).
// See README.md for the report, the mechanism and the model.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <statecheck/statecheck.hpp>

namespace specs::hdds::root_ca_rotation {

inline constexpr int max_scms = 5;
inline constexpr int max_crashes = 4;
// PREPARE, at most one ACK per prepare task run (one per SCM plus one per
// crash: a replayed PREPARE needs a rollback), COMMIT and COMMITTED.
inline constexpr std::size_t log_capacity = 1 + max_scms + max_crashes + 2;
// Certificate serials per SCM that the tally can hold: 1 + crashes.
inline constexpr int max_serial = 1 + max_crashes;

STATECHECK_ENUM(Variant, as_is, patched);
STATECHECK_ENUM(Scenario, atomic_task, split_task);
STATECHECK_ENUM(RestartRule, from_disk, until_committed);
STATECHECK_ENUM(FlushRule, any, observable);
// SCM ids as printed in labels; s1 is the fixed leader.
STATECHECK_ENUM(Scm, s1, s2, s3, s4, s5);
// The background SubCARotationPrepareTask; running only with the split task.
STATECHECK_ENUM(Task, none, pending, running);
// The on-disk scm/sub-ca directory: under the old root, under the new root
// (COMMIT applied), missing (COMMIT found no sub-ca-next), or moved_out (killed
// between COMMIT's two moves: sub-ca is in sub-ca-previous, sub-ca-next not yet
// moved). Either of the last two leaves an SCM that cannot start.
STATECHECK_ENUM(SubCa, old_root, new_root, missing, moved_out);
// Rotation state in the leader's RootCARotationManager.
STATECHECK_ENUM(Rot, idle, waiting, committed, failed);
STATECHECK_ENUM(EntryKind, prepare, ack, commit, committed);

inline constexpr int leader = 0;
inline int idx(Scm s) { return static_cast<int>(s); }

/// One replicated log entry packed in a byte: kind (2 bits), the acking SCM
/// (3 bits), the serial of its new sub-CA certificate (3 bits). An ACK's
/// certificate id is the pair (scm, serial); its sender is that same scm.
struct Entry {
  std::uint8_t code = 0;
  static Entry make(EntryKind k, int scm = 0, int serial = 0) {
    if (serial > 7) throw std::length_error("root-ca-rotation: certificate serial beyond 7");
    return {static_cast<std::uint8_t>(static_cast<int>(k) | (scm << 2) | (serial << 5))};
  }
  EntryKind kind() const { return static_cast<EntryKind>(code & 3); }
  int scm() const { return (code >> 2) & 7; }
  int serial() const { return code >> 5; }
  friend bool operator==(Entry, Entry) = default;
};

inline std::string scm_name(int s) {
  std::string name(1, 's');  // not "s" + to_string: GCC 12 warns -Wrestrict on that
  name += std::to_string(s + 1);
  return name;
}

/// A set of SCM ids, printed {s1, s2}.
struct ScmSet {
  std::uint8_t bits = 0;
  bool contains(int s) const { return (bits >> s) & 1u; }
  void insert(int s) { bits = static_cast<std::uint8_t>(bits | 1u << s); }
  int size() const { return std::popcount(static_cast<unsigned>(bits)); }
  friend bool operator==(ScmSet, ScmSet) = default;
};

/// The leader's in-memory ack tally. As-is it holds certificate ids
/// (scm, serial >= 1), printed s2#1; patched it holds SCM ids, stored as
/// serial 0 and printed s2.
struct Tally {
  std::uint64_t bits = 0;
  static int bit(int scm, int serial) { return scm * 8 + serial; }
  void insert(int scm, int serial) { bits |= std::uint64_t{1} << bit(scm, serial); }
  void clear() { bits = 0; }
  int size() const { return std::popcount(bits); }
  friend bool operator==(Tally, Tally) = default;
};

/// Everything one SCM holds. Memory: up, applied, task, rotated, cert_id.
/// Disk: flushed (the persisted applied index), sub_ca_next, sub_ca, issued,
/// stale_serial.
struct ScmView {
  BOOST_HANA_DEFINE_STRUCT(ScmView,
      (bool, up),                 // process running
      (std::uint8_t, applied),    // entries applied, in memory
      (std::uint8_t, flushed),    // applied index persisted by the last flush
      (Task, task),               // the prepare task
      (bool, sub_ca_next),        // scm/sub-ca-next exists (READY)
      (SubCa, sub_ca),            // scm/sub-ca
      (bool, rotated),            // the in-memory root is the new one: skip PREPARE and COMMIT
      (bool, cert_id),            // the handler's newSubCACertId is set (not null)
      (std::uint8_t, issued),     // sub-CA certificates issued to this SCM
      (bool, stale_serial));      // COMMIT moved sub-ca but could not persist the new serial
  friend bool operator==(const ScmView&, const ScmView&) = default;
};

struct State {
  BOOST_HANA_DEFINE_STRUCT(State,
      (statecheck::bounded_vec<Entry, log_capacity>, log),  // committed log: commit on append
      (statecheck::bounded_vec<ScmView, max_scms>, scm),    // scm[0] is s1, the leader
      (std::uint8_t, crashes_left),
      (Rot, rot),                                           // leader only
      (Tally, tally),                                       // leader only
      (ScmSet, ack_senders),            // ghost: senders of the acks the leader tallied
      (std::uint8_t, acks_tallied),     // ghost: acks the leader tallied (= as-is tally size)
      (ScmSet, prepared_once),          // ghost: SCMs that finished a prepare task
      (ScmSet, prepared_at_decision));  // ghost: prepared_once when the leader committed
  friend bool operator==(const State&, const State&) = default;
};

struct Config {
  Variant variant = Variant::as_is;
  Scenario scenario = Scenario::atomic_task;
  int scms = 3;
  int crashes = 1;
  RestartRule restart = RestartRule::from_disk;
  FlushRule flush = FlushRule::any;
  bool commit_crash = false;
};

inline const auto config = statecheck::constants<Config>(
    statecheck::choice("variant", &Config::variant, {{"as-is", Variant::as_is}, {"patched", Variant::patched}},
                       "as-is: the leader tallies certificate ids; patched: SCM ids"),
    statecheck::choice("scenario", &Config::scenario,
                       {{"atomic-task", Scenario::atomic_task}, {"split-task", Scenario::split_task}},
                       "prepare task atomic, or split: delete sub-ca-next first, then issue and ack"),
    statecheck::integer("scms", &Config::scms, 2, max_scms, "SCMs in the ring (s1 is the leader)"),
    statecheck::integer("crashes", &Config::crashes, 0, max_crashes, "follower crashes in total"),
    statecheck::choice("restart", &Config::restart,
                       {{"from-disk", RestartRule::from_disk}, {"until-committed", RestartRule::until_committed}},
                       "on restart 'already rotated' is re-derived from sub-ca on disk, or stays "
                       "false until COMMITTED is applied again"),
    statecheck::choice("flush", &Config::flush, {{"any", FlushRule::any}, {"observable", FlushRule::observable}},
                       "any: every running SCM flushes; observable: only a follower while "
                       "crashes are left, the only flushes a later crash can observe"),
    statecheck::boolean("commit-crash", &Config::commit_crash,
                        "a follower may be killed between rotationCommit's two moves"));

}  // namespace specs::hdds::root_ca_rotation

// Print log entries and the sets by name, one byte (or word) each in the encoding.
namespace statecheck {

template <>
struct member_traits<specs::hdds::root_ca_rotation::Entry> {
  static constexpr bool supported = true;
  static constexpr std::size_t size = 1;
  static void encode(const specs::hdds::root_ca_rotation::Entry& e, std::byte*& out) {
    *out++ = static_cast<std::byte>(e.code);
  }
  static Value to_value(const specs::hdds::root_ca_rotation::Entry& e) {
    using specs::hdds::root_ca_rotation::EntryKind;
    if (e.kind() != EntryKind::ack) return Value::name(std::string(enum_name(e.kind())));
    std::string text = "ack(";
    text += specs::hdds::root_ca_rotation::scm_name(e.scm());
    text += '#';
    text += std::to_string(e.serial());
    text += ')';
    return Value::name(text);
  }
};

template <>
struct member_traits<specs::hdds::root_ca_rotation::ScmSet> {
  static constexpr bool supported = true;
  static constexpr std::size_t size = 1;
  static void encode(const specs::hdds::root_ca_rotation::ScmSet& s, std::byte*& out) {
    *out++ = static_cast<std::byte>(s.bits);
  }
  static Value to_value(const specs::hdds::root_ca_rotation::ScmSet& s) {
    Value v = Value::list(Value::Kind::set);
    for (int i = 0; i < 8; ++i)
      if (s.contains(i)) v.items.push_back(Value::name(specs::hdds::root_ca_rotation::scm_name(i)));
    return v;
  }
};

template <>
struct member_traits<specs::hdds::root_ca_rotation::Tally> {
  static constexpr bool supported = true;
  static constexpr std::size_t size = 8;
  static void encode(const specs::hdds::root_ca_rotation::Tally& t, std::byte*& out) {
    for (int i = 0; i < 8; ++i) *out++ = static_cast<std::byte>((t.bits >> (8 * i)) & 0xFFu);
  }
  static Value to_value(const specs::hdds::root_ca_rotation::Tally& t) {
    Value v = Value::list(Value::Kind::set);
    for (int b = 0; b < 64; ++b) {
      if (!((t.bits >> b) & 1u)) continue;
      std::string name = specs::hdds::root_ca_rotation::scm_name(b / 8);
      if (b % 8 != 0) {
        name += '#';
        name += std::to_string(b % 8);
      }
      v.items.push_back(Value::name(name));
    }
    return v;
  }
};

}  // namespace statecheck
