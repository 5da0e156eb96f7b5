// libFuzzer driver for gpudiag::fuzz::timestamp (targets.cc).
#include "targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return gpudiag::fuzz::timestamp(data, size); }
