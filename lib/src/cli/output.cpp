// Checked standard output and whole-or-nothing files; see output.hpp.
#include "cli/output.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <streambuf>

#include "statecheck/result.hpp"
#include "store/file_io.hpp"

namespace statecheck::cli {

namespace {

/// Writes all of `n` bytes; false (errno set) on the first failure.
bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    const ssize_t done = ::write(fd, p, n);
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) {
      if (done == 0) errno = EIO;
      return false;
    }
    p += done;
    n -= static_cast<std::size_t>(done);
  }
  return true;
}

/// std::cout's buffer: writes to descriptor 1 and keeps the first error
/// (errno), which std::ostream alone would reduce to a bad bit.
class CheckedOutput : public std::streambuf {
 public:
  explicit CheckedOutput(bool closed) : error_(closed ? EBADF : 0) { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (sync() != 0) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override {
    const std::size_t n = static_cast<std::size_t>(pptr() - pbase());
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    if (error_ == 0 && n > 0 && !write_all(1, buffer_.data(), n)) error_ = errno;
    return error_ == 0 ? 0 : -1;
  }

 private:
  std::array<char, 1 << 16> buffer_{};
  int error_;
};

CheckedOutput* checked = nullptr;

bool is_open(int fd) { return fcntl(fd, F_GETFD) != -1; }

mode_t current_umask() {
  const mode_t mask = umask(0);
  umask(mask);
  return mask;
}

}  // namespace

void guard_standard_streams() {
  bool closed[3];
  for (int fd = 0; fd < 3; ++fd) closed[fd] = !is_open(fd);
  for (int fd = 0; fd < 3; ++fd)
    if (closed[fd]) {
      const int null = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);  // the lowest free descriptor: fd
      if (null >= 0 && null != fd) {
        dup2(null, fd);
        close(null);
      }
    }
  static CheckedOutput buffer(closed[1]);  // lives until exit, past every use of std::cout
  checked = &buffer;
  std::fflush(stdout);
  std::cout.rdbuf(checked);
}

std::string standard_output_problem() {
  std::cout.flush();
  const int error = checked != nullptr ? checked->error() : (std::cout ? 0 : EIO);
  if (error == 0) return "";
  return "cannot write standard output: " +
         (error == EBADF ? std::string(std::strerror(error)) + " (it is closed); run with standard output open"
                         : detail::write_failure(error));
}

AtomicFile::AtomicFile(std::string path, std::string what) : path_(std::move(path)), what_(std::move(what)) {
  struct stat st {};
  if (stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    if (S_ISDIR(st.st_mode)) throw config_error(what_ + " " + path_ + " is a directory; give a file name");
    fd_ = open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);  // a device or FIFO: written in place
  } else {
    target_ = path_;
    struct stat link {};
    if (lstat(path_.c_str(), &link) == 0 && S_ISLNK(link.st_mode)) {
      std::error_code ec;  // renaming over the link would replace it by a file
      const std::filesystem::path real = std::filesystem::weakly_canonical(path_, ec);
      if (!ec) target_ = real.string();
    }
    const std::size_t slash = target_.find_last_of('/');
    temp_ = (slash == std::string::npos ? "" : target_.substr(0, slash + 1)) + ".statecheck-XXXXXX";
    fd_ = mkstemp(temp_.data());
    if (fd_ < 0) temp_.clear();
  }
  if (fd_ < 0)
    throw config_error("cannot write " + what_ + " " + path_ + " (" + std::strerror(errno) + "); give a writable path");
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) close(fd_);
  if (!temp_.empty()) unlink(temp_.c_str());
}

void AtomicFile::failed(const std::string& verb) {
  throw write_error("cannot " + verb + " " + what_ + " " + path_ + ": " + detail::write_failure(errno));
}

void AtomicFile::write(const std::string& text) {
  if (!write_all(fd_, text.data(), text.size())) failed("write");
}

void AtomicFile::commit() {
  if (temp_.empty()) {
    const int fd = fd_;
    fd_ = -1;
    if (close(fd) != 0) failed("write");
    return;
  }
  if (fchmod(fd_, 0666 & ~current_umask()) != 0 || fsync(fd_) != 0) failed("write");
  const int fd = fd_;
  fd_ = -1;
  if (close(fd) != 0) failed("write");
  if (std::rename(temp_.c_str(), target_.c_str()) != 0) failed("replace");
  temp_.clear();
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ec;
  if (std::filesystem::equivalent(a, b, ec)) return true;  // st_dev and st_ino
  const auto ca = std::filesystem::weakly_canonical(std::filesystem::absolute(a), ec);
  const auto cb = std::filesystem::weakly_canonical(std::filesystem::absolute(b), ec);
  return !ec && ca == cb;
}

void refuse_input_as_output(const std::string& flag, const std::string& output, const std::string& input) {
  if (same_file(output, input)) throw config_error(flag + " " + output + " is the input file; write to another file");
}

}  // namespace statecheck::cli
