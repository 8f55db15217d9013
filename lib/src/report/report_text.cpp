// Text output: values, traces as diffs, the summary. See statecheck/report.hpp.
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "statecheck/report.hpp"
#include "statecheck/time.hpp"

#include "statecheck/detail/utf8.hpp"

namespace statecheck {

int exit_code(const CheckResult& r) {
  switch (r.outcome) {
    case Outcome::ok: return exit_ok;
    case Outcome::violation: return exit_violation;
    case Outcome::error:
    case Outcome::limit: return exit_error;
  }
  return exit_error;
}

std::string value_text(const Value& v) {
  using K = Value::Kind;
  switch (v.kind) {
    case K::integer: return std::to_string(v.number);
    case K::boolean: return v.number != 0 ? "true" : "false";
    case K::name: return detail::escaped_text(v.text, true);  // a value's text is the spec's: one line, no terminal codes
    case K::array:
    case K::sequence:
    case K::set: {
      std::string s = v.kind == K::set ? "{" : "[";
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i > 0) s += ", ";
        s += value_text(v.items[i]);
      }
      return s + (v.kind == K::set ? "}" : "]");
    }
    case K::record: {
      std::string s = "{";
      for (std::size_t i = 0; i < v.items.size(); ++i) {
        if (i > 0) s += ", ";
        s += detail::escaped_text(v.keys[i], true);
        s += ": ";
        s += value_text(v.items[i]);
      }
      return s + "}";
    }
  }
  return "?";
}

namespace {

/// " at depths 1-40" (or " at depth 1"): the levels the self-checked states were drawn from.
std::string self_checked_depths(const Stats& s) {
  const auto& by = s.self_checked_by_depth;
  const auto first = std::find_if(by.begin(), by.end(), [](std::uint64_t n) { return n > 0; });
  if (first == by.end()) return "";
  const auto last = std::find_if(by.rbegin(), by.rend(), [](std::uint64_t n) { return n > 0; });
  const std::size_t a = static_cast<std::size_t>(first - by.begin()) + 1, b = by.size() - static_cast<std::size_t>(last - by.rbegin());
  return a == b ? " at depth " + std::to_string(a) : " at depths " + std::to_string(a) + "-" + std::to_string(b);
}

void flatten_into(const Value& v, const std::string& path, std::vector<Field>& out) {
  using K = Value::Kind;
  const bool structured_sequence = v.kind == K::sequence && !v.items.empty() && v.items.front().is_structured();
  if (v.kind == K::record) {
    for (std::size_t i = 0; i < v.items.size(); ++i)
      flatten_into(v.items[i], path.empty() ? v.keys[i] : path + "." + v.keys[i], out);
  } else if (v.kind == K::array || structured_sequence) {
    if (structured_sequence) out.push_back({path + ".size", std::to_string(v.items.size())});
    for (std::size_t i = 0; i < v.items.size(); ++i) flatten_into(v.items[i], path + "[" + std::to_string(i) + "]", out);
  } else if (v.kind == K::set) {
    Field f{path, value_text(v), true};
    for (const Value& member : v.items) f.members.push_back(value_text(member));
    out.push_back(std::move(f));
  } else {
    out.push_back({path, value_text(v)});
  }
}

using FieldMap = std::map<std::string, Field>;

/// Whether `path` is a part of `root` (root.x, root[i]), root itself excluded.
bool inside(const std::string& path, const std::string& root) {
  return path.size() > root.size() && path.compare(0, root.size(), root) == 0 &&
         (path[root.size()] == '.' || path[root.size()] == '[');
}

/// `path` or one of its parts is a field of `fields`.
bool present(const FieldMap& fields, const std::string& path) {
  for (auto it = fields.lower_bound(path); it != fields.end() && it->first.compare(0, path.size(), path) == 0; ++it)
    if (it->first == path || inside(it->first, path)) return true;
  return false;
}

/// The prefixes of `path` that are whole paths (`a`, `a.b`, `a.b[0]`), outermost first, path itself last.
std::vector<std::string> prefixes(const std::string& path) {
  std::vector<std::string> out;
  for (std::size_t i = 1; i < path.size(); ++i)
    if (path[i] == '.' || path[i] == '[') out.push_back(path.substr(0, i));
  out.push_back(path);
  return out;
}

/// A set that changed: one line per member that left or joined it.
void print_set_change(std::ostream& out, const Field& before, const Field& after) {
  for (const std::string& m : before.members)
    if (std::find(after.members.begin(), after.members.end(), m) == after.members.end())
      out << "       " << after.path << ": - " << m << "\n";
  for (const std::string& m : after.members)
    if (std::find(before.members.begin(), before.members.end(), m) == before.members.end())
      out << "       " << after.path << ": + " << m << "\n";
}

/// Fields of `previous` that `current` lacks. Nothing when the container
/// they belonged to changed form (an outer path is now one leaf, `cmds = []`,
/// or the path itself now has parts); otherwise the outermost part that
/// vanished, once (`cmds[1] (removed)`, not each of its fields).
void print_removed(std::ostream& out, const FieldMap& previous, const FieldMap& current) {
  std::set<std::string> printed;
  for (const auto& [path, field] : previous) {
    if (current.count(path) != 0 || present(current, path)) continue;
    const std::vector<std::string> outer = prefixes(path);
    if (std::any_of(outer.begin(), outer.end(), [&](const std::string& p) { return current.count(p) != 0; })) continue;
    const auto gone = std::find_if(outer.begin(), outer.end(), [&](const std::string& p) { return !present(current, p); });
    if (printed.insert(*gone).second) out << "       " << *gone << " (removed)\n";
  }
}

std::string with_commas(std::uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string s;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) s.push_back(',');
    s.push_back(digits[i]);
  }
  return s;
}

