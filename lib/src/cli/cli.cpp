// The command line of every checker binary; see statecheck/cli.hpp. Each
// subcommand is in its own file (*_command.cpp) and adds itself here.
#include "statecheck/cli.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <iostream>

#include "cli/command_line.hpp"
#include "cli/output.hpp"
#include "statecheck/detail/clip.hpp"
#include "search/exchange.hpp"

namespace statecheck {

namespace {

/// A required positional that was not given, and where to get one.
std::string missing_positional(const std::string& command, const std::string& positional, const std::string& program) {
  if (positional == "spec")
    return "'" + command + "' needs a spec name; give one ('" + program + " list' shows the available specs)";
  if (positional == "trace")
    return "'" + command + "' needs the trace file; give the path of a file written by '" + program +
           " check NAME --format json'";
  return "'" + command + "' needs " + positional + "; give it (run '" + program + " " + command + " --help' for its usage)";
}

/// The kind of a CLI11 error (its get_name() is not always the kind).
template <class Kind>
bool is(const CLI::ParseError& e) {
  return dynamic_cast<const Kind*>(&e) != nullptr;
}

/// CLI11's parse errors rephrased as one line: the flag or argument at fault,
/// then what to do. `command` is the subcommand being parsed (null: none).
std::string usage_message(const CLI::ParseError& e, const CLI::App& app, const CLI::App* command,
                          const std::string& program) {
  const std::string what = e.what();
  const std::string help = "run '" + program + (command ? " " + command->get_name() : "") + " --help'";
  const std::size_t colon = what.find(": ");
  if (is<CLI::ValidationError>(e) && colon != std::string::npos)  // "--flag: " + a validator's message
    return what.substr(0, colon) + " " + what.substr(colon + 2);
  const bool missing = what.size() > 8 && what.compare(what.size() - 8, 8, " missing") == 0;
  if (is<CLI::ArgumentMismatch>(e) && colon != std::string::npos && missing)
    return what.substr(0, colon) + " needs a value; give one after it (" + help + " for what it takes)";
  if (is<CLI::ArgumentMismatch>(e) && what.find(": At Most 1 ") != std::string::npos)
    return what.substr(0, colon) + " is given more than once; give it once";
  const std::string unconverted = "Could not convert: ";  // a flag given a value: --flag=value
  const std::size_t equals = what.find(" = ");
  if (is<CLI::ConversionError>(e) && what.rfind(unconverted, 0) == 0 && equals != std::string::npos) {
    const std::string flag = what.substr(unconverted.size(), equals - unconverted.size());
    return flag + " is a flag and takes no value, not '" + detail::clipped(what.substr(equals + 3)) + "'; give " + flag + " alone";
  }
  const std::vector<std::string> extras = app.remaining(true);  // in the order given
  if (is<CLI::ExtrasError>(e) && command != nullptr && !extras.empty()) {
    const std::string& extra = extras.front();
    if (extra.size() > 1 && extra[0] == '-')  // named without the =value of --option=value
      return "unknown option '" + detail::clipped(extra.substr(0, extra.find('='))) + "' for '" + command->get_name() + "'; " + help +
             " for its options";
    return "unexpected argument '" + detail::clipped(extra) + "' for '" + command->get_name() + "'; remove it (" + help + " for its usage)";
  }
  if (is<CLI::RequiredError>(e) && command != nullptr)
    for (const CLI::Option* o : command->get_options())
      if (o->get_required() && o->count() == 0) return missing_positional(command->get_name(), o->get_name(), program);
  return what + "; run with --help for usage";
}

/// Refuses a first argument that is neither a subcommand nor --help, naming it
/// (CLI11 would only say that a subcommand is required).
void require_subcommand(const std::vector<char*>& args, const std::vector<cli::Command>& commands) {
  const std::string first = args.size() > 1 ? args[1] : "";
  std::string names;
  for (const cli::Command& c : commands) {
    if (c.app->get_name() == first) return;
    names += (names.empty() ? "" : ", ") + c.app->get_name();
  }
  if (first == "--help" || first == "-h") return;
  if (first.empty()) throw config_error("give a subcommand: " + names + " (run with --help for usage)");
  if (first[0] == '-') throw config_error("unknown option '" + detail::clipped(first) + "' before the subcommand; give a subcommand first: " + names);
  throw config_error("unknown subcommand '" + detail::clipped(first) + "'; use one of: " + names);
}

int run_cli(int argc, char** argv) {
  spdlog::set_default_logger(spdlog::stderr_color_mt("statecheck"));
  spdlog::set_pattern("[%H:%M:%S] %v");
  // A binary with one spec (statecheck_add_checker) checks it when given only options.
  const bool single = registry().entries().size() == 1;
  std::vector<char*> args(argv, argv + argc);
  std::string check_word = "check";
  if (single && (argc == 1 || argv[1][0] == '-') &&
      !(argc > 1 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)))
    args.insert(args.begin() + 1, check_word.data());

