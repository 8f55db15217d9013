// main() of every checker binary: the bundled `statecheck` and those built
// with statecheck_add_checker.
#include "statecheck/cli.hpp"

int main(int argc, char** argv) { return statecheck::cli_main(argc, argv); }
