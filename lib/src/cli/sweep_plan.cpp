// The configurations of a sweep; see cli/sweep_plan.hpp.
#include "cli/sweep_plan.hpp"

#include <algorithm>

#include "statecheck/detail/clip.hpp"
#include "statecheck/time.hpp"

namespace statecheck::cli {

namespace {

const ConstantInfo& constant_named(const SpecEntry& spec, const std::string& name) {
  for (const ConstantInfo& c : spec.constants)
    if (c.name == name) return c;
  std::string known;
  for (const ConstantInfo& c : spec.constants) known += (known.empty() ? "" : ", ") + c.name;
  throw config_error("--vary: spec '" + spec.name + "' has no constant '" + detail::clipped(name) + "'; vary one of: " +
                     (known.empty() ? "(it has none)" : known));
}

std::vector<std::string> split(const std::string& text, char on) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t at = text.find(on); at != std::string::npos; at = text.find(on, start)) {
    parts.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  parts.push_back(text.substr(start));
  return parts;
}

/// A value of `c` as a number `--set` would store (ms for a duration).
long long number_of(const ConstantInfo& c, const std::string& text, const std::string& vary) {
  int value = 0;
  std::string error;
  if (!c.parse(text, value, error)) throw config_error("--vary " + detail::clipped(vary) + ": " + error);
  return value;
}

/// lo..hi[/step] of an integer or duration constant, each value as --set writes it.
std::vector<std::string> range_values(const ConstantInfo& c, const std::string& range, const std::string& vary) {
  if (c.kind != ConstantInfo::Kind::integer && c.kind != ConstantInfo::Kind::time_span)
    throw config_error("--vary " + detail::clipped(vary) + ": a range needs an integer or duration constant; list " +
                       c.name + "'s values instead (a,b) or give * for all of them");
  const std::size_t dots = range.find("..");
  const std::size_t slash = range.find('/');
  const std::string lo_text = range.substr(0, dots);
  const std::string hi_text = range.substr(dots + 2, slash == std::string::npos ? std::string::npos : slash - dots - 2);
  const long long lo = number_of(c, lo_text, vary), hi = number_of(c, hi_text, vary);
  long long step = 1;
  if (slash != std::string::npos) {
    const std::string step_text = range.substr(slash + 1);
    if (c.kind == ConstantInfo::Kind::time_span) {
      duration d{};
      std::string error;
      if (!parse_duration(step_text, d, error)) throw config_error("--vary " + detail::clipped(vary) + ": step " + error);
      step = d.count();
    } else {
      ConstantInfo any = c;
      any.lo = 1;
      any.hi = std::max(1, c.hi - c.lo);
      step = number_of(any, step_text, vary);
    }
  } else if (c.kind == ConstantInfo::Kind::time_span) {
    throw config_error("--vary " + detail::clipped(vary) + ": give a duration range its step: " + lo_text + ".." +
                       hi_text + "/30s");
  }
  if (step <= 0) throw config_error("--vary " + detail::clipped(vary) + ": the step must be positive");
  if (hi < lo) throw config_error("--vary " + detail::clipped(vary) + ": the range is empty (" + hi_text + " < " + lo_text + ")");
  if ((hi - lo) / step + 1 > static_cast<long long>(max_sweep_runs))
    throw config_error("--vary " + detail::clipped(vary) + ": more than " + std::to_string(max_sweep_runs) +
                       " values; take a larger step");
  std::vector<std::string> values;
  for (long long v = lo; v <= hi; v += step) values.push_back(c.text(static_cast<int>(v)));
  return values;
}

/// Every value of a boolean or a choice (`*`).
std::vector<std::string> all_values(const ConstantInfo& c, const std::string& vary) {
  if (c.kind != ConstantInfo::Kind::boolean && c.kind != ConstantInfo::Kind::choice)
    throw config_error("--vary " + detail::clipped(vary) + ": * stands for every value of a boolean or a choice; give " +
                       c.name + " a range (lo..hi) or a list (a,b)");
  std::vector<std::string> values;
  for (int v = c.lo; v <= c.hi; ++v) values.push_back(c.text(v));
  return values;
}

}  // namespace

SweepAxis parse_axis(const SpecEntry& spec, const std::string& vary) {
  const std::size_t equals = vary.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == vary.size())
    throw config_error("--vary " + detail::clipped(vary) + ": write NAME=a,b,c or NAME=lo..hi[/step] or NAME=*");
  SweepAxis axis{vary.substr(0, equals), {}};
  const ConstantInfo& c = constant_named(spec, axis.name);
  const std::string values = vary.substr(equals + 1);
  if (values == "*") axis.values = all_values(c, vary);
  else if (values.find("..") != std::string::npos) axis.values = range_values(c, values, vary);
  else
    for (const std::string& v : split(values, ',')) {
      number_of(c, v, vary);  // refused here as --set would refuse it
      axis.values.push_back(v);
    }
  return axis;
}

std::vector<std::vector<std::pair<std::string, std::string>>> sweep_runs(const std::vector<SweepAxis>& axes) {
  std::size_t total = 1;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j)
      if (axes[j].name == axes[i].name) throw config_error("--vary " + axes[i].name + " is given twice; give it once");
    total *= axes[i].values.size();
    if (total > max_sweep_runs)
      throw config_error("the sweep would run more than " + std::to_string(max_sweep_runs) +
                         " configurations; vary fewer constants or fewer values");
  }
  std::vector<std::vector<std::pair<std::string, std::string>>> runs(total);
  std::size_t stride = total;
  for (const SweepAxis& axis : axes) {
    stride /= axis.values.size();
    for (std::size_t r = 0; r < total; ++r) runs[r].emplace_back(axis.name, axis.values[(r / stride) % axis.values.size()]);
  }
  return runs;
}

}  // namespace statecheck::cli
