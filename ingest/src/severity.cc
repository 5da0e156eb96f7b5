#include <array>
#include <cctype>

#include "gpudiag/log_record.h"

namespace gpudiag {
namespace {

struct SeverityName {
  Severity severity;
  std::string_view name;
};

constexpr std::array<SeverityName, 9> kSeverities{{
    {Severity::kDefault, "DEFAULT"},
    {Severity::kDebug, "DEBUG"},
    {Severity::kInfo, "INFO"},
    {Severity::kNotice, "NOTICE"},
    {Severity::kWarning, "WARNING"},
    {Severity::kError, "ERROR"},
    {Severity::kCritical, "CRITICAL"},
    {Severity::kAlert, "ALERT"},
    {Severity::kEmergency, "EMERGENCY"},
}};
static_assert(static_cast<int>(kSeverities.back().severity) == 800);

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::toupper(static_cast<unsigned char>(a[i])) != b[i]) return false;
  }
  return true;
}

}  // namespace

std::string_view severity_name(Severity s) {
  for (const auto& entry : kSeverities) {
    if (entry.severity == s) return entry.name;
  }
  return "DEFAULT";
}

std::optional<Severity> severity_from_number(int64_t n) {
  for (const auto& entry : kSeverities) {
    if (static_cast<int64_t>(entry.severity) == n) return entry.severity;
  }
  return std::nullopt;
}

std::optional<Severity> parse_severity(std::string_view name) {
  for (const auto& entry : kSeverities) {
    if (iequals(name, entry.name)) return entry.severity;
  }
  // Java's java.util.logging names, as launcher consoles print them.
  if (iequals(name, "SEVERE")) return Severity::kError;
  if (iequals(name, "WARN")) return Severity::kWarning;
  if (iequals(name, "FATAL")) return Severity::kCritical;
  int64_t n = 0;
  if (name.empty() || name.size() > 4) return std::nullopt;
  for (char c : name) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return severity_from_number(n);
}

}  // namespace gpudiag
