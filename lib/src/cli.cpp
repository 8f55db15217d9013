// The command line of every checker binary; see statecheck/cli.hpp.
#include "statecheck/cli.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <csignal>
#include <cstring>
#include <iostream>
#include <sstream>

#include "statecheck/registry.hpp"
#include "statecheck/report.hpp"

namespace statecheck {

namespace {

struct CheckArgs {
  std::string spec;
  unsigned threads = 0;
  std::vector<std::string> sets;
  std::string memory;
  std::uint32_t max_depth = 0;
  bool no_deadlock = false;
  std::string format = "text";
  double progress = 10;
  bool exact = false;
  std::vector<std::string> invariants;
  bool quiet = false;
};

std::size_t parse_size(const std::string& text) {
  std::size_t used = 0;
  double number = 0;
  try {
    number = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  std::string unit = used > 0 ? text.substr(used) : "";
  double scale = 1;
  if (unit == "K" || unit == "k" || unit == "KiB") scale = 1024.0;
  else if (unit == "M" || unit == "m" || unit == "MiB") scale = 1024.0 * 1024;
  else if (unit == "G" || unit == "g" || unit == "GiB") scale = 1024.0 * 1024 * 1024;
  else if (!unit.empty()) used = 0;
  if (used == 0 || number <= 0) throw config_error("--memory takes a size such as 512M or 2G, not '" + text + "'");
  const double bytes = number * scale;
  if (bytes < 16.0 * 1024 * 1024) throw config_error("--memory " + text + " is too small; give at least 16M");
  return static_cast<std::size_t>(bytes);
}

const SpecEntry& find_spec(const std::string& name) {
  const SpecEntry* e = registry().find(name);
  if (e == nullptr) throw config_error("unknown spec '" + name + "'; 'statecheck list' shows the available specs");
  return *e;
}

/// Constant values (defaults, then each name=value in order) and their text.
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
      throw config_error("unknown constant '" + name + "' for spec '" + e.name + "'; use one of: " +
                         (known.empty() ? "(none)" : known));
    }
    std::string error;
    if (!e.constants[i].parse(text, values[i], error)) throw config_error(error);
  }
  for (std::size_t i = 0; i < e.constants.size(); ++i) shown.emplace_back(e.constants[i].name, e.constants[i].text(values[i]));
  return values;
}

std::vector<std::pair<std::string, std::string>> split_sets(const std::vector<std::string>& sets) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const std::string& s : sets) {
    const std::size_t eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw config_error("--set takes name=value (e.g. --set rms=4), not '" + s + "'");
    out.emplace_back(s.substr(0, eq), s.substr(eq + 1));
  }
  return out;
}

/// First Ctrl-C: stop at the next batch with the partial summary; a second one
/// gets the default action and ends the process at once.
extern "C" void on_stop_signal(int signal) {
  statecheck::request_stop();
  std::signal(signal, SIG_DFL);
}

int run_check(const CheckArgs& a) {
  const SpecEntry& e = find_spec(a.spec);
  RunInfo info;
  info.spec = e.name;
  const std::vector<int> values = constant_values(e, split_sets(a.sets), info.constants);
  CheckOptions& o = info.options;
  o.threads = a.threads;
  o.memory = a.memory.empty() ? 0 : parse_size(a.memory);
  o.max_depth = a.max_depth;
  o.check_deadlock = !a.no_deadlock;
  o.exact = a.exact;
  o.progress_seconds = a.quiet ? 0 : a.progress;
  o.invariants = a.invariants;
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  const CheckResult r = e.run(values, o);
  if (a.format == "json") std::cout << to_json(r, info) << std::endl;
  else print_text(std::cout, r, info, a.quiet);
  return exit_code(r);
}

bool as_expected(const CheckResult& r, const std::string& expect) {
  if (expect.empty()) return true;
  if (expect == "ok") return r.outcome == Outcome::ok;
  std::istringstream in(expect);
  std::string word, property;
  std::size_t length = 0;
  in >> word >> property >> length;
  return word == "violation" && r.violation && r.violation->property == property && r.violation->length() == length;
}

