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
}  // namespace

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
