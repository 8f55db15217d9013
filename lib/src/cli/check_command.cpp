// `statecheck check NAME [options]`: the exhaustive search.
#include <iostream>
#include <memory>

#include "command_line.hpp"

namespace statecheck::cli {

namespace {

struct CheckArgs {
  SpecArgs spec;
  std::string memory;
  std::uint32_t max_depth = 0;
  double progress = 10;
  bool exact = false;
  std::uint64_t self_check = CheckOptions{}.self_check_states;
};

int run_check(const CheckArgs& a) {
  Selected s = select_spec(a.spec);
  CheckOptions& o = s.info.options;
  o.memory = a.memory.empty() ? 0 : parse_size(a.memory, "--memory");
  o.max_depth = a.max_depth;
  o.exact = a.exact;
  o.self_check_states = a.self_check;
  o.progress_seconds = a.spec.quiet ? 0 : a.progress;
  install_stop_handlers();
  const CheckResult r = check_entry(*s.entry, s.values, o);
  if (a.spec.format == "json") std::cout << to_json(r, s.info) << std::endl;
  else print_text(std::cout, r, s.info, a.spec.quiet);
  return exit_code(r);
}

}  // namespace

Command add_check_command(CLI::App& app, bool single_spec) {
  CLI::App* cmd = app.add_subcommand("check", "check one spec exhaustively");
  auto a = std::make_shared<CheckArgs>();
  add_spec_options(*cmd, a->spec, single_spec);
  cmd->add_option("--memory,-m", a->memory, "visited-set budget, e.g. 512M or 2G (default: half the RAM)");
  cmd->add_option("--max-depth", a->max_depth, "do not expand states beyond this BFS level")
      ->check(CLI::Range(1u, 1u << 30));
  cmd->add_option("--progress", a->progress, "seconds between progress lines on stderr (0: none; default 10)")
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_flag("--exact", a->exact, "store full states instead of fingerprints (for validation)");
  cmd->add_option("--self-check", a->self_check,
                  "check determinism, canonical encoding and pure properties on the first N states (0: off; default 1000)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 40));
  return {cmd, [a] { return run_check(*a); }};
}

}  // namespace statecheck::cli
