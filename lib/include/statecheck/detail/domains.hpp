// statecheck/detail/domains.hpp - the limits on what a spec enumerates, checked
// once when a spec is built into a model: a parameter with no values, or with
// more than max_param_values, and parameter combinations beyond the
// transition-id or initial-combination space are configuration errors naming
// the spec, the action (or init) and the parameter. Never a silently dropped
// action, a wrapped count or an allocation without bound.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "statecheck/result.hpp"
#include "statecheck/spec.hpp"

namespace statecheck::detail {

/// Transition ids and initial combinations are 32-bit, and the checkpoint
/// reader accepts no more than this: a spec beyond it is refused.
inline constexpr std::uint64_t max_enumerated = std::uint64_t{1} << 31;

/// "spec 'S': action 'A'" or "spec 'S': init": the start of a refusal.
inline std::string part_name(std::string_view spec, std::string_view action) {
  return "spec '" + std::string(spec) + "': " + (action.empty() ? std::string("init") : "action '" + std::string(action) + "'");
}

/// The actor of an action (ModelOps::action_actors): `declared` (with
/// action(...).actor()) when it is one of `params`, else config_error naming
/// the action; without a declaration `first_id`, the first named-id parameter
/// ("" when none). Out of line: cold, and kept out of every spec's inlining.
std::string resolve_actor(std::string_view spec, std::string_view action, std::string_view declared,
                          const std::vector<std::string_view>& params, std::string_view first_id);

/// The parameter an action declares with action(...).sends() ("" when none);
/// config_error naming the action when it is not one of `params`.
std::string resolve_target(std::string_view spec, std::string_view action, std::string_view declared,
                           const std::vector<std::string_view>& params);

/// Refuses a parameter without values or with more than max_param_values.
template <class T>
void check_domain(std::string_view spec, std::string_view action, const param_t<T>& p) {
  const std::string where = part_name(spec, action) + " parameter '" + std::string(p.name) + "'";
  const std::string range = std::to_string(p.lo) + ".." + std::to_string(p.hi);
  const std::string leave_out = action.empty() ? "; a spec needs at least one initial state"
                                               : ", or leave the action out with when(condition, action(...))";
  if (p.ranged && p.hi < p.lo)
    throw config_error(where + " has an empty range " + range + "; give param(name, lo, hi) with lo <= hi" + leave_out);
  const std::uint64_t n = p.ranged ? static_cast<std::uint64_t>(p.hi - p.lo + 1) : p.values.size();
  if (n > static_cast<std::uint64_t>(max_param_values))
    throw config_error(where + " has " + std::to_string(n) + " values" + (p.ranged ? " (" + range + ")" : "") +
                       ", more than the " + std::to_string(max_param_values) + " a parameter may have; narrow it");
  if (n == 0) throw config_error(where + " has no values; give it at least one" + leave_out);
}

/// The number of combinations of `params` (each checked), refused above `room`.
template <class... T>
std::uint64_t checked_combinations(std::string_view spec, std::string_view action,
                                   const std::tuple<param_t<T>...>& params, std::uint64_t room) {
  std::uint64_t product = 1;
  bool over = false;  // beyond 64 bits
  std::apply([&](const auto&... p) {
    ((check_domain(spec, action, p), over = __builtin_mul_overflow(product, p.values.size(), &product) || over), ...);
  }, params);
  if (over || product > room)
    throw config_error(part_name(spec, action) + " has " +
                       (over ? "more than 2^64" : std::to_string(product)) +
                       " parameter combinations; a spec may have at most " + std::to_string(max_enumerated) +
                       (action.empty() ? " initial combinations" : " transitions (actions x parameter combinations) in all") +
                       ": narrow its parameters");
  return product;
}

}  // namespace statecheck::detail
