// statecheck/detail/model_cold.hpp - a Model's type-erased entries that run
// outside the search's loops: making one initial state, replaying one
// transition, listing a state's successors, describing a transition, the
// symmetry's canonical form and renamings, and a state as a Value. Simulate,
// replay, the state graph, the trace builder and the self-checks call them, a
// state at a time; the per-successor loops stay in detail/model.hpp.
#pragma once

#include <concepts>
#include <cstdint>
#include <exception>
#include <new>
#include <stdexcept>

#include "statecheck/detail/id_array_checks.hpp"
#include "statecheck/detail/hash.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "statecheck/detail/symmetry_types.hpp"
#include "statecheck/detail/transitions.hpp"
#include "statecheck/spec.hpp"
#include "statecheck/symmetry.hpp"
#include "statecheck/value.hpp"

namespace statecheck::detail {

/// The cold entries of Model `M` (a friend of M: they read its spec, its
/// transition table and its canonicalizer). Each rethrows whatever spec code
/// threw as a std::exception, so that its callers handle one kind.
template <class M>
struct ModelCold {
  using State = typename M::State;
  using Sym = typename M::Sym;

  static const M& self(const void* m) { return M::self(m); }

  /// Rethrows whatever spec code threw as a std::exception.
  template <class F>
  static bool as_std_exception(F&& f) {
    try {
      return f();
    } catch (const std::exception&) {
      throw;
    } catch (...) {
      throw std::runtime_error(non_std_exception);
    }
  }

  static bool make_initial(const void* m, std::uint32_t combination, std::byte* out) {
    const M& me = self(m);
    State* s = new (out) State{};
    return as_std_exception([&] {
      return with_combination(me.spec_.init.params, combination, me.init_combinations_,
                              [&](const auto&... vs) { return M::run_init(me.spec_.init.fn, *s, vs...); });
    });
  }

  static void check_initial(const void* m, const std::byte* state) {
    check_id_arrays(self(m).spec_, *std::launder(reinterpret_cast<const State*>(state)));
  }

  static bool replay(const void* m, std::byte* state, std::uint32_t tid) {
    return as_std_exception([&] { return self(m).table_.apply(tid, *std::launder(reinterpret_cast<State*>(state))); });
  }

  static void successors(const void* m, const std::byte* state, void* sink,
                         void (*take)(void* sink, std::uint32_t tid, const std::byte* next)) {
    const State& s = *std::launder(reinterpret_cast<const State*>(state));
    as_std_exception([&] {
      self(m).table_.for_each(s, [&](std::uint32_t tid, const auto& a, const auto&... vs) {
        if (!a.guard(s, vs...)) return;
        State next(s);
        apply_effect(a.effect, s, next, vs...);
        take(sink, tid, reinterpret_cast<const std::byte*>(&next));
      });
      return true;
    });
  }

  static bool expandable(const void* m, const std::byte* state) {
    if constexpr (M::spec_type::has_constraint) {
      return as_std_exception(
          [&] { return self(m).spec_.constraint.fn(*std::launder(reinterpret_cast<const State*>(state))); });
    } else {
      (void)m;
      (void)state;
      return true;
    }
  }

  static Hash128 fingerprint_erased(const void*, const std::byte* state, std::byte* scratch) {
    return M::fingerprint(*std::launder(reinterpret_cast<const State*>(state)), scratch);
  }

  static TransitionInfo describe(const void* m, const std::byte* state, std::uint32_t tid) {
    if (state == nullptr) return self(m).table_.describe(tid);
    TransitionInfo info;
    as_std_exception([&] {
      info = self(m).table_.describe(tid, std::launder(reinterpret_cast<const State*>(state)));
      return true;
    });
    return info;
  }

  static std::uint64_t canonicalize(const void* m, std::byte* state) {
    std::uint64_t tried = 1;
    as_std_exception([&] {
      tried = self(m).canon_(*std::launder(reinterpret_cast<State*>(state)));
      return true;
    });
    return tried;
  }

  static_assert(renaming_width == max_symmetric_ids, "ModelOps renamings hold one row of max_symmetric_ids per kind");

  static std::uint64_t canonicalize_renaming(const void* m, std::byte* state, std::uint8_t* renaming) {
    std::uint64_t tried = 1;
    typename Sym::perm applied = Sym::perm::identity();
    as_std_exception([&] {
      tried = self(m).canon_(*std::launder(reinterpret_cast<State*>(state)), applied);
      return true;
    });
    Sym::store(applied, renaming);
    return tried;
  }

  static void rename(const void* m, std::byte* state, const std::uint8_t* renaming) {
    const typename Sym::perm p = Sym::load(self(m).spec_.symmetry, renaming);
    as_std_exception([&] {
      permute(*std::launder(reinterpret_cast<State*>(state)), p);
      return true;
    });
  }

  /// The renamings that fix a representative, 0 when too many to count (Canonicalizer::stabilizer).
  static std::uint64_t stabilizer(const void* m, const std::byte* state) {
    std::uint64_t fixing = 0;
    as_std_exception([&] {
      fixing = self(m).canon_.stabilizer(*std::launder(reinterpret_cast<const State*>(state)), max_stabilizer_candidates);
      return true;
    });
    return fixing;
  }

  /// Swaps ids a and b (indices) of symmetric range `kind` in the state (the self-checks' renamings).
  static void transpose(const void*, std::byte* state, std::uint32_t kind, int a, int b) {
    const typename Sym::perm p = Sym::transposition(kind, a, b);
    as_std_exception([&] {
      permute(*std::launder(reinterpret_cast<State*>(state)), p);
      return true;
    });
  }

  static Value value_of(const void* m, const std::byte* state) {
    if constexpr (M::spec_type::timed) {
      const printing_time_unit unit(self(m).spec_.time.clock_timing.unit());  // clocks print in real units
      return to_value(*std::launder(reinterpret_cast<const State*>(state)));
    } else {
      (void)m;
      return to_value(*std::launder(reinterpret_cast<const State*>(state)));
    }
  }

  static std::string blocking_deadline(const void* m, const std::byte* state) {
    if constexpr (M::spec_type::timed) {
      std::string name;
      as_std_exception([&] {
        name = self(m).table_.time_step().blocking_deadline(*std::launder(reinterpret_cast<const State*>(state)));
        return true;
      });
      return name;
    } else {
      (void)m;
      (void)state;
      return "";
    }
  }

  static bool equal(const std::byte* a, const std::byte* b) {
    if constexpr (std::equality_comparable<State>) {
      return *std::launder(reinterpret_cast<const State*>(a)) == *std::launder(reinterpret_cast<const State*>(b));
    } else {  // refused by spec<State>(...) (state_mistake in spec_checks.hpp); nothing more to say here
      (void)a;
      (void)b;
      return false;
    }
  }

};

}  // namespace statecheck::detail
