// The small pieces of GoogleSQL text every part of the compiler writes. Internal to sql.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "gpudiag/result.h"

namespace gpudiag::sql {

// A GoogleSQL string literal: '…' with backslash escapes, so any pattern or name fits.
std::string quote(std::string_view text);
// An RE2 pattern as a string literal (see quote_regex in sql_source.cc).
std::string quote_regex(std::string_view regex);
// A time bound as a TIMESTAMP expression: "24h" / "7d" / "30m" / "90s" before now, a DATE
// ("2024-05-01", its midnight UTC), or an RFC 3339 time.
Result<std::string> time_bound(std::string_view text, std::string_view option);
// The same bound as a date (for a sharded sink's _TABLE_SUFFIX), a STRING expression 'YYYYMMDD'.
std::string suffix_of(const std::string& timestamp_expr);
// An anchored RE2 pattern for a glob ('*' any run, '?' one character; the rest literal).
std::string glob_regex(std::string_view glob);

}  // namespace gpudiag::sql
