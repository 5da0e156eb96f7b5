// What matching finds in one batch of records, before batches are merged in input order. Internal.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "gpudiag/analysis.h"
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
// A fact keeps its first sources: a chunk keeps the first few hits of each fact extractor, per job,
// and counts the others (FactValue::sightings).
inline constexpr size_t kFactSightings = 5;

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
  std::unique_ptr<KeptRecord> record;  // evidence keeps a cropped copy of the entry (and an absence's start)
  std::string log;                     // observers: the entry's log …
  std::string text;                    // … and the text they read (options, phase messages)
  bool evidence = false;               // the signal's role is evidence (context is gathered for it)
  // Evidence the program logged itself, below ERROR, in the SDK's own log (`worker`: Python logging
  // keeps the program's level, where stderr's lines all come as ERROR): it caught the error and went on.
  bool logged_as_handled = false;
  std::string matched_line;             // evidence: the line of the message that matched …
  size_t match_at = std::string::npos;  // … where in it the match starts, and its length
  size_t match_length = 0;
  std::vector<KeptRecord> before;  // evidence: neighbouring entries in file order
  std::vector<KeptRecord> after;
};

// What an error candidate's text says (error_candidates.h): read once per text, and shared by
// every entry of a remembered text (a green run logs the same chatter thousands of times), so it
// is never changed once read.
struct CandidateReading {
  // A one-line piece of a traceback that the docker log split into one entry per stderr line:
  // reassembled per (job, worker, log) by time before it is parsed. `text` is the line.
  bool fragment = false;
  std::string text;  // a fragment's line; else unused
  // The process that printed a relayed line (a line format's `process`): its fragments are
  // reassembled apart from another process's, whose output Beam relays at the same time.
  std::string process;
  std::string key;  // the grouping key (error_groups.h), "" for a fragment
  std::string exception_type, exception_line, message_template, step;
  std::optional<UserFrame> user_frame;
  bool truncated = false;
  std::string matched_line;  // the exception line within the entry, for the excerpt
  // The chain around the cause, whether its own line is generic, and the most specific line of the
  // chain when it is (ParsedError's chain, generic and cause).
  std::vector<std::string> chain;
  bool generic = false;
  std::string cause;
};

// An entry no rule claimed that may say why the job failed (error_candidates.h): an error-level
// entry, a traceback, a job-message error. Parsed on the matching thread; grouped per job in input
// order (error_groups.h).
struct ErrorCandidate {
  size_t entry_index = 0;  // within its batch (to drop duplicates when merging)
  Timestamp at = kNoTime;
  uint32_t job = 0;  // the entry's job: its JobSeen::ordinal in the batch's ChunkObservations::jobs
  std::string worker;
  std::string sdk_worker;  // the SDK process on the worker (jsonPayload.portability_worker_id), "" if none
  std::string log;
  SourceLocation where;
  // … logged below ERROR: it counts only within a reassembled traceback that has its header and
  // an exception line (INFO lines that merely look like one are dropped).
  bool below_error = false;
  // The rules that took the entry as evidence (pack rule indices). Claimed entries are grouped too:
  // a group is explained, and left out, when a rule that claimed any of its entries fired — so the
  // job-message copy of a failure a rule found on the worker is not "unexplained".
  std::vector<int> claimed_by;
  std::shared_ptr<const CandidateReading> reading;  // never null once taken
  std::unique_ptr<KeptRecord> record;               // the entry, cropped (kept as the exemplar when earliest)
  // No record: an earlier copy of the same text in its batch and job holds one, so this one cannot
  // be the exemplar (ErrorCandidates::take).
  bool record_left_out = false;
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
  // The job's summary rows of `gpudiag sql`'s result (docs/sql.md): what the source held, of which
  // the entries above are what the query returned. The times, logs and workers above include theirs.
  SummaryRowCounts source;
  uint64_t workers_floor = 0;                // distinct workers the summary counted (it may not name them all)
  std::map<int, uint64_t> extractor_source;  // fact extractor signal → entries the source held (summary rows)
};

// Everything a batch contributes besides counts, per job.
struct ChunkObservations {
  std::vector<Hit> hits;
  std::vector<ErrorCandidate> errors;
  std::map<std::string, JobSeen, std::less<>> jobs;  // job id ("" = unattributed) → what its entries tell

  void clear() { *this = ChunkObservations{}; }
};

}  // namespace gpudiag::detail
