// The worker_accelerator value in the form Dataflow reads, rebuilt from the job's facts:
//   type:GPU_TYPE;count:N;install-nvidia-driver[:VERSION][;use_nvidia_mps][;provisioning_model:FLEX_START]
// Set as `accelerator_corrected` when gpu_type and gpu_count are known (not for TPUs), so a fix can
// give the exact string: a reordered or misspelled value, or one without install-nvidia-driver,
// becomes the value to write. The version is kept only as the option wrote it. Internal to engine.
#pragma once

#include "job_facts.h"

namespace gpudiag::detail {

void derive_accelerator_corrected(JobFacts& facts);

}  // namespace gpudiag::detail
