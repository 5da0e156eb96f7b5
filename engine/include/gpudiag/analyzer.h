// analyze(): one pass over one or more exports with a compiled RulePack, on several threads, giving
// a Analysis that does not depend on the thread count.
//
//   auto pack = RulePack::load({.builtin = builtin_rule_files()});
//   Result<Analysis> d = analyze(*pack, {"logs.json"}, {.threads = 2});
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpudiag/analysis.h"
#include "gpudiag/ingest.h"
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
inline constexpr size_t kDefaultMaxJobs = 1'024;

struct AnalysisOptions {
  unsigned threads = 0;  // 0: the cores available
  std::string job_file;  // `gcloud dataflow jobs describe --full --format=json` output
  JobSelection select;
  size_t max_jobs = kDefaultMaxJobs;
  ReadLimits limits;
  std::function<void(const Progress&)> progress;  // called now and then from the calling thread
};

// Reads every input (unreadable ones are listed in Analysis::input_errors, the rest are still
// analysed). Fails only for a bad job file.
Result<Analysis> analyze(const RulePack& pack, const std::vector<std::string>& inputs,
                         const AnalysisOptions& options = {});

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
