// `check --coverage`; see report/coverage.hpp.
#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "report/json_value.hpp"
#include "report/coverage.hpp"
#include "statecheck/detail/search.hpp"
#include "statecheck/report.hpp"

namespace statecheck::detail {

namespace {

/// One parameter of an action, with its values in first-seen order and an
/// index from a value's text to its row (one lookup per transition id, so
/// the table is linear in the number of ids, not quadratic in the values).
struct ParamTally {
  std::string name;
  std::vector<CoverageRow> values;
  std::unordered_map<std::string, std::size_t> row_of;
};

struct ActionTally {
  bool present = false;
  CoverageRow total;
  std::vector<ParamTally> params;
};

void add_to(CoverageRow& row, std::uint64_t enabled, std::uint64_t fresh) {
  row.enabled += enabled;
  row.new_states += fresh;
}

/// Ids between two looks at the stop flag: the table of a spec with millions
/// of ids takes seconds, and Ctrl-C must end it.
constexpr std::uint32_t ids_between_stop_checks = 4096;

/// The names of the ids a symmetric run renamed (s2, s3, ...): a parameter
/// value among them is counted on representatives only.
std::unordered_map<std::string, bool> interchangeable_ids(const ModelOps& ops, const Stats& stats) {
  std::unordered_map<std::string, bool> names;
  if (stats.symmetry.empty()) return names;  // --no-symmetry, or no symmetric part
  for (const SymmetryKind& k : ops.symmetry)
    for (int i = k.first_index; i < k.first_index + k.count; ++i) names[k.prefix + std::to_string(i + 1)] = true;
  return names;
}

}  // namespace

Coverage coverage_of(const ModelOps& ops, const Stats& stats) {
  std::vector<ActionTally> actions(ops.action_names.size());
  const auto renamed = interchangeable_ids(ops, stats);
  for (std::uint32_t tid = 0; tid < ops.transitions; ++tid) {
    if (tid % ids_between_stop_checks == 0 && stop_flag().load(std::memory_order_relaxed))
      throw stopped_error("interrupted while tallying --coverage (" + std::to_string(tid) + " of " +
                          std::to_string(ops.transitions) + " transitions); the check above is complete, its coverage is not");
    const TransitionInfo info = ops.describe(ops.model, nullptr, tid);  // a choice's value is not tallied
    const std::uint64_t enabled = tid < stats.transition_enabled.size() ? stats.transition_enabled[tid] : 0;
    const std::uint64_t fresh = tid < stats.transition_new.size() ? stats.transition_new[tid] : 0;
    ActionTally& a = actions[info.action];
    if (!a.present) {
      a.present = true;
      a.total.action = info.action_name;
      for (const auto& [name, value] : info.params) a.params.push_back({name, {}, {}});
    }
    add_to(a.total, enabled, fresh);
    for (std::size_t p = 0; p < info.params.size() && p < a.params.size(); ++p) {
      ParamTally& tally = a.params[p];
      std::string text = value_text(info.params[p].second);
      const auto [it, added] = tally.row_of.try_emplace(text, tally.values.size());
      if (added) {
        const bool by_representative = renamed.count(text) != 0;
        tally.values.push_back({info.action_name, tally.name, std::move(text), 0, 0, by_representative});
      }
      add_to(tally.values[it->second], enabled, fresh);
    }
  }
  Coverage c;
  for (const SymmetryKind& k : ops.symmetry)
    if (!stats.symmetry.empty() && k.count > 0) c.interchangeable.push_back(k.count == 1 ? k.first : k.first + ".." + k.last);
  for (const ActionTally& a : actions) {
    if (!a.present) continue;
    c.rows.push_back(a.total);
    if (a.total.enabled == 0) c.never_enabled.push_back(a.total.action);
    for (const ParamTally& p : a.params) {
      for (const CoverageRow& v : p.values) {
        c.rows.push_back(v);
        if (v.enabled == 0 && a.total.enabled != 0 && !v.by_representative) c.never_enabled.push_back(v.action + "(" + v.param + "=" + v.value + ")");
      }
    }
  }
  return c;
}

nlohmann::ordered_json coverage_json(const Coverage& c) {
  nlohmann::ordered_json actions = nlohmann::ordered_json::array();
  for (const CoverageRow& r : c.rows) {
    if (r.param.empty()) {
      actions.push_back({{"action", r.action}, {"enabled", r.enabled}, {"new_states", r.new_states},
                         {"params", nlohmann::ordered_json::array()}});
    } else {
      actions.back()["params"].push_back({{"param", r.param}, {"value", r.value}, {"enabled", r.enabled},
                                          {"new_states", r.new_states}, {"by_representative", r.by_representative}});
    }
  }
  return {{"actions", actions}, {"never_enabled", c.never_enabled}, {"by_representative", c.interchangeable}};
}

void print_coverage(std::ostream& out, const Coverage& c) {
  const auto name_of = [](const CoverageRow& r) { return r.param.empty() ? r.action : "  " + r.param + "=" + r.value; };
  std::size_t width = 6;
  for (const CoverageRow& r : c.rows) width = std::max(width, name_of(r).size());
  char line[64];
  out << "coverage (each action, then each value of its parameters):\n";
  out << "  " << std::string("action") << std::string(width - 6, ' ');
  std::snprintf(line, sizeof line, "  %14s  %14s\n", "times enabled", "new states");
  out << line;
  for (const CoverageRow& r : c.rows) {
    const std::string name = name_of(r);
    std::snprintf(line, sizeof line, "  %14llu  %14llu\n", static_cast<unsigned long long>(r.enabled),
                  static_cast<unsigned long long>(r.new_states));
    out << "  " << name << std::string(width - name.size(), ' ') << line;
  }
  if (!c.interchangeable.empty()) {
    std::string ids;
    for (const std::string& k : c.interchangeable) ids += (ids.empty() ? "" : ", ") + k;
    out << "with symmetry the rows of " << ids << " count the orbits' representatives only: they say little about "
        << "one id, and none is listed as never enabled (--no-symmetry counts every id)\n";
  }
  if (c.never_enabled.empty()) {
    out << "every action and parameter value was enabled\n";
    return;
  }
  out << "never enabled (a model that never exercises a fault is a weak model):\n";
  for (const std::string& n : c.never_enabled) out << "  " << n << "\n";
}

}  // namespace statecheck::detail
