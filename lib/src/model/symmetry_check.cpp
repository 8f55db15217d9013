// Symmetry self-checks; see model/symmetry_check.hpp.
#include "model/symmetry_check.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

namespace statecheck::detail {

namespace {

/// One renaming of one symmetric range's ids, laid out as ModelOps::rename
/// takes it, and its printed name ("p1<->p2", "p1->p2, p2->p3, p3->p1").
struct Renaming {
  std::vector<std::uint8_t> table;
  std::string name;
};

/// The printed name of range `kind`'s id at 0-based index `index`.
std::string id_name(const SymmetryKind& kind, int index) {
  const int first = std::stoi(kind.first.substr(kind.prefix.size()));
  return kind.prefix + std::to_string(first + index - kind.first_index);
}

/// `order` lists, for each of range k's ids in turn, the id it becomes.
Renaming make_renaming(const ModelOps& ops, std::uint32_t k, const std::vector<int>& order) {
  const SymmetryKind& kind = ops.symmetry[k];
  Renaming r{std::vector<std::uint8_t>(ops.symmetry.size() * renaming_width), {}};
  for (std::size_t row = 0; row < ops.symmetry.size(); ++row)
    std::iota(r.table.begin() + static_cast<std::ptrdiff_t>(row * renaming_width),
              r.table.begin() + static_cast<std::ptrdiff_t>((row + 1) * renaming_width), std::uint8_t{0});
  std::vector<int> moved;
  for (int i = 0; i < kind.count; ++i) {
    r.table[k * renaming_width + static_cast<std::size_t>(kind.first_index + i)] = static_cast<std::uint8_t>(kind.first_index + order[static_cast<std::size_t>(i)]);
    if (order[static_cast<std::size_t>(i)] != i) moved.push_back(i);
  }
  if (moved.size() == 2 && order[static_cast<std::size_t>(moved[0])] == moved[1]) {
    r.name = id_name(kind, kind.first_index + moved[0]) + "<->" + id_name(kind, kind.first_index + moved[1]);
    return r;
  }
  for (const int i : moved)
    r.name += (r.name.empty() ? "" : ", ") + id_name(kind, kind.first_index + i) + "->" +
              id_name(kind, kind.first_index + order[static_cast<std::size_t>(i)]);
  return r;
}

/// The adjacent swaps of every range: they generate the group, which is
/// enough for a set checked whole (the initial states).
std::vector<Renaming> adjacent_swaps(const ModelOps& ops) {
  std::vector<Renaming> out;
  for (std::uint32_t k = 0; k < ops.symmetry.size(); ++k)
    for (int a = 0; a + 1 < ops.symmetry[k].count; ++a) {
      std::vector<int> order(static_cast<std::size_t>(ops.symmetry[k].count));
      std::iota(order.begin(), order.end(), 0);
      std::swap(order[static_cast<std::size_t>(a)], order[static_cast<std::size_t>(a) + 1]);
      out.push_back(make_renaming(ops, k, order));
    }
  return out;
}

/// The renamings a sampled state is checked under. Generators are not enough
/// on one state: the state in which p1 alone is done is fixed by p2<->p3, so
/// an invariant reading p3 never sees p3 differ. Per range of n ids, in this
/// order (the first failure names the simplest renaming): the n-1 adjacent
/// swaps, the n-1 rotations (each moves every id), then the rest of the group
/// when n <= 3, else two permutations drawn from the state's fingerprint
/// (different states get different ones, yet a run is repeatable). At most
/// 2(n-1)+2 per range.
std::vector<Renaming> state_renamings(const ModelOps& ops, std::uint64_t seed) {
  std::vector<Renaming> out;
  for (std::uint32_t k = 0; k < ops.symmetry.size(); ++k) {
    const int n = ops.symmetry[k].count;
    std::vector<int> identity(static_cast<std::size_t>(n));
    std::iota(identity.begin(), identity.end(), 0);
    std::vector<std::vector<int>> orders;
    const auto add = [&](const std::vector<int>& order) {
      if (order != identity && std::find(orders.begin(), orders.end(), order) == orders.end()) orders.push_back(order);
    };
    for (int a = 0; a + 1 < n; ++a) {
      std::vector<int> order = identity;
      std::swap(order[static_cast<std::size_t>(a)], order[static_cast<std::size_t>(a) + 1]);
      add(order);
    }
    for (int shift = 1; shift < n; ++shift) {
      std::vector<int> order = identity;
      std::rotate(order.begin(), order.begin() + shift, order.end());
      add(order);
    }
    if (n <= 3) {
      std::vector<int> order = identity;
      while (std::next_permutation(order.begin(), order.end())) add(order);
    } else {
      std::mt19937_64 draw(seed ^ (0x9e3779b97f4a7c15ULL * (k + 1)));
      for (int i = 0; i < 2; ++i) {
        std::vector<int> order = identity;
        std::shuffle(order.begin(), order.end(), draw);
        add(order);
      }
    }
    for (const std::vector<int>& order : orders) out.push_back(make_renaming(ops, k, order));
  }
  return out;
}

OwnedState renamed(const ModelView& view, const OwnedState& s, const Renaming& p) {
  OwnedState t = s;
  view.ops().rename(view.ops().model, t.bytes(), p.table.data());
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
                                                   std::uint64_t mask, const Renaming& p) {
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
  for (const Renaming& p : adjacent_swaps(ops))
    for (const OwnedState& s : initial) {
      const OwnedState t = renamed(view, s, p);
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
  std::optional<std::vector<std::vector<Hash128>>> from_s;  // computed once, when a renaming needs it
  for (const Renaming& p : state_renamings(ops, view.fingerprint(s).lo)) {
    const OwnedState t = renamed(view, s, p);
    if (view.equal(s, t)) continue;  // a renaming that fixes the state cannot tell anything apart
    if (auto f = compare_properties(view, s, t, mask, p)) return f;
    if (!view.expandable(s)) continue;
    if (!from_s) from_s = successor_orbits(view, s);
    const std::vector<std::vector<Hash128>> from_t = successor_orbits(view, t);
    for (std::uint32_t a = 0; a < ops.action_names.size(); ++a)
      if ((*from_s)[a] != from_t[a])
        return SelfCheckFailure{"action " + ops.action_names[a],
                                "a state and its renaming " + p.name + " have successors in different orbits: a guard or effect "
                                "names an id the spec declares symmetric, or a std::array indexed by such ids should be an id_array"};
  }
  return std::nullopt;
}

}  // namespace statecheck::detail
