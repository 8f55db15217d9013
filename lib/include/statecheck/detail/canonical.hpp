// statecheck/detail/canonical.hpp - the representative of a state's orbit
// under the spec's symmetry (statecheck/symmetry.hpp).
//
// Exactness: every state of an orbit must map to the same representative, or
// counts would depend on which member a thread met first. The representative
// is the smallest state (statecheck::order) among the renamings that sort the
// ids by a signature. A signature sums, over every place an id occurs, a hash
// of where (the field's path in the state type, a vector position) and in
// what role (it owns an id_array slot or map entry holding these values; it
// is held by such an entry). Renaming a state renames its signatures with it,
// so the candidate set, and its minimum, is the same for every member of the
// orbit. Ids with equal signatures are tried in every order, except a run of
// tied ids that the state itself cannot tell apart (swapping any two
// neighbours of the run leaves it unchanged: then every order of the run gives
// the same state, as in an initial state where all ids start alike). The cost
// is one renaming when all signatures differ; the worst case is n! renamings,
// for n ids whose signatures tie although the state tells them apart. A kind
// declared in several disjoint ranges is sorted and tried range by range
// (ids never move between ranges): the group is the product of the ranges'.
#pragma once

#include <algorithm>
#include <array>
#include <bitset>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/members.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <type_traits>

#include "statecheck/bounded_set.hpp"
#include "statecheck/detail/clocks.hpp"
#include "statecheck/symmetry.hpp"

namespace statecheck::detail {

inline constexpr std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
inline constexpr std::uint64_t mix64(std::uint64_t a, std::uint64_t b) { return mix64(a * 0x9e3779b97f4a7c15ULL + b); }

template <class... Tags>
class Signatures {
 public:
  static constexpr std::size_t none = sizeof...(Tags);
  struct Owner {
    std::size_t kind = none;
    int index = 0;
  };

  /// `symmetric[k]`: bit i set when id i of kind k (its row) is in one of the kind's ranges.
  explicit Signatures(const std::array<std::uint32_t, sizeof...(Tags)>& symmetric) : symmetric_(symmetric) {}
  std::uint64_t of(std::size_t kind, int index) const { return sig_[kind][static_cast<std::size_t>(index)]; }

  /// Adds the occurrences of symmetric ids (and owned scalars) in `v` at `path`.
  template <class T>
  void walk(const T& v, std::uint64_t path, Owner owner) {
    if constexpr (is_id<T>::value) {
      note_id(v, path, owner);
    } else if constexpr (is_tagged_id_set<T>::value) {
      v.for_each([&](auto member) { note_id(member, path, owner); });
    } else if constexpr (is_id_array<T>::value) {
      for (int i = 0; i < v.size(); ++i) {
        const id<typename T::tag> slot(i);
        // A slot that renaming does not move keeps its place, which may tell ids apart.
        const std::uint64_t place = symmetric(slot) ? 1 : 1000 + static_cast<std::uint64_t>(i);
        walk(v[slot], mix64(path, place), owner_of(slot, owner));
      }
    } else if constexpr (is_bounded_map<T>::value) {
      for (const auto& e : v) {
        walk(e.key, mix64(path, 2), owner);
        walk(e.value, mix64(path, 3), owner_of(e.key, owner));
      }
    } else if constexpr (is_bounded_set<T>::value) {
      for (const auto& item : v) walk(item, mix64(path, 4), owner);
    } else if constexpr (is_one_of<T>::value) {  // the alternative held tells values apart too
      v.visit([&](const auto& alternative) { walk(alternative, mix64(path, 60 + v.index()), owner); });
    } else if constexpr (is_bounded_vec<T>::value || is_std_array<T>::value) {
      std::uint64_t position = 5;  // positions are not renamed: they may tell ids apart
      for (const auto& item : v) walk(item, mix64(path, position++), owner);
    } else if constexpr (boost::hana::Struct<T>::value) {
      std::uint64_t member = 100;
      boost::hana::for_each(boost::hana::members(v), [&](const auto& m) { walk(m, mix64(path, member++), owner); });
    } else if (owner.kind != none) {
      add(owner, path, scalar(v));
    }
  }