int run_suite(const std::vector<std::string>& names, unsigned threads) {
  std::vector<const SpecEntry*> specs;
  if (names.empty()) {
    for (const SpecEntry& e : registry().entries()) specs.push_back(&e);
  } else {
    for (const std::string& n : names) specs.push_back(&find_spec(n));
  }
  std::cout << summary_header() << "\n";
  int runs = 0, unexpected = 0;
  for (const SpecEntry* e : specs) {
    for (const SuiteRun& run : e->suite) {
      RunInfo info;
      info.spec = e->name;
      std::vector<std::pair<std::string, std::string>> all;
      const std::vector<int> values = constant_values(*e, run.sets, all);
      info.constants = run.sets;
      info.options.threads = threads;
      info.options.invariants = run.invariants;
      for (const std::string& inv : run.invariants) info.constants.emplace_back("--invariant", inv);
      const CheckResult r = e->run(values, info.options);
      const bool ok = as_expected(r, run.expect);
      ++runs;
      unexpected += ok ? 0 : 1;
      std::cout << summary_row(r, info) << (ok ? "" : "   UNEXPECTED: the README says " + run.expect) << std::endl;
    }
  }
  std::cout << runs << " runs, " << runs - unexpected << " as documented, " << unexpected << " unexpected\n";
  return unexpected == 0 ? exit_ok : exit_violation;
}

int run_list() {
  for (const SpecEntry& e : registry().entries()) {
    std::cout << e.name << "  " << e.summary << "\n";
    for (const ConstantInfo& c : e.constants)
      std::cout << "    --set " << c.name << "=" << c.domain() << "  (default " << c.text(c.default_value) << ")  "
                << c.help << "\n";
    std::vector<int> defaults;
    for (const ConstantInfo& c : e.constants) defaults.push_back(c.default_value);
    const auto [invariants, goals] = e.properties(defaults);
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

void add_check_options(CLI::App& cmd, CheckArgs& a, bool name_required) {
  auto* spec = cmd.add_option("spec", a.spec, "spec to check (see 'list')");
  if (name_required) spec->required();
  cmd.add_option("--threads,-t", a.threads, "worker threads (default: all cores)")->check(CLI::Range(1u, 4096u));
  cmd.add_option("--set,-s", a.sets, "set a spec constant: name=value (repeatable)");
  cmd.add_option("--memory,-m", a.memory, "visited-set budget, e.g. 512M or 2G (default: half the RAM)");
  cmd.add_option("--max-depth", a.max_depth, "do not expand states beyond this BFS level")->check(CLI::Range(1u, 1u << 30));
  cmd.add_flag("--no-deadlock", a.no_deadlock, "do not report states without successors");
  cmd.add_option("--format,-f", a.format, "output format: text or json")->check(CLI::IsMember({"text", "json"}));
  cmd.add_option("--progress", a.progress, "seconds between progress lines on stderr (0: none; default 10)")
      ->check(CLI::Range(0.0, 86400.0));
  cmd.add_flag("--exact", a.exact, "store full states instead of fingerprints (for validation)");
  cmd.add_option("--invariant,-i", a.invariants, "check only this invariant (repeatable)");
  cmd.add_flag("--quiet,-q", a.quiet, "only the verdict and the trace");
}

int run_cli(int argc, char** argv) {
  spdlog::set_default_logger(spdlog::stderr_color_mt("statecheck"));
  spdlog::set_pattern("[%H:%M:%S] %v");
  const bool single = registry().entries().size() == 1;
  std::vector<char*> args(argv, argv + argc);
  std::string check_word = "check";
  if (single && (argc == 1 || argv[1][0] == '-') &&
      !(argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)))
    args.insert(args.begin() + 1, check_word.data());

  CLI::App app{"statecheck: exhaustive explicit-state model checking of C++ specs"};
  app.require_subcommand(1);
  app.add_subcommand("list", "list the specs, their constants and properties");
  CLI::App* check = app.add_subcommand("check", "check one spec exhaustively");
  CheckArgs a;
  add_check_options(*check, a, !single);
  if (single) a.spec = registry().entries().front().name;
  CLI::App* suite = app.add_subcommand("suite", "check every documented configuration and print a summary");
  std::vector<std::string> suite_specs;
  unsigned suite_threads = 0;
  suite->add_option("specs", suite_specs, "specs to run (default: all)");
  suite->add_option("--threads,-t", suite_threads, "worker threads (default: all cores)")->check(CLI::Range(1u, 4096u));
  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "statecheck: error: " << e.what() << "; run with --help for usage\n";
    return exit_usage;
  }
  if (app.got_subcommand("list")) return run_list();
  if (app.got_subcommand("suite")) return run_suite(suite_specs, suite_threads);
  return run_check(a);
}

}  // namespace

int cli_main(int argc, char** argv) {
  try {
    return run_cli(argc, argv);
  } catch (const config_error& e) {
    std::cerr << "statecheck: error: " << e.what() << "\n";
    return exit_usage;
  } catch (const std::bad_alloc&) {
    std::cerr << "statecheck: error: out of memory; lower --memory or check a smaller configuration\n";
    return exit_error;
  } catch (const std::exception& e) {
    std::cerr << "statecheck: internal error: " << e.what() << "\n";
    return exit_error;
  }
}

}  // namespace statecheck
