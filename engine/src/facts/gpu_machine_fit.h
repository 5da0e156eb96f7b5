// Machine / GPU fit: whether the worker machine type can carry the requested GPU type and count,
// derived from the dated GPU platforms table (rules/facts/gpu-platforms.yaml, `gpu_platforms:`) and
// the machine_type, gpu_type and gpu_count facts. Sets, when the GPU type is in the table:
//   gpu_machine_family     the machine family the GPU needs (g2 for nvidia-l4)
//   gpu_counts_allowed     the counts that family takes for it ("1, 2, 4"), for fix texts
//   gpu_machine_for_count  accelerator-optimized: the machine type that carries gpu_count of them
//   gpu_count_for_machine  accelerator-optimized: the GPUs machine_type carries, when it is one of them
//   gpu_machine_fit        ok | wrong-family | wrong-count (unset, so unknown, when a fact is unknown)
//   gpu_min_driver, gpu_min_cuda  the driver and CUDA versions the GPU needs, where the table has them
//   gpu_compute_capability, gpu_memory_gb  the GPU's compute capability and memory, where the table has them
// ALL-CAPS placeholders (GPU_TYPE, G2_MACHINE_TYPE) are unknown values, never wrong ones. Internal
// to engine.
#pragma once

#include "job_facts.h"
#include "pack/pack.h"

namespace gpudiag::detail {

void derive_gpu_machine_fit(const FactCatalog& catalog, JobFacts& facts);

}  // namespace gpudiag::detail
