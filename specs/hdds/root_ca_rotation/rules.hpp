// What one SCM does with its log, its prepare tasks and its disk, as
// RootCARotationHandlerImpl and RootCARotationManager do it. The spec
// (root_ca_rotation.hpp) wires these into actions; README.md says why.
#pragma once

#include "types.hpp"

namespace specs::hdds::root_ca_rotation {

constexpr std::uint8_t task_bit(std::uint8_t root) { return static_cast<std::uint8_t>(1u << (root - 1)); }

/// The SCM's executor is single-threaded, so its queued prepare tasks run in
/// FIFO order; roots only grow, so that is the lowest root queued.
inline std::uint8_t next_task_root(const ScmView& v) {
  for (std::uint8_t r = 1; r <= max_rotations; ++r)
    if (v.tasks & task_bit(r)) return r;
  return 0;
}

/// shouldSkipRootCert: the in-memory trust-chain root is this one or newer.
inline bool skips(const ScmView& v, std::uint8_t root) { return v.root >= root; }

/// sendRotationPrepareAck: setSubCACertId, then the ack (commits on append).
inline void send_ack(State& st, ScmId s, std::uint8_t root) {
  ScmView& v = st.scm[s];
  v.cert_id = true;
  st.log.push_back(Entry::make(EntryKind::ack, root, s, v.issued));
  v.tasks = static_cast<std::uint8_t>(v.tasks & ~task_bit(root));
  v.running = false;
}

/// The prepare task's last half for root `root`: sub-ca-next written, a
/// certificate with a new serial issued, the ack sent.
inline void finish_prepare(State& st, ScmId s, std::uint8_t root) {
  ScmView& v = st.scm[s];
  v.sub_ca_next = root;
  ++v.issued;
  if (root == st.round) st.prepared_once.insert(s);
  send_ack(st, s, root);
}

/// Memory is lost, the disk survives: a kill, or the SCM's own exit.
inline void lose_memory(ScmView& v) {
  v.up = false;
  v.applied = v.flushed;
  v.tasks = 0;
  v.running = false;
  v.root = 0;
  v.new_root = 0;
  v.cert_id = false;
}

/// rotationCommit for root `root`: move sub-ca to sub-ca-previous, sub-ca-next
/// to sub-ca, then persist newSubCACertId as the SCM's certificate serial.
inline void apply_commit(ScmView& v, std::uint8_t root) {
  if (v.sub_ca_next == 0) {
    // The second move fails: shutDown, and the SCM cannot start again
    // without scm/sub-ca.
    v.sub_ca = SubCa::missing;
    v.up = false;
    v.tasks = 0;
    v.running = false;
    return;
  }
  if (v.sub_ca_next != root) v.wrong_root = true;
  v.sub_ca_root = v.sub_ca_next;
  v.sub_ca_next = 0;
  if (!v.cert_id) {
    // setScmCertSerialId(null) throws NullPointerException, which the
    // handler's IOException catch misses; the state machine's applyTransaction
    // terminates the SCM. VERSION keeps the old serial; applied is not advanced.
    v.stale_serial = true;
    lose_memory(v);
    return;
  }
  ++v.applied;
}

/// The next entry s applies is a COMMIT that rotationCommit will act on, and
/// sub-ca-next is there, so its first move (sub-ca to sub-ca-previous) succeeds.
inline bool commit_moves_next(const State& st, ScmId s) {
  const ScmView& v = st.scm[s];
  if (!v.up || v.applied >= st.log.size()) return false;
  const Entry& e = st.log[v.applied];
  return e.kind == EntryKind::commit && !skips(v, e.root) && v.sub_ca_next != 0;
}

/// RootCARotationManager runs its tasks on one single-thread executor, both
/// synchronized on the manager class: applying PREPARE queues the leader's
/// prepare task (delay 0) before RotationTask schedules the ack-wait task (1 s
/// initial delay). So the wait task, which both commits and times out, runs
/// only after the leader applied the current PREPARE and its prepare tasks ran.
inline bool leader_task_ran(const State& st) {
  const ScmView& v = st.scm[st.leader];
  return v.up && v.new_root == st.round && v.tasks == 0;
}

/// The leader's handler forgets its acks (a PREPARE applied, a leader change).
inline void clear_tally(State& st) {
  st.tally.clear();
  st.ack_senders = {};
  st.acks_tallied = 0;
}

inline void apply_entry(State& st, ScmId s, Variant variant) {
  ScmView& v = st.scm[s];
  const Entry e = st.log[v.applied];
  switch (e.kind) {
    case EntryKind::prepare:
      if (skips(v, e.root)) break;
      v.new_root = e.root;
      v.cert_id = false;  // newSubCACertId.set(null)
      v.tasks = static_cast<std::uint8_t>(v.tasks | task_bit(e.root));
      if (s == st.leader) clear_tally(st);  // newScmCertIdSet.clear()
      break;
    case EntryKind::ack:
      // Only the leader's running manager counts, only for the root it
      // prepared last, and only while its wait task waits.
      if (s != st.leader || st.rot != Rot::waiting || skips(v, e.root) || e.root != v.new_root) break;
      st.tally.insert(CertId{e.scm, variant == Variant::as_is ? e.serial : std::uint8_t{0}});
      st.ack_senders.insert(e.scm);
      ++st.acks_tallied;
      break;
    case EntryKind::commit:
      if (skips(v, e.root)) break;
      apply_commit(v, e.root);
      return;
    case EntryKind::committed:
      if (skips(v, e.root)) break;
      v.root = e.root;
      v.cert_id = false;  // reset state after reloading the certificate
      break;
  }
  ++v.applied;
}

}  // namespace specs::hdds::root_ca_rotation
