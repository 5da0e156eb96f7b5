// Small pieces every renderer uses: time spans, plurals, where an evidence entry came from, the
// one line of a message worth showing, and how control characters are shown, which the format escapers
// build on (with utf8.h's walk).
// Internal to reports.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "gpudiag/report.h"
#include "gpudiag/utf8.h"

namespace gpudiag::detail {

// "2024-01-01T00:00:00Z … 2024-01-01T00:09:30Z (9m30s)", one time, or "time unknown".
std::string time_span(Timestamp a, Timestamp b);
// "9m30s", "2h05m", "12s".
std::string duration(int64_t seconds);
std::string plural(uint64_t n, std::string_view one, std::string_view many);
std::string upper(std::string_view text);  // ASCII

// The input an entry came from, as reports show it ("?" when unknown).
std::string input_path(const Diagnosis& d, const LogRecord& r, bool deterministic);
// "path:line".
std::string source_location(const Diagnosis& d, const LogRecord& r, bool deterministic);
// The text of an entry: its message, or its exception when the message is empty.
std::string_view entry_text(const LogRecord& r);
// The line of an evidence entry worth showing first: the matched line, else the text's first line,
// without surrounding blanks.
std::string_view key_line(const Evidence& e);
std::string_view first_line(std::string_view text);

// The three levels CI formats know: critical and error → "error", warning → "warning", info → `note`
// (SARIF says "note", GitHub "notice").
std::string_view ci_level(Impact i, std::string_view note);
// A link target renderers may emit: http(s) only, and nothing that could end an attribute or a
// Markdown link. "" when the URL is not fit to be a link.
std::string safe_url(std::string_view url);

// The gate's outcome in one line: "tripped: 2 findings at or above error (a, b)" or "passed: …".
std::string gate_line(const RankedReport& report, Impact threshold);
// Why a baseline entry is stale, one sentence ("" for one that suppresses).
std::string stale_reason(const BaselineEntryReview& entry);

// A character no report shows as it is, written as text instead: C0 controls and DEL as "\x1b", C1
// controls as "\u009b", and the invisible characters that reorder or hide text (bidi controls,
// zero-width characters, U+FEFF) as "<U+202E>", so a log line cannot disguise itself. Empty for
// every other character. Every escaper (terminal_safe included) goes through this one function and
// then escapes the shown form by its own format's rules.
std::string visible_control(uint32_t cp);

}  // namespace gpudiag::detail
