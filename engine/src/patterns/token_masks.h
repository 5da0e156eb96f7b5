// Masks the variable tokens of a log message as <*> (see mask_message in gpudiag/patterns.h).
#pragma once

#include <string>
#include <string_view>

namespace gpudiag {

// Appends the masked message to `out` (tokens separated by one space), without allocating when
// `out` has room: the miner calls it once per line.
void append_masked(std::string_view message, std::string& out);

}  // namespace gpudiag
