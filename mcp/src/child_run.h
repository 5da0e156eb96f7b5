// One tool call's child: the gpudiag binary run with an argv (never a shell string), stdout and
// stderr captured, stopped at a deadline or on cancellation, its peak memory read when it ends.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace gpudiag::mcp_detail {

struct ChildRun {
  bool started = false;
  std::string start_error;  // why it could not be started
  int exit_code = -1;       // -1 when it ended by a signal
  int signal = 0;
  std::string out;  // stdout, whole unless `out_overflow`
  bool out_overflow = false;
  std::string err;  // stderr, the first 64 KiB
  bool timed_out = false;
  bool cancelled = false;
  double seconds = 0;
  long peak_rss_kib = 0;  // the child's maximum resident set (getrusage's ru_maxrss)
};

// Called when `watch_fd` has input (and whenever the child has been quiet for a while, with false):
// reads what is there and says whether the call goes on.
struct Watch {
  bool cancel = false;       // the call was cancelled: stop the child
  bool input_ended = false;  // the channel is at its end: stop watching it (it would stay readable)
};
using InputWatcher = std::function<Watch(bool input_ready)>;

// Runs argv[0] with the rest as arguments, stdin from /dev/null, in its own process group (a signal
// reaches what it starts, gcloud included). At `timeout_seconds`, or when `watcher` says so, the
// group gets SIGTERM (gpudiag writes the report of what it read), then SIGKILL after a grace period.
ChildRun run_child(const std::vector<std::string>& argv, double timeout_seconds, int watch_fd,
                   const InputWatcher& watcher);

}  // namespace gpudiag::mcp_detail
