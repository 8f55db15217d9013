// statecheck/detail/symmetry_types.hpp - a spec's symmetry_t<Tags...> as the
// types the model needs: its canonicalizer, its renamings, the description
// of each symmetric range (prefix, first and last id names), the refusal of
// ranges that cannot be meant, and the renamings' erased layout (ModelOps).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "statecheck/detail/canonical.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "statecheck/ids.hpp"
#include "statecheck/result.hpp"
#include "statecheck/symmetry.hpp"

namespace statecheck::detail {

template <class State, class Symmetry>
struct symmetry_types;
template <class State, class... Tags>
struct symmetry_types<State, symmetry_t<Tags...>> {
  using canonicalizer = Canonicalizer<State, Tags...>;
  using perm = permutation<Tags...>;
  using symmetry = symmetry_t<Tags...>;
  static constexpr std::size_t ranges = sizeof...(Tags);

  /// Range k's id prefix and the names of its first and last symmetric ids.
  static SymmetryKind describe(std::size_t k, int first, int count) {
    SymmetryKind out;
    std::size_t i = 0;
    ((i++ == k ? (out = SymmetryKind{std::string(Tags::prefix), id<Tags>(first).name(),
                                     id<Tags>(count > 0 ? first + count - 1 : first).name(), first, count}, 0) : 0), ...);
    return out;
  }

  /// Throws config_error (one line, with the fix) for a range outside
  /// 0..max_symmetric_ids-1, or two ranges of one kind that share an id.
  static void check_ranges(std::string_view spec, const symmetry& sym) {
    const auto part = [&](std::size_t k) {
      return "symmetric<" + describe(k, 0, 0).prefix + ">(" + std::to_string(sym.firsts[k]) + ", " +
             std::to_string(sym.counts[k]) + ")";
    };
    for (std::size_t k = 0; k < ranges; ++k) {
      const int first = sym.firsts[k], count = sym.counts[k];
      if (first < 0 || count < 0 || first + count > max_symmetric_ids)
        throw config_error("spec '" + std::string(spec) + "': " + part(k) + " must name ids within 0.." +
                           std::to_string(max_symmetric_ids - 1) + ": give first >= 0, count >= 0 and first + count <= " +
                           std::to_string(max_symmetric_ids));
    }
    for (std::size_t k = 0; k < ranges; ++k)
      for (std::size_t j = k + 1; j < ranges; ++j) {
        const bool overlap = symmetry::row[k] == symmetry::row[j] && sym.counts[k] > 0 && sym.counts[j] > 0 &&
                             sym.firsts[k] < sym.firsts[j] + sym.counts[j] && sym.firsts[j] < sym.firsts[k] + sym.counts[k];
        if (overlap)
          throw config_error("spec '" + std::string(spec) + "': " + part(k) + " and " + part(j) +
                             " overlap: an id may be in one symmetric range only; give disjoint ranges (or one range covering both)");
      }
  }

  /// Writes `p` as ModelOps lays renamings out: one row of renaming_width per
  /// range, each the whole renaming of its kind (the ranges of a kind share it).
  static void store(const perm& p, std::uint8_t* renaming) {
    for (std::size_t k = 0; k < ranges; ++k) std::memcpy(renaming + k * renaming_width, p.to[symmetry::row[k]].data(), renaming_width);
  }
  /// The renaming laid out by store: each range's ids from its own row.
  static perm load(const symmetry& sym, const std::uint8_t* renaming) {
    perm p = perm::identity();
    for (std::size_t k = 0; k < ranges; ++k)
      for (int i = sym.firsts[k]; i < sym.firsts[k] + sym.counts[k]; ++i)
        p.to[symmetry::row[k]][static_cast<std::size_t>(i)] = renaming[k * renaming_width + static_cast<std::size_t>(i)];
    return p;
  }
  /// Swaps ids a and b of range k.
  static perm transposition(std::size_t k, int a, int b) {
    perm p = perm::identity();
    p.to[symmetry::row[k]][static_cast<std::size_t>(a)] = static_cast<std::uint8_t>(b);
    p.to[symmetry::row[k]][static_cast<std::size_t>(b)] = static_cast<std::uint8_t>(a);
    return p;
  }
};

}  // namespace statecheck::detail
