// statecheck/registry.hpp - named specs for the checker binaries.
//
//   STATECHECK_REGISTER(two_phase, "Lamport's two-phase commit", config, make_spec,
//                       {{{"rms", "3"}}, "ok"},
//                       {{{"rms", "4"}}, "ok"});
//
// registers the spec under the name make_spec(Config{}).name, with its
// constants and the runs `statecheck suite` shows (each with the outcome the
// spec's README claims: "ok", or "violation PROPERTY LENGTH"; a third member
// such as {"VotersEqualRequested"} checks only those invariants). This is the one
// place where a spec is type-erased; the search itself is not.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "statecheck/check.hpp"
#include "statecheck/constants.hpp"

namespace statecheck {

/// One showcase run of a spec: constant settings, the expected outcome and,
/// optionally, the only invariants to check (as --invariant does).
struct SuiteRun {
  std::vector<std::pair<std::string, std::string>> sets;
  std::string expect;  // "ok" or "violation PROPERTY LENGTH"
  std::vector<std::string> invariants = {};
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

template <class Config, class Make>
SpecEntry make_entry(std::string id, std::string summary, const constant_set<Config>& config, Make make,
                     std::vector<SuiteRun> suite, bool optimised = true) {
  SpecEntry e;
  e.optimised = optimised;
  e.name = std::move(id);  // until make_spec names it (it may throw)
  e.summary = std::move(summary);
  e.constants = config.infos();
  e.suite = std::move(suite);
  detail::check_registration(e, [&] {
    const auto spec = make(Config{});
    e.name = std::string(spec.name);
    detail::require_unique_names(spec);
  });
  e.with_model = [config, make, name = e.name, infos = e.constants](const std::vector<int>& values,
                                                                   const ModelVisitor& visit) {
    const Config c = config.make(values);  // outlives the spec, in case it captured c by reference
    std::optional<decltype(make(c))> spec;
    detail::build_spec(name, detail::constants_text(infos, values), [&] { spec.emplace(make(c)); });
    const detail::Model<decltype(make(c))> m(*spec);
    visit(m.ops());
  };
  return e;
}

}  // namespace statecheck

// Whether the file that expands STATECHECK_REGISTER is compiled with
// optimisation (GCC and Clang define __OPTIMIZE__ from -O1 up; other compilers
// are taken at their word). A macro, not a constexpr variable: each spec's file
// must see its own flags, and an inline variable would be one for the program.
#if defined(__OPTIMIZE__) || !defined(__GNUC__)
#define STATECHECK_DETAIL_OPTIMISED true
#else
#define STATECHECK_DETAIL_OPTIMISED false
#endif

#define STATECHECK_REGISTER(id, summary, config, make, ...)                                                    \
  [[maybe_unused]] static const bool statecheck_registered_##id = ::statecheck::registry().add(             \
      ::statecheck::make_entry(#id, summary, config, make, std::vector<::statecheck::SuiteRun>{__VA_ARGS__}, \
                               STATECHECK_DETAIL_OPTIMISED))
