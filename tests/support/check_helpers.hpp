// Helpers shared by the tests: run a spec with a given thread count and
// compare what must not depend on it.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "statecheck/check.hpp"

namespace test {

inline statecheck::CheckOptions options(unsigned threads) {
  statecheck::CheckOptions o;
  o.threads = threads;
  o.memory = std::size_t{256} << 20;
  // The traces the suites pin are hand derivations in enumeration order (the
  // briefs' step-by-step traces): the first ones found. The fewest-switch
  // choice, the library's default, is tested where it is set explicitly
  // (tests/unit/readable_trace_test.cpp, tests/cli/view_test.cpp).
  o.trace = statecheck::CheckOptions::TracePolicy::first_found;
  return o;
}

/// Action labels of a trace, initial state excluded.
inline std::vector<std::string> labels(const statecheck::Trace& trace) {
  std::vector<std::string> out;
  bool initial = true;
  trace.for_each([&](const statecheck::TraceStep& step) {
    if (!initial) out.push_back(step.label);
    initial = false;
  });
  return out;
}

/// Everything that must be identical for any number of threads.
inline void require_same(const statecheck::CheckResult& a, const statecheck::CheckResult& b) {
  REQUIRE(a.outcome == b.outcome);
  REQUIRE(a.stats.distinct == b.stats.distinct);
  REQUIRE(a.stats.generated == b.stats.generated);
  REQUIRE(a.stats.depth == b.stats.depth);
  REQUIRE(a.stats.level_sizes == b.stats.level_sizes);
  REQUIRE(a.violation.has_value() == b.violation.has_value());
  if (a.violation) {
    REQUIRE(a.violation->property == b.violation->property);
    REQUIRE(labels(a.violation->trace) == labels(b.violation->trace));
    for (std::size_t i = 0; i < a.violation->trace.size(); ++i)
      REQUIRE(a.violation->trace[i].state == b.violation->trace[i].state);
  }
}

/// Checks with 1 and 2 threads (and `more` if given), requires identical
/// results, and returns the single-threaded one.
template <class Spec>
statecheck::CheckResult check_all_threads(const Spec& spec, statecheck::CheckOptions o = options(1),
                                          std::vector<unsigned> more = {2, 4}) {
  o.threads = 1;
  const statecheck::CheckResult one = statecheck::check(spec, o);
  for (unsigned t : more) {
    o.threads = t;
    require_same(one, statecheck::check(spec, o));
  }
  return one;
}

}  // namespace test

namespace test {

/// Options that check only `invariant` (one thread).
inline statecheck::CheckOptions only(const std::string& invariant) {
  auto o = options(1);
  o.invariants = {invariant};
  return o;
}

/// The run found `property` violated with a shortest trace of `length` steps.
inline void require_violation(const statecheck::CheckResult& r, const std::string& property, std::size_t length) {
  REQUIRE(r.outcome == statecheck::Outcome::violation);
  REQUIRE(r.violation->kind == statecheck::Violation::Kind::invariant);
  REQUIRE(r.violation->property == property);
  REQUIRE(r.violation->length() == length);
}

/// The run completed with every property holding, with exactly these counts.
inline void require_ok(const statecheck::CheckResult& r, std::uint64_t distinct, std::uint64_t generated,
                       std::uint32_t depth) {
  REQUIRE(r.outcome == statecheck::Outcome::ok);
  REQUIRE(r.stats.distinct == distinct);
  REQUIRE(r.stats.generated == generated);
  REQUIRE(r.stats.depth == depth);
}

}  // namespace test
