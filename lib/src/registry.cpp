// The registry of named specs and the parsing of constant values.
#include "statecheck/registry.hpp"

#include <algorithm>
#include <stdexcept>

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

CheckResult check_entry(const SpecEntry& e, const std::vector<int>& values, const CheckOptions& options) {
  CheckResult r;
  e.with_model(values, [&](const detail::ModelOps& ops) { r = detail::run_search(ops, options); });
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
        error = "constant " + name + " takes an integer in " + domain() + ", not '" + text + "'";
        return false;
      }
      if (v < lo || v > hi) {
        error = "constant " + name + "=" + text + " is out of range; use a value in " + domain();
        return false;
      }
      value = static_cast<int>(v);
      return true;
    }
    case Kind::boolean:
      if (text == "true" || text == "1" || text == "yes" || text == "on") value = 1;
      else if (text == "false" || text == "0" || text == "no" || text == "off") value = 0;
      else {
        error = "constant " + name + " takes true or false, not '" + text + "'";
        return false;
      }
      return true;
    case Kind::choice: {
      const auto it = std::find(choices.begin(), choices.end(), text);
      if (it == choices.end()) {
        error = "constant " + name + " takes one of " + domain() + ", not '" + text + "'";
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
    case Kind::boolean: return value != 0 ? "true" : "false";
    case Kind::choice: return value >= 0 && value < static_cast<int>(choices.size()) ? choices[static_cast<std::size_t>(value)] : "?";
  }
  return "?";
}

std::string ConstantInfo::domain() const {
  switch (kind) {
    case Kind::integer: return std::to_string(lo) + ".." + std::to_string(hi);
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
