// libFuzzer driver for gpudiag::fuzz::pipeline_options (targets.cc).
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gpudiag::fuzz::pipeline_options(data, size);
}
