// lib/src/tools/replay.hpp - re-executing a trace saved by
// `check --format json` (docs/trace-format.md) against a spec: the engine of
// `statecheck replay`. Cold code on ModelView.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/model_view.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

struct SavedStep {
  std::string label;        // "Decommission(om=2)"; empty for step 0, the initial state
  std::string action;       // as recorded; empty for step 0
  std::string params_json;  // the recorded params object, as JSON text
  std::string state_json;   // the recorded state, as JSON text
};

/// What replay needs from a saved document.
struct SavedTrace {
  std::string spec;
  std::vector<std::pair<std::string, std::string>> constants;  // name, value as --set takes it
  Violation::Kind kind = Violation::Kind::invariant;           // invariant or deadlock
  std::string property;
  std::vector<SavedStep> steps;  // never empty
};

/// Parses and validates the text of a "statecheck-trace" document. Throws
/// config_error with one line naming the problem (not JSON, another format or
/// version, a missing or mistyped field, no trace to replay); nothing else.
SavedTrace parse_saved_trace(std::string_view text);

struct ReplayResult {
  enum class Verdict { reproduces, differs, spec_error };
  Verdict verdict = Verdict::reproduces;
  /// reproduces: "invariant X fails after 6 steps"; differs: "step 3 (Label) ...".
  std::string message;
  std::optional<std::size_t> step;  // the step that differs or threw
  std::vector<TraceStep> trace;     // the steps replayed, up to the verdict
  std::optional<SpecError> error;   // spec_error: what threw, and where
};

/// Re-executes `saved` on the spec of `view`: step 0 must be an initial state,
/// each later label an enabled transition leading to exactly the recorded
/// state, and the recorded property must fail in the last state.
ReplayResult replay(const ModelView& view, const SavedTrace& saved);

}  // namespace statecheck::detail