std::string bytes_text(std::size_t b) {
  char buf[32];
  if (b >= (std::size_t{1} << 30)) std::snprintf(buf, sizeof buf, "%.2f GiB", static_cast<double>(b) / (1 << 30));
  else std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(b) / (1 << 20));
  return buf;
}

std::string verdict(const CheckResult& r) {
  switch (r.outcome) {
    case Outcome::ok: return r.depth_bounded ? "ok up to the depth limit" : "ok";
    case Outcome::limit: return "stopped: " + r.limit_message;
    case Outcome::error: return "error: spec error in " + r.error->where + ": " + r.error->message;
    case Outcome::violation: break;
  }
  const Violation& v = *r.violation;
  switch (v.kind) {
    case Violation::Kind::invariant:
      return "violation: invariant " + v.property + " fails after " + std::to_string(v.length()) + " steps";
    case Violation::Kind::deadlock:
      return "violation: deadlock after " + std::to_string(v.length()) + " steps";
    case Violation::Kind::timelock:
      return "violation: timelock after " + std::to_string(v.length()) + " steps: no action is enabled and deadline " +
             v.property + " keeps time from passing";
    case Violation::Kind::goal:
      return "violation: goal " + v.property + " is never reached" +
             (r.depth_bounded ? " within depth " + std::to_string(r.stats.depth) + " (--max-depth)" : "");
  }
  return "violation";
}

/// How far off the progress line's forecast was, as made at 25/50/75% of the run.
void print_forecast(std::ostream& out, const Stats& s) {
  for (const ForecastPoint& f : s.forecast) {
    char line[256];
    std::snprintf(line, sizeof line,
                  "  forecast at %2.0f%%   (level %u) %s states (%+.0f%%), %.1f s (%+.0f%%), %s (%+.0f%%)\n",
                  f.fraction * 100, f.level, with_commas(f.states).c_str(), forecast_error(static_cast<double>(f.states), static_cast<double>(s.distinct)) * 100,
                  f.seconds, forecast_error(f.seconds, s.seconds) * 100, bytes_text(f.memory).c_str(),
                  forecast_error(static_cast<double>(f.memory), static_cast<double>(s.memory_peak)) * 100);
    out << line;
  }
}

