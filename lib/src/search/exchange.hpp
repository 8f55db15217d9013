// lib/src/search/exchange.hpp - what the processes of one check (MPI ranks)
// say to each other. The search calls it only at level boundaries, never per
// successor; with one process there is no Exchange at all (a null pointer),
// so the one-process search makes no call and takes no branch for it.
// The MPI calls live in exchange_mpi.cpp, compiled only with STATECHECK_MPI.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "statecheck/result.hpp"

namespace statecheck::detail {

class Exchange {
 public:
  virtual ~Exchange() = default;
  int rank() const { return rank_; }
  int size() const { return size_; }

  /// Element-wise over every process (all call it with the same length).
  virtual void sum(std::vector<std::uint64_t>& values) = 0;
  virtual void min(std::vector<std::uint64_t>& values) = 0;
  /// out[d] goes to process d; returns what every process sent here, in
  /// process order; `from`, when given, receives how many bytes came from each.
  virtual std::vector<std::byte> all_to_all(const std::vector<std::vector<std::byte>>& out,
                                            std::vector<std::uint64_t>* from = nullptr) = 0;
  /// Every process's `mine`, concatenated in process order; `counts` receives their lengths.
  virtual std::vector<std::uint64_t> all_gather(const std::vector<std::uint64_t>& mine,
                                                std::vector<std::uint64_t>& counts) = 0;
  /// `data` of process `root` on every process.
  virtual void broadcast(std::vector<std::byte>& data, int root) = 0;

  std::uint64_t one_sum(std::uint64_t v) {
    std::vector<std::uint64_t> x{v};
    sum(x);
    return x[0];
  }
  std::uint64_t one_min(std::uint64_t v) {
    std::vector<std::uint64_t> x{v};
    min(x);
    return x[0];
  }
  /// The lowest process whose `mine` is true (size() when none).
  int first_with(bool mine) { return static_cast<int>(one_min(mine ? static_cast<std::uint64_t>(rank_) : static_cast<std::uint64_t>(size_))); }
  /// `text` of process `root` on every process.
  std::string share(const std::string& text, int root);

  /// Bytes this process sent to others (for --format json and bench/mpi.txt).
  std::uint64_t bytes_sent = 0;

 protected:
  int rank_ = 0;
  int size_ = 1;
};

/// Runs `f` (which makes no collective call) on every process; a config_error
/// it throws on some of them (a checkpoint part missing or damaged on one
/// machine) is thrown on all, as the first of them said it. A process that
/// returned alone would wait in MPI_Finalize for the others, which would wait
/// for it in their next collective call: a hang.
template <class F>
void agree_on_config_error(Exchange* net, F&& f) {
  if (net == nullptr) return f();
  std::string problem;
  try {
    f();
  } catch (const config_error& e) {
    problem = e.what();
  }
  const int first = net->first_with(!problem.empty());
  if (first != net->size()) throw config_error(net->share(problem, first));
}

/// The processes of this check when it runs under MPI with more than one;
/// null for a single process.
std::unique_ptr<Exchange> join_processes();

/// What one process was started with, compared with process 0's before the
/// first collective call that depends on it (a process told other things would
/// send other sizes: MPI_ERR_TRUNCATE, a hang or a wrong answer). Either the
/// items of a search about to start (the spec first, its constants, the options
/// that change the search, the binary last: each as the command line would say
/// it; when the spec differs only it and the binary are named), or
/// the error that ended this process before its search (its line; "" for none).
/// Separates the parts of one item (a spec's constants: one part each); a mismatch names the parts that differ.
inline constexpr char start_item_part = '\x1f';
struct StartedWith {
  std::vector<std::string> items;
  bool ended = false;
  std::string error;
};
/// Every process's StartedWith against process 0's, once per run (a collective
/// call): "" when all agree, else the one line that names the first process
/// that differs and how (process 0's own error when it ended before its search).
std::string agree_on_start(Exchange& net, const StartedWith& mine);
/// Whether this process took part in agree_on_start.
bool agreed_on_start();

/// Refuses (config_error) a launch as several processes that cannot work:
/// a statecheck built without MPI, or a command other than check.
void check_launch(bool is_check);

/// Starts and ends MPI for the program's run (cli_main): a no-op without MPI
/// or outside mpirun. Process > 0 of several prints nothing: only the
/// first process reports.
class ProcessGroup {
 public:
  ProcessGroup(int& argc, char**& argv);
  ~ProcessGroup();
  ProcessGroup(const ProcessGroup&) = delete;
  ProcessGroup& operator=(const ProcessGroup&) = delete;
  /// The process's exit code for the run's `code`: `code` from the first
  /// process (which reports), 0 from the others. mpirun ends the job as soon as
  /// one process exits non-zero, killing those still on their way out; a test
  /// on a loaded machine once lost the first process's report that way (exit
  /// 137). So the only non-zero exit is the first process's, after its report.
  /// Errors of one process's own end all through MPI_Abort, not through this.
  int exit_code(int code) const { return reports_ ? code : 0; }

 private:
  bool reports_ = true;
};

/// How many processes the launcher (mpirun, srun) started, from its
/// environment; 1 outside one.
int launched_processes();
/// Sends this process's standard output and error to /dev/null.
void silence_output();
/// Prints `line` on standard error (even from a silenced process, naming it)
/// and returns `code`; across processes, first ends them all with `code`
/// (MPI_Abort), since the others would wait for this one for ever.
int abort_processes(int code, const std::string& line);
/// `line` on the original standard error ("process N: " first when silenced).
void say_despite_silence(const std::string& line, int process);

}  // namespace statecheck::detail
