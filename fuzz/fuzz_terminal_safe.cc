// libFuzzer driver for gpudiag::fuzz::terminal_safe (targets.cc).
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return gpudiag::fuzz::terminal_safe(data, size);
}
