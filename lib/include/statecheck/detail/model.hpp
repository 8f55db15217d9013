// statecheck/detail/model.hpp - a spec seen through ModelOps: the per-chunk
// loops that run the spec's guards, effects and properties, instantiated once
// per spec type. Everything per successor happens here, inline; the entries
// called a state at a time are in detail/model_cold.hpp.
#pragma once

#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <tuple>
#include <type_traits>

#include "statecheck/detail/hash.hpp"
#include "statecheck/detail/model_cold.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "statecheck/detail/search.hpp"
#include "statecheck/detail/symmetry_types.hpp"
#include "statecheck/detail/transitions.hpp"
#include "statecheck/detail/worker.hpp"
#include "statecheck/spec.hpp"

namespace statecheck::detail {

template <class Spec>
class Model {
 public:
  using spec_type = Spec;
  using State = typename Spec::state_type;
  /// Raw bytes are canonical when the state has no padding bits.
  static constexpr bool raw = std::has_unique_object_representations_v<State>;
  static_assert(alignof(State) <= 8, "statecheck: state members aligned above 8 bytes are not supported");

  /// Throws config_error for a spec beyond the limits of detail/domains.hpp,
  /// or with two actions, invariants or goals of the same name.
  explicit Model(const Spec& spec)
      : spec_(spec), table_(spec_),
        init_combinations_(static_cast<std::uint32_t>(
            checked_combinations(spec_.name, "", spec_.init.params, max_enumerated))),
        canon_(checked_symmetry(spec_)) {
    require_unique_names(spec_);
  }
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  ModelOps ops() const {
    using Cold = ModelCold<Model>;
    ModelOps o;
    o.model = this;
    o.model_alive = alive_;
    o.name = std::string(spec_.name);
    o.state_size = sizeof(State);
    o.encoding_size = raw ? 0 : encoded_size<State>;
    o.transitions = table_.count();
    o.init_combinations = init_combinations_;
    o.deadlock_allowed = spec_.deadlock_allowed;
    o.constraint_prunes = Spec::constraint_prunes;
    o.action_names = table_.action_names();
    o.action_actors = table_.action_actors();
    o.action_targets = table_.action_targets();
    for (std::uint32_t t = 0; t < o.transitions; ++t) o.action_of_transition.push_back(table_.action_of(t));
    std::apply([&](const auto&... i) { (o.invariant_names.emplace_back(i.name), ...); }, spec_.invariants.list);
    std::apply([&](const auto&... g) { (o.goal_names.emplace_back(g.name), ...); }, spec_.goals.list);
    if constexpr (Spec::timed) {
      o.time_unit_ms = table_.time_step().unit_ms();
      o.time_action = static_cast<std::uint32_t>(o.action_names.size() - 1);
      o.timelock_allowed = spec_.time.timelock_allowed;
      o.blocking_deadline = &Cold::blocking_deadline;
    }
    o.initial = &initial<Spec::has_symmetry>;
    o.expand = &expand<Spec::has_symmetry>;
    o.check = &check;
    o.make_initial = &Cold::make_initial;
    o.check_initial = &Cold::check_initial;
    o.replay = &Cold::replay;
    o.successors = &Cold::successors;
    o.expandable = &Cold::expandable;
    o.fingerprint = &Cold::fingerprint_erased;
    o.describe = &Cold::describe;
    o.to_value = &Cold::value_of;
    o.equal = &Cold::equal;
    if constexpr (Spec::has_symmetry) {
      o.plain_initial = &initial<false>;
      o.plain_expand = &expand<false>;
      o.canonicalize = &Cold::canonicalize;
      o.canonicalize_renaming = &Cold::canonicalize_renaming;
      o.rename = &Cold::rename;
      o.transpose = &Cold::transpose;
      o.stabilizer = &Cold::stabilizer;
      for (std::size_t k = 0; k < Spec::symmetry_type::kinds; ++k)
        o.symmetry.push_back(Sym::describe(k, spec_.symmetry.firsts[k], spec_.symmetry.counts[k]));
    }
    return o;
  }

