// statecheck/detail/model_ops.hpp - the seam between a spec (templates) and the
// engine (compiled once in lib/src).
//
// A spec is type-erased into a table of plain function pointers. The engine
// calls them per chunk of states, never per successor: inside `expand` the
// spec's own code enumerates transitions and hands each successor to the
// worker through inline, non-virtual calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "statecheck/value.hpp"

namespace statecheck::detail {

/// What a report says of a thrown value that is not a std::exception (`throw 42`).
inline constexpr const char* non_std_exception = "an exception that is not a std::exception";

/// Inside a catch block: the text of the exception being handled, whatever it is.
inline std::string current_exception_text() {
  try {
    throw;
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return non_std_exception;
  }
}

class Worker;
struct Hash128;

/// Action and parameter values of one transition id.
struct TransitionInfo {
  std::uint32_t action = 0;
  std::string action_name;
  std::vector<std::pair<std::string, Value>> params;
  bool depends_on_state = false;  // a choice: its value is named only when described with a state
  std::int64_t delay_ms = 0;      // the engine's time step: its delay, labelled "+30 s"; 0 for the spec's actions
};

/// The name of the action in which time passes (detail/time_step.hpp), after a timed spec's own.
inline constexpr std::string_view time_action_name = "time";

/// A contiguous run of frontier states handed to the spec for expansion.
struct StateChunk {
  const std::byte* states = nullptr;  // `count` states, `stride` bytes apart
  std::size_t stride = 0;
  std::size_t count = 0;
  std::uint64_t first_rank = 0;       // rank of states[0] within its level
};

/// What checking a chunk of new states found (the first failure by rank).
struct CheckOutcome {
  static constexpr std::uint64_t none = ~std::uint64_t{0};
  std::uint64_t violation_rank = none;
  std::uint32_t violated = 0;         // invariant index
  std::uint64_t error_rank = none;    // an invariant or goal threw
  std::string error;
  std::uint64_t goals_reached = 0;    // bit i: goal i holds in some state of the chunk
  std::vector<std::uint64_t> goal_ranks;  // per goal: first rank where it holds (or none)
};

/// The transition id a spec error is reported with when the spec's
/// constraint threw (no action was running).
inline constexpr std::uint32_t constraint_tid = ~std::uint32_t{0};

/// One symmetric range of a spec: ids `first`..`last` (prefix `prefix`) are
/// interchangeable. A kind declared in several disjoint ranges has one per range.
struct SymmetryKind {
  std::string prefix;
  std::string first;
  std::string last;
  int first_index = 0;  // the 0-based index of `first`
  int count = 0;
};

/// The most candidate renamings tried to count a representative's stabilizer
/// (beyond it, the states an orbit stands for are reported as unknown).
inline constexpr std::uint64_t max_stabilizer_candidates = 5040;

/// A renaming's row per symmetric range (ModelOps::canonicalize_renaming): max_symmetric_ids.
inline constexpr std::size_t renaming_width = 32;

struct ModelOps {
  const void* model = nullptr;
  /// Expires when `model` is destroyed: a trace rebuilt from it on demand
  /// (model/replayed_trace.hpp) refuses to read a model that is gone.
  std::weak_ptr<const void> model_alive;
  std::string name;
  std::size_t state_size = 0;
  std::size_t encoding_size = 0;       // canonical encoding; 0 when the raw bytes are canonical
  std::uint32_t transitions = 0;
  std::uint32_t init_combinations = 0;
  bool deadlock_allowed = false;
  bool constraint_prunes = false;      // tlc_constraint: successors outside it are counted, then dropped
  std::vector<std::string> action_names;
  /// Per action, the parameter naming who acts: the one declared with
  /// action(...).actor(), else the first named id (statecheck::id<Tag>), else "".
  std::vector<std::string> action_actors;
  /// Per action: the parameter naming whom a step reaches, declared with
  /// action(...).sends() ("" when none): an arrow between lanes on a page.
  std::vector<std::string> action_targets;
  std::vector<std::uint32_t> action_of_transition;
  std::vector<std::string> invariant_names;
  std::vector<std::string> goal_names;
  /// A timed spec (statecheck/time.hpp): its time unit in milliseconds, and
  /// the index of its time action (the last); 0 and none for an untimed spec.
  std::int64_t time_unit_ms = 0;
  std::uint32_t time_action = ~std::uint32_t{0};
  bool timelock_allowed = false;

