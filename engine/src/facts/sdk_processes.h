// How many SDK processes share each GPU: Dataflow's Python workers start one SDK process per vCPU
// unless --experiments=no_use_multiple_sdk_containers asks for one, and every process sees every
// GPU of the worker. Derived, once every source has spoken, from the experiments, the processes
// seen in the export (sdk_processes_per_worker), the machine type's vCPUs and the GPU count. Sets:
//   machine_vcpus           the vCPUs of machine_type, where its name tells (n1-standard-4, n1-custom-1-…)
//   sdk_processes_per_gpu   the SDK processes that load their own model copy onto each GPU
// Internal to engine.
#pragma once

#include "job_facts.h"

namespace gpudiag::detail {

void derive_sdk_processes_per_gpu(JobFacts& facts);

}  // namespace gpudiag::detail
