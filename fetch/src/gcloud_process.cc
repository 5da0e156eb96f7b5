#include "gcloud_process.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

extern char** environ;

namespace gpudiag::fetch_detail {

GcloudRun run_gcloud(const std::vector<std::string>& argv, const std::string& stdout_path,
                     const std::function<void()>& tick, const std::atomic<int>* stop) {
  GcloudRun run;
  int err_pipe[2];
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    run.spawn_error = errno;
    return run;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(err_pipe[1]);
  if (spawned != 0) {
    close(err_pipe[0]);
    run.spawn_error = spawned;
    return run;
  }
  run.started = true;
  constexpr size_t kMaxStderr = 64 * 1024;
  bool stopped = false;
  for (bool open = true; open;) {
    pollfd p{.fd = err_pipe[0], .events = POLLIN, .revents = 0};
    const int ready = poll(&p, 1, 200);
    if (ready < 0 && errno != EINTR) break;
    if (ready > 0) {
      char buffer[4096];
      const ssize_t n = read(err_pipe[0], buffer, sizeof buffer);
      if (n > 0) {
        if (run.stderr_text.size() < kMaxStderr) run.stderr_text.append(buffer, static_cast<size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        open = false;
      }
    }
    if (tick) tick();
    if (stop != nullptr && stop->load() != 0 && !stopped) {
      kill(pid, SIGTERM);
      stopped = true;
    }
  }
  close(err_pipe[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  return run;
}

}  // namespace gpudiag::fetch_detail
