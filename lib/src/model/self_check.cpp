// Spec self-checks; see model/self_check.hpp.
#include "model/self_check.hpp"

#include <cstring>

#include "statecheck/report.hpp"
#include "model/symmetry_check.hpp"

namespace statecheck::detail {

namespace {

/// "x: 1 vs 2, log: [] vs [3]": the fields where two states differ.
std::string differences(const ModelView& view, const OwnedState& a, const OwnedState& b) {
  const std::vector<Field> fa = flatten(view.value(a));
  const std::vector<Field> fb = flatten(view.value(b));
  std::string out;
  for (std::size_t i = 0; i < fa.size() && i < fb.size(); ++i) {
    if (fa[i].text == fb[i].text) continue;
    if (!out.empty()) out += ", ";
    out += fa[i].path + ": " + fa[i].text + " vs " + fb[i].text;
  }
  return out.empty() ? "no field differs, so operator== and the fields disagree" : out;
}

std::optional<SelfCheckFailure> check_encoding(const ModelView& view, const OwnedState& s) {
  const OwnedState copy = s;
  if (view.fingerprint(s) != view.fingerprint(s) || view.fingerprint(s) != view.fingerprint(copy))
    return SelfCheckFailure{"encoding", "the same state hashed twice gives two fingerprints: a member_traits "
                                        "encode() is not a function of the member's value"};
  if (!view.equal(s, copy))
    return SelfCheckFailure{"operator==", "a state does not compare equal to its own copy: fix the state's operator=="};
  return std::nullopt;
}

std::optional<SelfCheckFailure> check_properties(const ModelView& view, const OwnedState& s, std::uint64_t mask) {
  const auto& names = view.ops().invariant_names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    if ((mask & bit) == 0) continue;
    if (view.violated_invariant(s, bit).has_value() != view.violated_invariant(s, bit).has_value())
      return SelfCheckFailure{"invariant " + names[i],
                              "gives different answers for the same state: an invariant must be a pure function "
                              "of the state (no static or captured mutable variables)"};
  }
  if (view.goals_holding(s) != view.goals_holding(s))
    return SelfCheckFailure{"goals", "a goal gives different answers for the same state: goals must be pure functions "
                                     "of the state"};
  return std::nullopt;
}

std::string where(const ModelView& view, std::uint32_t tid, const OwnedState& s) { return "action " + view.label(tid, s); }

/// What is wrong with the fingerprints of a successor `first` (equal to `second`) of `s`.
std::optional<std::string> check_successor_fingerprint(const ModelView& view, const OwnedState& s,
                                                       const OwnedState& first, const OwnedState& second) {
  const Hash128 h = view.fingerprint(first);
  if (h != view.fingerprint(second))
    return "two equal successors have different fingerprints: the encoding includes something operator== ignores; "
           "make them agree";
  if (view.equal(first, s) && h != view.fingerprint(s))
    return "a successor equal to its state has a different fingerprint: the encoding includes something operator== "
           "ignores; make them agree";
  if (!view.equal(first, s) && h == view.fingerprint(s))
    return "a successor that differs from its state (" + differences(view, s, first) +
           ") has the same fingerprint: the encoding drops a field operator== compares";
  return std::nullopt;
}

/// A transition the spec's enumeration offers in a state, and its
/// successor's fingerprint (not the successor: a state's fan-out of big
/// states would not fit).
struct Enumerated {
  std::uint32_t tid;
  Hash128 next;
};

std::vector<Enumerated> enumerated_successors(const ModelView& view, const OwnedState& s) {
  std::vector<Enumerated> out;
  OwnedState next = view.blank();
  view.for_each_successor(s, [&](std::uint32_t tid, const std::byte* bytes) {
    std::memcpy(next.bytes(), bytes, view.ops().state_size);
    out.push_back({tid, view.fingerprint(next)});
  });
  return out;
}

/// The successor by `tid` as the enumeration gives it (for a message).
OwnedState enumerated_successor(const ModelView& view, const OwnedState& s, std::uint32_t tid) {
  OwnedState out = s;
  view.for_each_successor(s, [&](std::uint32_t t, const std::byte* bytes) {
    if (t == tid) std::memcpy(out.bytes(), bytes, view.ops().state_size);
  });
  return out;
}

/// Each transition is stepped twice and compared with what the enumeration
/// gave (in id order). A choice's ids beyond the values it offers are left
/// out: stepping them would walk the choice's values once per id of its bound.
std::optional<SelfCheckFailure> check_transitions(const ModelView& view, const OwnedState& s) {
  const std::vector<Enumerated> enumerated = enumerated_successors(view, s);
  std::size_t next = 0;  // the first enumerated transition not yet compared
  OwnedState first = s, second = s;
  for (std::uint32_t tid = 0; tid < view.ops().transitions; ++tid) {
    const Enumerated* offered = next < enumerated.size() && enumerated[next].tid == tid ? &enumerated[next++] : nullptr;
    if (view.chooses(tid) && offered == nullptr) continue;
    std::memcpy(first.bytes(), s.bytes(), view.ops().state_size);
    std::memcpy(second.bytes(), s.bytes(), view.ops().state_size);
    const bool a = view.step(first, tid);
    const bool b = view.step(second, tid);
    if (a != b || a != (offered != nullptr))
      return SelfCheckFailure{where(view, tid, s), "its guard gives different answers for the same state: guards must be "
                                                   "pure functions of the state and parameters"};
    if (!a) continue;
    const std::string differ = "applied twice to the same state it gives different successors (";
    const std::string fix = "): effects must depend only on the state and parameters";
    if (!view.equal(first, second)) return SelfCheckFailure{where(view, tid, s), differ + differences(view, first, second) + fix};
    if (auto f = check_successor_fingerprint(view, s, first, second)) return SelfCheckFailure{where(view, tid, s), *f};
    if (view.fingerprint(first) != offered->next)
      return SelfCheckFailure{where(view, tid, s),
                              differ + differences(view, enumerated_successor(view, s, tid), first) + fix};
  }
  return std::nullopt;
}

}  // namespace

std::optional<SelfCheckFailure> self_check(const ModelView& view, const std::byte* state, std::uint64_t invariant_mask) {
  OwnedState s = view.blank();
  std::memcpy(s.bytes(), state, view.ops().state_size);
  try {
    if (auto f = check_encoding(view, s)) return f;
    if (auto f = check_properties(view, s, invariant_mask)) return f;
    if (view.expandable(s))
      if (auto f = check_transitions(view, s)) return f;
    if (auto f = check_symmetry(view, state, invariant_mask)) return f;
  } catch (...) {
    // The search runs the same code on this state next and reports the
    // exception better: with the action or property that threw.
  }
  return std::nullopt;
}

}  // namespace statecheck::detail
