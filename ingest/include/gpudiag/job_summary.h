// JobSummary: what a summary row of `gpudiag sql`'s result says of one job (docs/sql.md, "Summary
// rows"). The query returns only the entries the diagnosis needs; the aggregates that whole-job
// reasoning reads even where entries were dropped (how many entries, the first and last time, the
// logs and workers seen) come in one such row per job, ahead of the job's entries.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpudiag/log_record.h"
#include "gpudiag/result.h"

namespace gpudiag {

struct JobSummary {
  // The version of the row's fields this ingest reads; a row of another version is skipped.
  static constexpr int kVersion = 1;
  // Bounds on what one row may list, so that a hostile row cannot take the memory cap.
  static constexpr size_t kMaxLogs = 256;
  static constexpr size_t kMaxWorkers = 10'000;
  static constexpr size_t kMaxSdkWorkersPerWorker = 64;
  static constexpr size_t kMaxFactEntries = 256;

  struct Log {
    std::string log;  // short log name ("worker", "job-message" …)
    uint64_t entries = 0;
    Timestamp first = kNoTime;
    Timestamp last = kNoTime;
  };
  struct Worker {
    std::string worker;  // worker VM
    uint64_t entries = 0;
    std::vector<std::string> sdk_workers;  // distinct SDK processes ("sdk-0-0" …)
  };

  std::string job_id;  // "" for the entries of no job
  std::string job_name, project, region;
  uint64_t entries = 0;   // every entry of the job in the query's window
  uint64_t returned = 0;  // the job's entry rows the query returned
  uint64_t capped = 0;    // entries selected but left out by the query's per-job row cap
  Timestamp first = kNoTime;
  Timestamp last = kNoTime;
  std::vector<Log> logs;
  std::vector<Worker> workers;
  uint64_t workers_total = 0;  // distinct workers, which may exceed the ones listed
  // Per fact extractor id, the job's entries its match holds on; the query returns only the
  // first (a fact's value), and these counts give its sources_total.
  std::vector<std::pair<std::string, uint64_t>> fact_entries;
  SourceLocation where;  // the row's place in its input
};

// Reads the gpudiag_summary column: a JSON object, or a JSON string that holds one (as
// TO_JSON_STRING writes it and `bq query` prints it). Numbers may be INT64 strings, times any form
// parse_bigquery_timestamp() reads. Notes of tolerated oddities (a list past its bound, an unknown
// field type) go to `notes`; an error when it holds no summary of kVersion.
Result<JobSummary> parse_job_summary(std::string_view column_json, std::vector<std::string>& notes);

}  // namespace gpudiag
