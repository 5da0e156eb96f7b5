#include "gpudiag/progress_line.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace gpudiag {
namespace {

constexpr std::array<std::string_view, 10> kSpinner{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"};

// 0:07, 12:34, 1:02:03.
std::string clock_time(double seconds) {
  const auto s = static_cast<uint64_t>(std::llround(std::max(0.0, seconds)));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

std::string progress_line(const Progress& p, std::optional<uint64_t> total_bytes, size_t tick) {
  const double mb = static_cast<double>(p.bytes) / 1e6;
  const double rate = p.seconds > 0 ? mb / p.seconds : 0.0;
  if (total_bytes && *total_bytes > 0) {
    const uint64_t done = std::min(p.bytes, *total_bytes);
    const double percent = 100.0 * static_cast<double>(done) / static_cast<double>(*total_bytes);
    const double left_mb = static_cast<double>(*total_bytes - done) / 1e6;
    const std::string eta = rate > 0 ? fmt::format("about {} left", clock_time(left_mb / rate)) : "time left unknown";
    return fmt::format("{:3.0f}%  {:.0f} of {:.0f} MB, {} entries, {:.0f} MB/s, {}", std::floor(percent), mb,
                       static_cast<double>(*total_bytes) / 1e6, p.entries, rate, eta);
  }
  return fmt::format("{} {:.0f} MB, {} entries, {:.0f} MB/s", kSpinner[tick % kSpinner.size()], mb, p.entries, rate);
}

}  // namespace gpudiag
