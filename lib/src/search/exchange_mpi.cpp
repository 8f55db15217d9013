// The Exchange over MPI (built only with STATECHECK_MPI). Only the main
// thread calls MPI (MPI_THREAD_FUNNELED): the search's parallel loops never do.
// Only MPI's C interface: not the deprecated C++ bindings (and their warnings).
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <mpi.h>

#include <climits>
#include <stdexcept>
#include <string>

#include "search/exchange.hpp"
#include "statecheck/result.hpp"

namespace statecheck::detail {

namespace {

bool started_mpi = false;

/// A failed call (a process died, the network broke) ends the check: MPI_ERRORS_RETURN
/// turns it into an error code, and this into an exception the command reports (exit 3).
void check(int code, const char* what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string("another process of the check failed during ") + what + " (MPI: " +
                           std::string(text, static_cast<std::size_t>(length)) + ")");
}

int as_int(std::uint64_t n, const char* what) {
  if (n > static_cast<std::uint64_t>(INT_MAX)) throw std::logic_error(std::string(what) + ": a message over 2 GiB");
  return static_cast<int>(n);
}

class MpiExchange final : public Exchange {
 public:
  MpiExchange() {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiExchange() override { MPI_Comm_free(&comm_); }

  void sum(std::vector<std::uint64_t>& v) override { reduce(v, MPI_SUM); }
  void min(std::vector<std::uint64_t>& v) override { reduce(v, MPI_MIN); }

  std::vector<std::byte> all_to_all(const std::vector<std::vector<std::byte>>& out,
                                    std::vector<std::uint64_t>* from) override {
    const auto k = static_cast<std::size_t>(size_);
    std::vector<int> send_counts(k), send_at(k), recv_counts(k), recv_at(k);
    std::uint64_t total = 0;
    std::vector<std::byte> send;
    for (std::size_t d = 0; d < k; ++d) {
      send_counts[d] = as_int(out[d].size(), "the exchange");
      send_at[d] = as_int(send.size(), "the exchange");
      send.insert(send.end(), out[d].begin(), out[d].end());
      if (d != static_cast<std::size_t>(rank_)) bytes_sent += out[d].size();
    }
    check(MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, comm_), "the exchange");
    for (std::size_t d = 0; d < k; ++d) {
      recv_at[d] = as_int(total, "the exchange");
      total += static_cast<std::uint64_t>(recv_counts[d]);
    }
    if (from != nullptr) from->assign(recv_counts.begin(), recv_counts.end());
    std::vector<std::byte> received(static_cast<std::size_t>(total));
    check(MPI_Alltoallv(send.data(), send_counts.data(), send_at.data(), MPI_BYTE, received.data(), recv_counts.data(),
                        recv_at.data(), MPI_BYTE, comm_),
          "the exchange");
    return received;
  }

  std::vector<std::uint64_t> all_gather(const std::vector<std::uint64_t>& mine, std::vector<std::uint64_t>& counts) override {
    counts.assign(static_cast<std::size_t>(size_), 0);
    const std::uint64_t n = mine.size();
    check(MPI_Allgather(&n, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, comm_), "the level order");
    std::vector<int> ints(counts.size()), at(counts.size());
    std::uint64_t total = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      ints[r] = as_int(counts[r], "the level order");
      at[r] = as_int(total, "the level order");
      total += counts[r];
    }
    std::vector<std::uint64_t> all(static_cast<std::size_t>(total));
    bytes_sent += n * sizeof(std::uint64_t) * static_cast<std::uint64_t>(size_ - 1);
    check(MPI_Allgatherv(mine.data(), as_int(n, "the level order"), MPI_UINT64_T, all.data(), ints.data(), at.data(),
                         MPI_UINT64_T, comm_),
          "the level order");
    return all;
  }

  void broadcast(std::vector<std::byte>& data, int root) override {
    std::uint64_t n = data.size();
    check(MPI_Bcast(&n, 1, MPI_UINT64_T, root, comm_), "a broadcast");
    data.resize(static_cast<std::size_t>(n));
    check(MPI_Bcast(data.data(), as_int(n, "a broadcast"), MPI_BYTE, root, comm_), "a broadcast");
  }

 private:
  void reduce(std::vector<std::uint64_t>& v, MPI_Op op) {
    check(MPI_Allreduce(MPI_IN_PLACE, v.data(), as_int(v.size(), "a reduction"), MPI_UINT64_T, op, comm_), "a reduction");
  }
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace

ProcessGroup::ProcessGroup(int& argc, char**& argv) {
  if (launched_processes() <= 1) return;  // one process: no MPI at all
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  started_mpi = true;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {  // every process reaches the same answer: the first one says it
    silence_output();
    reports_ = false;
  }
}

ProcessGroup::~ProcessGroup() {
  if (started_mpi) MPI_Finalize();
}

void check_launch(bool is_check) {
  if (launched_processes() > 1 && !is_check)
    throw config_error("only check runs as several processes (mpirun -np " + std::to_string(launched_processes()) +
                       "); run this command as one process");
}

int abort_processes(int code, const std::string& line) {
  int rank = 0;
  if (started_mpi) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  say_despite_silence(line, rank);
  if (started_mpi) MPI_Abort(MPI_COMM_WORLD, code);
  return code;
}

std::unique_ptr<Exchange> join_processes() {
  if (!started_mpi) return nullptr;
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size == 1) return nullptr;
  return std::make_unique<MpiExchange>();
}

}  // namespace statecheck::detail
