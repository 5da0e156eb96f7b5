// Machine / GPU fit (see gpu_machine_fit.h).
#include "gpu_machine_fit.h"

#include <fmt/format.h>

#include <algorithm>

namespace gpudiag::detail {
namespace {

// A value as the docs write a placeholder: GPU_TYPE, G2_MACHINE_TYPE, GPU_COUNT.
bool is_placeholder(std::string_view v) {
  return !v.empty() && std::all_of(v.begin(), v.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }) && std::any_of(v.begin(), v.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

const std::string* known(const JobFacts& facts, std::string_view name) {
  const FactValue* f = facts.get(name);
  if (f == nullptr || f->value.empty() || is_placeholder(f->value)) return nullptr;
  return &f->value;
}

}  // namespace

void derive_gpu_machine_fit(const FactCatalog& catalog, JobFacts& facts) {
  const GpuPlatformTable& table = catalog.gpu_platforms();
  const std::string* type = known(facts, "gpu_type");
  if (type == nullptr) return;
  const GpuPlatform* gpu = table.find(*type);
  if (gpu == nullptr) return;  // not in the table (a TPU, a type newer than the table): unknown
  const FactSource source{fmt::format("GPU table of {} ({})", table.read, table.source), -1, 0, "gpu-platforms"};
  const int priority = kLogLinePriority;
  facts.set("gpu_machine_family", gpu->family, source, priority);
  std::vector<int> allowed = gpu->counts;
  for (const auto& [machine, n] : gpu->machines) allowed.push_back(n);
  std::sort(allowed.begin(), allowed.end());
  allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
  if (!gpu->min_driver.empty()) facts.set("gpu_min_driver", gpu->min_driver, source, priority);
  if (!gpu->min_cuda.empty()) facts.set("gpu_min_cuda", gpu->min_cuda, source, priority);
  if (!gpu->compute_capability.empty()) facts.set("gpu_compute_capability", gpu->compute_capability, source, priority);
  if (!gpu->memory_gb.empty()) facts.set("gpu_memory_gb", gpu->memory_gb, source, priority);
  facts.set("gpu_counts_allowed", fmt::format("{}", fmt::join(allowed, ", ")), source, priority);

  const int count = facts.small_number("gpu_count");
  if (count > 0) {
    for (const auto& [machine, n] : gpu->machines) {
      if (n == count) {
        facts.set("gpu_machine_for_count", machine, source, priority);
        break;
      }
    }
  }
  const std::string* machine = known(facts, "machine_type");
  if (machine == nullptr) return;
  std::string family = machine->substr(0, machine->find('-'));
  // Compute Engine names an N1 custom machine type custom-CPUS-MEMORY (the other families prefix
  // theirs: n2-custom-…), and Dataflow's GPU page says N1 custom types take GPUs too.
  if (family == "custom") family = "n1";
  for (const auto& [name, n] : gpu->machines) {
    if (name == *machine) facts.set("gpu_count_for_machine", std::to_string(n), source, priority);
  }
  std::string fit;
  if (family != gpu->family) {
    fit = "wrong-family";
  } else if (count > 0) {
    const bool ok = gpu->machines.empty()
                        ? std::find(gpu->counts.begin(), gpu->counts.end(), count) != gpu->counts.end()
                        : std::any_of(gpu->machines.begin(), gpu->machines.end(),
                                      [&](const auto& m) { return m.first == *machine && m.second == count; });
    // A machine of the family that the table does not list (a newer shape) is not called wrong.
    const bool listed = gpu->machines.empty() || std::any_of(gpu->machines.begin(), gpu->machines.end(),
                                                             [&](const auto& m) { return m.first == *machine; });
    if (ok)
      fit = "ok";
    else if (listed)
      fit = "wrong-count";
  }
  if (!fit.empty()) facts.set("gpu_machine_fit", fit, source, priority);
}

}  // namespace gpudiag::detail
