// libFuzzer driver for gpudiag::fuzz::shape_detector (targets.cc).
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gpudiag::fuzz::shape_detector(data, size);
}
