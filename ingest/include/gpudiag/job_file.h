// --job files: `gcloud dataflow jobs describe JOB --full --format=json` (one job object) or
// `gcloud dataflow jobs list --format=json` (an array of them), read and checked: a file that is not
// JSON, or not a job, is a Diagnostic with file:line:column and how to get a good one. What each job
// says is handed on as read (its id, name, state, launch options, type and SDK); the engine makes
// facts of it.
//
//   auto jobs = read_job_file("job.json");
//   if (!jobs) return jobs.error();   // "job.json:1:1: … is not a Dataflow job description"
//   for (const DescribedJob& job : *jobs) … job.about.id, job.options.at("machine_type").text …
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/result.h"

namespace gpudiag {

// One job a --job file describes, and where.
struct JobDescription {
  std::string file;
  uint64_t line = 0;    // where its object starts, 1-based
  uint64_t column = 0;  // 1-based, in bytes
  std::string id;
  std::string name;
  std::string project;        // projectId
  std::string region;         // location
  std::string current_state;  // currentState ("JOB_STATE_DONE", "JOB_STATE_FAILED" …), "" when not given
  bool in_list = false;       // an element of an array (`jobs list`), not the file's one job
  // Written by gpudiag fetch (its "gpudiagFetch" note): whether the export beside it came whole,
  // its file name, and what cut it short.
  std::optional<bool> fetch_complete;
  std::string fetch_export;
  std::string fetch_incomplete_reason;

  // The job has ended (done, failed, cancelled, updated, drained): its logs will not grow.
  bool terminal() const;
};

// A launch option as a job description gives it: a value, or a list's items.
struct JobOptionValue {
  std::string text;                // a scalar's text ("DataflowRunner", "4", "True")
  std::vector<std::string> items;  // a list's items
  bool is_list = false;
};

// A job description with what it says of the launch.
struct DescribedJob {
  JobDescription about;
  // Pipeline options as `jobs describe --full` gives them: the environment's service options and
  // experiments (the effective ones), the SDK's options, the worker pools' machine, disk and size.
  std::map<std::string, JobOptionValue> options;
  std::optional<std::string> type;                 // "JOB_TYPE_BATCH", "JOB_TYPE_STREAMING"
  std::optional<std::string> sdk_version;          // jobMetadata.sdkVersion.version ("2.56.0")
  std::optional<std::string> sdk_version_display;  // its versionDisplayName ("Apache Beam Python 3.11 SDK")
};

// `text` is the file's content, `path` its name for diagnostics.
Result<std::vector<DescribedJob>> parse_job_file(std::string_view text, const std::string& path);
Result<std::vector<DescribedJob>> read_job_file(const std::string& path);

// The jobs a --job file describes (each DescribedJob's `about`), or why it cannot be used.
Result<std::vector<JobDescription>> read_job_descriptions(const std::string& path);
Result<std::vector<JobDescription>> parse_job_descriptions(std::string_view text, const std::string& path);

}  // namespace gpudiag
