// A spec and its configuration from text; see spec_config.hpp.
#include "model/spec_config.hpp"

#include <exception>

#include "statecheck/detail/clip.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

const SpecEntry& find_spec(const std::string& name) {
  const SpecEntry* e = registry().find(name);
  if (e == nullptr) throw config_error("unknown spec '" + clipped(name) + "'; 'statecheck list' shows the available specs");
  require_usable(*e);
  return *e;
}

std::size_t parse_size(const std::string& text, const std::string& flag) {
  std::size_t used = 0;
  double number = 0;
  try {
    number = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  const std::string unit = used > 0 ? text.substr(used) : "";
  double scale = 1;
  if (unit == "K" || unit == "k" || unit == "KiB") scale = 1024.0;
  else if (unit == "M" || unit == "m" || unit == "MiB") scale = 1024.0 * 1024;
  else if (unit == "G" || unit == "g" || unit == "GiB") scale = 1024.0 * 1024 * 1024;
  else if (!unit.empty()) used = 0;
  if (used == 0 || !(number > 0)) throw config_error(flag + " takes a size such as 512M or 2G, not '" + clipped(text) + "'");
  const double bytes = number * scale;
  if (bytes < 16.0 * 1024 * 1024) throw config_error(flag + " " + text + " is too small; give at least 16M");
  if (bytes > 0x1p50) throw config_error(flag + " " + text + " is more than any machine has; give a size such as 64G");
  return static_cast<std::size_t>(bytes);
}

std::vector<std::pair<std::string, std::string>> split_sets(const std::vector<std::string>& sets) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& s : sets) {
    const std::size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw config_error("--set takes name=value (e.g. --set rms=4), not '" + clipped(s) + "'");
    out.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  return out;
}

std::vector<int> constant_values(const SpecEntry& e, const std::vector<std::pair<std::string, std::string>>& sets,
                                 std::vector<std::pair<std::string, std::string>>& shown) {
  std::vector<int> values;
  for (const ConstantInfo& c : e.constants) values.push_back(c.default_value);
  for (const auto& [name, text] : sets) {
    std::size_t i = 0;
    while (i < e.constants.size() && e.constants[i].name != name) ++i;
    if (i == e.constants.size()) {
      std::string known;
      for (const ConstantInfo& c : e.constants) known += (known.empty() ? "" : ", ") + c.name;
      throw config_error("unknown constant '" + clipped(name) + "' for spec '" + e.name + "'; use one of: " +
                         (known.empty() ? "(none)" : known));
    }
    std::string error;
    if (!e.constants[i].parse(text, values[i], error)) throw config_error(error);
  }
  for (std::size_t i = 0; i < e.constants.size(); ++i) shown.emplace_back(e.constants[i].name, e.constants[i].text(values[i]));
  return values;
}

}  // namespace statecheck::detail
