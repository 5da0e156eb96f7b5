// JobFacts: what gpudiag knows about the job as a whole — the one owner of the job model. Every fact is
// written here: by the fact extractors (rules/facts/), the options decoders, `--job job.json`, the
// entries' resource labels (job id, name, project, region) and the derived counts (workers seen, SDK
// processes per worker). Each fact keeps the strongest source's value and the first sources that
// reported it, with how many did. Internal to engine.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gpudiag/analysis.h"
#include "gpudiag/result.h"
#include "match/match.h"
#include "pack/pack.h"

namespace gpudiag::detail {

// Where a fact came from: a description, the extractor, and for log entries their input and line.
struct FactSource {
  std::string what;
  int input = -1;
  uint64_t line = 0;
  std::string extractor;
};

struct FactValue {
  static constexpr size_t kMaxSightings = kFactSightings;
  std::string value;
  FactSource source;  // the winning one
  int priority = kLogLinePriority;
  std::vector<JobFactSource> sightings;  // the first kMaxSightings sources, with the value each gave
  uint64_t sightings_total = 0;
};

class JobFacts {
 public:
  // A stronger `priority` replaces the value; an equal or weaker one is noted as a sighting only.
  void set(std::string_view name, std::string value, const FactSource& source, int priority);
  // Every fact of `other` as if its sources had reported here too (stronger values win, equal keep ours).
  void absorb(const JobFacts& other);
  // `count` more sources gave `name` (sightings past what a chunk keeps).
  void note_more(std::string_view name, uint64_t count);
  const FactValue* get(std::string_view name) const;
  // The fact as a small whole number (a count: GPUs, processes, vCPUs), or 0 when it is unknown or
  // anything else — a job.json may carry any text, and std::stoi would throw on it.
  int small_number(std::string_view name) const;
  std::vector<JobFact> list() const;
  // While `names` is set, every name set() is given is appended to it (what a decoder set).
  void record_names(std::vector<std::string>* names) { recording_ = names; }
  // Changes whenever a fact is added. A setting is never undone by later ones (a fact's priority
  // only rises, its sightings only grow, each kept or full), and what the extractors read of the
  // facts is only whether one is set: so while the version is unchanged, setting again what was
  // set since gives nothing new but the count.
  uint64_t version() const { return version_; }

 private:
  std::map<std::string, FactValue, std::less<>> facts_;
  uint64_t version_ = 0;
  std::vector<std::string>* recording_ = nullptr;
};

// A Python dict as `repr()` prints it — the SDK harness echoes its pipeline options that way:
// {'runner': 'DataflowRunner', 'streaming': True, 'experiments': ['use_runner_v2'], 'sub': <obj at 0x7f>}
// Values are kept as text; lists become their items. Cropped or odd text yields what parsed before it.
struct PythonValue {
  std::string text;                // a scalar's text ("True", "4", "DataflowRunner")
  std::vector<std::string> items;  // a list's or tuple's items
  bool is_list = false;
};
using Options = std::map<std::string, PythonValue>;
Options parse_python_dict(std::string_view text);
// A JSON object of options ({"options": {...}} as Beam's JSON form nests them, or the options).
Options parse_json_options(std::string_view text);

// Facts from pipeline options; `catalog` names the option spellings of each fact.
void apply_options(const Options& options, const FactCatalog& catalog, JobFacts& facts, const FactSource& source,
                   int priority);
// Facts from a worker_accelerator value: type:…;count:…;install-nvidia-driver[:v];use_nvidia_mps;provisioning_model:…
void apply_accelerator(std::string_view accelerator, JobFacts& facts, const FactSource& source, int priority);
// Facts from --job files (job_file.h): each is read and checked; the facts are applied when the
// files describe one job in all (several would mix jobs' facts).
Status apply_job_file(const std::string& path, const FactCatalog& catalog, JobFacts& facts);
// With `by_job`, each described job's facts go to by_job[its id] (to be applied to that job of the
// export); without, only job_whose_facts_apply's job is applied, to `facts`.
Status apply_job_files(const std::vector<std::string>& paths, const FactCatalog& catalog, JobFacts& facts,
                       std::map<std::string, JobFacts, std::less<>>* by_job = nullptr);

// What extractors saw besides facts: phases and worker counts. Bounded: a phase is kept at most
// kMaxPhasesPerKind times (the first in input order), worker counts kMaxWorkerCounts times; the
// rest are counted.
struct ObserverOutput {
  static constexpr size_t kMaxPhasesPerKind = 16;
  static constexpr size_t kMaxWorkerCounts = 1'000;
  std::vector<JobPhase> phases;
  std::vector<WorkerCountPoint> worker_counts;
  uint64_t phases_dropped = 0;
  uint64_t worker_counts_dropped = 0;
};
// The last value an extractor's decoder read, and what it decoded: an SDK harness echoes the same
// options once per process, so most hits repeat the one before.
struct DecodeCache {
  std::string text;
  Options options;
};
// Applies what one extractor's hit tells; returns the names of the facts it set.
std::vector<std::string> apply_extraction(const FactExtractorSpec& extractor, const FactCatalog& catalog,
                                          const Hit& hit, JobFacts& facts, ObserverOutput& out, DecodeCache& cache);

}  // namespace gpudiag::detail