  /// How many bytes a fingerprint hashes: the state's, or its encoding's.
  static constexpr std::size_t hashed_size = raw ? sizeof(State) : encoded_size<State>;
  /// The bytes a fingerprint hashes: the state itself when its raw bytes are
  /// canonical, else its canonical encoding, written to `encoding`.
  static const std::byte* hashed_bytes(const State& s, std::byte* encoding) {
    if constexpr (raw) {
      (void)encoding;
      return reinterpret_cast<const std::byte*>(&s);
    } else {
      std::byte* out = encoding;
      member_traits<State>::encode(s, out);
      return encoding;
    }
  }
  /// Fingerprint of a state; `encoding` receives the canonical encoding
  /// unless the raw bytes are canonical.
  static Hash128 fingerprint(const State& s, std::byte* encoding) {
    return hash_bytes(hashed_bytes(s, encoding), hashed_size);
  }

 private:
  friend struct ModelCold<Model>;
  using Sym = symmetry_types<State, typename Spec::symmetry_type>;

  /// The symmetry's canonicalizer; throws config_error for a range outside
  /// 0..max_symmetric_ids or two overlapping ranges of one kind.
  static typename Sym::canonicalizer checked_symmetry(const Spec& spec) {
    Sym::check_ranges(spec.name, spec.symmetry);
    return typename Sym::canonicalizer(spec.symmetry);
  }

  static const Model& self(const void* m) { return *static_cast<const Model*>(m); }

  template <bool Symmetric>
  static void initial(const void* m, Worker& w) {
    const Model& me = self(m);
    std::uint32_t combination = 0;
    struct stop_init {};  // leaves the combination loops at once
    auto make = [&](const auto&... vs) {
      // Ctrl-C is seen during a long init too, and the search reports it
      // (every 4096 combinations: an atomic load, off the per-successor path).
      if ((combination & 4095u) == 0 && stop_flag().load(std::memory_order_relaxed)) throw stop_init{};
      const std::uint32_t c = combination++;
      w.make_room_for_initial_state();
      try {
        std::byte* slot = w.stage_slot();
        State* s = new (slot) State{};
        if (!run_init(me.spec_.init.fn, *s, vs...)) return;
        if constexpr (Symmetric) me.canon_(*s);
        ++w.generated;
        if (outside_tlc_constraint(me, *s)) return;
        w.stage(fingerprint(*s, slot + sizeof(State)), c);
        w.end_state();
        w.flush();  // the next combination sizes the table from what this one inserted
      } catch (const std::exception& e) {
        w.discard_state();
        w.error(c, 0, e.what());
      } catch (...) {
        w.discard_state();
        w.error(c, 0, non_std_exception);
      }
    };
    try {
      for_each_combination(me.spec_.init.params, make);
    } catch (const stop_init&) {
    }
  }

  /// A state a tlc_constraint drops (only ever true for one).
  static bool outside_tlc_constraint(const Model& me, const State& s) {
    if constexpr (Spec::constraint_prunes) return !me.spec_.constraint.fn(s);
    else {
      (void)me;
      (void)s;
      return false;
    }
  }

  template <class Fn, class... Vs>
  static bool run_init(const Fn& fn, State& s, const Vs&... vs) {
    if constexpr (std::is_same_v<std::invoke_result_t<const Fn&, State&, const Vs&...>, bool>) return fn(s, vs...);
    else {
      fn(s, vs...);
      return true;
    }
  }