/// Why some orbits count 1 state each: after a --resume, those found before
/// it (a checkpoint does not carry orbit sizes) may be all of them.
std::string uncounted_orbits(const Stats& s, std::uint32_t resumed_from_level) {
  if (s.symmetry_uncounted == 0) return "";
  const std::string n = with_commas(s.symmetry_uncounted);
  if (resumed_from_level == 0) return ", " + n + " orbits too large to count";
  return ", " + n + " orbits count 1 state each: those found before the resume at level " +
         std::to_string(resumed_from_level) + " (a checkpoint does not carry orbit sizes), and any too large to count";
}

/// "77 orbits stand for 451 states (5.9x)": what the reduction saved; "at
/// least" when some orbit's size was not counted (Stats::symmetry_uncounted).
void print_reduction(std::ostream& out, const Stats& s, std::uint32_t resumed_from_level) {
  if (s.distinct == 0) return;
  char line[512];
  const bool exact = s.symmetry_uncounted == 0;
  char big[32];
  std::snprintf(big, sizeof big, "%.4g", s.symmetry_states);
  const std::string states = s.symmetry_states < 9.0e15 ? with_commas(static_cast<std::uint64_t>(s.symmetry_states)) : big;
  std::snprintf(line, sizeof line, "  reduction         %s orbits stand for %s%s states (%.1fx)%s\n",
                with_commas(s.distinct).c_str(), exact ? "" : "at least ", states.c_str(),
                s.symmetry_states / static_cast<double>(s.distinct), uncounted_orbits(s, resumed_from_level).c_str());
  out << line;
}

void print_stats(std::ostream& out, const CheckResult& r) {
  const Stats& s = r.stats;
  char line[256];
  const double rate = s.seconds > 0 ? static_cast<double>(s.distinct) / s.seconds : 0;
  out << "  distinct states   " << with_commas(s.distinct) << "\n";
  out << "  generated states  " << with_commas(s.generated) << "\n";
  out << "  depth             " << s.depth << "\n";
  if (!s.symmetry.empty()) {
    std::string kinds;
    for (const std::string& k : s.symmetry) kinds += (kinds.empty() ? "" : " x ") + k;
    std::snprintf(line, sizeof line, "  symmetry          %s interchangeable: %.0f renamings, distinct counts orbits\n",
                  kinds.c_str(), s.symmetry_group);
    out << line;
    print_reduction(out, s, r.resumed_from_level);
  }
  std::snprintf(line, sizeof line, "  time              %.3f s, %u threads, %.0f distinct states/s\n", s.seconds,
                s.threads, rate);
  out << line;
  const double per_state = s.distinct ? static_cast<double>(s.visited_bytes + s.trace_bytes) / static_cast<double>(s.distinct) : 0;
  if (s.exact) {
    out << "  visited set       exact (full states), " << bytes_text(s.visited_bytes) << "\n";
  } else {
    std::snprintf(line, sizeof line,
                  "  visited set       %s, load %.1f%%, %u-bit fingerprints, omission probability <= %.2g\n",
                  bytes_text(s.visited_bytes).c_str(), s.load * 100, s.fingerprint_bits, s.omission_probability);
    out << line;
  }
  std::snprintf(line, sizeof line, "  memory            trace log %s, %.1f bytes/state with the visited set, peak RSS %s\n",
                bytes_text(s.trace_bytes).c_str(), per_state, bytes_text(s.peak_rss).c_str());
  out << line;
  if (s.self_checked > 0)
    out << "  self-check        " << with_commas(s.self_checked) << " states" << self_checked_depths(s)
        << ": transitions deterministic, encoding canonical, properties pure"
        << (s.symmetry.empty() ? "" : ", renaming commutes with the spec") << "\n";
  if (s.trace_disk_bytes != 0) out << "  trace log spilled " << bytes_text(s.trace_disk_bytes) << " to --workdir\n";
  if (s.frontier_spilled_levels != 0)
    out << "  frontier spilled  " << s.frontier_spilled_levels << (s.frontier_spilled_levels == 1 ? " level, " : " levels, ")
        << (s.frontier_raw_bytes == s.frontier_disk_bytes ? "" : bytes_text(s.frontier_raw_bytes) + " of states as ")
        << bytes_text(s.frontier_disk_bytes) << " written to --workdir\n";
  print_forecast(out, s);
}

