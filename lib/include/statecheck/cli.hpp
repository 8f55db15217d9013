// statecheck/cli.hpp - the command line shared by every checker binary.
//
//   statecheck list
//   statecheck check NAME [--threads N] [--set k=v]... [--memory SIZE] [--max-depth D]
//                         [--no-deadlock] [--format text|json] [--progress SECONDS]
//                         [--exact] [--invariant NAME]... [--quiet]
//   statecheck suite [NAME]...
//
// A binary built for one spec (statecheck_add_checker) takes the same options
// without NAME: `my-checker --set n=4`.
#pragma once

namespace statecheck {

/// Runs the command line over the specs in registry(); returns the exit code.
int cli_main(int argc, char** argv);

}  // namespace statecheck
