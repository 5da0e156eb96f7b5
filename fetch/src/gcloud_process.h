// One gcloud run: argv (never a shell string), stdout into a file, stderr kept (up to 64 KiB).
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace gpudiag::fetch_detail {

struct GcloudRun {
  bool started = false;  // false: the program could not be started (spawn_error says why)
  int spawn_error = 0;   // errno of posix_spawnp (ENOENT: not on PATH)
  int exit_code = -1;    // gcloud's exit status; -1 when it was killed by a signal
  int signal = 0;
  std::string stderr_text;
};

// Runs argv[0] (looked up on PATH) with stdout written to `stdout_path` (created or truncated).
// `tick` is called about every 200 ms while it runs; when `stop` is set, gcloud is sent SIGTERM.
GcloudRun run_gcloud(const std::vector<std::string>& argv, const std::string& stdout_path,
                     const std::function<void()>& tick, const std::atomic<int>* stop);

}  // namespace gpudiag::fetch_detail
