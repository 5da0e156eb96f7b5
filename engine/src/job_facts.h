// JobFacts: what gpudiag knows about the job as a whole, each fact with where it came from.
// Derived from observer hits (the options the SDK harness echoes, job messages, traceback paths) and
// from `--job job.json`. Internal to engine.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "gpudiag/analysis.h"
#include "gpudiag/result.h"
#include "observations.h"
#include "observers.h"

namespace gpudiag::detail {

// Sources, strongest first: a later weaker source never overrides an earlier stronger one.
enum class FactPriority : int { kExample = 4, kJobFile = 3, kOptions = 2, kLogLine = 1 };

// Where a fact came from: a description, and for log entries their input and line.
struct FactSource {
  std::string what;
  int input = -1;
  uint64_t line = 0;
};

struct FactValue {
  std::string value;
  std::string source;
  FactPriority priority = FactPriority::kLogLine;
  int input = -1;  // set when the source is a log entry
  uint64_t line = 0;
};

class JobFacts {
 public:
  void set(std::string_view name, std::string value, const FactSource& source, FactPriority priority);
  const FactValue* get(std::string_view name) const;
  std::vector<JobFact> list() const;

 private:
  std::map<std::string, FactValue, std::less<>> facts_;
};

// A Python dict as `repr()` prints it — the SDK harness echoes its pipeline options that way:
// {'runner': 'DataflowRunner', 'streaming': True, 'experiments': ['use_runner_v2'], 'sub': <obj at 0x7f>}
// Values are kept as text; lists become their items. Cropped or odd text yields what parsed before it.
struct PythonValue {
  std::string text;                // a scalar's text ("True", "4", "DataflowRunner")
  std::vector<std::string> items;  // a list's or tuple's items
  bool is_list = false;
};
std::map<std::string, PythonValue> parse_python_dict(std::string_view text);

// Facts from pipeline options (Python names or Java camelCase names).
void apply_options(const std::map<std::string, PythonValue>& options, JobFacts& facts, const FactSource& source,
                   FactPriority priority);
// Facts from a worker_accelerator value: type:…;count:…;install-nvidia-driver[:v];use_nvidia_mps;provisioning_model:…
void apply_accelerator(std::string_view accelerator, JobFacts& facts, const FactSource& source, FactPriority priority);
// Facts from `gcloud dataflow jobs describe JOB --full --format=json`.
Status apply_job_file(const std::string& path, JobFacts& facts);

// What observers saw, turned into facts, phases and worker counts. Bounded: a phase is kept at most
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
void apply_observation(ObserverKind kind, const Hit& hit, JobFacts& facts, ObserverOutput& out);

}  // namespace gpudiag::detail
