// libFuzzer driver for gpudiag::fuzz::export_reader (targets.cc).
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gpudiag::fuzz::export_reader(data, size);
}
