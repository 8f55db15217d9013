// The pieces every subcommand of the checker binaries shares: choosing a spec
// and its constants, sizes, signals. Each subcommand lives in its own file and
// adds itself to the CLI11 app through an add_*_command function.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "statecheck/spec_entry.hpp"
#include "statecheck/report.hpp"
#include "model/spec_config.hpp"

namespace statecheck::cli {

/// A subcommand: its CLI11 node and what to run when it was given.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

Command add_list_command(CLI::App& app);
Command add_check_command(CLI::App& app, bool single_spec);
Command add_suite_command(CLI::App& app);
/// `replay NAME trace.json`: re-executes a trace saved by `check --format json`.
Command add_replay_command(CLI::App& app, bool single_spec);
Command add_simulate_command(CLI::App& app, bool single_spec);
/// `view trace.json -o page.html`: the page of a saved counterexample.
Command add_view_command(CLI::App& app);
/// `sweep NAME --vary C=VALUES`: a table of verdicts over constants (sweep_command.cpp).
Command add_sweep_command(CLI::App& app, bool single_spec);

/// Options naming a spec and its configuration (check, simulate, replay).
struct SpecArgs {
  std::string spec;
  std::vector<std::string> sets;
  std::vector<std::string> invariants;
  unsigned threads = 0;
  bool no_deadlock = false;
  std::string format = "text";
  bool quiet = false;
};

/// How the user runs `command` on `spec` with this binary: "statecheck check two-phase",
/// or "my-checker" for a one-spec checker (its default command) and "my-checker replay".
std::string invocation(const std::string& command, const std::string& spec);
/// Called once by run_cli: the binary's name (argv[0] without its directory) and
/// whether it holds one spec.
void set_invocation(std::string program, bool single_spec);

/// Adds NAME (required unless the binary has one spec), --set, --invariant,
/// --threads, --no-deadlock, --format and --quiet.
void add_spec_options(CLI::App& cmd, SpecArgs& a, bool single_spec);

/// Validators whose messages read as one sentence after the flag's name (the
/// parse-error handler in cli.cpp joins them): what is wrong, what to give.
/// An integer written in digits only (no sign) in low..high, or `word` when given ("all").
CLI::Validator integer_in(std::uint64_t low, std::uint64_t high, const std::string& word = "");
/// --threads above this is refused: past a few per core, threads only add
/// contention (4096 threads made a 0.2 s check take 91 s).
inline constexpr unsigned max_threads = 256;
/// A number in low..high; above `low` only when `low_excluded`.
CLI::Validator number_in(double low, double high, bool low_excluded = false);
/// One of `words`.
CLI::Validator one_of(std::vector<std::string> words);
/// A path: anything but the empty string (which would silently mean "none").
CLI::Validator non_empty_path();

/// The spec a command works on, with its constant values and the run record.
struct Selected {
  const SpecEntry* entry = nullptr;
  std::vector<int> values;
  RunInfo info;  // spec, constants as shown, and the options from SpecArgs
};
/// Also warns, as warn_if_unoptimised does.
Selected select_spec(const SpecArgs& a);
/// One line on standard error, once per process, when the spec's file was
/// compiled without optimisation (SpecEntry::optimised).
void warn_if_unoptimised(const SpecEntry& e);

// The spec's name, constants and sizes from text belong to the engine (the
// trace tools read them too); the command line uses them as its own.
using detail::constant_values;
using detail::find_spec;
using detail::parse_size;
using detail::split_sets;
/// SIGINT/SIGTERM ask running checks to stop (statecheck::request_stop); a
/// second signal ends the process.
void install_stop_handlers();
/// Whether SIGINT or SIGTERM came since install_stop_handlers (it stays true
/// across checks, unlike the engine's request, which each check clears).
bool stop_signalled();
/// The text of a saved trace (replay, view): config_error naming the file and
/// the fix when it is a directory, not a regular file, too big or unreadable.
std::string read_trace_file(const std::string& path);

}  // namespace statecheck::cli
