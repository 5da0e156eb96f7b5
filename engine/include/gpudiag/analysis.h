// Analysis: what the engine concluded about one job's export (a Diagnostic, in core, is something
// else: one problem with an input or a rule file). Reports read it; they never reach back into
// ingest or the rules.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "gpudiag/ingest.h"
#include "gpudiag/job_outcome.h"
#include "gpudiag/log_record.h"
#include "gpudiag/rule_pack.h"
#include "gpudiag/verdict.h"

namespace gpudiag {

// One fix proposed by one finding, with the job's facts applied.
struct FindingFix {
  std::string id;
  std::string action;  // placeholders filled
  std::string why;
  int weight = 50;
  bool demoted = false;  // the job already does this
  std::string demoted_because;
  DocLink doc;
  std::vector<FixTranslation> i18n;  // placeholders filled
  // The job's facts contradict what the fix needs (`needs:`): it does not fit this job, and the
  // reports leave it out (JSON lists it with the reason).
  bool not_applicable = false;
  std::string not_applicable_because;
  // One shell command to paste, or the options to add to the launch command; values quoted for a
  // POSIX shell. "" when the fix has none.
  std::string command;
};

// One line of an evidence excerpt: a line of the entry's text, or a fold standing for the lines
// left out ("… 14 more frames").
struct ExcerptLine {
  std::string text;
  size_t match_at = std::string::npos;  // the matched line: where the rule's match starts in `text`
  size_t match_length = 0;
  bool fold = false;
};

// One log entry that supports a finding, with the line of it that matched (for multi-line
// messages such as tracebacks, where the first line rarely says much).
struct Evidence {
  KeptRecord entry;
  std::string matched_line;             // "" when unknown
  std::vector<KeptRecord> before;       // up to two entries just before it in the same input (file order)
  std::vector<KeptRecord> after;        // … and just after it
  size_t match_at = std::string::npos;  // where the match starts in matched_line (npos: unknown)
  size_t match_length = 0;
  // The values the rule's named groups captured in this entry: renderers never cut them.
  std::vector<std::string> captured;
  // The part worth showing (evidence_excerpt.h): the matched line and its neighbours, or for a
  // traceback its exception line, the innermost user frame and a fold. Empty: show matched_line.
  std::vector<ExcerptLine> excerpt;
  // Other logs that held a copy of the same failure (worker, docker, job-message), merged into
  // this item (evidence_merge.h); the finding's count still counts every entry.
  std::vector<std::string> also_in;
  std::vector<SourceLocation> also_at;  // … and where each merged copy starts, in time order
};

// Workers named in a finding at most; `workers_total` counts them all.
inline constexpr size_t kMaxListedWorkers = 100;

struct Finding {
  std::string rule_id;
  std::string title;  // placeholders filled
  std::string family;
  FamilyRole family_role = FamilyRole::kCause;  // the pack's policy for `family`
  bool generic = false;                         // the rule only says "something went wrong here" (`generic: true`)
  Impact severity = Impact::kWarning;
  // Set when the job succeeded and the rule's severity was capped to warning (a risk, not the
  // cause of a failure): the rule's own severity.
  std::optional<Impact> severity_before_outcome;
  double confidence = 0.5;
  std::string confidence_note;  // why it differs from the rule's base confidence ("" = it does not)
  std::string description;
  std::string via;     // "match" (log entries) or "absence" (what is missing)
  uint64_t count = 0;  // evidence entries (all of them, not only those kept)
  // Every entry is one the program logged below ERROR in the SDK's own log: it caught the error and
  // went on. In a succeeded job such a finding is information, not a risk (job_analyses.cc).
  bool logged_as_handled = false;
  Timestamp first_seen = kNoTime;
  Timestamp last_seen = kNoTime;
  std::vector<std::string> workers;  // distinct worker VMs of the evidence, sorted: the first kMaxListedWorkers
  uint64_t workers_total = 0;        // … of how many (exact up to DistinctNames' capacity)
  std::vector<Evidence> evidence;    // a few, in time order: the earliest and the latest
  std::map<std::string, std::vector<std::string>> captures;  // named groups → distinct values
  std::vector<FindingFix> fixes;                             // in the rule's order; ranking happens in reports
  std::vector<std::string> explains;                         // symptom rule ids this cause explains
  // Stable across runs of the same job family: "RULE_ID/" + 16 hex digits of stable_hash(identity)
  // (fingerprint v3, docs/json-schema.md). `identity` is the rule id and its identity captures
  // (`identity:`, default all), masked. `fingerprint_v2` (every capture, digits blurred) and
  // `legacy_fingerprint` (v1: std::hash of the v2 identity, gpudiag 0.1) are what baselines and
  // run histories written before name.
  std::string fingerprint;
  std::string fingerprint_v2;
  std::string legacy_fingerprint;
  std::string identity;
};

// The innermost frame of the user's own code in a traceback (frameworks are the pack's `frameworks:`).
struct UserFrame {
  std::string file;  // as printed ("/app/pipeline.py", "MyDoFn.java")
  uint64_t line = 0;
  std::string function;
};

// How a run history knows an unexplained error group (docs/unexplained.md, "Novelty").
enum class Novelty {
  kNoHistory,  // no run history (--db) or no earlier run of the pipeline
  kNew,        // in no earlier run of the pipeline
  kRecurring,  // only in earlier failed runs
  kNoise,      // in at least 10 % of the pipeline's last 20 green runs: not a cause
};

// Entries that no rule explains, grouped: a Python or Java exception by its type, the innermost
// user frame and the masked start of its message; any other error line by its template
// (docs/unexplained.md). The worker, docker and job-message copies of one failure are one group.
// What to try first about an error group (the pack's `first_steps:`, rules/first-steps.yaml): the
// first step whose pattern found one of the group's lines, filled from that line. `id` "": none did.
struct FirstStep {
  std::string id;
  std::string action;
  std::string command;  // one shell command, values quoted ("" = none)
  DocLink doc;
};

struct UnexplainedGroup {
  // "unexplained-error/" + 16 hex digits of XXH3-64 of `key` (the grouping key, versioned "g1|…").
  std::string fingerprint;
  std::string key;
  std::string template_text;  // the masked exception line or line template, `<*>` for variables
  std::string exception;  // the exception line as printed ("ValueError: Input contains NaN …"), "" for a plain line
  std::string exception_type;  // "ValueError", "java.lang.IllegalStateException", ""
  std::optional<UserFrame> user_frame;
  std::string step;        // Beam's step from " [while running 'STEP']", ""
  bool truncated = false;  // only cut copies were seen (a flattened job-message traceback)
  // The chain around the error (docs/unexplained.md, "The cause chain"): the exception's further
  // message lines, then the other exceptions of its chain, the nearest first (at most 8 lines).
  std::vector<std::string> chain;
  // The error's own line only says that something below failed (the pack's generic_errors) …
  bool generic = false;
  // … and this is the most specific line found below it: in its chain, or an error the same worker
  // logged just before it (the prelude); "" when the error's own line is specific, or none is.
  std::string cause;
  // When `cause` is another group's line (the prelude): that group's fingerprint, so a report tells
  // the two as one failure (its cause, then the wrapper) rather than two; "" otherwise.
  std::string cause_group;
  uint64_t count = 0;                // entries (after reassembly: a docker-split traceback is one)
  std::vector<std::string> workers;  // distinct worker VMs, sorted: the first kMaxListedWorkers
  uint64_t workers_total = 0;
  // Distinct SDK processes (a worker's portability_worker_id) among its entries that name one; 0:
  // none named one. Dataflow runs one per vCPU: one failure in each is one group, counted here.
  uint64_t sdk_processes = 0;
  Timestamp first_seen = kNoTime;
  Timestamp last_seen = kNoTime;
  // error: the job failed (or a failure job message exists) after this group's first entry, and no
  // cause rule at error explains the job; info otherwise (docs/unexplained.md, "Severity").
  Impact severity = Impact::kInfo;
  Novelty novelty = Novelty::kNoHistory;
  Evidence exemplar;                    // the earliest entry, raw (not masked)
  std::vector<std::string> also_in;     // other logs that held a copy ("job-message", "docker" …)
  std::vector<SourceLocation> also_at;  // … and where each log's earliest copy starts
  FirstStep first_step;
};

// A check that could not be decided from this export (absence past its end, a log type missing).
struct Inconclusive {
  std::string rule_id;
  std::string title;
  std::string reason;
};

// One source that reported a fact, with the value it gave.
struct JobFactSource {
  std::string what;       // "job.json", "the export", "worker entry" …
  std::string extractor;  // the fact extractor (rules/facts/), "" for other sources
  std::string value;
  int input = -1;
  uint64_t line = 0;
};

struct JobFact {
  std::string name;
  std::string value;
  std::string source;                  // what it came from: "job.json", "the export", "worker entry" …
  int input = -1;                      // for log entries: which input …
  uint64_t line = 0;                   // … and the line the entry starts on
  std::string extractor;               // the winning source's extractor, "" when not one
  std::vector<JobFactSource> sources;  // the first five sources, the winning one among them or not
  uint64_t sources_total = 0;          // how many sources reported the fact
  // The sources (of the first five) whose value differs from the winning one.
  std::vector<JobFactSource> conflicts() const {
    std::vector<JobFactSource> out;
    for (const auto& s : sources) {
      if (s.value != value) out.push_back(s);
    }
    return out;
  }
};

// A moment in the job's life, from job messages (for timelines).
struct JobPhase {
  Timestamp at = kNoTime;
  std::string phase;  // "workers-starting", "workers-started", "running", "failed", "stopped" …
  std::string message;
};

struct WorkerCountPoint {
  Timestamp at = kNoTime;
  uint32_t workers = 0;
};

struct JobInfo {
  std::string id;  // "" for entries of no job (an export without job labels, or the unattributed ones)
  std::string name;
  std::string project;
  std::string region;
  JobOutcome outcome = JobOutcome::kUnknown;  // the `outcome` fact
  std::string outcome_source;                 // what said so ("job message at logs.json:12", "job.json")
  uint64_t entries = 0;                       // the job's entries read (duplicates included)
  // From `gpudiag sql`'s summary rows (docs/sql.md): the job's entries in the queried table, of
  // which the query returned `source.returned` (= the entries read, when nothing was capped). rows 0: none.
  SummaryRowCounts source;
  bool summarised = false;             // one of many jobs, kept as a summary: findings without evidence, fixes or facts
  std::vector<std::string> other_ids;  // the export's other jobs (a project-wide export)
};

// A job of the export that was read but not diagnosed, with its entries.
struct JobCount {
  std::string id;
  std::string name;
  uint64_t entries = 0;
};

// The jobs diagnosed past the report's list (kMaxListedJobs), the least bad ones: counted, not listed.
struct UnlistedJobs {
  uint64_t jobs = 0;
  uint64_t entries = 0;
  uint64_t failed = 0;
  uint64_t warning = 0;
  uint64_t ok = 0;
  // The highest severity among their findings and error groups: a gate at or below it trips, as no
  // baseline can accept what is not listed.
  Impact top_severity = Impact::kInfo;
  // Each failed or warning job's most severe finding (the earliest at that severity) → how many jobs;
  // "" for a job no rule explains.
  std::map<std::string, uint64_t> top_rules;
};

// The analysis of an export. Its job fields (job … worker_counts) describe one job: the export's
// only job, or with several the worst one (by verdict, then top severity, then first failure time);
// `jobs` holds every job diagnosed, the worst first, each an Analysis of its own (its `jobs` empty).
struct Analysis {
  JobInfo job;
  Timestamp start = kNoTime;  // earliest entry
  Timestamp end = kNoTime;    // latest entry
  std::vector<InputSummary> inputs;
  Diagnostics input_errors;  // inputs that could not be read at all (exit code 2)
  uint64_t entries = 0;
  uint64_t analysed = 0;
  uint64_t skipped = 0;
  uint64_t duplicates = 0;
  bool duplicates_windowed = false;    // de-duplication forgot the oldest entries (huge inputs)
  std::vector<std::string> logs_seen;  // short log names present
  std::vector<Finding> findings;       // in rule-id order; reports rank them
  std::vector<Inconclusive> inconclusive;
  std::vector<JobFact> facts;    // the known ones, by name
  std::vector<JobPhase> phases;  // time order
  std::vector<WorkerCountPoint> worker_counts;
  // Errors no rule explains, grouped, the most likely cause first (ranked by the engine).
  std::vector<UnexplainedGroup> unexplained;
  uint64_t unexplained_groups_total = 0;  // groups found; past the cap only the first ones are kept
  std::string rule_pack_hash;
  // `gpudiag preflight` (preflight.h): the job's launch options were checked, no log was read.
  bool preflight = false;
  uint64_t launch_options = 0;  // … how many options were read

