// lib/src/report/coverage.hpp - `check --coverage`: how often each action,
// and each value of each of its parameters, was enabled and how many new
// states it produced; and what was never enabled (a model that never
// exercises a fault is a weak model).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "statecheck/detail/model_ops.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

struct CoverageRow {
  std::string action;
  std::string param;  // empty: the action as a whole
  std::string value;  // the parameter's value as printed in traces
  std::uint64_t enabled = 0;
  std::uint64_t new_states = 0;
  /// An interchangeable id under symmetry: counted on the orbits'
  /// representatives only, so the row says little about that id.
  bool by_representative = false;
};

struct Coverage {
  /// Each action (declaration order), followed by a row per value of each of
  /// its parameters (parameter order, then value order). Actions left out of
  /// the spec (no transitions) have no rows.
  std::vector<CoverageRow> rows;
  /// "Action" for an action never enabled; "Action(p=v)" for a value of an
  /// action that was enabled with other values only.
  std::vector<std::string> never_enabled;
  /// With symmetry, the interchangeable ids ("d1..d4"): their rows are by
  /// representative and never listed as never enabled. Empty without.
  std::vector<std::string> interchangeable;
};

/// Aggregates stats.transition_enabled and stats.transition_new by
/// (action, parameter, value) with ops.describe, in time linear in the
/// number of transition ids. A stop request (request_stop) ends it with
/// stopped_error (detail/search.hpp).
Coverage coverage_of(const ModelOps& ops, const Stats& stats);

/// The coverage as an aligned text table.
void print_coverage(std::ostream& out, const Coverage& coverage);

}  // namespace statecheck::detail
