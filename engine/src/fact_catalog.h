// The job facts rules can test (docs/rules.md, "Job facts"). Internal to engine.
#pragma once

#include <array>
#include <string_view>

namespace gpudiag::detail {

enum class FactType : uint8_t { kBool, kString, kNumber };

struct FactDef {
  std::string_view name;
  FactType type;
  std::string_view meaning;
};

inline constexpr std::array kFactCatalog = {
    FactDef{"gpu_requested", FactType::kBool, "the job asked for GPUs"},
    FactDef{"gpu_type", FactType::kString, "accelerator type, e.g. nvidia-tesla-t4"},
    FactDef{"gpu_count", FactType::kNumber, "GPUs per worker"},
    FactDef{"accelerator", FactType::kString, "the raw worker_accelerator value"},
    FactDef{"driver_install_requested", FactType::kBool, "install-nvidia-driver is in the accelerator option"},
    FactDef{"driver_version", FactType::kString, "requested or installed NVIDIA driver version"},
    FactDef{"flex_start", FactType::kBool, "flex-start provisioning is on"},
    FactDef{"mps", FactType::kBool, "NVIDIA MPS is on (use_nvidia_mps)"},
    FactDef{"runner_v2", FactType::kBool, "Dataflow Runner v2 is on"},
    FactDef{"streaming", FactType::kBool, "a streaming job"},
    FactDef{"prime", FactType::kBool, "Dataflow Prime is on"},
    FactDef{"python_version_launch", FactType::kString, "Python minor version where the job was launched"},
    FactDef{"python_version_worker", FactType::kString, "Python minor version in the worker container"},
    FactDef{"beam_version_launch", FactType::kString, "Beam SDK version where the job was launched"},
    FactDef{"beam_version_worker", FactType::kString, "Beam SDK version in the worker container"},
    FactDef{"machine_type", FactType::kString, "worker machine type"},
    FactDef{"zone", FactType::kString, "worker zone"},
    FactDef{"disk_size_gb", FactType::kNumber, "worker boot disk size"},
    FactDef{"experiments", FactType::kString, "experiments, comma-separated"},
    FactDef{"service_options", FactType::kString, "Dataflow service options, comma-separated"},
    FactDef{"num_workers", FactType::kNumber, "initial workers"},
    FactDef{"max_num_workers", FactType::kNumber, "maximum workers"},
    FactDef{"workers_seen", FactType::kNumber, "distinct worker VMs in the export"},
    FactDef{"sdk_processes_per_worker", FactType::kNumber, "most SDK processes seen on one worker"},
    FactDef{"custom_container", FactType::kBool, "a custom SDK container image is used"},
    FactDef{"sdk_container_image", FactType::kString, "the SDK container image"},
    FactDef{"accelerator_hint", FactType::kString, "the accelerator resource hint (right fitting / Prime)"},
    FactDef{"number_of_worker_harness_threads", FactType::kNumber, "threads per SDK process"},
    FactDef{"job_type", FactType::kString, "JOB_TYPE_BATCH or JOB_TYPE_STREAMING"},
};

inline const FactDef* find_fact(std::string_view name) {
  for (const auto& f : kFactCatalog) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

}  // namespace gpudiag::detail
