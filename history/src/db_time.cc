// Times and verdicts as the database stores them.
#include <chrono>

#include "store.h"

namespace gpudiag::detail {
namespace {

void put(char*& out, int64_t value, int width) {
  for (int i = width - 1; i >= 0; --i) {
    out[i] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  out += width;
}

}  // namespace

void write_db_time(char* out, Timestamp t) {
  using namespace std::chrono;
  int64_t secs = t / 1'000'000'000;
  int64_t nanos = t % 1'000'000'000;
  if (nanos < 0) {
    nanos += 1'000'000'000;
    --secs;
  }
  int64_t days = secs / 86400;
  int64_t rem = secs % 86400;
  if (rem < 0) {
    rem += 86400;
    --days;
  }
  const year_month_day ymd{sys_days{std::chrono::days{days}}};
  put(out, static_cast<int>(ymd.year()), 4);
  *out++ = '-';
  put(out, static_cast<unsigned>(ymd.month()), 2);
  *out++ = '-';
  put(out, static_cast<unsigned>(ymd.day()), 2);
  *out++ = 'T';
  put(out, rem / 3600, 2);
  *out++ = ':';
  put(out, rem / 60 % 60, 2);
  *out++ = ':';
  put(out, rem % 60, 2);
  *out++ = '.';
  put(out, nanos, 9);
  *out = 'Z';
}

std::string db_time(Timestamp t) {
  if (t == kNoTime) return {};
  std::string s(kDbTimeSize, '\0');
  write_db_time(s.data(), t);
  return s;
}

Timestamp now() {
  using namespace std::chrono;
  return duration_cast<nanoseconds>(system_clock::now().time_since_epoch()).count();
}

}  // namespace gpudiag::detail
