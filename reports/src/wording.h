// The text pieces several renderers word the same way: time spans, plurals, where an evidence entry
// came from, the one line of a message worth showing, CI levels, the gate's outcome and why a
// baseline entry is stale. (Escaping for each format is output_escaping.cc; report.h and formats.h
// declare it.) Internal to reports.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/report.h"

namespace gpudiag::detail {

// "2024-01-01T00:00:00Z … 2024-01-01T00:09:30Z (9m30s)", one time, or "time unknown".
std::string time_span(Timestamp a, Timestamp b);
// "9m30s", "2h05m", "12s".
std::string duration(int64_t seconds);
std::string plural(uint64_t n, std::string_view one, std::string_view many);
std::string upper(std::string_view text);  // ASCII

// The input an entry came from, as reports show it ("?" when unknown).
std::string input_path(const Analysis& d, const LogRecord& r, bool deterministic);
// "path:line".
std::string source_location(const Analysis& d, const LogRecord& r, bool deterministic);
// The same, relative to options.working_directory when under it (display_path(path, options)).
std::string input_path(const Analysis& d, const LogRecord& r, const RenderOptions& options);
std::string source_location(const Analysis& d, const LogRecord& r, const RenderOptions& options);
// An absolute `path` relative to the absolute `directory` when it lies under it; otherwise as given
// (and as given when `directory` is "").
std::string relative_to(const std::string& path, const std::string& directory);
// The text of an entry: its message, or its exception when the message is empty.
std::string_view entry_text(const LogRecord& r);
// The line of an evidence entry worth showing first: the matched line, else the text's first line,
// without surrounding blanks.
std::string_view key_line(const Evidence& e);
std::string_view first_line(std::string_view text);
// What an evidence entry shows: its excerpt (the matched part, or a traceback's exception line,
// innermost user frame and fold), else its key line alone.
std::vector<ExcerptLine> excerpt_of(const Evidence& e);
// `line` within about `max_bytes`: the part from a little before the match on, with every value
// in `keep` that the line holds shown whole (as islands between "…" when they lie elsewhere).
std::string crop_around(std::string_view line, size_t max_bytes, size_t match_at, size_t match_length,
                        const std::vector<std::string>& keep);
// One excerpt line of `e` cropped so: the rule's captured values are never cut.
std::string excerpt_text(const ExcerptLine& line, const Evidence& e, size_t max_bytes);
// The one line of `e` a one-line format shows (the excerpt's matched line, else its first),
// cropped as excerpt_text crops.
std::string matched_excerpt(const Evidence& e, size_t max_bytes);
// "docker, job-message": the other logs holding a copy of the entry ("" when none).
std::string also_in(const Evidence& e);

// The three levels CI formats know: critical and error → "error", warning → "warning", info → `note`
// (SARIF says "note", GitHub "notice").
std::string_view ci_level(Impact i, std::string_view note);
// A link target renderers may emit: http(s) only, and nothing that could end an attribute or a
// Markdown link. "" when the URL is not fit to be a link.
std::string safe_url(std::string_view url);

// A fix's documentation citation as text and Markdown show it, in `options.lang`: "Title › Section",
// its URL (with `hl=` outside English), and, when the page or section has no translation, the
// language's "in English" marker ("" otherwise).
struct CitationText {
  std::string label;
  std::string url;
  std::string in_english;
};
CitationText citation(const DocLink& doc, const RenderOptions& options);
// The rule's translation of a fix into `options.lang` (a fix's `i18n:`), or nullptr: English.
const FixTranslation* fix_translation(const std::vector<FixTranslation>& i18n, const RenderOptions& options);
// A fix's action in `options.lang` when its rule translates it, else the English one.
const std::string& fix_action(const RankedFix& fix, const RenderOptions& options);
const std::string& fix_action(const FindingFix& fix, const RenderOptions& options);
// What a fix's command is, as text shows it before the command: "launch with:" for options to add
// to the pipeline's launch command (it starts with `-`), "run:" for a command of its own.
std::string_view command_label(std::string_view command);

// A root cause of the job's: no finding and no error group explains it. Its fixes lead the list;
// a symptom's wait in the JSON and HTML reports.
bool is_root_cause(const RankedFinding& rf);
// Whether a job-wide fix is an error group's first step (its rule is `unexplained-error`).
bool is_first_step(const RankedFix& fix);

// Errors no rule explains (RankedReport::unexplained), worded alike in every format.
// Whether the most likely cause is one of them (the top group is at error): formats show the groups
// before the findings then.
bool unexplained_first(const RankedReport& report);
// "8 entries, 2024-… … (1m56s), 2 workers", and "; only a cut copy was exported" when so.
// `to_ms`: its times to the millisecond (the text report).
std::string unexplained_stats(const UnexplainedGroup& g, bool to_ms = false);
// Whether the group came from more SDK processes than workers (the same failure in each process of
// a worker): the count is worth saying.
bool several_processes(const UnexplainedGroup& g);
// "new: no earlier run of this pipeline had it" …; "" without a run history.
std::string_view novelty_note(Novelty n);
// The findings folded under a group: "#1 work-item-failed" each.
std::vector<std::string> unexplained_explains(const RankedReport& report, const RankedUnexplained& u);
// Whether `by` names `u` as its cause (u's line is by's prelude: a library logged the reason, then the
// pipeline raised a wrapper).
bool names_as_cause(const RankedUnexplained& by, const RankedUnexplained& u);
// The group that names `u` as its cause: that group's rank, 0 when none does.
int named_as_cause_by(const RankedReport& report, const RankedUnexplained& u);

// The gate's outcome in one line: "tripped: 2 findings at or above error (a, b)" or "passed: …".
std::string gate_line(const RankedReport& report, const RenderOptions& options);  // options.fail_on is set
// Why a baseline entry is stale, one sentence ("" for one that suppresses).
std::string stale_reason(const BaselineEntryReview& entry);
}  // namespace gpudiag::detail
