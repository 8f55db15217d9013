// `statecheck view trace.json -o page.html`: the page of a counterexample
// saved by `check --format json`, drawn from the file alone (no search, no
// spec needed: any checker binary draws any spec's trace).
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/command_line.hpp"
#include "cli/output.hpp"
#include "report/report_html.hpp"
#include "tools/replay.hpp"

namespace statecheck::cli {

namespace {

struct ViewArgs {
  std::string path;
  std::string output;
};

int run_view(const ViewArgs& a) {
  refuse_input_as_output("-o", a.output, a.path);
  AtomicFile page(a.output, "-o file");  // a bad path is refused before reading anything
  const std::string text = read_trace_file(a.path);
  try {
    detail::parse_saved_trace(text);  // the checks replay makes: format, version, a violation with its trace
  } catch (const config_error& e) {
    throw config_error(a.path + ": " + e.what() + "; 'view' draws the counterexample of a violation");
  }
  page.write(detail::trace_page(nlohmann::ordered_json::parse(text)));
  page.commit();
  std::cout << "page of " << a.path << " written to " << a.output << "\n";
  return exit_ok;
}

}  // namespace

Command add_view_command(CLI::App& app) {
  CLI::App* cmd = app.add_subcommand("view", "write the HTML page of a trace saved by 'check --format json'");
  auto a = std::make_shared<ViewArgs>();
  cmd->add_option("trace", a->path, "the saved trace (JSON)")->required()->check(non_empty_path());
  cmd->add_option("--output,-o", a->output, "the HTML file to write")->required()->check(non_empty_path());
  return {cmd, [a] { return run_view(*a); }};
}

}  // namespace statecheck::cli