  // Per chunk (hot, called by worker threads).
  void (*initial)(const void* model, Worker& w) = nullptr;
  void (*expand)(const void* model, const StateChunk& chunk, Worker& w) = nullptr;
  void (*check)(const void* model, const StateChunk& chunk, std::uint64_t invariant_mask,
                CheckOutcome& out) = nullptr;

  // Cold: traces, replay, simulation, graphs, self-checks. These may throw
  // whatever the spec's code throws.
  bool (*make_initial)(const void* model, std::uint32_t combination, std::byte* out) = nullptr;
  /// Throws config_error for an initial state whose id_arrays use ids the spec
  /// does not name (detail/id_array_checks.hpp); run once the initial states are made.
  void (*check_initial)(const void* model, const std::byte* state) = nullptr;
  /// Applies transition `tid` to `state` in place; false (state untouched) when its guard does not hold.
  bool (*replay)(const void* model, std::byte* state, std::uint32_t tid) = nullptr;
  /// Hands every transition enabled in `state` and its successor to take(sink, ...), in id order,
  /// enumerating each choice once: stepping every id instead costs a choice's bound per state.
  void (*successors)(const void* model, const std::byte* state, void* sink,
                     void (*take)(void* sink, std::uint32_t tid, const std::byte* next)) = nullptr;
  /// False when the spec's constraint excludes the state from expansion.
  bool (*expandable)(const void* model, const std::byte* state) = nullptr;
  Hash128 (*fingerprint)(const void* model, const std::byte* state, std::byte* scratch) = nullptr;
  /// Action and values of `tid`; with `state` (the state it is taken from,
  /// may be null) also the value a choice picks there.
  TransitionInfo (*describe)(const void* model, const std::byte* state, std::uint32_t tid) = nullptr;
  Value (*to_value)(const void* model, const std::byte* state) = nullptr;
  /// Timed specs: the deadline that keeps time from passing in `state` ("" when
  /// none does): a state without successors is then a timelock, not a deadlock.
  std::string (*blocking_deadline)(const void* model, const std::byte* state) = nullptr;
  bool (*equal)(const std::byte* a, const std::byte* b) = nullptr;

  // Symmetry (statecheck/symmetry.hpp); all empty or null when the spec declares none.
  std::vector<SymmetryKind> symmetry;
  /// Replaces a state by its orbit's representative; returns the candidate renamings tried.
  std::uint64_t (*canonicalize)(const void* model, std::byte* state) = nullptr;
  /// The renamings that leave a representative unchanged; 0 when not counted
  /// (its orbit holds group size / this many states). Called once per new state.
  std::uint64_t (*stabilizer)(const void* model, const std::byte* state) = nullptr;
  /// Swaps ids a and b (0-based indices) of symmetric range `kind` (an index of `symmetry`) in a state.
  void (*transpose)(const void* model, std::byte* state, std::uint32_t kind, int a, int b) = nullptr;
  /// As canonicalize, and writes the renaming it applied: range k's id of
  /// index i became index renaming[k * renaming_width + i] (each row holds
  /// its kind's whole renaming: the ranges of one kind agree). Cold (trace passes).
  std::uint64_t (*canonicalize_renaming)(const void* model, std::byte* state, std::uint8_t* renaming) = nullptr;
  /// Renames a state's ids by `renaming` (laid out as canonicalize_renaming writes it).
  void (*rename)(const void* model, std::byte* state, const std::uint8_t* renaming) = nullptr;
  /// initial and expand without canonicalization (--no-symmetry).
  void (*plain_initial)(const void* model, Worker& w) = nullptr;
  void (*plain_expand)(const void* model, const StateChunk& chunk, Worker& w) = nullptr;
};

/// The same spec searched without its symmetry (--no-symmetry).
inline ModelOps without_symmetry(ModelOps ops) {
  if (ops.canonicalize == nullptr) return ops;
  ops.initial = ops.plain_initial;
  ops.expand = ops.plain_expand;
  ops.symmetry.clear();
  ops.canonicalize = nullptr;
  ops.canonicalize_renaming = nullptr;
  ops.rename = nullptr;
  ops.transpose = nullptr;
  ops.stabilizer = nullptr;
  return ops;
}

/// The number of renamings in the group: the product of count! over the kinds (a double: 32! overflows).
inline double symmetry_group_size(const std::vector<SymmetryKind>& kinds) {
  double size = 1;
  for (const SymmetryKind& k : kinds)
    for (int i = 2; i <= k.count; ++i) size *= i;
  return size;
}

}  // namespace statecheck::detail
