// libFuzzer driver for gpudiag::fuzz::rule_loader (targets.cc).
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gpudiag::fuzz::rule_loader(data, size);
}
