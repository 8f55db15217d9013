// Symmetry self-checks; see tools/symmetry_check.hpp.
#include "tools/symmetry_check.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_set>
#include <vector>

namespace statecheck::detail {

namespace {

/// One adjacent swap of a symmetric kind's ids: indices a and a+1.
struct Swap {
  std::uint32_t kind = 0;
  int a = 0;
  std::string name;  // "s1<->s2"
};

std::vector<Swap> adjacent_swaps(const ModelOps& ops) {
  std::vector<Swap> swaps;
  for (std::uint32_t k = 0; k < ops.symmetry.size(); ++k) {
    const SymmetryKind& kind = ops.symmetry[k];
    // The printed names: the prefix, then the first symmetric id's number plus the offset.
    const int first = std::stoi(kind.first.substr(kind.prefix.size()));
    for (int a = 0; a + 1 < kind.count; ++a)
      swaps.push_back({k, kind.first_index + a,
                       kind.prefix + std::to_string(first + a) + "<->" + kind.prefix + std::to_string(first + a + 1)});
  }
  return swaps;
}

OwnedState swapped(const ModelView& view, const OwnedState& s, const Swap& p) {
  OwnedState t = s;
  view.ops().transpose(view.ops().model, t.bytes(), p.kind, p.a, p.a + 1);
  return t;
}

struct HashLess {
  bool operator()(const Hash128& x, const Hash128& y) const { return x.lo != y.lo ? x.lo < y.lo : x.hi < y.hi; }
};

/// Per action, the fingerprints of its successors' representatives, sorted.
std::vector<std::vector<Hash128>> successor_orbits(const ModelView& view, const OwnedState& s) {
  const ModelOps& ops = view.ops();
  std::vector<std::vector<Hash128>> out(ops.action_names.size());
  OwnedState next = view.blank();
  view.for_each_successor(s, [&](std::uint32_t tid, const std::byte* bytes) {
    std::memcpy(next.bytes(), bytes, ops.state_size);
    ops.canonicalize(ops.model, next.bytes());
    out[ops.action_of_transition[tid]].push_back(view.fingerprint(next));
  });
  for (auto& orbits : out) std::sort(orbits.begin(), orbits.end(), HashLess{});
  return out;
}

std::optional<SelfCheckFailure> compare_properties(const ModelView& view, const OwnedState& s, const OwnedState& t,
                                                   std::uint64_t mask, const Swap& p) {
  const auto& names = view.ops().invariant_names;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    if ((mask & bit) != 0 && view.violated_invariant(s, bit).has_value() != view.violated_invariant(t, bit).has_value())
      return SelfCheckFailure{"invariant " + names[i], "gives different answers for a state and its renaming " + p.name +
                                                           ": it names an id the spec declares symmetric; remove the symmetric<...> part or make the invariant symmetric"};
  }
  const std::uint64_t gs = view.goals_holding(s), gt = view.goals_holding(t);
  for (std::size_t g = 0; g < view.ops().goal_names.size(); ++g)
    if (((gs ^ gt) >> g) & 1u)
      return SelfCheckFailure{"goal " + view.ops().goal_names[g], "gives different answers for a state and its renaming " + p.name +
                                                                      ": it names an id the spec declares symmetric"};
  if (view.expandable(s) != view.expandable(t))
    return SelfCheckFailure{"the constraint", "gives different answers for a state and its renaming " + p.name +
                                                  ": it names an id the spec declares symmetric"};
  return std::nullopt;
}

}  // namespace

std::optional<SelfCheckFailure> check_initial_symmetry(const ModelView& view) {
  const ModelOps& ops = view.ops();
  if (ops.canonicalize == nullptr) return std::nullopt;
  std::vector<OwnedState> initial;
  std::unordered_set<std::uint64_t> low;  // fingerprints' low words; confirmed below by equality
  for (std::uint32_t c = 0; c < ops.init_combinations; ++c)
    if (std::optional<OwnedState> s = view.initial(c)) {
      low.insert(view.fingerprint(*s).lo);
      initial.push_back(std::move(*s));
    }
  for (const Swap& p : adjacent_swaps(ops))
    for (const OwnedState& s : initial) {
      const OwnedState t = swapped(view, s, p);
      const bool found = low.count(view.fingerprint(t).lo) != 0 &&
                         std::any_of(initial.begin(), initial.end(), [&](const OwnedState& i) { return view.equal(i, t); });
      if (!found)
        return SelfCheckFailure{"init", "the initial states are not closed under the renaming " + p.name +
                                            ": the spec's init treats ids it declares symmetric differently"};
    }
  return std::nullopt;
}

std::optional<SelfCheckFailure> check_symmetry(const ModelView& view, const std::byte* state, std::uint64_t mask) {
  const ModelOps& ops = view.ops();
  if (ops.canonicalize == nullptr) return std::nullopt;
  OwnedState s = view.blank();
  std::memcpy(s.bytes(), state, ops.state_size);
  for (const Swap& p : adjacent_swaps(ops)) {
    const OwnedState t = swapped(view, s, p);
    if (auto f = compare_properties(view, s, t, mask, p)) return f;
    if (!view.expandable(s)) continue;
    const std::vector<std::vector<Hash128>> from_s = successor_orbits(view, s), from_t = successor_orbits(view, t);
    for (std::uint32_t a = 0; a < ops.action_names.size(); ++a)
      if (from_s[a] != from_t[a])
        return SelfCheckFailure{"action " + ops.action_names[a],
                                "a state and its renaming " + p.name + " have successors in different orbits: a guard or effect "
                                "names an id the spec declares symmetric, or a std::array indexed by such ids should be an id_array"};
  }
  return std::nullopt;
}

}  // namespace statecheck::detail
