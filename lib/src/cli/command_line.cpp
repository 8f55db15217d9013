// Shared command-line pieces; see command_line.hpp.
#include "cli/command_line.hpp"

#include <atomic>
#include <charconv>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "statecheck/detail/clip.hpp"

namespace statecheck::cli {

CLI::Validator integer_in(std::uint64_t low, std::uint64_t high, const std::string& word) {
  const std::string range = std::to_string(low) + ".." + std::to_string(high);
  const std::string wanted = word.empty() ? "an integer in " + range : word + " or an integer in " + range;
  auto check = [low, high, range, wanted, word](std::string& text) -> std::string {
    if (!word.empty() && text == word) return {};
    std::uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, ec] = std::from_chars(text.data(), end, value);
    const bool digits = !text.empty() && text.front() != '-' && stop == end;
    if (!digits || (ec != std::errc{} && ec != std::errc::result_out_of_range))
      return "takes " + wanted + ", not '" + detail::clipped(text) + "'";
    if (ec == std::errc::result_out_of_range || value < low || value > high)
      return detail::clipped(text) + " is out of range; use a value in " + range;
    return {};
  };
  return {check, word.empty() ? range : word + "|" + range};
}

namespace {

std::string number_text(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

}  // namespace

CLI::Validator number_in(double low, double high, bool low_excluded) {
  const std::string bounds = low_excluded ? "above " + number_text(low) + (std::isinf(high) ? "" : " up to " + number_text(high))
                                          : number_text(low) + ".." + number_text(high);
  const std::string range = low_excluded ? bounds : "in " + bounds;
  auto check = [=](std::string& text) -> std::string {
    double value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, ec] = std::from_chars(text.data(), end, value);
    if (text.empty() || stop != end || ec != std::errc{}) return "takes a number " + range + ", not '" + detail::clipped(text) + "'";
    if (!(value >= low && value <= high) || (low_excluded && value == low))
      return detail::clipped(text) + " is out of range; use a number " + range;
    return {};
  };
  return {check, bounds};
}

CLI::Validator one_of(std::vector<std::string> words) {
  std::string listed, braced;
  for (std::size_t i = 0; i < words.size(); ++i) {
    listed += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    braced += (i == 0 ? "{" : ",") + words[i];
  }
  auto check = [words, listed](std::string& text) -> std::string {
    for (const std::string& w : words)
      if (text == w) return {};
    return "takes " + listed + ", not '" + detail::clipped(text) + "'";
  };
  return {check, braced + "}"};
}

CLI::Validator non_empty_path() {
  auto check = [](std::string& text) -> std::string {
    return text.empty() ? "takes a path, not an empty string; give a file or directory name" : "";
  };
  return {check, "PATH"};
}

namespace {
struct Invocation {
  std::string program = "statecheck";
  bool single_spec = false;
};
Invocation& current_invocation() {
  static Invocation i;
  return i;
}
}  // namespace

void set_invocation(std::string program, bool single_spec) { current_invocation() = {std::move(program), single_spec}; }

std::string invocation(const std::string& command, const std::string& spec) {
  const Invocation& i = current_invocation();
  if (!i.single_spec) return i.program + " " + command + " " + spec;
  return command == "check" ? i.program : i.program + " " + command;
}

void add_spec_options(CLI::App& cmd, SpecArgs& a, bool single_spec) {
  auto* spec = cmd.add_option("spec", a.spec, "spec name (see 'list')");
  if (single_spec) a.spec = registry().entries().front().name;
  else spec->required();
  cmd.add_option("--set,-s", a.sets, "set a spec constant: name=value (repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd.add_option("--invariant,-i", a.invariants, "check only this invariant (repeatable)")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd.add_option("--threads,-t", a.threads, "worker threads (default: all cores)")->check(integer_in(1, max_threads));
  cmd.add_flag("--no-deadlock", a.no_deadlock, "do not report states without successors");
  cmd.add_option("--format,-f", a.format, "output format: text or json")->check(one_of({"text", "json"}));
  cmd.add_flag("--quiet,-q", a.quiet, "only the verdict and the trace");
}

namespace {
// Whether this library was compiled with optimisation: its search loop,
// visited set and level table are as hot as the spec's own code (GCC and
// Clang define __OPTIMIZE__ from -O1 up).
#if defined(__OPTIMIZE__) || !defined(__GNUC__)
constexpr bool library_optimised = true;
#else
constexpr bool library_optimised = false;
#endif
}  // namespace

void warn_if_unoptimised(const SpecEntry& e) {
  static bool said = false;  // once per process: `suite` may select many specs of one file
  if ((e.optimised && library_optimised) || said) return;
  said = true;
  const std::string what = !e.optimised && !library_optimised ? "spec '" + e.name + "' and the statecheck library were"
                           : !e.optimised                     ? "spec '" + e.name + "' was"
                                                               : "the statecheck library was";
  std::cerr << "statecheck: warning: " << what << " compiled without optimisation, so checks run tens of "
            << "times slower (61x on one spec); build the checker with -DCMAKE_BUILD_TYPE=Release, or at least -O2\n";
}

Selected select_spec(const SpecArgs& a) {
  Selected s;
  s.entry = &find_spec(a.spec);
  warn_if_unoptimised(*s.entry);
  s.info.spec = s.entry->name;
  s.values = constant_values(*s.entry, split_sets(a.sets), s.info.constants);
  s.info.options.threads = a.threads;
  s.info.options.check_deadlock = !a.no_deadlock;
  s.info.options.invariants = a.invariants;
  return s;
}

namespace {

/// Set by the first signal and never cleared: each check clears the engine's
/// request when it starts, so a command that runs several (suite) asks here.
std::atomic<bool> stop_signal{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the stop handler must be async-signal-safe");

/// First Ctrl-C: stop at the next batch with the partial summary; a second one
/// gets the default action and ends the process at once.
extern "C" void on_stop_signal(int signal) {
  stop_signal.store(true);
  statecheck::request_stop();
  std::signal(signal, SIG_DFL);
}

}  // namespace

void install_stop_handlers() {
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
}

bool stop_signalled() { return stop_signal.load(); }

// The most a saved trace may hold: far above any trace a check writes (it
/// lists every state of a shortest counterexample), far below what would
/// exhaust memory. Documented in docs/cli.md (replay).
constexpr std::uintmax_t max_trace_bytes = std::uintmax_t{256} << 20;

std::string read_trace_file(const std::string& path) {
  const std::string fix = "; give the path of a file written by 'statecheck check NAME --format json'";
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status)) throw config_error("cannot read " + path + ": it is a directory" + fix);
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))  // a FIFO, /dev/zero: no end
    throw config_error("cannot read " + path + ": it is not a regular file" + fix);
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > max_trace_bytes)
    throw config_error(path + " holds " + std::to_string(size >> 20) + " MiB, more than a saved trace may (256 MiB)" + fix);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw config_error("cannot read " + path + fix);
  // One byte more than the size: a file that grows while read is cut there and refused below.
  std::string text(static_cast<std::size_t>(ec ? 0 : size) + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (in.bad()) throw config_error("cannot read " + path + fix);
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (text.size() > size) throw config_error("cannot read " + path + ": it grew while being read" + fix);
  if (text.empty()) throw config_error(path + " is empty" + fix);
  return text;
}

}  // namespace statecheck::cli
