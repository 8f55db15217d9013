// `statecheck check NAME [options]`: the exhaustive search.
#include <sys/stat.h>

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
  std::string workdir;
  std::string checkpoint;
  double checkpoint_every = 0;
  std::string resume;
};

/// A directory the run may write into: an existing one, or (`may_create`) a
/// new name in an existing directory. Nothing is created here.
void require_directory(const std::string& dir, const std::string& flag, bool may_create) {
  struct stat st {};
  if (stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) throw config_error(flag + " " + dir + " is not a directory; give a directory");
    return;
  }
  const std::size_t slash = dir.find_last_of('/');
  const std::string parent = slash == std::string::npos ? "." : slash == 0 ? "/" : dir.substr(0, slash);
  if (!may_create || stat(parent.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw config_error(flag + " " + dir + " does not exist; create it first");
}

int run_check(const CheckArgs& a) {
  Selected s = select_spec(a.spec);
  CheckOptions& o = s.info.options;
  o.memory = a.memory.empty() ? 0 : parse_size(a.memory, "--memory");
  o.max_depth = a.max_depth;
  o.exact = a.exact;
  o.progress_seconds = a.spec.quiet ? 0 : a.progress;
  if (a.checkpoint_every > 0 && a.checkpoint.empty())
    throw config_error("--checkpoint-every needs --checkpoint DIR to say where the checkpoints go");
  if (!a.workdir.empty()) require_directory(a.workdir, "--workdir", false);
  if (!a.checkpoint.empty()) require_directory(a.checkpoint, "--checkpoint", true);
  o.workdir = a.workdir;
  o.checkpoint = {a.checkpoint, a.checkpoint_every, a.resume, s.info.constants};
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
  cmd->add_option("--memory,-m", a->memory,
                  "RAM for the visited set, trace log, frontier and level tables, e.g. 512M or 2G (default: half the RAM)");
  cmd->add_option("--max-depth", a->max_depth, "do not expand states beyond this BFS level")
      ->check(CLI::Range(1u, 1u << 30));
  cmd->add_option("--progress", a->progress, "seconds between progress lines on stderr (0: none; default 10)")
      ->check(CLI::Range(0.0, 86400.0));
  cmd->add_flag("--exact", a->exact, "store full states instead of fingerprints (for validation)");
  cmd->add_option("--workdir", a->workdir, "directory where the trace log spills when it outgrows --memory");
  cmd->add_option("--checkpoint", a->checkpoint, "on Ctrl-C (and with --checkpoint-every) save the search here");
  cmd->add_option("--checkpoint-every", a->checkpoint_every, "also save a checkpoint every this many minutes")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--resume", a->resume, "continue the search saved in this --checkpoint directory");
  return {cmd, [a] { return run_check(*a); }};
}

}  // namespace statecheck::cli
