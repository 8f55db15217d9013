// The command line of every checker binary; see statecheck/cli.hpp. Each
// subcommand is in its own file (*_command.cpp) and adds itself here.
#include "statecheck/cli.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstring>
#include <iostream>

#include "command_line.hpp"

namespace statecheck {

namespace {

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

  CLI::App app{"statecheck: exhaustive explicit-state model checking of C++ specs"};
  app.require_subcommand(1);
  const std::vector<cli::Command> commands = {
      cli::add_list_command(app),
      cli::add_check_command(app, single),
      cli::add_suite_command(app),
      cli::add_replay_command(app, single),
      cli::add_simulate_command(app, single),
  };
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
  for (const cli::Command& c : commands)
    if (c.app->parsed()) return c.run();
  return exit_usage;
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
