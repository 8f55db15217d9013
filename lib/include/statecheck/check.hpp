// statecheck/check.hpp - run a model check from C++ (tests, custom drivers).
//
//   statecheck::CheckOptions options;
//   options.threads = 2;
//   statecheck::CheckResult r = statecheck::check(make_spec(config), options);
//   r.outcome, r.stats.distinct, r.violation->property, r.violation->length()
#pragma once

#include "statecheck/detail/model.hpp"
#include "statecheck/detail/search.hpp"
#include "statecheck/result.hpp"

namespace statecheck {

/// Explores every reachable state of `spec` breadth-first. Throws
/// config_error for a bad option (an unknown invariant name, say).
template <class Spec>
CheckResult check(const Spec& spec, const CheckOptions& options = {}) {
  const detail::Model<Spec> m(spec);
  CheckResult r = detail::run_search(m.ops(), options);
  materialize_traces(r);  // its traces read `m` until then
  return r;
}

}  // namespace statecheck
