// RFC 3339 timestamps as Cloud Logging writes them: "2021-11-16T20:27:14.996634424Z" with 0–9
// fractional digits ("trailing zeros in the fractional seconds might be omitted"), and offsets.
#include <fmt/format.h>

#include <chrono>

#include "gpudiag/log_record.h"

namespace gpudiag {
namespace {

bool digits(std::string_view s, size_t pos, size_t n, int& out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  out = v;
  return true;
}

}  // namespace

std::optional<Timestamp> parse_rfc3339(std::string_view s) {
  int year, month, day, hour, minute, second;
  if (!digits(s, 0, 4, year) || s.size() < 19 || s[4] != '-' || !digits(s, 5, 2, month) || s[7] != '-' ||
      !digits(s, 8, 2, day) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !digits(s, 11, 2, hour) ||
      s[13] != ':' || !digits(s, 14, 2, minute) || s[16] != ':' || !digits(s, 17, 2, second)) {
    return std::nullopt;
  }
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  size_t pos = 19;
  int64_t nanos = 0;
  if (pos < s.size() && (s[pos] == '.' || s[pos] == ',')) {
    ++pos;
    size_t n = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (n < 9) nanos = nanos * 10 + (s[pos] - '0');
      ++n;
      ++pos;
    }
    if (n == 0) return std::nullopt;
    for (size_t k = n; k < 9; ++k) nanos *= 10;
  }
  int64_t offset_seconds = 0;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int oh, om;
    if (!digits(s, pos + 1, 2, oh) || pos + 3 >= s.size() || s[pos + 3] != ':' || !digits(s, pos + 4, 2, om) ||
        oh > 23 || om > 59) {
      return std::nullopt;
    }
    offset_seconds = (oh * 3600 + om * 60) * (s[pos] == '-' ? -1 : 1);
    pos += 6;
  } else {
    return std::nullopt;  // RFC 3339 requires a zone
  }
  if (pos != s.size()) return std::nullopt;

  // Consecutive entries share their date; converting it to days is the costly part.
  thread_local int cached_date[3] = {0, 0, 0};
  thread_local int64_t cached_days = 0;
  int64_t days;
  if (year == cached_date[0] && month == cached_date[1] && day == cached_date[2]) {
    days = cached_days;
  } else {
    using namespace std::chrono;
    const year_month_day ymd{std::chrono::year{year}, std::chrono::month{static_cast<unsigned>(month)},
                             std::chrono::day{static_cast<unsigned>(day)}};
    if (!ymd.ok()) return std::nullopt;
    days = sys_days{ymd}.time_since_epoch().count();
    cached_date[0] = year;
    cached_date[1] = month;
    cached_date[2] = day;
    cached_days = days;
  }
  const int64_t secs = days * 86400 + hour * 3600 + minute * 60 + second - offset_seconds;
  // int64 nanoseconds span the years 1678–2262; anything outside is not a log timestamp.
  constexpr int64_t kMaxSecs = INT64_MAX / 1'000'000'000 - 1;
  if (secs > kMaxSecs || secs < -kMaxSecs) return std::nullopt;
  return secs * 1'000'000'000 + nanos;
}

std::string format_rfc3339(Timestamp t) {
  if (t == kNoTime) return "";
  using namespace std::chrono;
  int64_t secs = t / 1'000'000'000;
  int64_t nanos = t % 1'000'000'000;
  if (nanos < 0) {
    nanos += 1'000'000'000;
    secs -= 1;
  }
  const sys_seconds tp{seconds{secs}};
  const auto day_point = floor<days>(tp);
  const year_month_day ymd{day_point};
  const hh_mm_ss hms{tp - day_point};
  std::string out = fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", static_cast<int>(ymd.year()),
                                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                                hms.hours().count(), hms.minutes().count(), hms.seconds().count());
  if (nanos != 0) {
    if (nanos % 1'000'000 == 0) {
      out += fmt::format(".{:03}", nanos / 1'000'000);
    } else if (nanos % 1'000 == 0) {
      out += fmt::format(".{:06}", nanos / 1'000);
    } else {
      out += fmt::format(".{:09}", nanos);
    }
  }
  out += 'Z';
  return out;
}

}  // namespace gpudiag
