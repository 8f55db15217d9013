// The checkpoint file of a --checkpoint DIR: its path, its read-only mapping
// for a resume, and the one line that says what a directory holds (for the
// refusal to overwrite it). Writing and parsing: checkpoint.cpp.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "statecheck/result.hpp"
#include "store/checkpoint.hpp"
#include "store/trace_log.hpp"

namespace statecheck::detail {

std::string checkpoint_path(const std::string& dir) { return dir + "/checkpoint.sckp"; }

MappedCheckpoint::MappedCheckpoint(const std::string& dir) : path_(checkpoint_path(dir)) {
  struct stat st {};
  // Not a regular file (a FIFO would block open(), a device reads without end): refused before opening.
  if (stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw config_error("checkpoint " + path_ + " is not a regular file; it cannot be resumed");
  const int fd = open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    throw config_error("no checkpoint to resume in " + dir + " (" + path_ + ": " + std::strerror(errno) +
                       "); give the --checkpoint directory of an earlier run");
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {  // replaced since the stat above
    close(fd);
    throw config_error("checkpoint " + path_ + " is not a regular file; it cannot be resumed");
  }
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ != 0) {
    void* p = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      close(fd);
      throw config_error("checkpoint " + path_ + " cannot be read (" + std::strerror(errno) + ")");
    }
    data_ = static_cast<const std::byte*>(p);
  }
  close(fd);
}

std::string describe_checkpoint(const std::string& dir) {
  struct stat st {};
  if (stat(checkpoint_path(dir).c_str(), &st) != 0) {
    // A checkpoint of K processes: one in each DIR/process-P-of-K (search/shared_checkpoint.cpp).
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("process-0-of-", 0) == 0 && stat(checkpoint_path(entry.path().string()).c_str(), &st) == 0)
        return "a checkpoint written by " + name.substr(13) + " processes";
    }
    return "";
  }
  try {
    const MappedCheckpoint file(dir);
    TraceLog log;
    const CheckpointMeta m = parse_checkpoint(file.bytes(), file.path(), log).meta;
    return "a checkpoint of spec '" + m.spec + "' (constants: " + (m.constants.empty() ? "none" : m.constants) +
           ") at level " + std::to_string(m.level);
  } catch (const std::exception& e) {
    return "a file that is not a usable checkpoint (" + std::string(e.what()) + ")";
  }
}

MappedCheckpoint::~MappedCheckpoint() {
  if (data_ != nullptr) munmap(const_cast<std::byte*>(data_), size_);
}

}  // namespace statecheck::detail