void print_coverage(std::ostream& out, const Stats& s) {
  std::size_t width = 6;
  for (const ActionStats& a : s.actions) width = std::max(width, a.name.size());
  out << "  actions (times enabled / new states):\n";
  for (const ActionStats& a : s.actions)
    out << "    " << a.name << std::string(width - a.name.size() + 2, ' ') << with_commas(a.enabled) << " / "
        << with_commas(a.new_states) << "\n";
}

}  // namespace

std::vector<Field> flatten(const Value& state) {
  std::vector<Field> out;
  flatten_into(state, "", out);
  return out;
}

void print_trace(std::ostream& out, const Trace& trace) {
  FieldMap previous;
  std::size_t i = 0;
  std::int64_t now = 0;  // ms since the initial state
  trace.for_each([&](const TraceStep& step) {
    now += step.delay_ms;
    out << "  " << i << ": " << (i == 0 ? "initial state" : step.label);
    if (step.delay_ms > 0) out << "  (t = " << duration_text(duration(now)) << ")";
    out << "\n";
    FieldMap current;
    for (Field& f : flatten(step.state)) {
      const auto it = previous.find(f.path);
      const bool changed_set = it != previous.end() && f.is_set && it->second.is_set && it->second.text != f.text;
      // A field that changed reads as a change (`step: start -> has_read`); one
      // that is new (the first state, a grown container) shows its value.
      if (i != 0 && changed_set) print_set_change(out, it->second, f);
      else if (i == 0 || it == previous.end()) out << "       " << f.path << " = " << f.text << "\n";
      else if (it->second.text != f.text) out << "       " << f.path << ": " << it->second.text << " -> " << f.text << "\n";
      std::string path = f.path;
      current.emplace(std::move(path), std::move(f));
    }
    if (i != 0) print_removed(out, previous, current);
    previous = std::move(current);
    ++i;
  });
}

void print_text(std::ostream& out, const CheckResult& r, const RunInfo& info, bool quiet) {
  out << "statecheck: " << info.spec;
  if (!info.constants.empty()) {
    out << " (";
    for (std::size_t i = 0; i < info.constants.size(); ++i)
      out << (i ? ", " : "") << info.constants[i].first << "=" << info.constants[i].second;
    out << ")";
  }
  out << "\n";
  if (r.resumed_from_level != 0) out << "resumed from level " << r.resumed_from_level << " of a checkpoint\n";
  out << verdict(r) << "\n";
  if (r.violation && !r.violation->trace.empty()) {
    out << "trace (" << r.violation->length() << " steps):\n";
    print_trace(out, r.violation->trace);
  }
  if (r.error && !r.error->trace.empty()) {
    out << "trace to the state where it happened (" << r.error->trace.size() - 1 << " steps), then "
        << r.error->where << " threw:\n";
    print_trace(out, r.error->trace);
  }
  if (quiet) return;
  out << "statistics:\n";
  print_stats(out, r);
  print_coverage(out, r.stats);
  for (const std::string& w : r.warnings) out << "warning: " << w << "\n";
}

std::string summary_header() {
  char line[200];
  std::snprintf(line, sizeof line, "%-86s %-10s %12s %13s %6s %9s  %s", "spec", "result", "distinct", "generated",
                "depth", "time", "property (trace length)");
  return line;
}

std::string summary_row(const CheckResult& r, const RunInfo& info) {
  std::string name = info.spec;
  for (const auto& [k, v] : info.constants) name += " " + k + (k.rfind("--", 0) == 0 ? " " : "=") + v;
  const char* result = r.outcome == Outcome::ok ? "ok" : r.outcome == Outcome::violation ? "violation"
                       : r.outcome == Outcome::limit ? "limit" : "error";
  std::string property;
  if (r.violation) property = r.violation->property + (r.violation->trace.empty() ? "" : " (" + std::to_string(r.violation->length()) + ")");
  if (r.error) property = r.error->message;
  char line[512];
  std::snprintf(line, sizeof line, "%-86s %-10s %12s %13s %6u %8.2fs  %s", name.c_str(), result,
                with_commas(r.stats.distinct).c_str(), with_commas(r.stats.generated).c_str(), r.stats.depth,
                r.stats.seconds, property.c_str());
  return line;
}

}  // namespace statecheck
