// The registry of named specs and the parsing of constant values.
#include "statecheck/registry.hpp"

#include <algorithm>
#include <new>
#include <sstream>
#include <stdexcept>

#include "statecheck/detail/clip.hpp"
#include "statecheck/detail/domains.hpp"
#include "statecheck/time.hpp"

namespace statecheck {

Registry& registry() {
  static Registry instance;
  return instance;
}

bool Registry::add(SpecEntry entry) {
  if (find(entry.name) != nullptr) throw std::logic_error("statecheck: spec '" + entry.name + "' is registered twice");
  entries_.push_back(std::move(entry));
  std::sort(entries_.begin(), entries_.end(), [](const SpecEntry& a, const SpecEntry& b) { return a.name < b.name; });
  return true;
}

void require_usable(const SpecEntry& e) {
  if (e.broken.empty()) return;
  if (e.broken_at_run_time) throw run_error(e.broken);
  throw config_error(e.broken);
}

namespace detail {

std::string resolve_actor(std::string_view spec, std::string_view action, std::string_view declared,
                          const std::vector<std::string_view>& params, std::string_view first_id) {
  if (declared.empty()) return std::string(first_id);
  if (std::find(params.begin(), params.end(), declared) == params.end())
    throw config_error(part_name(spec, action) + " declares actor(\"" + std::string(declared) +
                       "\"), which is not one of its parameters; name one of them");
  return std::string(declared);
}

std::string resolve_target(std::string_view spec, std::string_view action, std::string_view declared,
                           const std::vector<std::string_view>& params) {
  if (declared.empty()) return {};
  if (std::find(params.begin(), params.end(), declared) == params.end())
    throw config_error(part_name(spec, action) + " declares sends(\"" + std::string(declared) +
                       "\"), which is not one of its parameters; name one of them");
  return std::string(declared);
}

std::string constants_text(const std::vector<ConstantInfo>& constants, const std::vector<int>& values) {
  std::string s;
  for (std::size_t i = 0; i < constants.size() && i < values.size(); ++i)
    s += (s.empty() ? "" : ", ") + constants[i].name + "=" + constants[i].text(values[i]);
  return s.empty() ? "none" : s;
}

void build_spec(const std::string& spec, const std::string& constants, const std::function<void()>& build) {
  const std::string where = "spec '" + spec + "' cannot be built with constants (" + constants + "): make_spec threw: ";
  try {
    build();
  } catch (const config_error& e) {
    throw config_error(clipped(e.what(), 400));  // a definition mistake found by spec(): it names the spec
  } catch (const std::bad_alloc&) {
    throw run_error(where + "out of memory");
  } catch (const std::exception& e) {
    throw run_error(where + clipped(e.what()));
  } catch (...) {
    throw run_error(where + "an exception that is not a std::exception");
  }
}

void check_registration(SpecEntry& e, const std::function<void()>& build) {
  for (SuiteRun& run : e.suite) run.expected = Expectation::parse(run.expect);
  std::vector<int> defaults;
  for (const ConstantInfo& c : e.constants) defaults.push_back(c.default_value);
  try {  // first, so that the messages below can use the spec's own name
    build_spec(e.name, constants_text(e.constants, defaults), build);
  } catch (const config_error& x) {
    e.broken = x.what();
  } catch (const run_error& x) {
    e.broken = x.what();
    e.broken_at_run_time = true;
  }
  for (const ConstantInfo& c : e.constants)
    if (const std::string problem = c.default_problem(); !problem.empty()) {  // the cause of anything the build did
      e.broken = "spec '" + e.name + "': " + problem + "; fix the member initialiser in its Config";
      e.broken_at_run_time = false;
      return;
    }
}

}  // namespace detail

std::optional<Expectation> Expectation::parse(const std::string& text) {
  if (text == "ok") return Expectation{};
  std::istringstream in(text);
  std::string word, rest;
  Expectation e{true, "", 0};
  in >> word >> e.property >> e.length;
  if (word != "violation" || in.fail() || in >> rest) return std::nullopt;
  return e;
}

bool Expectation::met_by(const CheckResult& r) const {
  if (!violation) return r.outcome == Outcome::ok;
  return r.outcome == Outcome::violation && r.violation && r.violation->property == property &&
         r.violation->length() == length;
}

CheckResult check_entry(const SpecEntry& e, const std::vector<int>& values, const CheckOptions& options) {
  CheckResult r;
  e.with_model(values, [&](const detail::ModelOps& ops) {
    r = detail::run_search(ops, options);
    materialize_traces(r);  // its traces read the model until then
  });
  return r;
}

std::pair<std::vector<std::string>, std::vector<std::string>> properties_of(const SpecEntry& e,
                                                                          const std::vector<int>& values) {
  std::pair<std::vector<std::string>, std::vector<std::string>> names;
  e.with_model(values, [&](const detail::ModelOps& ops) { names = {ops.invariant_names, ops.goal_names}; });
  return names;
}

const SpecEntry* Registry::find(const std::string& name) const {
  for (const SpecEntry& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

bool ConstantInfo::parse(const std::string& text, int& value, std::string& error) const {
  switch (kind) {
    case Kind::integer: {
      std::size_t used = 0;
      long v = 0;
      try {
        v = std::stol(text, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != text.size() || text.empty()) {
        error = "constant " + name + " takes an integer in " + domain() + ", not '" + detail::clipped(text) + "'";
        return false;
      }
      if (v < lo || v > hi) {
        error = "constant " + name + "=" + detail::clipped(text) + " is out of range; use a value in " + domain();
        return false;
      }
      value = static_cast<int>(v);
      return true;
    }
    case Kind::time_span: {
      duration d{};
      std::string why;
      if (!parse_duration(text, d, why)) {
        error = "constant " + name + " takes a duration in " + domain() + ": " + why;
        return false;
      }
      if (d.count() < lo || d.count() > hi) {
        error = "constant " + name + "=" + detail::clipped(text) + " is out of range; use a duration in " + domain();
        return false;
      }
      value = static_cast<int>(d.count());
      return true;
    }
    case Kind::boolean:
      if (text == "true" || text == "1" || text == "yes" || text == "on") value = 1;
      else if (text == "false" || text == "0" || text == "no" || text == "off") value = 0;
      else {
        error = "constant " + name + " takes true or false, not '" + detail::clipped(text) + "'";
        return false;
      }
      return true;
    case Kind::choice: {
      const auto it = std::find(choices.begin(), choices.end(), text);
      if (it == choices.end()) {
        error = "constant " + name + " takes one of " + domain() + ", not '" + detail::clipped(text) + "'";
        return false;
      }
      value = static_cast<int>(it - choices.begin());
      return true;
    }
  }
  return false;
}

std::string ConstantInfo::text(int value) const {
  switch (kind) {
    case Kind::integer: return std::to_string(value);
    case Kind::time_span: return duration_setting(duration(value));
    case Kind::boolean: return value != 0 ? "true" : "false";
    case Kind::choice: return value >= 0 && value < static_cast<int>(choices.size()) ? choices[static_cast<std::size_t>(value)] : "?";
  }
  return "?";
}

std::string ConstantInfo::default_problem() const {
  if (default_value >= lo && default_value <= hi) return "";
  if (kind == Kind::choice) return "the default of constant " + name + " is none of " + domain();
  return "constant " + name + " has the default " + text(default_value) + ", outside its range " + domain();
}

std::string ConstantInfo::domain() const {
  switch (kind) {
    case Kind::integer: return std::to_string(lo) + ".." + std::to_string(hi);
    case Kind::time_span: return duration_setting(duration(lo)) + ".." + duration_setting(duration(hi));
    case Kind::boolean: return "true|false";
    case Kind::choice: {
      std::string s;
      for (const std::string& c : choices) s += (s.empty() ? "" : "|") + c;
      return s;
    }
  }
  return "?";
}

}  // namespace statecheck
