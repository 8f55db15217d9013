// What the stale-delete tests share (stale_delete_test.cpp, the brief's cases;
// stale_delete_symmetry_test.cpp, the datanode symmetry): configurations, the
// common trace prefix, field lookup, and the reduced-and-unreduced check.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "support/check_helpers.hpp"
#include "specs/hdds/stale_delete/stale_delete.hpp"
#include "statecheck/report.hpp"

namespace sd = specs::hdds::stale_delete;

namespace stale_delete_cases {

using Labels = std::vector<std::string>;

inline sd::Config make(sd::Variant v, sd::Scenario sc = sd::Scenario::base,
                       sd::Replication rep = sd::Replication::pull) {
  sd::Config c;
  c.variant = v;
  c.scenario = sc;
  c.replication = rep;
  return c;
}

inline sd::Config push(sd::Variant v, sd::Scenario sc = sd::Scenario::base) { return make(v, sc, sd::Replication::push); }

/// The printed value of one field of a trace state, e.g. "c[0].has" (C1's replicas).
inline std::string field(const statecheck::TraceStep& step, const std::string& path) {
  for (const auto& f : statecheck::flatten(step.state))
    if (f.path == path) return f.text;
  return "<missing " + path + ">";
}

// Steps 1-5 of every resend trace: delete, late report, resend, report completes the op.
inline const Labels late_report = {"RMDelete(c=C1, dn=d1)", "DnDispatch(dn=d1)", "DnRunDelete(dn=d1, id=1)",
                                   "ExpireDelete(c=C1, dn=d1)", "ScmReport(dn=d1)"};

/// Issue 16: the datanodes that start alike are symmetric. Every check here
/// runs twice, with 1, 2 and 4 threads (or `more`): reduced (the default) and
/// unreduced. Both must find the same verdict, property and shortest length;
/// the unreduced result is returned, so the counts and the fewest-switch traces
/// pinned before symmetry stay pinned. The reduced counts are pinned in the
/// symmetry test cases at the end.
template <class Spec>
statecheck::CheckResult unreduced(const Spec& spec, statecheck::CheckOptions o = test::options(1),
                                  std::vector<unsigned> more = {2, 4}) {
  o.symmetry = true;
  const statecheck::CheckResult reduced = test::check_all_threads(spec, o, more);
  o.symmetry = false;
  const statecheck::CheckResult full = test::check_all_threads(spec, o, more);
  REQUIRE(!reduced.stats.symmetry.empty());
  REQUIRE(full.stats.symmetry.empty());
  REQUIRE(reduced.outcome == full.outcome);
  REQUIRE(reduced.violation.has_value() == full.violation.has_value());
  if (full.violation) {
    REQUIRE(reduced.violation->property == full.violation->property);
    REQUIRE(reduced.violation->length() == full.violation->length());
  }
  return full;
}

inline Labels concat(Labels a, const Labels& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace stale_delete_cases
