#include "child_run.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>

namespace gpudiag::mcp_detail {
namespace {

using Clock = std::chrono::steady_clock;

// A report is bounded by the command line's own caps (a few MiB at most); past this the child is
// stopped rather than let the server grow.
constexpr size_t kMaxStdout = 32 * 1024 * 1024;
constexpr size_t kMaxStderr = 64 * 1024;
// After SIGTERM, how long gpudiag gets to write the report of what it read.
constexpr auto kGrace = std::chrono::seconds(10);

void close_fd(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

ChildRun run_child(const std::vector<std::string>& argv, double timeout_seconds, int watch_fd,
                   const InputWatcher& watcher) {
  ChildRun run;
  int out_pipe[2];
  int err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    run.start_error = std::strerror(errno);
    return run;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    run.start_error = std::strerror(errno);
    close(out_pipe[0]);
    close(out_pipe[1]);
    return run;
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const pid_t parent = getpid();
  const auto start = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    // The child: only async-signal-safe calls from here to exec.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // the server gone (killed) takes its call with it
    if (getppid() != parent) _exit(127);
    signal(SIGPIPE, SIG_DFL);  // the server ignores it; gpudiag and gcloud expect the default
    const int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
    dup2(out_pipe[1], STDOUT_FILENO);
    dup2(err_pipe[1], STDERR_FILENO);
    execv(args[0], args.data());
    const char* why = "gpudiag mcp: cannot run the gpudiag binary\n";
    (void)!write(STDERR_FILENO, why, std::strlen(why));
    _exit(127);
  }
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (pid < 0) {
    run.start_error = std::strerror(errno);
    close(out_pipe[0]);
    close(err_pipe[0]);
    return run;
  }
  run.started = true;
  setpgid(pid, pid);  // also here: the group must exist before the first kill(-pid)

  int out_fd = out_pipe[0];
  int err_fd = err_pipe[0];
  const auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_seconds));
  Clock::time_point kill_at = Clock::time_point::max();
  bool terminated = false;
  auto stop = [&] {
    if (terminated) return;
    kill(-pid, SIGTERM);
    terminated = true;
    kill_at = Clock::now() + kGrace;
  };
  int status = 0;
  rusage usage{};
  bool exited = false;
  Clock::time_point exited_at;
  // Until the child has ended and its output is read: a child that closed its pipes but runs on still
  // meets the time limit, and a process it started that holds the pipes open after it ended (a gcloud
  // the group's signal did not reach) is not waited for more than a moment.
  while (!exited || ((out_fd >= 0 || err_fd >= 0) && Clock::now() < exited_at + std::chrono::seconds(2))) {
    pollfd fds[3];
    nfds_t n = 0;
    const int out_slot = out_fd >= 0 ? static_cast<int>(n) : -1;
    if (out_fd >= 0) fds[n++] = {out_fd, POLLIN, 0};
    const int err_slot = err_fd >= 0 ? static_cast<int>(n) : -1;
    if (err_fd >= 0) fds[n++] = {err_fd, POLLIN, 0};
    const int watch_slot = watch_fd >= 0 && !exited ? static_cast<int>(n) : -1;
    if (watch_slot >= 0) fds[n++] = {watch_fd, POLLIN, 0};
    const int ready = poll(fds, n, exited ? 20 : 200);
    if (ready < 0 && errno != EINTR) break;
    char buffer[64 * 1024];
    constexpr short kReadable = POLLIN | POLLHUP | POLLERR | POLLNVAL;
    auto drain = [&](int slot, int& fd, std::string& into, size_t cap, bool* overflow) {
      if (slot < 0 || (fds[slot].revents & kReadable) == 0) return;
      const ssize_t got = read(fd, buffer, sizeof buffer);
      if (got > 0) {
        if (into.size() + static_cast<size_t>(got) <= cap) {
          into.append(buffer, static_cast<size_t>(got));
        } else if (overflow != nullptr) {
          *overflow = true;
          stop();
        } else if (into.size() < cap) {
          into.append(buffer, cap - into.size());
        }
      } else if (got == 0 || errno != EINTR) {
        close_fd(fd);
      }
    };
    if (ready > 0) {
      drain(out_slot, out_fd, run.out, kMaxStdout, &run.out_overflow);
      drain(err_slot, err_fd, run.err, kMaxStderr, nullptr);
    }
    if (!exited) {
      const bool input_ready = watch_slot >= 0 && ready > 0 && (fds[watch_slot].revents & kReadable) != 0;
      const Watch watch = watcher ? watcher(input_ready) : Watch{};
      if (watch.input_ended) watch_fd = -1;
      if (watch.cancel && !terminated) {
        run.cancelled = true;
        stop();
      }
      const auto now = Clock::now();
      if (!terminated && now >= deadline) {
        run.timed_out = true;
        stop();
      }
      if (terminated && now >= kill_at) {
        kill(-pid, SIGKILL);
        kill_at = Clock::time_point::max();
      }
      pid_t ended = 0;
      while ((ended = wait4(pid, &status, WNOHANG, &usage)) < 0 && errno == EINTR) {
      }
      if (ended == pid) {
        exited = true;
        exited_at = Clock::now();
      }
    }
  }
  close_fd(out_fd);
  close_fd(err_fd);
  if (!exited) {  // poll failed: end the child rather than leave it
    kill(-pid, SIGKILL);
    while (wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
    }
  }
  run.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  run.peak_rss_kib = usage.ru_maxrss;
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  return run;
}

}  // namespace gpudiag::mcp_detail
