// analyze(): one pass over one or more exports with a compiled RulePack, on several threads, giving
// a Analysis that does not depend on the thread count.
//
//   auto pack = RulePack::load({.builtin = builtin_rule_files()});
//   Result<Analysis> d = analyze(*pack, {"logs.json"}, {.threads = 2});
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpudiag/analysis.h"
#include "gpudiag/ingest.h"
#include "gpudiag/job_file.h"
#include "gpudiag/rule_pack.h"

namespace gpudiag {

struct Progress {
  uint64_t bytes = 0;  // read so far (decompressed)
  uint64_t entries = 0;
  double seconds = 0;
};

// Which jobs of the export are diagnosed and reported (all of them by default).
struct JobSelection {
  std::vector<std::string> ids;  // --job-id (any of them)
  std::string name_glob;         // --job-name, a shell glob over the job name ("" = any)
  bool any() const { return !ids.empty() || !name_glob.empty(); }
};

// Full state is kept for this many jobs at most (docs/performance.md, "Memory caps"); later ones
// are counted (Analysis::not_diagnosed).
inline constexpr size_t kDefaultMaxJobs = 256;
// The report lists this many jobs at most, the worst ones; the rest are counted by verdict and cause
// (Analysis::unlisted_jobs), so that a report of 100,000 jobs costs what one of 1,000 does.
inline constexpr size_t kMaxListedJobs = 1000;

struct AnalysisOptions {
  unsigned threads = 0;  // 0: the cores available
  // --job files: `gcloud dataflow jobs describe JOB --full --format=json` (one job) or `gcloud
  // dataflow jobs list --format=json` (an array). The facts of one job are applied
  // (job_whose_facts_apply): those of several would mix jobs.
  std::vector<std::string> job_files;
  JobSelection select;
  size_t max_jobs = kDefaultMaxJobs;
  ReadLimits limits;
  std::function<void(const Progress&)> progress;  // called now and then from the calling thread
  const std::atomic<int>* interrupt = nullptr;    // non-zero: stop reading (StreamOptions::interrupt)
};

// Reads every input (unreadable ones are listed in Analysis::input_errors, the rest are still
// analysed). Fails only for a bad job file (read_job_descriptions, gpudiag/job_file.h, says why, with its place).
Result<Analysis> analyze(const RulePack& pack, const std::vector<std::string>& inputs,
                         const AnalysisOptions& options = {});

// Of the jobs the --job files describe (in order), the one whose facts analyze() applies: the one
// job a `jobs describe` file gives when exactly one file does (a list beside it is only checked), or
// the only job described at all; none when that is ambiguous.
std::optional<size_t> job_whose_facts_apply(const std::vector<JobDescription>& jobs);

// After the analysis: a file's one job (`jobs describe`) must be a job of the export
// (Analysis::job.id or job.other_ids), and of a file's list of jobs (`jobs list`, which names every
// job of a region) at least one must be; else a Diagnostic (code job-mismatch) naming both ids. The
// result is a note ("" when none): listed jobs the export does not hold, or, when the export holds
// no job id at all, that nothing could be checked.
Result<std::string> check_job_descriptions(const Analysis& analysis, const std::vector<JobDescription>& jobs);

// Analyses records that come from elsewhere (a database of stored entries, examples, tests), one at
// a time on the calling thread. Each record's `where` is kept as given; its input indexes
// `input_names`. No de-duplication: the source is expected to hold each entry once.
//
//   RecordAnalysis run(pack, {"logs.json"});
//   for (const LogRecord& r : stored) run.add(r);
//   Analysis d = run.finish();
class RecordAnalysis {
 public:
  RecordAnalysis(const RulePack& pack, std::vector<std::string> input_names, JobSelection select = {});
  ~RecordAnalysis();
  RecordAnalysis(const RecordAnalysis&) = delete;
  RecordAnalysis& operator=(const RecordAnalysis&) = delete;

  // A fact as if from --job (strongest source); `name` is one of fact_names().
  void set_fact(const std::string& name, const std::string& value);
  Status load_job_file(const std::string& path);
  void add(const LogRecord& record);
  Analysis finish();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The result of running the rules' embedded examples.
struct ExampleFailure {
  std::string rule_id;
  std::string file;
  uint64_t line = 0;
  std::string message;
};
struct ExampleReport {
  size_t rules = 0;
  size_t extractors = 0;  // fact extractors, whose examples are counted in `examples` too
  size_t examples = 0;
  std::vector<ExampleFailure> failures;  // an extractor's failures carry its id as `rule_id`
};
// Every rule's examples, and every fact extractor's (each run in a pack of the extractor alone).
ExampleReport test_rule_examples(const RulePack& pack, bool user_rules_only = false);

// The pack's fact catalog, by name.
std::vector<std::string> fact_names(const RulePack& pack);
// docs/rules.md's fact table, generated from the catalog and the extractors that set each fact.
std::string fact_reference(const RulePack& pack);

}  // namespace gpudiag
