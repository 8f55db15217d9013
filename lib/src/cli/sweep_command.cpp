// `statecheck sweep NAME --vary C=VALUES [--vary ...]`: every combination of
// the varied constants checked, one row each, in one table (or JSON): where a
// verdict changes is where a bug starts. Each configuration is a `check` run
// in a child process (cli/child_process.hpp); --jobs of them at once, each
// with its share of the threads and of --memory. Ctrl-C stops the running
// ones (their rows say so) and keeps every finished row.
#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <thread>

#include "cli/child_process.hpp"
#include "cli/command_line.hpp"
#include "cli/output.hpp"
#include "cli/sweep_plan.hpp"
#include "statecheck/detail/clip.hpp"

namespace statecheck::cli {

namespace {

struct SweepArgs {
  SpecArgs spec;
  std::vector<std::string> vary;
  unsigned jobs = 0;
  std::string memory;
  std::string output;
};

/// What one configuration's check said (from its JSON report).
struct SweepRow {
  std::vector<std::pair<std::string, std::string>> sets;  // the varied constants' values
  std::string verdict = "not run";  // ok, violation, error, limit, stopped, not run
  std::string kind;                 // a violation's kind: invariant, deadlock, timelock, goal
  std::string property;             // the violated property, or the error's first line
  long long length = -1;            // the counterexample's steps
  unsigned long long distinct = 0;
  double seconds = 0;
};

std::atomic<bool> sweep_stop{false};
extern "C" void on_sweep_signal(int signal) {
  sweep_stop.store(true);
  std::signal(signal, SIG_DFL);  // a second signal ends the sweep at once
}

/// The first line of `text`, clipped.
std::string first_line(const std::string& text) { return detail::clipped(text.substr(0, text.find('\n'))); }

/// Reads a child's report into `row`; a child that wrote none (an error line
/// on stderr, a crash) is an error row with what it said.
void read_report(const ChildResult& child, SweepRow& row) {
  nlohmann::json doc = nlohmann::json::parse(child.out, nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("outcome")) {
    row.verdict = "error";
    row.property = child.signal != 0 ? "ended by signal " + std::to_string(child.signal) : first_line(child.err);
    return;
  }
  row.verdict = doc["outcome"].get<std::string>();
  if (row.verdict == "limit" && sweep_stop.load()) row.verdict = "stopped";
  const auto& stats = doc["stats"];
  row.distinct = stats.value("distinct", 0ULL);
  row.seconds = stats.value("seconds", 0.0);
  if (doc.contains("violation")) {
    const auto& v = doc["violation"];
    row.kind = v.value("kind", "");
    row.property = v.value("property", "");
    row.length = v.value("length", -1LL);
  } else if (doc.contains("error")) {
    row.property = first_line(doc["error"].value("message", ""));
  } else if (doc.contains("limit")) {
    row.property = first_line(doc["limit"].value("message", ""));
  }
}

/// Runs one configuration into `row`; whatever goes wrong is the row's error,
/// never the sweep's end (the other rows stand).
void run_row(const std::vector<std::string>& argv, SweepRow& row) {
  try {
    read_report(run_child(argv, sweep_stop), row);
  } catch (const std::exception& e) {
    row.verdict = "error";
    row.property = first_line(e.what());
  }
}

/// The command line of one configuration's check.
std::vector<std::string> check_command(const SweepArgs& a, const std::string& spec, unsigned threads,
                                       std::size_t memory, const std::vector<std::pair<std::string, std::string>>& sets) {
  std::vector<std::string> argv = {own_executable(), "check"};
  if (registry().entries().size() != 1) argv.push_back(spec);  // a one-spec checker takes no name
  for (const std::string& s : a.spec.sets) argv.insert(argv.end(), {"--set", s});
  for (const auto& [name, value] : sets) argv.insert(argv.end(), {"--set", name + "=" + value});
  for (const std::string& i : a.spec.invariants) argv.insert(argv.end(), {"--invariant", i});
  if (a.spec.no_deadlock) argv.push_back("--no-deadlock");
  argv.insert(argv.end(), {"--threads", std::to_string(threads), "--format", "json", "--progress", "0"});
  if (memory != 0) argv.insert(argv.end(), {"--memory", std::to_string(memory)});
  return argv;
}

std::string table(const std::vector<SweepAxis>& axes, const std::vector<SweepRow>& rows) {
  std::vector<std::size_t> width;
  for (const SweepAxis& axis : axes) {
    std::size_t w = axis.name.size();
    for (const std::string& v : axis.values) w = std::max(w, v.size());
    width.push_back(w);
  }
  std::string out;
  char cell[160];
  for (std::size_t i = 0; i < axes.size(); ++i) {
    std::snprintf(cell, sizeof cell, "%-*s  ", static_cast<int>(width[i]), axes[i].name.c_str());
    out += cell;
  }
  out += "verdict    property (length)                  states       time\n";
  for (const SweepRow& row : rows) {
    for (std::size_t i = 0; i < axes.size(); ++i) {
      std::snprintf(cell, sizeof cell, "%-*s  ", static_cast<int>(width[i]), row.sets[i].second.c_str());
      out += cell;
    }
    std::string property = row.property;
    if (row.length >= 0) property += " (" + std::to_string(row.length) + ")";
    if (row.kind == "timelock") property = "timelock at " + property;
    if (row.kind == "deadlock") property = "deadlock (" + std::to_string(row.length) + ")";
    std::snprintf(cell, sizeof cell, "%-10s %-34s %10llu %9.2fs\n", row.verdict.c_str(), property.c_str(), row.distinct,
                  row.seconds);
    out += cell;
  }
  return out;
}

/// "NoStaleDelete first fails at stall=5m (ok at 4m30s)": where the verdict
/// changes along a sweep of one constant.
std::string boundaries(const std::vector<SweepAxis>& axes, const std::vector<SweepRow>& rows) {
  if (axes.size() != 1) return "";
  std::string out;
  for (std::size_t r = 1; r < rows.size(); ++r) {
    const SweepRow &before = rows[r - 1], &row = rows[r];
    const bool was = before.verdict == "violation", is = row.verdict == "violation";
    if ((before.verdict != "ok" && !was) || (row.verdict != "ok" && !is) || was == is) continue;
    out += "verdict changes at " + axes[0].name + "=" + row.sets[0].second + ": " +
           (is ? row.property + " fails there (it held at " + before.sets[0].second + ")"
               : "it holds there (" + before.property + " failed at " + before.sets[0].second + ")") +
           "\n";
  }
  return out;
}

nlohmann::ordered_json sweep_json(const std::string& spec, const SweepArgs& a, const std::vector<SweepAxis>& axes,
                                  const std::vector<SweepRow>& rows, bool interrupted) {
  nlohmann::ordered_json vary = nlohmann::ordered_json::array(), out_rows = nlohmann::ordered_json::array();
  for (const SweepAxis& axis : axes) vary.push_back({{"constant", axis.name}, {"values", axis.values}});
  for (const SweepRow& row : rows) {
    nlohmann::ordered_json constants = nlohmann::ordered_json::object();
    for (const auto& [name, value] : row.sets) constants[name] = value;
    nlohmann::ordered_json j = {{"constants", constants}, {"verdict", row.verdict}};
    if (!row.kind.empty()) j["kind"] = row.kind;
    if (!row.property.empty()) j["property"] = row.property;
    if (row.length >= 0) j["length"] = row.length;
    j["distinct"] = row.distinct;
    j["seconds"] = row.seconds;
    out_rows.push_back(std::move(j));
  }
  return {{"format", "statecheck-sweep"}, {"version", 1},        {"spec", spec},
          {"sets", a.spec.sets},          {"vary", vary},         {"rows", out_rows},
          {"interrupted", interrupted}};
}

int run_sweep(const SweepArgs& a) {
  const SpecEntry& entry = find_spec(a.spec.spec);
  require_usable(entry);
  if (a.vary.empty()) throw config_error("give at least one --vary NAME=VALUES (a,b or lo..hi[/step])");
  std::vector<SweepAxis> axes;
  for (const std::string& v : a.vary) axes.push_back(parse_axis(entry, v));
  const auto runs = sweep_runs(axes);
  std::vector<std::pair<std::string, std::string>> shown;
  constant_values(entry, split_sets(a.spec.sets), shown);  // refuses a bad --set before anything runs
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned jobs = std::max(1u, std::min<unsigned>(a.jobs != 0 ? a.jobs : cores, static_cast<unsigned>(runs.size())));
  const unsigned threads = a.spec.threads != 0 ? a.spec.threads : std::max(1u, cores / jobs);
  const std::size_t memory = a.memory.empty() ? 0 : parse_size(a.memory, "--memory") / jobs;
  std::optional<AtomicFile> output;
  if (!a.output.empty()) output.emplace(a.output, "--output file");

  std::vector<SweepRow> rows(runs.size());
  for (std::size_t r = 0; r < runs.size(); ++r) rows[r].sets = runs[r];
  sweep_stop.store(false);
  std::signal(SIGINT, on_sweep_signal);
  std::signal(SIGTERM, on_sweep_signal);
  std::atomic<std::size_t> next{0};
  std::mutex progress;
  std::size_t finished = 0;  // under `progress`
  auto worker = [&] {
    for (std::size_t r = next++; r < runs.size() && !sweep_stop.load(); r = next++) {
      run_row(check_command(a, entry.name, threads, memory, runs[r]), rows[r]);
      const std::lock_guard<std::mutex> lock(progress);
      std::cerr << "sweep: " << ++finished << "/" << runs.size() << " done:";
      for (const auto& [name, value] : runs[r]) std::cerr << " " << name << "=" << value;
      std::cerr << " " << rows[r].verdict << "\n";
    }
  };
  std::vector<std::thread> pool;
  for (unsigned j = 0; j < jobs; ++j) pool.emplace_back(worker);
  for (std::thread& t : pool) t.join();
  const bool interrupted = sweep_stop.load();

  std::string text;
  if (a.spec.format == "json") {
    text = sweep_json(entry.name, a, axes, rows, interrupted).dump(2) + "\n";
  } else {
    text = "statecheck: sweep of " + entry.name + " over " + std::to_string(runs.size()) + " configurations, " +
           std::to_string(jobs) + " at a time, " + std::to_string(threads) + (threads == 1 ? " thread" : " threads") +
           " each\n" + table(axes, rows) + boundaries(axes, rows);
    if (interrupted) text += "interrupted: the rows not run say so\n";
  }
  if (output) {
    output->write(text);
    output->commit();
  } else {
    std::cout << text;
  }
  const bool complete = std::all_of(rows.begin(), rows.end(), [](const SweepRow& row) {
    return row.verdict == "ok" || row.verdict == "violation";
  });
  return complete && !interrupted ? exit_ok : exit_error;
}

}  // namespace

Command add_sweep_command(CLI::App& app, bool single_spec) {
  CLI::App* cmd = app.add_subcommand("sweep", "check every combination of the constants given with --vary, one row each");
  auto a = std::make_shared<SweepArgs>();
  add_spec_options(*cmd, a->spec, single_spec);
  cmd->add_option("--vary,-v", a->vary,
                  "a constant and its values: NAME=a,b,c or NAME=lo..hi[/step] (0s..12m/30s) or NAME=* (repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->required();
  cmd->add_option("--jobs,-j", a->jobs, "configurations checked at once (default: one per core)")
      ->check(integer_in(1, max_threads));
  cmd->add_option("--memory,-m", a->memory, "memory for the whole sweep, shared by the jobs (as check's --memory)");
  cmd->add_option("--output,-o", a->output, "write the table (or JSON) to this file instead of standard output")
      ->check(non_empty_path());
  return {cmd, [a] { return run_sweep(*a); }};
}

}  // namespace statecheck::cli
