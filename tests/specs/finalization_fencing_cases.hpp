// What the finalization-fencing tests share (finalization_fencing_test.cpp, the
// brief's cases; finalization_fencing_symmetry_test.cpp, d1..dn x s2..s3): the
// configurations they build.
#pragma once

#include "specs/hdds/finalization_fencing/finalization_fencing.hpp"

namespace ff = specs::hdds::finalization_fencing;

namespace finalization_fencing_cases {

inline ff::Config cfg(ff::Variant v, ff::Scenario sc, int datanodes = 1, int restarts = 1, bool control = false) {
  ff::Config c;
  c.variant = v;
  c.scenario = sc;
  c.datanodes = datanodes;
  c.restarts = restarts;
  c.control = control;
  return c;
}

inline ff::Config with_terms(ff::Variant v, int terms) {
  auto c = cfg(v, ff::Scenario::leader_change);
  c.terms = terms;
  return c;
}
inline ff::Config with_install(ff::Variant v, ff::Scenario sc) {
  auto c = cfg(v, sc);
  c.install = true;
  return c;
}

}  // namespace finalization_fencing_cases