  cli::set_invocation(std::filesystem::path(argv[0]).filename().string(), single);
  CLI::App app{"statecheck: exhaustive explicit-state model checking of C++ specs"};
  app.require_subcommand(1);
  // A single-valued option given twice takes the last value, as a shell alias
  // plus an override expects; repeatable ones (--set, --invariant, --vary) say so.
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  const std::vector<cli::Command> commands = {
      cli::add_list_command(app),
      cli::add_check_command(app, single),
      cli::add_suite_command(app),
      cli::add_replay_command(app, single),
      cli::add_simulate_command(app, single),
      cli::add_view_command(app),
      cli::add_sweep_command(app, single),
  };
  require_subcommand(args, commands);
  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    const CLI::App* command = nullptr;
    for (const cli::Command& c : commands)
      if (c.app->parsed()) command = c.app;
    const std::string program = std::filesystem::path(argv[0]).filename().string();
    throw config_error(usage_message(e, app, command, program));  // said as any other, exit 2
  }
  for (const cli::Command& c : commands)
    if (c.app->parsed()) {
      detail::check_launch(c.app == commands[1].app);
      return c.run();
    }
  return exit_usage;
}

}  // namespace

namespace {

/// The command's exit code, or exit_error when standard output lost some of
/// what it was given (a full disk, a closed descriptor).
int checked_exit(int code) {
  const std::string problem = cli::standard_output_problem();
  if (problem.empty()) return code;
  std::cerr << "statecheck: error: " << problem << "\n";
  return exit_error;
}

int run_guarded(int argc, char** argv, std::string& refused) {
  // Across processes, a failure in one would leave the others waiting for it: it ends them all
  // (detail::abort_processes), saying which process failed. A configuration error returns: when
  // the processes were started alike it is every process's, else agree_at_exit says who differs.
  try {
    return run_cli(argc, argv);
  } catch (const run_error& e) {
    return detail::abort_processes(exit_error, std::string("statecheck: error: ") + e.what());
  } catch (const config_error& e) {
    refused = e.what();
    std::cerr << "statecheck: error: " << e.what() << "\n";
    return exit_usage;
  } catch (const std::bad_alloc&) {
    return detail::abort_processes(exit_error, "statecheck: error: out of memory; lower --memory or check a smaller configuration");
  } catch (const std::exception& e) {
    return detail::abort_processes(exit_error, std::string("statecheck: internal error: ") + e.what());
  }
}

/// Across processes, one that ended before its search (say, refusing an --invariant only it was
/// given) still meets the others where they compare what they were started with (the search's
/// first collective call): alone in MPI_Finalize it would leave them waiting for ever.
int agree_at_exit(int code, const std::string& refused) {
  if (detail::launched_processes() <= 1 || detail::agreed_on_start()) return code;
  try {
    const std::unique_ptr<detail::Exchange> net = detail::join_processes();
    if (!net) return code;
    const std::string line = detail::agree_on_start(*net, {{}, true, refused});
    if (line.empty() || code != 0) return code;  // its own error, already said, is the answer
    std::cerr << "statecheck: error: " << line << "\n";
    return exit_usage;
  } catch (const std::exception& e) {  // a process lost meanwhile: mpirun ends the job
    return detail::abort_processes(exit_error, std::string("statecheck: error: ") + e.what());
  }
}

}  // namespace

int cli_main(int argc, char** argv) {
  const detail::ProcessGroup processes(argc, argv);  // MPI, when launched as several processes
  // Under a file size limit (ulimit -f) a write past it would end the process with no word and
  // leave temporary files; ignored, the write fails with EFBIG and its writer reports it.
  std::signal(SIGXFSZ, SIG_IGN);
  cli::guard_standard_streams();
  std::string refused;  // the configuration error this process ended with
  const int code = run_guarded(argc, argv, refused);
  return processes.exit_code(checked_exit(agree_at_exit(code, refused)));
}

}  // namespace statecheck
