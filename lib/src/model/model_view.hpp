// lib/src/model/model_view.hpp - convenient, slow access to a type-erased
// spec for the cold commands: replay, simulate, the DOT graph and the spec
// self-checks. The search never uses it (it works per chunk through ModelOps).
// Every member may throw what the spec's own code throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "statecheck/detail/hash.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

/// One state of the spec, owned and suitably aligned.
class OwnedState {
 public:
  explicit OwnedState(std::size_t state_size) : words_((state_size + 7) / 8 + 1) {}
  std::byte* bytes() { return reinterpret_cast<std::byte*>(words_.data()); }
  const std::byte* bytes() const { return reinterpret_cast<const std::byte*>(words_.data()); }

 private:
  std::vector<std::uint64_t> words_;
};

/// Bit mask of the invariants named (all when `names` is empty); config_error
/// naming the known invariants for an unknown one.
std::uint64_t invariant_mask(const ModelOps& ops, const std::vector<std::string>& names);

/// The refusal of a spec without an initial state: its init made none, or
/// (`made` > 0) its tlc_constraint dropped every one init made.
config_error no_initial_state(const ModelOps& ops, std::uint64_t made);

class ModelView {
 public:
  explicit ModelView(const ModelOps& ops);
  ModelView(ModelOps&&) = delete;  // it keeps a reference: `ModelView v(m.ops())` would dangle

  const ModelOps& ops() const { return ops_; }
  OwnedState blank() const { return OwnedState(ops_.state_size); }

  /// Initial state number `combination` (0..init_combinations-1); nullopt when
  /// the spec's init function rejects that combination, or a tlc_constraint drops it.
  std::optional<OwnedState> initial(std::uint32_t combination) const;
  /// Applies transition `tid` in place; false (state unchanged) when not enabled.
  bool step(OwnedState& s, std::uint32_t tid) const;
  /// The successor by `tid`, or nullopt when it is not enabled.
  std::optional<OwnedState> successor(const OwnedState& s, std::uint32_t tid) const;
  /// Transition ids whose guards hold in `s`, in id order (none when the
  /// constraint excludes `s` from expansion).
  std::vector<std::uint32_t> enabled(const OwnedState& s) const;
  /// The same into `out`, trying transitions on `scratch`: no allocation once
  /// both are sized, for loops that step many times (simulate). Leaves out
  /// successors a tlc_constraint drops, and returns how many it dropped.
  std::size_t enabled(const OwnedState& s, std::vector<std::uint32_t>& out, OwnedState& scratch) const;
  /// Calls f(tid, successor bytes) for every transition enabled in `s`, in id
  /// order, enumerating each choice once (stepping each id would walk a
  /// choice's values once per id of its bound).
  template <class F>
  void for_each_successor(const OwnedState& s, F&& f) const {
    using Fn = std::remove_reference_t<F>;
    ops_.successors(ops_.model, s.bytes(), &f, [](void* sink, std::uint32_t tid, const std::byte* next) {
      (*static_cast<Fn*>(sink))(tid, next);
    });
  }
  bool expandable(const OwnedState& s) const { return ops_.expandable(ops_.model, s.bytes()); }
  /// A timed spec's deadline that keeps time from passing in `s`; "" when none does (or untimed).
  std::string blocking_deadline(const OwnedState& s) const {
    return ops_.blocking_deadline == nullptr ? std::string() : ops_.blocking_deadline(ops_.model, s.bytes());
  }

  /// The first invariant in `mask` that `s` violates, by declaration order.
  std::optional<std::uint32_t> violated_invariant(const OwnedState& s, std::uint64_t mask) const;
  /// Bit g set when goal g holds in `s`.
  std::uint64_t goals_holding(const OwnedState& s) const;

  Hash128 fingerprint(const OwnedState& s) const;
  bool equal(const OwnedState& a, const OwnedState& b) const { return ops_.equal(a.bytes(), b.bytes()); }
  Value value(const OwnedState& s) const { return ops_.to_value(ops_.model, s.bytes()); }
  /// True when `tid` is one witness of a choice (its action has one id per value the choice may offer).
  bool chooses(std::uint32_t tid) const { return chooses_[tid]; }
  /// "Name(p=v, q=w)" for transition `tid` taken from `from` (the value a
  /// choice picks depends on the state).
  std::string label(std::uint32_t tid, const OwnedState& from) const;
  /// A trace step for taking `tid` from `before` into `after`.
  TraceStep trace_step(std::uint32_t tid, const OwnedState& before, const OwnedState& after) const;
  /// The transition whose label, taken from `from`, is `label`, if any.
  std::optional<std::uint32_t> find_label(const std::string& label, const OwnedState& from) const;

 private:
  const ModelOps& ops_;
  std::vector<std::string> labels_;  // without a choice's value (see chooses_)
  std::vector<bool> chooses_;        // per transition: its label names a value chosen in the state
};

}  // namespace statecheck::detail