 private:
  template <class T>
  static std::uint64_t scalar(const T& v) {
    if constexpr (std::is_integral_v<T>) return static_cast<std::uint64_t>(v);
    else if constexpr (std::is_enum_v<T>) return static_cast<std::uint64_t>(v);
    else if constexpr (is_id<T>::value) return static_cast<std::uint64_t>(v.index());
    else if constexpr (is_clock<T>::value) return clock_access::code(v);  // a datanode's timer tells it apart
    else if constexpr (requires { std::hash<T>{}(v); }) return std::hash<T>{}(v);
    else return 0;  // a custom type: it only weakens the signature, never breaks it
  }
  template <class Tag>
  static constexpr std::size_t kind_of() { return kind_index<Tag, Tags...>(); }

  template <class Tag>
  bool symmetric(id<Tag> i) const {
    constexpr std::size_t k = kind_of<Tag>();
    if constexpr (k == none) return false;
    else return i.index() >= 0 && i.index() < max_symmetric_ids && ((symmetric_[k] >> i.index()) & 1u) != 0;
  }
  /// The owner of what an id_array slot or a map entry keyed by `key` holds.
  template <class K>
  Owner owner_of(const K& key, Owner outer) const {
    if constexpr (is_id<K>::value) {
      if (symmetric(key)) return {kind_of<typename K::tag>(), key.index()};
    }
    return outer;
  }
  template <class Tag>
  void note_id(id<Tag> i, std::uint64_t path, Owner owner) {
    if (!symmetric(i)) {
      if (owner.kind != none) add(owner, path, static_cast<std::uint64_t>(i.index()));
      return;
    }
    const Owner self{kind_of<Tag>(), i.index()};
    if (owner.kind == none) {
      add(self, path, 1);
    } else if (owner.kind == self.kind && owner.index == self.index) {
      add(self, path, 2);  // an entry naming its own id
    } else {
      add(self, path, 3 + owner.kind);  // held by another's entry
      add(owner, path, 1000 + self.kind);  // holds another's id
    }
  }
  void add(Owner o, std::uint64_t path, std::uint64_t what) {
    sig_[o.kind][static_cast<std::size_t>(o.index)] += mix64(path, what);
  }

  std::array<std::uint32_t, sizeof...(Tags)> symmetric_;
  std::array<std::array<std::uint64_t, max_symmetric_ids>, sizeof...(Tags)> sig_{};
};

/// Maps a state to its orbit's representative, in place. No allocation: the
/// candidates live on the stack.
template <class State, class... Tags>
class Canonicalizer {
 public:
  using Perm = permutation<Tags...>;
  static constexpr std::size_t kinds = sizeof...(Tags);  // ranges (a kind may have several)

  explicit Canonicalizer(const symmetry_t<Tags...>& symmetry) : sym_(symmetry), counts_(symmetry.counts) {
    for (std::size_t k = 0; k < kinds; ++k)
      for (int i = symmetry.firsts[k]; i < symmetry.firsts[k] + symmetry.counts[k]; ++i)
        if (i >= 0 && i < max_symmetric_ids) symmetric_[row(k)] |= std::uint32_t{1} << i;
  }

  /// Replaces `s` by its representative; returns the number of candidate renamings tried.
  std::uint64_t operator()(State& s) const { return canonicalize<false>(s, nullptr); }

  /// As operator(), and `applied` receives the renaming that took `s` to its
  /// representative (one of them when the representative has a nontrivial
  /// stabilizer). Cold: the trace passes use it, the search does not.
  std::uint64_t operator()(State& s, Perm& applied) const { return canonicalize<true>(s, &applied); }

