// statecheck/report.hpp - results for people (text) and for tools (JSON).
#pragma once

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "statecheck/result.hpp"
#include "statecheck/value.hpp"

namespace statecheck {

/// Exit codes of the checker binaries.
enum ExitCode : int {
  exit_ok = 0,         // every property holds
  exit_violation = 1,  // an invariant failed, a deadlock, or a goal was never reached
  exit_usage = 2,      // bad command line or configuration
  exit_error = 3,      // resource limit, spec error or internal error
};
int exit_code(const CheckResult& r);

/// What was checked, for headers and the JSON run record.
struct RunInfo {
  std::string spec;
  std::vector<std::pair<std::string, std::string>> constants;  // name, value as given
  CheckOptions options;
};

/// `prepared`, `3`, `true`, `[a, b]`, `{0, 2}`, `{x: 1, y: 2}`.
std::string value_text(const Value& v);
/// Leaves of a state with their paths: `rm[2]`, `op[0].kind`, `log`.
std::vector<Field> flatten(const Value& state);

/// The trace: the full first state, then per step only the fields that changed.
void print_trace(std::ostream& out, const Trace& trace);
/// Everything a person needs: verdict, trace, statistics, coverage, warnings.
void print_text(std::ostream& out, const CheckResult& r, const RunInfo& info, bool quiet);
/// The JSON document of `--format json` (docs/trace-format.md): these two
/// fields open it, and `statecheck replay` reads only documents that match.
inline constexpr const char* trace_format_name = "statecheck-trace";
inline constexpr int trace_format_version = 1;
/// One JSON document: format, run record, outcome, stats, violation or error with its trace.
std::string to_json(const CheckResult& r, const RunInfo& info);
/// One line for the bundled-spec summary table.
std::string summary_row(const CheckResult& r, const RunInfo& info);
std::string summary_header();

}  // namespace statecheck
