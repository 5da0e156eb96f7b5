// What matching finds in one batch of records, before batches are merged in input order. Internal.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpudiag/log_record.h"

namespace gpudiag::detail {

using Captures = std::vector<std::pair<std::string, std::string>>;

// What is kept of a matching entry, whatever its size (docs/performance.md, "Memory caps"): the
// evidence entry's strings up to kEvidenceTextBytes each (head and tail), its neighbours' up to
// kContextTextBytes, a captured value up to kCaptureBytes, an observer's text up to kObservedTextBytes.
inline constexpr size_t kEvidenceTextBytes = 32u << 10;
inline constexpr size_t kContextTextBytes = 4u << 10;
inline constexpr size_t kCaptureBytes = 1u << 10;
inline constexpr size_t kObservedTextBytes = 64u << 10;

// One record satisfying one signal.
struct Hit {
  int signal = -1;
  size_t entry_index = 0;  // within its batch (to drop duplicates when merging)
  Timestamp at = kNoTime;
  uint32_t job = 0;  // the entry's job: its JobSeen::ordinal in the batch's ChunkObservations::jobs
  std::string worker;
  std::string sdk_worker;
  SourceLocation where;  // absolute
  Captures captures;
  std::unique_ptr<KeptRecord> record;   // evidence keeps a cropped copy of the entry (and an absence's start)
  std::string log;                      // observers: the entry's log …
  std::string text;                     // … and the text they read (options, phase messages)
  bool evidence = false;                // the signal's role is evidence (context is gathered for it)
  std::string matched_line;             // evidence: the line of the message that matched …
  size_t match_at = std::string::npos;  // … where in it the match starts, and its length
  size_t match_length = 0;
  std::vector<KeptRecord> before;  // evidence: neighbouring entries in file order
  std::vector<KeptRecord> after;
};

struct WorkerSeen {
  std::set<std::string, std::less<>> sdk_workers;
};

// What a batch's entries of one job tell besides hits.
struct JobSeen {
  uint64_t entries = 0;  // read (duplicates are recognised only when batches are merged)
  uint32_t ordinal = 0;  // the job's index among the batch's jobs, in first-seen order
  Timestamp earliest = kNoTime;
  Timestamp latest = kNoTime;
  std::map<std::string, Timestamp, std::less<>> logs;      // short log name → earliest entry
  std::map<std::string, WorkerSeen, std::less<>> workers;  // worker VM → what ran on it
  std::string job_name, project, region;                   // first seen
  std::map<int, uint64_t> extractor_overflow;              // fact extractor signal → hits not kept
};

// Everything a batch contributes besides counts, per job.
struct ChunkObservations {
  std::vector<Hit> hits;
  std::map<std::string, JobSeen, std::less<>> jobs;  // job id ("" = unattributed) → what its entries tell

  void clear() { *this = ChunkObservations{}; }
};

}  // namespace gpudiag::detail
