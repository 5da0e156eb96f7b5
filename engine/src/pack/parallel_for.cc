#include "parallel_for.h"

#include <algorithm>
#include <atomic>
#include <system_error>
#include <thread>
#include <vector>

namespace gpudiag::detail {

void parallel_for(size_t n, unsigned threads, const std::function<void(size_t)>& work) {
  std::atomic<size_t> next{0};
  const auto drain = [&] {
    for (size_t i = next++; i < n; i = next++) work(i);
  };
  std::vector<std::thread> helpers;
  const size_t wanted = std::min<size_t>(threads, n);
  for (size_t t = 1; t < wanted; ++t) {
    try {
      helpers.emplace_back(drain);
    } catch (const std::system_error&) {
      break;  // the calling thread (and any helpers started) still drain every item
    }
  }
  drain();
  for (auto& h : helpers) h.join();
}

}  // namespace gpudiag::detail
