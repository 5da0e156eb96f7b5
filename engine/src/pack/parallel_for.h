// Independent pieces of work spread over threads, for start-up work such as proving user rules.
// Internal to engine.
#pragma once

#include <cstddef>
#include <functional>

namespace gpudiag::detail {

// Runs work(0) … work(n - 1), each once, on up to `threads` threads (the calling thread is one of
// them), and returns when all are done. `work` must not throw. Falls back to fewer threads when
// the system refuses to start more.
void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& work);

}  // namespace gpudiag::detail
