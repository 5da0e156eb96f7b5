// The job's Cloud Logging filter and the times it is written with.
#include <fmt/format.h>

#include <charconv>

#include "gpudiag/fetch.h"

namespace gpudiag {
namespace {

bool digits(std::string_view s, size_t at, size_t n, int& out) {
  if (at + n > s.size()) return false;
  const auto [end, ec] = std::from_chars(s.data() + at, s.data() + at + n, out);
  return ec == std::errc() && end == s.data() + at + n;
}

}  // namespace

std::string job_log_filter(const std::string& job_id, const std::string& since, const std::string& until) {
  std::string filter = fmt::format(R"(resource.type="dataflow_step" AND resource.labels.job_id="{}")", job_id);
  if (!since.empty()) filter += fmt::format(R"( AND timestamp>="{}")", since);
  if (!until.empty()) filter += fmt::format(R"( AND timestamp<="{}")", until);
  return filter;
}

std::string rfc3339_utc(std::chrono::sys_seconds t) {
  const auto day = std::chrono::floor<std::chrono::days>(t);
  const std::chrono::year_month_day ymd{day};
  const std::chrono::hh_mm_ss hms{t - day};
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", static_cast<int>(ymd.year()),
                     static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()), hms.hours().count(),
                     hms.minutes().count(), hms.seconds().count());
}

std::optional<std::chrono::sys_seconds> parse_rfc3339_seconds(std::string_view s) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
  if (!digits(s, 0, 4, y) || s.size() < 20 || s[4] != '-' || !digits(s, 5, 2, mo) || s[7] != '-' ||
      !digits(s, 8, 2, d) || (s[10] != 'T' && s[10] != 't') || !digits(s, 11, 2, h) || s[13] != ':' ||
      !digits(s, 14, 2, mi) || s[16] != ':' || !digits(s, 17, 2, sec)) {
    return std::nullopt;
  }
  size_t i = 19;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
  }
  std::chrono::seconds offset{0};
  if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
    ++i;
  } else if (i + 6 == s.size() && (s[i] == '+' || s[i] == '-') && s[i + 3] == ':') {
    int oh = 0, om = 0;
    if (!digits(s, i + 1, 2, oh) || !digits(s, i + 4, 2, om)) return std::nullopt;
    offset = std::chrono::hours{oh} + std::chrono::minutes{om};
    if (s[i] == '-') offset = -offset;
    i += 6;
  } else {
    return std::nullopt;
  }
  const std::chrono::year_month_day ymd{std::chrono::year{y}, std::chrono::month{static_cast<unsigned>(mo)},
                                        std::chrono::day{static_cast<unsigned>(d)}};
  if (i != s.size() || !ymd.ok() || h > 23 || mi > 59 || sec > 60) return std::nullopt;
  return std::chrono::sys_days{ymd} + std::chrono::hours{h} + std::chrono::minutes{mi} + std::chrono::seconds{sec} -
         offset;
}

std::string job_path_for(const std::string& export_path) {
  std::string stem = export_path;
  for (const std::string_view ending : {".gz", ".json", ".ndjson"}) {
    if (stem.size() > ending.size() && stem.ends_with(ending)) stem.resize(stem.size() - ending.size());
  }
  return stem + ".job.json";
}

}  // namespace gpudiag
