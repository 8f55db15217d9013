// What every build has of the multi-process search: the launcher's process
// count, and without MPI the refusal to run as several processes.
#include "search/exchange.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "statecheck/result.hpp"

namespace statecheck::detail {

namespace {
int saved_stderr = -1;  // standard error before silence_output()
bool start_agreed = false;

/// A StartedWith as one string (its items NUL-separated): what the processes compare.
std::string encoded(const StartedWith& w) {
  std::string s = w.ended ? "E" + w.error : "R";
  if (!w.ended)
    for (const std::string& item : w.items) s += item + '\0';
  return s;
}

StartedWith decoded(const std::string& s) {
  StartedWith w;
  w.ended = !s.empty() && s[0] == 'E';
  if (w.ended) w.error = s.substr(1);
  for (std::size_t at = 1, end = 0; !w.ended && (end = s.find('\0', at)) != std::string::npos; at = end + 1)
    w.items.push_back(s.substr(at, end - at));
  return w;
}

std::vector<std::string> parts_of(const std::string& item) {
  std::vector<std::string> parts(1);
  for (const char c : item) {
    if (c == start_item_part) parts.emplace_back();
    else parts.back().push_back(c);
  }
  return parts;
}

std::string spaced(const std::vector<std::string>& parts) {
  std::string s;
  for (const std::string& p : parts) s += (s.empty() ? "" : " ") + p;
  return s;
}

/// The parts of two items that differ, pairwise when they have as many (one constant of many), else the whole items.
std::vector<std::pair<std::string, std::string>> differing_parts(const std::string& theirs, const std::string& ours) {
  if (theirs == ours) return {};
  const std::vector<std::string> a = parts_of(theirs), b = parts_of(ours);
  if (a.size() != b.size()) return {{spaced(a), spaced(b)}};
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) out.emplace_back(a[i], b[i]);
  return out;
}

/// The line every process ends with when `other` (of process `p`) is not process 0's `zero`.
std::string difference(const StartedWith& zero, const StartedWith& other, int p) {
  const std::string differs = "process " + std::to_string(p) + " was started with other arguments than process 0";
  const std::string fix = "; start every process with the same binary and arguments";
  if (zero.ended)  // process 0 says its own error; this line is only the others' (silent) reason
    return zero.error.empty() ? "process 0 ended before its search, which process " + std::to_string(p) + " started" + fix : zero.error;
  if (other.ended) return differs + (other.error.empty() ? " and ended before its search" : " and refused them: " + other.error) + fix;
  std::string said;
  const std::size_t n = std::min(zero.items.size(), other.items.size());
  for (std::size_t i = 0; i < n; ++i)
    if (i == 0 || other.items[0] == zero.items[0] || i + 1 == n)  // another spec: its constants are its own
      for (const auto& [theirs, ours] : differing_parts(other.items[i], zero.items[i]))
      said += (said.empty() ? "" : ", ") + theirs + " (process 0: " + ours + ")";
  if (zero.items.size() != other.items.size()) said += (said.empty() ? "" : ", ") + std::string("a statecheck of another version");
  return differs + ": " + said + fix;
}
}  // namespace

std::string agree_on_start(Exchange& net, const StartedWith& mine) {
  start_agreed = true;
  const std::string text = encoded(mine);
  const std::string zero = net.share(text, 0);
  const int first = net.first_with(text != zero);
  if (first == net.size()) return "";
  return difference(decoded(zero), decoded(net.share(text, first)), first);
}

bool agreed_on_start() { return start_agreed; }

void silence_output() {
  const int null = ::open("/dev/null", O_WRONLY);
  if (null < 0) return;
  saved_stderr = ::dup(STDERR_FILENO);
  ::dup2(null, STDOUT_FILENO);
  ::dup2(null, STDERR_FILENO);
  ::close(null);
}

void say_despite_silence(const std::string& line, int process) {
  if (saved_stderr < 0) {
    std::fprintf(stderr, "%s\n", line.c_str());
    std::fflush(stderr);
    return;
  }
  const std::string text = "process " + std::to_string(process) + ": " + line + "\n";
  if (::write(saved_stderr, text.data(), text.size()) < 0) return;  // nowhere left to say it
}

int launched_processes() {
  // Open MPI's mpirun, then MPICH / Intel MPI / Slurm's srun (PMI).
  // (Not SLURM_NTASKS: an sbatch script itself, one process, has it too.)
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"}) {
    const char* v = std::getenv(name);
    if (v != nullptr && *v != '\0') return std::max(1, std::atoi(v));
  }
  return 1;
}

std::string Exchange::share(const std::string& text, int root) {
  std::vector<std::byte> bytes(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) bytes[i] = static_cast<std::byte>(text[i]);
  broadcast(bytes, root);
  std::string out(bytes.size(), '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) out[i] = static_cast<char>(bytes[i]);
  return out;
}

#ifndef STATECHECK_HAVE_MPI

ProcessGroup::ProcessGroup(int&, char**&) {
  // The refusal below is said once, by the launcher's first process.
  if (launched_processes() <= 1) return;
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK"}) {
    const char* v = std::getenv(name);
    if (v != nullptr && std::atoi(v) != 0) {
      silence_output();
      reports_ = false;
      return;
    }
  }
}
ProcessGroup::~ProcessGroup() = default;

void check_launch(bool) {
  // K copies of the same search would each print the whole answer: refuse instead.
  if (launched_processes() > 1)
    throw config_error("started as " + std::to_string(launched_processes()) +
                       " processes (mpirun), but this statecheck was built without MPI; rebuild it with "
                       "-DSTATECHECK_MPI=ON (Debian: apt-get install libopenmpi-dev), or run one process");
}

std::unique_ptr<Exchange> join_processes() { return nullptr; }

int abort_processes(int code, const std::string& line) {
  say_despite_silence(line, 0);
  return code;
}

#endif

}  // namespace statecheck::detail
