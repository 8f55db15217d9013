// `statecheck simulate NAME --seed S --depth D --runs N`: random walks for
// state spaces too big to exhaust; see tools/simulate.hpp.
#include <cstdio>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "report/json_value.hpp"
#include "tools/simulate.hpp"

namespace statecheck::cli {

namespace {

struct SimulateArgs {
  SpecArgs spec;
  detail::SimulateOptions options;
};

/// The parts of a check result the shared verdict and trace printers read.
CheckResult as_check_result(const std::string& spec, const detail::SimulateResult& r) {
  CheckResult c;
  c.spec = spec;
  c.outcome = r.outcome;
  c.violation = r.violation;
  c.error = r.error;
  c.limit_message = r.limit_message;
  return c;
}

/// The command line that repeats the failing walk on its own thread count.
std::string reproduce_line(const Selected& s, const detail::SimulateOptions& o, std::uint64_t walk) {
  std::string line = "statecheck simulate " + s.info.spec;
  for (const auto& [name, value] : s.info.constants) line += " --set " + name + "=" + value;
  for (const std::string& inv : o.invariants) line += " --invariant " + inv;
  if (!o.check_deadlock) line += " --no-deadlock";
  return line + " --seed " + std::to_string(o.seed) + " --depth " + std::to_string(o.depth) + " --runs " +
         std::to_string(walk);
}

void print_summary(std::ostream& out, const detail::SimulateOptions& o, const detail::SimulateResult& r) {
  out << "simulation (seed " << o.seed << ", up to " << o.runs << " walks of up to " << o.depth << " steps):\n";
  out << "  walks             " << r.walks << "\n";
  out << "  steps             " << r.steps << "\n";
  out << "  longest walk      " << r.longest << " steps\n";
  char line[160];
  const double rate = r.seconds > 0 ? static_cast<double>(r.steps) / r.seconds : 0;
  std::snprintf(line, sizeof line, "  time              %.3f s, %u threads, %.0f steps/s\n", r.seconds, r.threads, rate);
  out << line;
}

std::string simulate_json(const Selected& s, const detail::SimulateOptions& o, const detail::SimulateResult& r) {
  nlohmann::ordered_json doc = detail::check_document(as_check_result(s.info.spec, r), s.info);
  doc.erase("stats");  // a check's statistics; a simulation has its own
  doc["simulation"] = {{"seed", o.seed},         {"runs", o.runs},       {"depth", o.depth},
                       {"walks", r.walks},       {"steps", r.steps},     {"longest_walk", r.longest},
                       {"seconds", r.seconds},   {"threads", r.threads}};
  if (r.failing_walk != 0) doc["simulation"]["failing_walk"] = r.failing_walk;
  return detail::json_text(doc);
}

int run_simulate(SimulateArgs a) {
  Selected s = select_spec(a.spec);
  a.options.threads = a.spec.threads;
  a.options.check_deadlock = !a.spec.no_deadlock;
  a.options.invariants = a.spec.invariants;
  install_stop_handlers();
  detail::SimulateResult r;
  s.entry->with_model(s.values, [&](const detail::ModelOps& ops) { r = detail::simulate(ops, a.options); });
  const CheckResult shown = as_check_result(s.info.spec, r);
  if (a.spec.format == "json") {
    std::cout << simulate_json(s, a.options, r) << std::endl;
    return exit_code(shown);
  }
  print_text(std::cout, shown, s.info, true);
  if (r.failing_walk != 0)
    std::cout << "found by walk " << r.failing_walk << " of seed " << a.options.seed
              << "; to repeat it: " << reproduce_line(s, a.options, r.failing_walk) << "\n";
  if (!a.spec.quiet) print_summary(std::cout, a.options, r);
  return exit_code(shown);
}

}  // namespace

Command add_simulate_command(CLI::App& app, bool single_spec) {
  CLI::App* cmd = app.add_subcommand("simulate", "random walks that check the invariants on every state they visit");
  auto a = std::make_shared<SimulateArgs>();
  add_spec_options(*cmd, a->spec, single_spec);
  cmd->add_option("--seed", a->options.seed, "seed of the walks: the same seed gives the same walks (default 1)")
      ->check(integer_in(0, std::numeric_limits<std::uint64_t>::max()));
  cmd->add_option("--depth,-d", a->options.depth, "the most steps a walk takes (default 100)")
      ->check(integer_in(1, 1u << 30));
  cmd->add_option("--runs,-n", a->options.runs, "number of walks (default 1000)")
      ->check(integer_in(1, std::uint64_t{1} << 48));
  return {cmd, [a] { return run_simulate(*a); }};
}

}  // namespace statecheck::cli