  // The export as a whole (empty in a job's own Analysis).
  std::vector<Analysis> jobs;           // every job diagnosed and in scope, the worst first
  std::vector<JobCount> not_diagnosed;  // past --max-jobs: counted only
  std::vector<JobCount> not_selected;   // outside --job-id / --job-name
  uint64_t not_diagnosed_unlisted = 0;  // entries of further jobs past the list's own cap
  uint64_t not_selected_unlisted = 0;   // entries of not-selected jobs past the list's own cap
  UnlistedJobs unlisted_jobs;           // diagnosed past kMaxListedJobs: counted
};

// Whether the job is a streaming one (its `streaming` fact): such a job never succeeds, it is
// cancelled, drained or fails, so a "succeeded" read from its teardown is not a success.
inline bool streaming_job(const Analysis& job) {
  for (const auto& f : job.facts) {
    if (f.name == "streaming" && f.value == "true") return true;
  }
  return false;
}

// A job's verdict: failed when a finding is an error or worse, when the job itself failed (whether
// or not a rule knows why), or when an error no rule explains is at error (a streaming job retrying
// a failing work item without end: it never fails by itself); warning for warnings; ok otherwise. A
// succeeded job's findings are capped at warning, so it is never failed.
inline Verdict verdict_of(const Analysis& job) {
  Impact top = Impact::kInfo;
  for (const auto& f : job.findings) top = std::max(top, f.severity);
  for (const auto& g : job.unexplained) top = std::max(top, g.severity);
  if (top >= Impact::kError || job.job.outcome == JobOutcome::kFailed) return Verdict::kFailed;
  return top == Impact::kWarning ? Verdict::kWarning : Verdict::kOk;
}

}  // namespace gpudiag