  template <bool Symmetric>
  static void expand(const void* m, const StateChunk& chunk, Worker& w) {
    const Model& me = self(m);
    for (std::size_t i = 0; i < chunk.count; ++i) {
      const State& s = *std::launder(reinterpret_cast<const State*>(chunk.states + i * chunk.stride));
      const std::uint64_t rank = chunk.first_rank + i;
      std::uint32_t current = constraint_tid;
      std::uint64_t pruned = 0;  // successors outside a tlc_constraint: generated, then dropped
      if (w.table_full()) break;  // the search grows the table and expands the batch again
      try {
        if constexpr (Spec::has_constraint && !Spec::constraint_prunes) {
          if (!me.spec_.constraint.fn(s)) continue;
        }
        const std::byte* parent = hashed_bytes(s, w.parent_encoding());
        me.table_.for_each(s, [&](std::uint32_t tid, const auto& a, const auto&... vs) {
          current = tid;
          if (!a.guard(s, vs...)) return;
          ++w.enabled[tid];
          std::byte* slot = w.stage_slot();
          State* next = new (slot) State(s);
          apply_effect(a.effect, s, *next, vs...);
          if constexpr (Spec::constraint_prunes) {
            current = constraint_tid;  // a throw here is the constraint's
            if (outside_tlc_constraint(me, *next)) {
              ++pruned;  // its slot is reused by the next successor
              return;
            }
          }
          if constexpr (Symmetric) me.canon_(*next);
          const std::byte* bytes = hashed_bytes(*next, slot + sizeof(State));
          // A stuttering step (an effect that changed nothing, after the
          // symmetry's canonical form) leads to the state being expanded,
          // which is visited: its level's end inserted it. Comparing bytes
          // still in L1 spares the hash and the random visited-set access.
          if (std::memcmp(bytes, parent, hashed_size) == 0) {
            w.stutter();
            return;
          }
          w.stage(hash_bytes(bytes, hashed_size), w.key(rank, tid));
        });
        const std::size_t produced = w.end_state();
        w.generated += produced + pruned;
        if (produced + pruned == 0) note_dead_end(me, s, rank, w);
      } catch (const choice_failure& e) {  // `current` is still the transition before that choice's
        w.discard_state();
        w.error(rank, e.tid, e.what());
      } catch (const std::exception& e) {
        w.discard_state();
        w.error(rank, current, e.what());
      } catch (...) {
        w.discard_state();
        w.error(rank, current, non_std_exception);
      }
    }
    w.flush();  // the chunk's successors still staged (several states' worth)
  }

  /// A state without successors: a deadlock, or in a timed spec a timelock
  /// when a deadline keeps time from passing. A timed spec leaves out here
  /// the kind it allows, so that the search meets the other kind's first
  /// state; it tells the two apart again when it reports (blocking_deadline).
  static void note_dead_end(const Model& me, const State& s, std::uint64_t rank, Worker& w) {
    if constexpr (Spec::timed) {
      const bool timelock = !me.table_.time_step().blocking_deadline(s).empty();
      if (timelock ? me.spec_.time.timelock_allowed : me.spec_.deadlock_allowed) return;
    }
    w.deadlock(rank);
  }

  static void check(const void* m, const StateChunk& chunk, std::uint64_t mask, CheckOutcome& out) {
    const Model& me = self(m);
    for (std::size_t i = 0; i < chunk.count; ++i) {
      const State& s = *std::launder(reinterpret_cast<const State*>(chunk.states + i * chunk.stride));
      const std::uint64_t rank = chunk.first_rank + i;
      const char* property = "";
      try {
        std::uint32_t index = 0;
        bool failed = false;
        std::apply([&](const auto&... inv) { ((failed = failed || check_one(inv, s, mask, index++, out, rank, property)), ...); },
                   me.spec_.invariants.list);
        std::uint32_t g = 0;
        std::apply([&](const auto&... goal) { (note_goal(goal, s, g++, out, rank, property), ...); }, me.spec_.goals.list);
        if (failed) return;  // later ranks cannot be the first violation
      } catch (const std::exception& e) {
        note_check_error(out, rank, property, e.what());
        return;
      } catch (...) {
        note_check_error(out, rank, property, non_std_exception);
        return;
      }
    }
  }

  static void note_check_error(CheckOutcome& out, std::uint64_t rank, const char* property, const char* what) {
    if (rank < out.error_rank) {
      out.error_rank = rank;
      out.error = std::string(property) + ": " + what;
    }
  }

  template <class Inv>
  static bool check_one(const Inv& inv, const State& s, std::uint64_t mask, std::uint32_t index, CheckOutcome& out,
                        std::uint64_t rank, const char*& property) {
    if (((mask >> index) & 1u) == 0) return false;
    property = inv.name.data();
    if (inv.fn(s)) return false;
    if (rank < out.violation_rank) {
      out.violation_rank = rank;
      out.violated = index;
    }
    return true;
  }

  template <class Goal>
  static void note_goal(const Goal& goal, const State& s, std::uint32_t index, CheckOutcome& out, std::uint64_t rank,
                        const char*& property) {
    if (out.goal_ranks[index] <= rank) return;
    property = goal.name.data();
    if (goal.fn(s)) out.goal_ranks[index] = rank;
  }

  Spec spec_;
  TransitionTable<Spec> table_;
  std::uint32_t init_combinations_;
  typename Sym::canonicalizer canon_;
  std::shared_ptr<const int> alive_ = std::make_shared<const int>(0);  // ModelOps::model_alive
};

}  // namespace statecheck::detail