  /// The number of renamings that leave `s` unchanged (its stabilizer), or 0
  /// when counting them would try more than `limit` candidates. A renaming
  /// that fixes s maps each id to one of equal signature, so only the orders
  /// within runs of ties are candidates; a run whose neighbour swaps all fix s
  /// contributes run! at once (every order of it fixes s). The orbit of s
  /// holds |group| / stabilizer states. Cold: once per new representative.
  std::uint64_t stabilizer(const State& s, std::uint64_t limit) const {
    Order order{};
    Runs runs{};
    if (!sort(s, order, runs)) return 1;
    std::uint64_t fixing_runs = 1;
    if (!drop_interchangeable_runs(s, order, runs, &fixing_runs)) return fixing_runs;
    if (candidates(runs) > limit) return 0;
    State base = s;
    apply(base, order);
    std::uint64_t fixing = 1;  // the base order itself
    while (advance(runs, order)) {
      State candidate = s;
      apply(candidate, order);
      if (candidate == base) ++fixing;
    }
    return fixing_runs * fixing;
  }

 private:
  /// The permutation row renaming range k's ids (shared by the ranges of one kind).
  static constexpr std::size_t row(std::size_t k) { return symmetry_t<Tags...>::row[k]; }

  /// Per range and sorted position: the id there.
  using Order = std::array<std::array<std::uint8_t, max_symmetric_ids>, kinds>;
  /// Per range and sorted position: the position where its run of tied ids starts
  /// (its own position when it is alone or its run needs no enumeration).
  using Runs = std::array<std::array<std::uint8_t, max_symmetric_ids>, kinds>;

  /// The search's canonicalization, and (Record) the trace passes' one that says which renaming it applied.
  template <bool Record>
  std::uint64_t canonicalize(State& s, Perm* applied) const {
    Order order{};
    Runs runs{};
    bool tied = sort(s, order, runs);
    if (tied) tied = drop_interchangeable_runs(s, order, runs, nullptr);
    if (!tied) {
      apply(s, order);
      if constexpr (Record) *applied = renaming(order);
      return 1;
    }
    return smallest<Record>(s, runs, order, applied);
  }

  /// Sorts every range's ids by signature; true when some tie.
  bool sort(const State& s, Order& order, Runs& runs) const {
    Signatures<Tags...> sig(symmetric_);
    sig.walk(s, 0, {});
    bool tied = false;
    for (std::size_t k = 0; k < kinds; ++k) tied = sort_kind(sig, k, order[k], runs[k]) || tied;
    return tied;
  }
  /// The orders of the runs left to try (saturates past 2^32).
  std::uint64_t candidates(const Runs& runs) const {
    std::uint64_t n = 1;
    for (std::size_t k = 0; k < kinds; ++k)
      for (int i = 0; i < counts_[k]; ++i) {
        const int from_start = i - runs[k][static_cast<std::size_t>(i)];  // position in its run, from 0
        n = std::min<std::uint64_t>(n * static_cast<std::uint64_t>(from_start + 1), std::uint64_t{1} << 32);
      }
    return n;
  }

