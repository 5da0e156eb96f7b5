// A Dataflow job's logs and description, fetched through the user's own gcloud: `gcloud dataflow
// jobs describe` for the description, `gcloud logging read --format=json --order=asc` for the
// entries, in the job's own time window. gcloud runs as a subprocess (an argv, never a shell), with
// the user's configuration as it is: account, project, impersonation, proxy, endpoint overrides.
//
// gcloud pages through entries:list itself (pageSize 1000) but does not retry: on a 429
// RESOURCE_EXHAUSTED it prints the entries it had as a well-formed array and exits 1. fetch_job keeps
// them, waits (exponential backoff with jitter) and resumes from the last timestamp
// (`timestamp>="LAST"`, the entries already kept at LAST dropped by insertId). A fetch that still
// fails is written all the same, and marked not complete in the job file, which the analysis then
// reports as an input not read in full.
//
//   FetchRequest request{.job_id = id, .project = "my-proj", .region = "us-central1",
//                        .output = "logs.json"};
//   Result<FetchedJob> fetched = fetch_job(request);
//   if (!fetched) { print(fetched.error()); return 2; }   // says what to do (gcloud auth login …)
//   analyze({fetched->export_path}, job_files = {fetched->job_path});
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpudiag/result.h"

namespace gpudiag {

// Where a fetch is, for a progress line.
struct FetchProgress {
  uint64_t entries = 0;  // kept so far, from the gcloud runs that ended
  uint64_t bytes = 0;    // received from the gcloud run under way
  unsigned gcloud_runs = 0;
  std::chrono::steady_clock::duration elapsed{};
  std::string doing;  // "describing the job", "reading entries", "waiting 15s (quota)"
};

// Where an earlier fetch of the same job stopped, for `--follow`'s next poll: read from `from` (the
// last entry's timestamp less the lookback) and drop the entries it had kept since then (their
// timestamps and insertIds). The lookback catches entries Cloud Logging receives late, with a
// timestamp older than the last one seen (workers send their logs in batches).
struct FetchCursor {
  std::string from;
  std::vector<std::pair<std::string, std::string>> kept;  // (timestamp, insertId), oldest first
};
inline constexpr std::chrono::seconds kFollowLookback{120};

struct FetchRequest {
  std::string job_id;
  std::string project;            // "" = gcloud's configured project
  std::string region;             // "" = gcloud's default (dataflow/region, else us-central1)
  std::string output;             // the export (.json, or .json.gz: gzip); the description goes to job_path_for(output)
  bool force = false;             // replace existing files
  std::string gcloud = "gcloud";  // looked up on PATH
  // Around the job's own window: create time − margin → current-state time + margin.
  std::chrono::seconds margin{std::chrono::minutes{15}};
  // gcloud runs after the first, when one stops early (429, 503, a connection cut); the wait before
  // run n is backoff × 2^(n−1), ± half of it at random.
  unsigned max_retries = 6;
  std::chrono::milliseconds backoff{std::chrono::seconds{10}};
  // Called every 200 ms or so while gcloud runs, and at each step.
  std::function<void(const FetchProgress&)> progress;
  // Only the entries after this point (following a running job); the description is fetched again.
  std::optional<FetchCursor> after;
  std::chrono::seconds lookback = kFollowLookback;  // of the cursor this fetch returns
  // Set (to a signal number) to stop: after the gcloud run under way (which the terminal's Ctrl-C
  // reaches too), nothing is written and the temporary files are removed.
  const std::atomic<int>* interrupt = nullptr;
};

struct FetchedJob {
  std::string export_path;
  std::string job_path;
  std::string state;           // the description's currentState ("JOB_STATE_FAILED" …)
  std::string region;          // set when the job was not in gcloud's default region and was found in this one
  bool terminal = false;       // the job has ended: its logs will not grow
  bool complete = false;       // every entry of the window came; false: marked so in the job file
  std::string incomplete_why;  // when not complete: what stopped it
  uint64_t entries = 0;
  unsigned gcloud_runs = 0;  // of `gcloud logging read`
  unsigned retries = 0;
  std::chrono::steady_clock::duration waited{};  // in backoff
  FetchCursor cursor;                            // where the next fetch of a running job starts
};

// The job file beside an export: logs.json → logs.job.json, logs.json.gz → logs.job.json, x → x.job.json.
std::string job_path_for(const std::string& export_path);

// Fetches the job's description and entries into request.output and job_path_for(request.output).
// Errors (exit 2 for the caller) say what to do: gcloud missing, not logged in, permission denied,
// job not found, files that exist without `force`. A fetch cut short after the retries is not an
// error: it is written, with FetchedJob::complete false and the job file marked.
Result<FetchedJob> fetch_job(const FetchRequest& request);

// The Cloud Logging filter for a job's own logs (README, "Exporting the logs"): the job's
// dataflow_step resource, from `since` (RFC 3339) and, when not empty, up to `until`.
// gpudiag export-command prints it; fetch_job reads with it.
std::string job_log_filter(const std::string& job_id, const std::string& since, const std::string& until);

// A UTC time as Cloud Logging filters and gcloud write it: 2022-11-28T22:05:40Z.
std::string rfc3339_utc(std::chrono::sys_seconds t);
// Reads "2022-11-28T22:05:40.123456Z" (fraction and offset optional, Z or ±hh:mm), to the second
// (floored); nullopt when it is not such a time.
std::optional<std::chrono::sys_seconds> parse_rfc3339_seconds(std::string_view text);

}  // namespace gpudiag
