// The progress line analyze, report and gate redraw on stderr while they read an export (only on
// a terminal). With the total size known (plain files, not stdin or gzip), the percentage and the
// time left; otherwise a spinner with what was read so far.
//
//   std::cerr << "\r\x1b[2K" << progress_line(p, total, tick++);
//   //  45%  120 of 266 MB, 1234567 entries, 310 MB/s, about 0:03 left
//   //  ⠹ 120 MB, 1234567 entries, 310 MB/s
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "gpudiag/analyzer.h"

namespace gpudiag {

// `total_bytes`: the inputs' size when known; `tick`: which spinner frame (one per redraw).
std::string progress_line(const Progress& p, std::optional<uint64_t> total_bytes, size_t tick);

}  // namespace gpudiag
