// The fuzz targets' bodies, shared by the libFuzzer drivers (fuzz_*.cc) and the regression test
// that replays every saved crasher (tests/fuzz_regression_test.cc).
#pragma once

#include <cstddef>
#include <cstdint>

namespace gpudiag::fuzz {

int export_reader(const uint8_t* data, size_t size);
int timestamp(const uint8_t* data, size_t size);
int pipeline_options(const uint8_t* data, size_t size);
int rule_loader(const uint8_t* data, size_t size);
int shape_detector(const uint8_t* data, size_t size);
int terminal_safe(const uint8_t* data, size_t size);
int json_string(const uint8_t* data, size_t size);

}  // namespace gpudiag::fuzz