  /// Sorts range k's ids by signature, each run of ties by index; true when some tie.
  bool sort_kind(const Signatures<Tags...>& sig, std::size_t k, std::array<std::uint8_t, max_symmetric_ids>& ids,
                 std::array<std::uint8_t, max_symmetric_ids>& run) const {
    const int n = counts_[k];
    for (int i = 0; i < n; ++i) ids[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(sym_.firsts[k] + i);
    std::sort(ids.begin(), ids.begin() + n, [&](std::uint8_t a, std::uint8_t b) {
      const std::uint64_t sa = sig.of(row(k), a), sb = sig.of(row(k), b);
      return sa != sb ? sa < sb : a < b;
    });
    bool tied = false;
    for (int i = 0; i < n; ++i) {
      const auto at = static_cast<std::size_t>(i);
      const bool same = i > 0 && sig.of(row(k), ids[at]) == sig.of(row(k), ids[at - 1]);
      run[at] = same ? run[at - 1] : static_cast<std::uint8_t>(i);
      tied = tied || same;
    }
    return tied;
  }

  /// Marks as alone the runs whose ids `s` cannot tell apart (every swap of
  /// neighbours in the run fixes s: they generate all orders of the run, so
  /// each order gives the same candidates). True when some run is left to try.
  /// `orders` (if given) is multiplied by the number of orders of the runs dropped.
  bool drop_interchangeable_runs(const State& s, const Order& order, Runs& runs, std::uint64_t* orders) const {
    bool left = false;
    for (std::size_t k = 0; k < kinds; ++k) {
      int start = 0;
      while (start < counts_[k]) {
        int end = start + 1;
        while (end < counts_[k] && runs[k][static_cast<std::size_t>(end)] == start) ++end;
        if (end - start > 1) {
          if (swaps_fix(s, k, order[k], start, end)) {
            for (int i = start; i < end; ++i) runs[k][static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(i);
            if (orders != nullptr)
              for (int i = 2; i <= end - start; ++i) *orders *= static_cast<std::uint64_t>(i);
          } else {
            left = true;
          }
        }
        start = end;
      }
    }
    return left;
  }
  bool swaps_fix(const State& s, std::size_t k, const std::array<std::uint8_t, max_symmetric_ids>& ids, int start,
                 int end) const {
    for (int i = start; i + 1 < end; ++i) {
      Perm swap = Perm::identity();
      const std::uint8_t a = ids[static_cast<std::size_t>(i)], b = ids[static_cast<std::size_t>(i + 1)];
      swap.to[row(k)][a] = b;
      swap.to[row(k)][b] = a;
      State t = s;
      permute(t, swap);
      if (!(t == s)) return false;
    }
    return true;
  }

  /// The renaming that gives the id at sorted position r the new index first + r.
  Perm renaming(const Order& order) const {
    Perm p = Perm::identity();
    for (std::size_t k = 0; k < kinds; ++k)
      for (int r = 0; r < counts_[k]; ++r)
        p.to[row(k)][order[k][static_cast<std::size_t>(r)]] = static_cast<std::uint8_t>(sym_.firsts[k] + r);
    return p;
  }
  void apply(State& s, const Order& order) const {
    bool identity = true;
    for (std::size_t k = 0; k < kinds; ++k)
      for (int r = 0; r < counts_[k]; ++r) identity = identity && order[k][static_cast<std::size_t>(r)] == sym_.firsts[k] + r;
    if (!identity) permute(s, renaming(order));
  }

  /// Every order of each run of ties (an odometer over next_permutation); keeps the smallest result.
  template <bool Record>
  std::uint64_t smallest(State& s, const Runs& runs, Order order, Perm* applied) const {
    const State original = s;
    apply(s, order);
    if constexpr (Record) *applied = renaming(order);
    std::uint64_t tried = 1;
    while (advance(runs, order)) {
      State candidate = original;
      apply(candidate, order);
      ++tried;
      if (statecheck::order(candidate, s) < 0) {
        s = candidate;
        if constexpr (Record) *applied = renaming(order);
      }
    }
    return tried;
  }
  /// The next combination of tie orders; false after the last one (all back in index order).
  bool advance(const Runs& runs, Order& order) const {
    for (std::size_t k = 0; k < kinds; ++k) {
      auto& ids = order[k];
      int start = 0;
      const int n = counts_[k];
      while (start < n) {
        int end = start + 1;
        while (end < n && runs[k][static_cast<std::size_t>(end)] == start) ++end;
        if (end - start > 1 && std::next_permutation(ids.begin() + start, ids.begin() + end)) return true;
        start = end;  // this run wrapped back to index order: carry into the next run
      }
    }
    return false;
  }

  symmetry_t<Tags...> sym_;
  std::array<int, kinds> counts_;
  std::array<std::uint32_t, kinds> symmetric_{};  // per row: the ids in one of its kind's ranges
};

}  // namespace statecheck::detail
