// `statecheck list` and `statecheck suite`: what is bundled, and every
// documented configuration checked against its documented verdict.
#include <iostream>
#include <memory>
#include <tuple>

#include "cli/command_line.hpp"

namespace statecheck::cli {

namespace {

/// Why a run is not as documented: its verdict differs, or it documents none
/// (empty, or not one of the two forms; SuiteRun::expected is then empty).
std::string unexpected_because(const SuiteRun& run) {
  if (run.expect.empty()) return "no verdict is documented for this run; give it \"ok\" or \"violation PROPERTY LENGTH\"";
  if (!run.expected) return "the README's verdict '" + run.expect + "' is neither \"ok\" nor \"violation PROPERTY LENGTH\"";
  return "the README says " + run.expect;
}

struct SuiteArgs {
  std::vector<std::string> specs;
  unsigned threads = 0;
};

/// Runs one documented configuration and prints its row; false when a signal
/// stopped it (no row: the run is not done).
bool run_one(const SpecEntry& e, const SuiteRun& run, unsigned threads, int& unexpected) {
  RunInfo info;
  info.spec = e.name;
  std::vector<std::pair<std::string, std::string>> all;
  const std::vector<int> values = constant_values(e, run.sets, all);
  info.constants = run.sets;
  info.options.threads = threads;
  info.options.invariants = run.invariants;
  for (const std::string& inv : run.invariants) info.constants.emplace_back("--invariant", inv);
  const CheckResult r = check_entry(e, values, info.options);
  if (r.outcome == Outcome::limit && stop_signalled()) return false;
  const bool ok = run.expected && run.expected->met_by(r);
  unexpected += ok ? 0 : 1;
  std::cout << summary_row(r, info) << (ok ? "" : "   UNEXPECTED: " + unexpected_because(run)) << std::endl;
  return true;
}

/// The rows a suite of these specs prints: one per run, one per broken spec.
std::size_t planned_runs(const std::vector<const SpecEntry*>& specs) {
  std::size_t n = 0;
  for (const SpecEntry* e : specs) n += e->broken.empty() ? e->suite.size() : 1;
  return n;
}

int run_suite(const SuiteArgs& a) {
  std::vector<const SpecEntry*> specs;
  if (a.specs.empty()) {
    for (const SpecEntry& e : registry().entries()) specs.push_back(&e);
  } else {
    for (const std::string& n : a.specs) specs.push_back(&find_spec(n));
  }
  for (const SpecEntry* e : specs) warn_if_unoptimised(*e);
  // Ctrl-C or SIGTERM stops the run in progress as it stops a check; the runs done keep their rows.
  install_stop_handlers();
  std::cout << summary_header() << "\n";
  int runs = 0, unexpected = 0;
  const std::size_t planned = planned_runs(specs);
  for (const SpecEntry* e : specs) {
    if (stop_signalled()) break;
    if (!e->broken.empty()) {  // only reachable with no names given: find_spec refuses a named one
      ++runs;
      ++unexpected;
      std::cout << e->name << "   UNEXPECTED: " << e->broken << std::endl;
      continue;
    }
    for (const SuiteRun& run : e->suite) {
      // Checked before a run too: a signal between two runs would be cleared by the next check.
      if (stop_signalled() || !run_one(*e, run, a.threads, unexpected)) break;
      ++runs;
    }
  }
  std::cout << runs << " runs, " << runs - unexpected << " as documented, " << unexpected << " unexpected\n";
  if (static_cast<std::size_t>(runs) < planned) {  // a signal stopped it (one after the last run changes nothing)
    std::cout << "stopped after " << runs << " of " << planned << " runs\n";
    return exit_error;
  }
  return unexpected == 0 ? exit_ok : exit_violation;
}

int run_list() {
  for (const SpecEntry& e : registry().entries()) {
    std::cout << e.name << "  " << e.summary << "\n";
    if (!e.broken.empty()) {
      std::cout << "    broken: " << e.broken << "\n";
      continue;
    }
    for (const ConstantInfo& c : e.constants)
      std::cout << "    --set " << c.name << "=" << c.domain() << "  (default " << c.text(c.default_value) << ")  "
                << c.help << "\n";
    std::vector<int> defaults;
    for (const ConstantInfo& c : e.constants) defaults.push_back(c.default_value);
    std::vector<std::string> invariants, goals;
    try {  // the model refuses what make_spec let through (an id_array, a symmetric range): show it, go on
      std::tie(invariants, goals) = properties_of(e, defaults);
    } catch (const std::exception& x) {
      std::cout << "    broken: " << x.what() << "\n";
      continue;
    }
    std::cout << "    invariants:";
    for (const auto& i : invariants) std::cout << " " << i;
    if (!goals.empty()) {
      std::cout << "   goals:";
      for (const auto& g : goals) std::cout << " " << g;
    }
    std::cout << "\n";
  }
  return exit_ok;
}

}  // namespace

Command add_list_command(CLI::App& app) {
  return {app.add_subcommand("list", "list the specs, their constants and properties"), [] { return run_list(); }};
}

Command add_suite_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("suite", "check every documented configuration and print a summary");
  auto a = std::make_shared<SuiteArgs>();
  cmd->add_option("specs", a->specs, "specs to run (default: all)")->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--threads,-t", a->threads, "worker threads (default: all cores)")->check(integer_in(1, max_threads));
  return {cmd, [a] { return run_suite(*a); }};
}

}  // namespace statecheck::cli
