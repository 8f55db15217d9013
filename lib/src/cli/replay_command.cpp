// `statecheck replay NAME trace.json`: re-executes a trace saved by
// `check --format json` and says whether it still reproduces.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include "statecheck/detail/clip.hpp"
#include "report/json_value.hpp"
#include "cli/command_line.hpp"
#include "cli/output.hpp"
#include "tools/emit_test.hpp"
#include "tools/replay.hpp"

namespace statecheck::cli {

namespace {

struct ReplayArgs {
  std::string spec;
  bool single_spec = false;  // a one-spec checker: the spec may be named, but only as its own
  std::vector<std::string> given;  // a one-spec checker's positionals: [SPEC] FILE
  std::string path;
  std::vector<std::string> sets;
  std::string format = "text";
  bool quiet = false;
  std::string emit_test;  // --emit-test FILE.cpp
};

/// One line per --set that changes a recorded constant.
std::vector<std::string> overrides(const detail::SavedTrace& saved, const std::vector<std::pair<std::string, std::string>>& sets) {
  std::vector<std::string> lines;
  for (const auto& [name, value] : sets) {
    std::string recorded = "(not recorded)";
    for (const auto& [n, v] : saved.constants)
      if (n == name) recorded = v;
    if (recorded != value) lines.push_back("--set " + name + "=" + value + " overrides the recorded " + name + "=" + recorded);
  }
  return lines;
}

const char* verdict_word(detail::ReplayResult::Verdict v) {
  switch (v) {
    case detail::ReplayResult::Verdict::reproduces: return "reproduces";
    case detail::ReplayResult::Verdict::differs: return "differs";
    case detail::ReplayResult::Verdict::spec_error: return "error";
  }
  return "?";
}

void print_json(const ReplayArgs& a, const RunInfo& info, const std::vector<std::string>& notes,
                const detail::ReplayResult& r) {
  nlohmann::ordered_json constants = nlohmann::ordered_json::object();
  for (const auto& [name, value] : info.constants) constants[name] = value;
  const nlohmann::ordered_json doc = {{"format", "statecheck-replay"},
                                      {"version", trace_format_version},
                                      {"spec", info.spec},
                                      {"trace_file", a.path},
                                      {"constants", constants},
                                      {"overrides", notes},
                                      {"verdict", verdict_word(r.verdict)},
                                      {"message", r.message},
                                      {"step", r.step ? nlohmann::ordered_json(*r.step) : nlohmann::ordered_json(nullptr)},
                                      {"trace", detail::trace_json(r.trace)}};
  std::cout << detail::json_text(doc) << std::endl;
}

void print_text(const ReplayArgs& a, const RunInfo& info, const std::vector<std::string>& notes,
                const detail::ReplayResult& r) {
  std::cout << "statecheck: replay of " << a.path << " on " << info.spec;
  for (std::size_t i = 0; i < info.constants.size(); ++i)
    std::cout << (i ? ", " : " (") << info.constants[i].first << "=" << info.constants[i].second;
  std::cout << (info.constants.empty() ? "" : ")") << "\n";
  for (const std::string& n : notes) std::cout << n << "\n";
  if (!a.quiet && !r.trace.empty()) {
    const std::string steps = std::to_string(r.trace.size() - 1) + " steps";
    switch (r.verdict) {
      case detail::ReplayResult::Verdict::reproduces: std::cout << "trace (" << steps << "):\n"; break;
      case detail::ReplayResult::Verdict::differs: std::cout << "trace replayed up to the difference (" << steps << "):\n"; break;
      case detail::ReplayResult::Verdict::spec_error:
        std::cout << "trace to the state where it happened (" << steps << "), then " << r.error->where << " threw:\n";
        break;
    }
    print_trace(std::cout, r.trace);
  }
  switch (r.verdict) {
    case detail::ReplayResult::Verdict::reproduces: std::cout << "reproduces: " << r.message << "\n"; break;
    case detail::ReplayResult::Verdict::differs: std::cout << "does not reproduce: " << r.message << "\n"; break;
    case detail::ReplayResult::Verdict::spec_error: std::cout << "error: " << r.message << "\n"; break;
  }
}

int run_replay(ReplayArgs a) {
  if (a.given.size() == 2) a.spec = a.given.front();
  if (!a.given.empty()) a.path = a.given.back();
  const std::string& own = registry().entries().front().name;
  if (a.single_spec && a.spec != own)
    throw config_error("this checker holds only spec '" + own + "', not '" + detail::clipped(a.spec) +
                       "'; give the trace alone: '" + invocation("replay", own) + " FILE'");
  const SpecEntry& entry = find_spec(a.spec);  // the first argument is reported first
  std::optional<AtomicFile> test_file;  // created now, so that a bad path is refused before the replay
  if (!a.emit_test.empty()) {
    refuse_input_as_output("--emit-test", a.emit_test, a.path);
    test_file.emplace(a.emit_test, "--emit-test file");
  }
  const std::string text = read_trace_file(a.path);
  detail::SavedTrace saved;
  try {
    saved = detail::parse_saved_trace(text);
  } catch (const config_error& e) {
    throw config_error(a.path + ": " + e.what());
  }
  if (saved.spec != entry.name)
    throw config_error(a.path + " is a trace of spec '" + saved.spec + "', not '" + entry.name +
                       "'; replay it with 'statecheck replay " + saved.spec + " " + a.path + "'");
  std::vector<std::pair<std::string, std::string>> shown;
  try {
    constant_values(entry, saved.constants, shown);
  } catch (const config_error& e) {
    throw config_error(a.path + ": recorded " + e.what());
  }
  const auto user_sets = split_sets(a.sets);
  std::vector<std::pair<std::string, std::string>> sets = saved.constants;
  sets.insert(sets.end(), user_sets.begin(), user_sets.end());
  RunInfo info;
  info.spec = entry.name;
  const std::vector<int> values = constant_values(entry, sets, info.constants);
  const std::vector<std::string> notes = overrides(saved, user_sets);

  detail::ReplayResult r;
  entry.with_model(values, [&](const detail::ModelOps& ops) { r = detail::replay(detail::ModelView(ops), saved); });
  if (a.format == "json") print_json(a, info, notes, r);
  else print_text(a, info, notes, r);
  if (test_file && r.verdict == detail::ReplayResult::Verdict::reproduces) {
    saved.spec = entry.name;
    test_file->write(detail::emitted_test(saved, info.constants, "'" + invocation("replay", entry.name) + " " + a.path +
                                                                      " --emit-test " + a.emit_test + "'"));
    test_file->commit();
    if (a.format != "json") std::cout << "test written to " << a.emit_test << "\n";
  } else if (test_file) {
    std::cerr << "statecheck: no test written to " << a.emit_test << ": the trace does not reproduce\n";
  }
  switch (r.verdict) {
    case detail::ReplayResult::Verdict::reproduces: return exit_ok;
    case detail::ReplayResult::Verdict::differs: return exit_violation;
    case detail::ReplayResult::Verdict::spec_error: return exit_error;
  }
  return exit_error;
}

}  // namespace

Command add_replay_command(CLI::App& app, bool single_spec) {
  CLI::App* cmd = app.add_subcommand("replay", "re-execute a trace saved by 'check --format json'");
  auto a = std::make_shared<ReplayArgs>();
  // A one-spec checker takes `replay FILE`, and `replay SPEC FILE` (docs/cli.md's
  // form) when SPEC is its own.
  a->single_spec = single_spec;
  if (single_spec) {
    a->spec = registry().entries().front().name;
    cmd->add_option("trace", a->given, "the saved trace (JSON), after this checker's spec name if you like")
        ->required()
        ->expected(1, 2)
        ->check(non_empty_path());
  } else {
    cmd->add_option("spec", a->spec, "spec name (see 'list')")->required();
    cmd->add_option("trace", a->path, "the saved trace (JSON)")->required()->check(non_empty_path());
  }
  cmd->add_option("--set,-s", a->sets, "override a recorded constant: name=value (repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--format,-f", a->format, "output format: text or json")->check(one_of({"text", "json"}));
  cmd->add_flag("--quiet,-q", a->quiet, "only the verdict, without the trace");
  cmd->add_option("--emit-test", a->emit_test,
                  "when the trace reproduces, write it as a Catch2 test (statecheck/trace_walk.hpp) to this file")
      ->check(non_empty_path());
  return {cmd, [a] { return run_replay(*a); }};
}

}  // namespace statecheck::cli
