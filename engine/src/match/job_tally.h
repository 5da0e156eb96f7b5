// JobTally: what a chunk's entries tell of their jobs besides hits — how many entries, the time span,
// the logs and workers seen, the job's name, project and region (JobSeen in ChunkObservations), and
// the summary rows of `gpudiag sql`'s result. One per matching thread, beside the RecordMatcher: the
// pipeline tallies each record, then matches it. Internal to engine.
//
//   JobSeen& job = tally.note(record, out);
//   matcher.match(record, entry_index, job, out);
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/ingest.h"
#include "name_lookup_cache.h"
#include "observations.h"
#include "pack/pack.h"

namespace gpudiag::detail {

class JobTally {
 public:
  explicit JobTally(const CompiledRulePack& pack) : pack_(pack) {}

  // Call before the first record of each chunk (with a fresh or cleared ChunkObservations).
  void start_chunk();
  // Counts the record in its job's JobSeen of `out` (added when new), which it returns.
  JobSeen& note(const LogRecord& r, ChunkObservations& out);
  // A summary row of `gpudiag sql`'s result: the job's aggregates over every entry of the source.
  void note_summary(const JobSummary& summary, ChunkObservations& out);

 private:
  JobSeen& job_of(const LogRecord& r, ChunkObservations& out);

  const CompiledRulePack& pack_;
  // The current record's job in the chunk (entries come in runs of one job), and caches into its
  // maps (reset by start_chunk and when the job changes).
  // Each of the chunk's first kCachedJobs jobs has caches of its own, so that interleaved jobs (a
  // sink shard) do not empty each other's; later ones look their names up in the maps.
  struct JobCaches {
    NameLookupCache<decltype(JobSeen::logs)> logs;
    NameLookupCache<decltype(JobSeen::workers)> workers;
  };
  static constexpr size_t kCachedJobs = 32;
  JobSeen* job_ = nullptr;
  std::string_view job_id_;  // the current job's key in the chunk's map (stable: a std::map node)
  // The chunk's jobs seen last, the latest first: interleaved jobs (a sink shard, about three
  // running at any time) change job on most entries, and a map lookup by id costs several compares.
  struct RecentJob {
    std::string_view id;  // the map's key
    JobSeen* seen = nullptr;
  };
  std::array<RecentJob, 4> recent_jobs_{};
  std::vector<JobCaches> job_caches_;
  JobCaches* caches_ = nullptr;
  std::string last_worker_, last_sdk_worker_;  // the last entry's (copies: records do not outlive note())
};

}  // namespace gpudiag::detail
