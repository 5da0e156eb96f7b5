// Severity: a log entry's google.logging.type.LogSeverity, as exports spell it and rules test it
// (`severity: ">=ERROR"`).
#pragma once

#include <cstdint>

#include "gpudiag/enum_names.h"

namespace gpudiag {

// The numbers are the API's.
enum class Severity : uint16_t {
  kDefault = 0,
  kDebug = 100,
  kInfo = 200,
  kNotice = 300,
  kWarning = 400,
  kError = 500,
  kCritical = 600,
  kAlert = 700,
  kEmergency = 800,
};

inline constexpr std::array<EnumName<Severity>, 9> kSeverityNames{{
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
static_assert(names_are_distinct(kSeverityNames));
static_assert(static_cast<int>(kSeverityNames.back().value) == 800);
// Other names an entry's severity comes under: java.util.logging's and launcher consoles'. Read in any
// case, as the names above; `gpudiag sql` writes its severity mapping from both tables.
inline constexpr std::array<EnumName<Severity>, 3> kSeverityAliases{{
    {Severity::kError, "SEVERE"},
    {Severity::kWarning, "WARN"},
    {Severity::kCritical, "FATAL"},
}};

std::string_view severity_name(Severity s);  // "DEFAULT" … "EMERGENCY"
// Accepts the names in any case, java.util.logging's SEVERE, WARN and FATAL as launcher consoles
// print them, and the API numbers (0, 100, … 800).
std::optional<Severity> parse_severity(std::string_view name);
std::optional<Severity> severity_from_number(int64_t n);

}  // namespace gpudiag
