// statecheck/spec_entry.hpp - a registered spec as the commands see it: its
// name, constants, documented runs and the one type-erased door to its model
// (with_model), and the process-wide registry of them. No engine template is
// here: the command line includes this; a spec's file includes registry.hpp,
// which builds the entry from its make_spec (STATECHECK_REGISTER).
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "statecheck/constants.hpp"
#include "statecheck/detail/model_ops.hpp"
#include "statecheck/result.hpp"

namespace statecheck {

/// One showcase run of a spec: constant settings, the expected outcome and,
/// optionally, the only invariants to check (as --invariant does).
/// The verdict a documented run's README states: "ok", or "violation
/// PROPERTY LENGTH" (LENGTH 0: a goal never reached, which has no trace).
struct Expectation {
  bool violation = false;
  std::string property;
  std::size_t length = 0;
  /// Strict: nothing but the two forms (not the empty text, not a trailing word).
  static std::optional<Expectation> parse(const std::string& text);
  bool met_by(const CheckResult& r) const;
};

struct SuiteRun {
  std::vector<std::pair<std::string, std::string>> sets;
  std::string expect;  // as the spec writes it: "ok" or "violation PROPERTY LENGTH"
  std::vector<std::string> invariants = {};
  /// `expect` parsed once, at registration (make_entry); empty when it is
  /// empty or malformed, which `suite` reports as a run with no verdict.
  std::optional<Expectation> expected = {};
};

/// Called with the type-erased spec while it is alive (cold: once per command).
using ModelVisitor = std::function<void(const detail::ModelOps&)>;

struct SpecEntry {
  std::string name;
  std::string summary;
  std::vector<ConstantInfo> constants;
  std::vector<SuiteRun> suite;
  /// Builds the spec for these constant values (one per constant) and hands its
  /// ModelOps to `visit`: the one door through which every command (check,
  /// replay, simulate, graph) reaches a registered spec.
  std::function<void(const std::vector<int>& values, const ModelVisitor& visit)> with_model;
  /// Why the spec cannot be used, found at registration ("" when it can): a
  /// default outside its range, duplicate names, a make_spec that throws for
  /// the defaults. `list` shows it; commands on this spec are refused with it
  /// (require_usable), commands on the other specs are not affected.
  std::string broken;
  bool broken_at_run_time = false;  // make_spec threw (exit 3); else a definition mistake (exit 2)
  /// Whether the spec's file was compiled with optimisation. Its search is
  /// instantiated there (not in the library), so this decides its speed: one
  /// unoptimised checker ran 61 times slower. The commands that search say so.
  bool optimised = true;
};

/// Throws the entry's registration problem: config_error, or run_error when
/// make_spec threw.
void require_usable(const SpecEntry& e);

namespace detail {
/// "rms=3, x=on" for these values of `constants`.
std::string constants_text(const std::vector<ConstantInfo>& constants, const std::vector<int>& values);
/// Runs make_spec (`build`): what it throws becomes one line naming the spec
/// and its constants, config_error kept as such (exit 2), anything else,
/// std::exception or not, run_error (exit 3).
void build_spec(const std::string& spec, const std::string& constants, const std::function<void()>& build);
/// The registration problem of an entry, or "": constant defaults out of range,
/// then building the spec for the defaults (`build`, which names it in `name`).
void check_registration(SpecEntry& e, const std::function<void()>& build);
}  // namespace detail

/// Checks a registered spec with these constant values.
CheckResult check_entry(const SpecEntry& e, const std::vector<int>& values, const CheckOptions& options);
/// Invariant and goal names for these constant values.
std::pair<std::vector<std::string>, std::vector<std::string>> properties_of(const SpecEntry& e,
                                                                          const std::vector<int>& values);

class Registry {
 public:
  bool add(SpecEntry entry);
  const std::vector<SpecEntry>& entries() const { return entries_; }
  const SpecEntry* find(const std::string& name) const;

 private:
  std::vector<SpecEntry> entries_;
};

/// The process-wide registry filled by STATECHECK_REGISTER.
Registry& registry();

}  // namespace statecheck
