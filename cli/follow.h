// analyze --project P --job-id J --follow: a running job followed until it ends (or Ctrl-C). Each
// poll fetches the entries after the last one seen (fetch.h's FetchCursor), analyses everything that
// has come, and prints each finding the first time it appears, in one line, never retracting it; at
// the end the full report of what came, as `analyze` writes it.
#pragma once

#include <functional>

#include "run_options.h"

namespace gpudiag::cli {

struct FollowOptions {
  bool enabled = false;
  double poll_seconds = 30;  // --poll-interval
  void add_to(CLI::App& cmd);
};

// Writes the report of the run and returns analyze's exit code; `o` is the run as followed (its
// inputs are the fetched pieces, its --job the latest description).
using FinishRun = std::function<int(const RunOptions& o, AnalysedRun& analysed)>;

// `lines_to_stderr`: the report on stdout is JSON, so the finding lines go to stderr.
int follow_job(const RunOptions& o, const FollowOptions& follow, bool lines_to_stderr, const FinishRun& finish);

}  // namespace gpudiag::cli
