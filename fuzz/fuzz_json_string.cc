// libFuzzer driver for gpudiag::fuzz::json_string (targets.cc).
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gpudiag::fuzz::json_string(data, size);
}
