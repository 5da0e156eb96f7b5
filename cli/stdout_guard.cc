#include "stdout_guard.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <iostream>
#include <streambuf>

namespace gpudiag::cli {
namespace {

// The conventional end of a writer whose reader left: death by SIGPIPE, even if it was ignored.
[[noreturn]] void die_of_sigpipe() {
  ::signal(SIGPIPE, SIG_DFL);
  sigset_t pipe_only;
  sigemptyset(&pipe_only);
  sigaddset(&pipe_only, SIGPIPE);
  ::sigprocmask(SIG_UNBLOCK, &pipe_only, nullptr);
  ::raise(SIGPIPE);
  ::_exit(128 + SIGPIPE);  // only if the signal could not end the process
}

// A buffered streambuf over fd 1 that remembers the first error instead of dropping it.
class CheckedStdoutBuf final : public std::streambuf {
 public:
  CheckedStdoutBuf() { setp(buffer_, buffer_ + sizeof buffer_); }

  const std::string& error() const { return error_; }
  bool closed() const { return closed_; }
  void close() {
    sync();
    closed_ = true;
    if (::close(STDOUT_FILENO) != 0 && error_.empty() && errno != EBADF) error_ = std::strerror(errno);
  }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    if (n > static_cast<std::streamsize>(epptr() - pptr())) {  // large writes skip the buffer
      if (!drain() || !write_all(s, static_cast<size_t>(n))) return 0;
      return n;
    }
    std::memcpy(pptr(), s, static_cast<size_t>(n));
    pbump(static_cast<int>(n));
    return n;
  }

 private:
  bool drain() {
    const size_t n = static_cast<size_t>(pptr() - pbase());
    setp(buffer_, buffer_ + sizeof buffer_);
    return write_all(buffer_, n);
  }
  bool write_all(const char* data, size_t n) {
    if (!error_.empty() || closed_) return n == 0;
    while (n > 0) {
      const ssize_t w = ::write(STDOUT_FILENO, data, n);
      if (w < 0) {
        if (errno == EINTR) continue;
        if (errno == EPIPE) die_of_sigpipe();
        error_ = std::strerror(errno);
        return false;
      }
      data += w;
      n -= static_cast<size_t>(w);
    }
    return true;
  }

  char buffer_[1 << 16];
  std::string error_;
  bool closed_ = false;
};

CheckedStdoutBuf& checked() {
  static CheckedStdoutBuf buf;
  return buf;
}

std::streambuf* g_original = nullptr;  // std::cout's own, given back at close

}  // namespace

void guard_stdout() { g_original = std::cout.rdbuf(&checked()); }

std::string flush_stdout() {
  std::cout.flush();
  if (!checked().error().empty()) return checked().error();
  if (!std::cout) return "the stream failed";
  return {};
}

std::string close_stdout() {
  std::string error = flush_stdout();
  if (!checked().closed()) checked().close();
  if (g_original) std::cout.rdbuf(g_original);  // nothing may write through a closed guard at exit
  g_original = nullptr;
  return error.empty() ? checked().error() : error;
}

}  // namespace gpudiag::cli
