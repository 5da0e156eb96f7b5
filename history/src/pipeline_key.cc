// The pipeline key: a job name without what changes per launch. Dataflow job names are
// [-a-z0-9]; launchers append timestamps and random ids to keep them unique:
//   Beam Python  beamapp-<user>-<MMDDHHMMSS>-<microseconds>
//   Beam Java    <app>-<user>-<MMddHHmmss>-<random hex>
//   scripts      <name>-20240101-120000, <name>-2024-01-01, <name>-<uuid>, <name>-<git sha>
#include <algorithm>
#include <cctype>
#include <vector>

#include "gpudiag/history.h"

namespace gpudiag {
namespace {

bool all_of(std::string_view t, int (*pred)(int)) {
  return !t.empty() &&
         std::all_of(t.begin(), t.end(), [&](char c) { return pred(static_cast<unsigned char>(c)) != 0; });
}
int is_hex(int c) { return std::isdigit(c) || (c >= 'a' && c <= 'f'); }
bool has_digit(std::string_view t) {
  return std::any_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// A date or a time: 4+ digits ("0426123456", "20240101", "2024"), or "20240101t120000".
bool is_stamp(std::string_view t) {
  if (t.size() >= 4 && all_of(t, ::isdigit)) return true;
  const size_t sep = t.find('t');
  return sep >= 6 && sep != std::string_view::npos && all_of(t.substr(0, sep), ::isdigit) && t.size() - sep - 1 >= 4 &&
         all_of(t.substr(sep + 1), ::isdigit);
}
// A random id: 6+ hex digits with at least one digit ("5f3e2a1b", "a1b2c3d"). "a100" is not one.
bool is_random(std::string_view t) { return t.size() >= 6 && all_of(t, is_hex) && has_digit(t); }
// After a stamp anything short and numeric or hex-like is part of it ("01" of "2024-01-01",
// "abcdef" of Beam's random part).
bool is_after_stamp(std::string_view t) { return all_of(t, ::isdigit) || (t.size() >= 4 && all_of(t, is_hex)); }

bool is_uuid_at(const std::vector<std::string_view>& tokens, size_t i) {
  static constexpr size_t kSizes[] = {8, 4, 4, 4, 12};
  if (tokens.size() - i != 5) return false;
  for (size_t k = 0; k < 5; ++k) {
    if (tokens[i + k].size() != kSizes[k] || !all_of(tokens[i + k], is_hex)) return false;
  }
  return true;
}

// Whether tokens[i…] are all launch-specific: a stamp followed by stamp-like parts, random ids only,
// or a UUID.
bool volatile_from(const std::vector<std::string_view>& tokens, size_t i) {
  if (is_uuid_at(tokens, i)) return true;
  if (is_stamp(tokens[i])) {
    return std::all_of(tokens.begin() + static_cast<long>(i) + 1, tokens.end(),
                       [](std::string_view t) { return is_stamp(t) || is_random(t) || is_after_stamp(t); });
  }
  return std::all_of(tokens.begin() + static_cast<long>(i), tokens.end(), is_random);
}

}  // namespace

std::string pipeline_key(std::string_view job_name) {
  std::vector<std::string_view> tokens;
  for (size_t start = 0; start <= job_name.size();) {
    const size_t dash = std::min(job_name.find('-', start), job_name.size());
    tokens.push_back(job_name.substr(start, dash - start));
    start = dash + 1;
  }
  // The earliest token from which everything is volatile; the first token always stays.
  size_t keep = tokens.size();
  for (size_t i = tokens.size(); i-- > 1;) {
    if (volatile_from(tokens, i)) keep = i;
  }
  std::string key;
  for (size_t i = 0; i < keep; ++i) {
    if (i > 0) key += '-';
    key += tokens[i];
  }
  while (!key.empty() && key.back() == '-') key.pop_back();
  return key.empty() ? "unnamed" : key;
}

}  // namespace gpudiag
