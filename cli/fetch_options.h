// What `gpudiag fetch` and `analyze|report|gate --project P --job-id J` share: the job to fetch, the
// request made of it, the progress line, and the cache the analysis commands fetch into.
#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <optional>
#include <string>

#include "gpudiag/fetch.h"

namespace gpudiag::cli {

struct FetchTarget {
  std::string job_id;
  std::string project;
  std::string region;
  void add_to(CLI::App& cmd);  // --project, --region
};

// The request for a target, its names checked (a usage error is printed: nullopt). The backoff is
// GPUDIAG_FETCH_BACKOFF_MS when set (tests shorten it).
std::optional<FetchRequest> fetch_request(const FetchTarget& target);
// fetch_job with a progress line on stderr when stderr is a terminal.
Result<FetchedJob> fetch_with_progress(const FetchRequest& request);

// The target's folder in the cache (made if missing): $XDG_CACHE_HOME/gpudiag/fetch/PROJECT/REGION/, else
// under ~/.cache. Problems are printed.
std::optional<std::filesystem::path> fetch_cache_folder(const FetchTarget& target);

// Fetches the target into $XDG_CACHE_HOME/gpudiag/fetch/ (else ~/.cache/gpudiag/fetch/), or reuses
// the cached export when the job had ended and the export is complete. Problems are printed.
std::optional<FetchedJob> fetch_into_cache(const FetchTarget& target);

}  // namespace gpudiag::cli
