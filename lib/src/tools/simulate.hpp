// lib/src/tools/simulate.hpp - random walks through a spec too big to
// exhaust, checking its invariants (and deadlock) on every state visited.
//
// Walk w (numbered from 1) draws from its own generator seeded from (seed, w),
// so each walk is the same whichever thread runs it. Walks run in blocks; the
// reported failure is the one of the lowest-numbered failing walk, and the
// totals count walks 1..that walk (all of them when none fails), so results
// are identical for any number of threads.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "statecheck/detail/model_ops.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

struct SimulateOptions {
  std::uint64_t seed = 1;
  std::uint32_t depth = 100;   // steps per walk at most
  std::uint64_t runs = 1000;   // walks
  unsigned threads = 0;        // 0: every core
  bool check_deadlock = true;  // and the spec does not allow deadlock
  std::vector<std::string> invariants;  // empty: all
};

struct SimulateResult {
  Outcome outcome = Outcome::ok;      // ok, violation, error (spec code threw), limit (Ctrl-C)
  std::optional<Violation> violation;
  std::optional<SpecError> error;
  std::string limit_message;
  std::uint64_t failing_walk = 0;     // the walk that found the violation or error; 0: none
  std::uint64_t walks = 0;            // walks counted: 1..failing_walk, or all that completed
  std::uint64_t steps = 0;            // transitions taken by those walks
  std::uint32_t longest = 0;          // steps of the longest of them
  double seconds = 0;
  unsigned threads = 1;
};

/// The generator of walk `walk`: splitmix64 seeded from (seed, walk), with a
/// bounded draw written here so that every platform draws the same numbers.
class WalkRandom {
 public:
  WalkRandom(std::uint64_t seed, std::uint64_t walk);
  std::uint64_t next();
  /// Uniform in [0, n), n > 0 (Lemire's multiply-and-reject).
  std::uint32_t below(std::uint32_t n);

 private:
  std::uint64_t state_;
};

/// Runs the walks; throws config_error for bad options (an unknown invariant,
/// zero runs or depth, a spec without initial states).
SimulateResult simulate(const ModelOps& ops, const SimulateOptions& options);

}  // namespace statecheck::detail
