// `statecheck check NAME [options]`: the exhaustive search, with optionally
// its coverage (--coverage), the whole graph of a small spec (--dump-graph),
// checkpoints (--checkpoint, --resume) and a trace-log spill (--workdir).
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/command_line.hpp"
#include "cli/output.hpp"
#include "report/json_value.hpp"
#include "store/checkpoint.hpp"
#include "report/coverage.hpp"
#include "report/report_html.hpp"
#include "statecheck/detail/search.hpp"
#include "report/state_graph.hpp"
#include "search/exchange.hpp"

namespace statecheck::cli {

namespace {

struct CheckArgs {
  SpecArgs spec;
  std::string memory;
  std::uint32_t max_depth = 0;
  double progress = 10;
  bool exact = false;
  bool no_symmetry = false;
  std::string trace = "fewest-switches";
  std::string self_check = std::to_string(CheckOptions{}.self_check_states);  // N or "all"
  bool coverage = false;
  std::string graph_file;
  std::string html_file;
  std::uint64_t graph_limit = 2000;
  std::string workdir;
  std::string workdir_compression = "zstd";
  std::string checkpoint;
  double checkpoint_every = 0;
  std::string resume;
  bool overwrite_checkpoint = false;
};

/// What --dump-graph produced: the DOT text, or why there is none.
struct GraphOutput {
  std::string dot;
  std::size_t states = 0;
  std::size_t transitions = 0;
  std::string problem;  // spec code threw while exploring
};

/// The directory `dir` would be created in.
std::string parent_of(const std::string& dir) {
  const std::size_t slash = dir.find_last_of('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : dir.substr(0, slash);
}

/// A directory the run may write into: an existing one, or (`may_create`) a
/// new name in an existing directory. Nothing is created here.
void require_directory(const std::string& dir, const std::string& flag, bool may_create) {
  struct stat st {};
  if (stat(dir.c_str(), &st) == 0) {
    if (!S_ISDIR(st.st_mode)) throw config_error(flag + " " + dir + " is not a directory; give a directory");
    return;
  }
  const std::string parent = parent_of(dir);
  if (!may_create || stat(parent.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw config_error(flag + " " + dir + " does not exist; create it first");
}

/// Refuses a directory the run could not create files in, before anything
/// runs (not when the first spill or checkpoint is due). A probe file, not
/// access(), so that read-only mounts and root's view agree with what happens.
void require_writable(const std::string& dir, const std::string& flag) {
  struct stat st {};
  // A --checkpoint DIR made later is made in its parent: probe there, so that a Ctrl-C has somewhere to save.
  const bool exists = stat(dir.c_str(), &st) == 0;
  const std::string where = exists ? dir : parent_of(dir);
  std::string probe = where + "/.statecheck-probe-XXXXXX";
  const int fd = mkstemp(probe.data());
  if (fd < 0)
    throw config_error(flag + " " + dir + (exists ? " is not writable (" : " cannot be created in " + where + " (") +
                       std::strerror(errno) + "); give a directory you can write to");
  close(fd);
  unlink(probe.c_str());
}

/// A fresh run must not replace the checkpoint of another run unless told to.
void refuse_overwrite(const CheckArgs& a) {
  if (a.checkpoint.empty() || a.overwrite_checkpoint) return;
  std::error_code ec;
  if (!a.resume.empty() && std::filesystem::equivalent(a.resume, a.checkpoint, ec)) return;  // continuing it
  const std::string held = detail::describe_checkpoint(a.checkpoint);
  if (held.empty()) return;
  throw config_error("--checkpoint " + a.checkpoint + " already holds " + held + "; continue it with --resume " +
                     a.checkpoint + ", or give --overwrite-checkpoint to replace it");
}

/// The check's report on stdout, in the format asked for, with the coverage
/// and the graph's line when they were made.
void print_report(const CheckArgs& a, const CheckResult& r, const RunInfo& info,
                  const std::optional<detail::Coverage>& coverage, const std::optional<GraphOutput>& graph) {
  if (a.spec.format == "json") {
    nlohmann::ordered_json doc = detail::check_document(r, info, true);
    if (coverage) doc["coverage"] = detail::coverage_json(*coverage);
    if (graph && graph->problem.empty())
      doc["graph"] = {{"file", a.graph_file}, {"states", graph->states}, {"transitions", graph->transitions}};
    detail::write_document(doc, r, 2, [](std::string_view part) { std::cout << part; });
    std::cout << std::endl;
    return;
  }
  print_text(std::cout, r, info, a.spec.quiet);
  if (coverage) detail::print_coverage(std::cout, *coverage);
  if (graph && graph->problem.empty())
    std::cout << "graph: " << graph->states << " states, " << graph->transitions << " transitions written to "
              << a.graph_file << "\n";
}

int run_check(const CheckArgs& a) {
  Selected s = select_spec(a.spec);
  CheckOptions& o = s.info.options;
  o.memory = a.memory.empty() ? 0 : parse_size(a.memory, "--memory");
  o.memory_bounds_process = true;
  o.max_depth = a.max_depth;
  o.exact = a.exact;
  o.symmetry = !a.no_symmetry;
  o.trace = a.trace == "shortest-first-found" ? CheckOptions::TracePolicy::first_found
                                              : CheckOptions::TracePolicy::fewest_switches;
  o.self_check_states = a.self_check == "all" ? CheckOptions::self_check_all : std::stoull(a.self_check);
  o.progress_seconds = a.spec.quiet ? 0 : a.progress;
  if (a.checkpoint_every > 0 && a.checkpoint.empty())
    throw config_error("--checkpoint-every needs --checkpoint DIR to say where the checkpoints go");
  if (a.overwrite_checkpoint && a.checkpoint.empty())
    throw config_error("--overwrite-checkpoint needs --checkpoint DIR to say which checkpoint it may replace");
  if (!a.graph_file.empty() && detail::launched_processes() > 1)
    throw config_error("--dump-graph explores the whole graph in one process: run it without mpirun");
  if (!a.graph_file.empty() && !a.html_file.empty() && same_file(a.graph_file, a.html_file))
    throw config_error("--dump-graph and --html both name " + a.html_file + ": one would replace the other; give each its own file");
  if (!a.workdir.empty()) require_directory(a.workdir, "--workdir", false);
  if (!a.checkpoint.empty()) require_directory(a.checkpoint, "--checkpoint", true);
  if (!a.workdir.empty()) require_writable(a.workdir, "--workdir");
  if (!a.checkpoint.empty()) require_writable(a.checkpoint, "--checkpoint");
  refuse_overwrite(a);
  o.workdir = a.workdir;
  o.workdir_compression = a.workdir_compression == "none" ? CheckOptions::WorkdirCompression::none
                                                          : CheckOptions::WorkdirCompression::zstd;
  o.checkpoint = {a.checkpoint, a.checkpoint_every, a.resume, s.info.constants, invocation("check", s.entry->name)};
  install_stop_handlers();
  CheckResult r;
  std::optional<detail::Coverage> coverage;
  std::optional<GraphOutput> graph;
  std::optional<AtomicFile> graph_file;  // created now, so that a bad path is refused before the run
  if (!a.graph_file.empty()) graph_file.emplace(a.graph_file, "--dump-graph file");
  std::optional<AtomicFile> html_file;
  if (!a.html_file.empty()) html_file.emplace(a.html_file, "--html file");
  std::optional<std::string> stopped;  // the graph or the coverage stopped short (stopped_error)
  bool checked = false;
  s.entry->with_model(s.values, [&](const detail::ModelOps& ops) {
    const detail::ModelView view(ops);
    std::optional<detail::StateGraph> states;
    if (!a.graph_file.empty()) {  // first, so that a refusal comes before the check
      graph.emplace();
      try {
        states = detail::explore_graph(view, a.graph_limit, a.max_depth, o.memory != 0 ? o.memory : detail::default_memory());
      } catch (const config_error&) {
        throw;
      } catch (const detail::stopped_error& e) {
        stopped = e.what();  // nothing checked, FILE left as it was
        return;
      } catch (...) {
        graph->problem = detail::current_exception_text();  // the check reports the spec error with its trace
      }
    }
    r = detail::run_search(ops, o);
    checked = true;
    // The report says what was checked, not what was asked: a spec that allows
    // deadlock was not checked for it (after the search: a checkpoint keeps the option).
    if (ops.deadlock_allowed) o.check_deadlock = false;
    if (a.coverage) {
      try {
        coverage = detail::coverage_of(ops, r.stats);
      } catch (const detail::stopped_error& e) {
        stopped = e.what();  // the check's own report is still printed
      }
    }
    if (states) *graph = {detail::graph_dot(view, *states, r.violation ? &*r.violation : nullptr),
                          states->states.size(), states->edges.size(), {}};
    // Written while the model lives: a counterexample is walked step by step
    // from its path as it is printed, never held whole (statecheck/trace.hpp).
    if (graph && graph->problem.empty()) {  // else the temporary file goes, and FILE stays as it was
      graph_file->write(graph->dot);
      graph_file->commit();
    }
    if (html_file) {  // the page is drawn from the same document --format json prints
      detail::write_trace_page(detail::check_document(r, s.info, true), r,
                               [&](std::string_view part) { html_file->write(std::string(part)); });
      html_file->commit();
    }
    print_report(a, r, s.info, coverage, graph);
  });
  if (stopped && !checked) {  // the graph's exploration: nothing was checked
    std::cerr << "statecheck: stopped: " << *stopped << "\n";
    return exit_error;
  }
  if (graph && !graph->problem.empty())
    std::cerr << "statecheck: no graph written: spec code threw while exploring it: " << graph->problem << "\n";
  if (stopped) {
    std::cerr << "statecheck: stopped: " << *stopped << "\n";
    return exit_error;
  }
  return exit_code(r);
}

}  // namespace

Command add_check_command(CLI::App& app, bool single_spec) {
  CLI::App* cmd = app.add_subcommand("check", "check one spec exhaustively");
  auto a = std::make_shared<CheckArgs>();
  add_spec_options(*cmd, a->spec, single_spec);
  cmd->add_option("--memory,-m", a->memory,
                  "the most RAM the whole process may use (peak RSS), e.g. 512M or 2G (default: half the RAM)");
  cmd->add_option("--max-depth", a->max_depth, "do not expand states beyond this BFS level")
      ->check(integer_in(1, 1u << 30));
  cmd->add_option("--progress", a->progress, "seconds between progress lines on stderr (0: none; default 10)")
      ->check(number_in(0, 86400));
  cmd->add_flag("--exact", a->exact, "store full states instead of fingerprints (for validation)");
  cmd->add_flag("--no-symmetry", a->no_symmetry, "explore every renaming of the spec's symmetric ids separately (for comparison)");
  cmd->add_option("--trace", a->trace,
                  "which shortest counterexample to print: fewest-switches (default: the one that changes actor least "
                  "often) or shortest-first-found (the first the search found)")
      ->check(CLI::IsMember({"fewest-switches", "shortest-first-found"}));
  cmd->add_option("--self-check", a->self_check,
                  "check determinism, canonical encoding, pure properties and the declared symmetry on the first N states, "
                  "then on one state in 1,000 of every level (0: off; default 1000; all: every state, once per new "
                  "symmetry declaration)")
      ->check(integer_in(0, std::uint64_t{1} << 40, "all"));
  cmd->add_flag("--coverage", a->coverage, "per action and parameter value: times enabled, new states, never enabled");
  cmd->add_option("--dump-graph", a->graph_file, "write the whole reachable graph of a small spec as Graphviz DOT")
      ->check(non_empty_path());
  cmd->add_option("--html", a->html_file,
                  "write the counterexample as a self-contained HTML page (one lane per actor; see 'view')")
      ->check(non_empty_path());
  cmd->add_option("--graph-limit", a->graph_limit, "the most states --dump-graph accepts (default 2000)")
      ->check(integer_in(1, std::uint64_t{1} << 24));
  cmd->add_option("--workdir", a->workdir, "directory where the trace log spills when it outgrows --memory")
      ->check(non_empty_path());
  cmd->add_option("--workdir-compression", a->workdir_compression,
                  "how frontier levels in --workdir are written: zstd (default, ~12x smaller) or none")
      ->check(one_of({"zstd", "none"}));
  cmd->add_option("--checkpoint", a->checkpoint, "on Ctrl-C (and with --checkpoint-every) save the search here")
      ->check(non_empty_path());
  cmd->add_option("--checkpoint-every", a->checkpoint_every, "also save a checkpoint every this many minutes")
      ->check(number_in(0, std::numeric_limits<double>::infinity(), true));
  cmd->add_option("--resume", a->resume, "continue the search saved in this --checkpoint directory")
      ->check(non_empty_path());
  cmd->add_flag("--overwrite-checkpoint", a->overwrite_checkpoint,
                "let --checkpoint DIR replace a checkpoint another run left there");
  return {cmd, [a] { return run_check(*a); }};
}

}  // namespace statecheck::cli
