// statecheck/trace_walk.hpp - walk a counterexample through a registered spec,
// one step at a time: what the tests written by `replay --emit-test` call.
//
//   statecheck::walk_trace("die-hard", {}, [](statecheck::TraceWalk& w) {
//     REQUIRE(w.start(R"({"big":0,"small":0})"));
//     REQUIRE(w.step("FillBig"));                 // enabled, and taken
//     CHECK(w.state() == R"({"big":5,"small":0})");
//     ...
//     CHECK(w.violates("NotSolved"));
//   });
//
// States are compared as the compact JSON of docs/trace-format.md (members in
// declaration order), so a test pins exactly what the trace recorded.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace statecheck {

class TraceWalk {
 public:
  struct Impl;
  explicit TraceWalk(Impl& impl) : impl_(&impl) {}

  /// Starts from the initial state whose JSON is `state_json` (key order
  /// ignored); false when the spec has no such initial state.
  bool start(const std::string& state_json);
  /// Takes the transition labelled `label` ("Decommission(c=c1, om=o2)");
  /// false, the state unchanged, when the spec has no such transition or its
  /// guard does not hold.
  bool step(const std::string& label);
  /// The current state as compact JSON.
  std::string state() const;
  /// The invariant named `invariant` fails in the current state.
  bool violates(const std::string& invariant) const;
  /// No transition is enabled in the current state.
  bool deadlocked() const;
  /// A timed spec's deadline that keeps time from passing in the current
  /// state ("" when none does): with deadlocked(), a timelock.
  std::string blocking_deadline() const;

 private:
  Impl* impl_;
};

/// Builds the registered spec `spec` with these constants (name, value as
/// --set takes it; the rest keep their defaults) and hands `walk` a walk on it.
/// Throws config_error for an unknown spec or constant, or a bad value.
void walk_trace(const std::string& spec, const std::vector<std::pair<std::string, std::string>>& constants,
                const std::function<void(TraceWalk&)>& walk);

}  // namespace statecheck
