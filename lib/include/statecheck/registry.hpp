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
// place where a spec is type-erased; the search itself is not. What the
// commands need of an entry, without the engine's templates: spec_entry.hpp.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "statecheck/check.hpp"
#include "statecheck/constants.hpp"
#include "statecheck/spec_entry.hpp"

namespace statecheck {

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
