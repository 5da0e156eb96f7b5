// SDK processes per GPU (see sdk_processes.h).
#include "sdk_processes.h"

#include <re2/re2.h>

namespace gpudiag::detail {
namespace {

// The vCPUs a machine type's name states: the predefined shapes end in their vCPU count
// (n1-standard-4, g2-standard-8, n2-highmem-16), custom types say it after `custom-`
// (n1-custom-1-15360-ext). Accelerator-optimized names (a2-highgpu-1g) count GPUs, not vCPUs: 0.
int vcpus_of(const std::string& machine) {
  static const RE2 predefined(R"([a-z][a-z0-9]*-(?:standard|highmem|highcpu)-(\d{1,3})(?:-lssd)?)");
  static const RE2 custom(R"((?:[a-z][a-z0-9]*-)?custom-(\d{1,3})-\d+(?:-ext)?)");
  int n = 0;
  if (RE2::FullMatch(machine, predefined, &n) || RE2::FullMatch(machine, custom, &n)) return n;
  return 0;
}

}  // namespace

void derive_sdk_processes_per_gpu(JobFacts& facts) {
  const FactSource source{"derived from the experiments, the SDK processes seen, machine_type and gpu_count"};
  const FactValue* machine = facts.get("machine_type");
  const int vcpus = machine != nullptr ? vcpus_of(machine->value) : 0;
  if (vcpus > 0) facts.set("machine_vcpus", std::to_string(vcpus), source, kLogLinePriority);

  int gpus = facts.small_number("gpu_count");
  if (gpus == 0) gpus = facts.small_number("gpu_count_for_machine");
  if (gpus == 0) return;
  const FactValue* experiments = facts.get("experiments");
  const bool single =
      experiments != nullptr && experiments->value.find("no_use_multiple_sdk_containers") != std::string::npos;
  // Python starts one process per vCPU; a job whose workers are known to run Python and whose
  // processes did not all log is judged by its machine type. Java and Go run one process.
  const bool python = facts.get("python_version_worker") != nullptr || facts.get("python_version_launch") != nullptr;
  int processes = single ? 1 : facts.small_number("sdk_processes_per_worker");
  if (!single && python && vcpus > processes) processes = vcpus;
  if (processes == 0) return;
  const int per_gpu = (processes + gpus - 1) / gpus;
  facts.set("sdk_processes_per_gpu", std::to_string(per_gpu), source, kLogLinePriority);
}

}  // namespace gpudiag::detail
