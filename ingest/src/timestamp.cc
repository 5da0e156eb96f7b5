// RFC 3339 timestamps as Cloud Logging writes them: "2021-11-16T20:27:14.996634424Z" with 0–9
// fractional digits ("trailing zeros in the fractional seconds might be omitted"), and offsets.
#include <fmt/format.h>

#include <chrono>
#include <cstring>
#include <string>

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

namespace gpudiag {
namespace {

// "YYYY-MM-DD HH:MM:SS[.f…]" and its zone as BigQuery prints them, rewritten to RFC 3339.
std::optional<Timestamp> parse_bigquery_date_time(std::string_view s) {
  size_t end = 19;
  if (s.size() < end) return std::nullopt;
  if (end < s.size() && s[end] == '.') {
    ++end;
    while (end < s.size() && s[end] >= '0' && s[end] <= '9') ++end;
  }
  std::string_view zone = s.substr(end);
  if (!zone.empty() && zone.front() == ' ') zone.remove_prefix(1);
  std::string_view offset;
  if (zone.empty() || zone == "UTC" || zone == "Z" || zone == "z") {
    offset = "Z";
  } else if (zone.size() == 3 && (zone[0] == '+' || zone[0] == '-')) {
    offset = zone;  // "+00", CAST(ts AS STRING): completed to "+00:00" below
  } else if (zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && zone[3] == ':') {
    offset = zone;
  } else {
    return std::nullopt;
  }
  char buffer[64];
  const std::string_view body = s.substr(0, end);
  if (body.size() + 6 > sizeof buffer) return std::nullopt;
  std::memcpy(buffer, body.data(), body.size());
  size_t n = body.size();
  if (body.size() > 10 && buffer[10] == ' ') buffer[10] = 'T';
  std::memcpy(buffer + n, offset.data(), offset.size());
  n += offset.size();
  if (offset.size() == 3) {
    std::memcpy(buffer + n, ":00", 3);
    n += 3;
  }
  return parse_rfc3339(std::string_view(buffer, n));
}

// Seconds since the epoch in decimal ("1666988909.567718", "1.666988909567718E9"), read exactly:
// a double cannot hold today's microseconds. A plain integer of 15–17 digits is microseconds.
std::optional<Timestamp> parse_epoch(std::string_view s) {
  bool negative = false;
  size_t pos = 0;
  if (pos < s.size() && (s[pos] == '-' || s[pos] == '+')) negative = s[pos++] == '-';
  std::string digits;  // every mantissa digit, the point dropped
  int64_t point = -1;  // digits before the point
  for (; pos < s.size() && ((s[pos] >= '0' && s[pos] <= '9') || s[pos] == '.'); ++pos) {
    if (s[pos] == '.') {
      if (point >= 0) return std::nullopt;
      point = static_cast<int64_t>(digits.size());
    } else if (digits.size() < 40) {
      digits += s[pos];
    } else {
      return std::nullopt;
    }
  }
  if (digits.empty()) return std::nullopt;
  const bool plain_integer = point < 0 && pos == s.size();
  if (point < 0) point = static_cast<int64_t>(digits.size());
  if (pos < s.size() && (s[pos] == 'e' || s[pos] == 'E')) {
    ++pos;
    bool exp_negative = false;
    if (pos < s.size() && (s[pos] == '-' || s[pos] == '+')) exp_negative = s[pos++] == '-';
    int64_t exponent = 0;
    size_t exp_digits = 0;
    for (; pos < s.size() && s[pos] >= '0' && s[pos] <= '9' && exp_digits < 3; ++pos, ++exp_digits) {
      exponent = exponent * 10 + (s[pos] - '0');
    }
    if (exp_digits == 0) return std::nullopt;
    point += exp_negative ? -exponent : exponent;
  }
  if (pos != s.size()) return std::nullopt;
  if (plain_integer && digits.size() >= 15 && digits.size() <= 17)
    point -= 6;  // microseconds
  else if (plain_integer && digits.size() > 12)
    return std::nullopt;  // neither unit fits
  int64_t seconds = 0;
  int64_t nanos = 0;
  for (int64_t i = 0; i < point; ++i) {
    const int d = i < static_cast<int64_t>(digits.size()) ? digits[i] - '0' : 0;
    if (seconds > INT64_MAX / 1'000'000'000 / 10) return std::nullopt;
    seconds = seconds * 10 + d;
  }
  for (int64_t i = point; i < point + 9; ++i) {
    const int d = i >= 0 && i < static_cast<int64_t>(digits.size()) ? digits[i] - '0' : 0;
    nanos = nanos * 10 + d;
  }
  constexpr int64_t kMaxSecs = INT64_MAX / 1'000'000'000 - 1;
  if (seconds > kMaxSecs) return std::nullopt;
  const Timestamp t = seconds * 1'000'000'000 + nanos;
  return negative ? -t : t;
}

}  // namespace

std::optional<Timestamp> parse_bigquery_timestamp(std::string_view text) {
  if (text.size() >= 19 && text[4] == '-') return parse_bigquery_date_time(text);
  return parse_epoch(text);
}

}  // namespace gpudiag
