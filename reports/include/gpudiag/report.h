// reports: ranks a Analysis (root causes before their symptoms, fixes best first) and renders it.
//
//   RankedReport report = rank(analysis);
//   std::string text = render_text(report, {.color = isatty(1)});
//   std::string json = render_json(report, {});
//
// Renderers see only the ranked report; everything taken from logs is escaped for its format. The
// post-mortem and CI formats (Markdown, HTML, JUnit, SARIF, GitHub) are in formats.h; baselines of
// accepted findings in baseline.h.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpudiag/analysis.h"
#include "gpudiag/baseline.h"
#include "gpudiag/verdict.h"

namespace gpudiag {

// A fix in the job-wide list: proposed by one or more findings, listed once with all its reasons.
struct RankedFix {
  int rank = 0;
  std::string id;
  std::string action;
  std::string command;                 // one shell command to paste ("" = none): FindingFix::command
  std::vector<std::string> reasons;    // the `why` of each finding that proposes it (distinct)
  std::vector<std::string> for_rules;  // the findings proposing it, best first
  DocLink doc;
  double score = 0;
  bool demoted = false;
  std::string demoted_because;
  std::string rank_reason;           // why it ranks where it does, one line
  std::vector<FixTranslation> i18n;  // the rule's translations (--lang), from the first finding proposing it
};

// A run in a run history (gpudiag --db): which one, of which job, and when the job ran.
struct RunRef {
  int64_t run = 0;  // the run's id in the history database (0 = none)
  std::string job_id;
  Timestamp time = kNoTime;  // the run's earliest entry
};

// What a run history says about one finding (rule id + fingerprint) of a pipeline: new, or known
// because an earlier run had it or it was accepted, and how often it recurs. Set by the history
// library (history.h); renderers show it when present.
struct FindingHistory {
  bool known = false;          // an earlier recorded run of the pipeline had it, or it was accepted
  bool accepted = false;       // it is in the pipeline's accepted baseline (`gpudiag history accept`)
  uint64_t runs_affected = 0;  // runs of the pipeline that had it, the reported run included
  uint64_t runs_recorded = 0;  // runs of the pipeline recorded, up to the reported run
  uint64_t streak = 0;         // the latest runs in a row that had it (0: the latest did not)
  RunRef first_seen;           // the first run that had it
  RunRef last_seen;            // the latest run other than the reported one that had it (none: new)
  bool gate_ignores = false;   // known, and the gate trips only on new findings (gate --new-only)
};

// One line for people: "new: no earlier run of this pipeline had it (10 runs recorded)" or
// "known: in 3 of 10 runs, last seen in run #7 (2024-06-07T10:00:00Z), streak 1".
std::string history_note(const FindingHistory& h);

// The run a report was recorded as, when it was (analyze/gate/report --db).
struct ReportHistory {
  std::string pipeline;
  int64_t run = 0;
  uint64_t runs_recorded = 0;  // of the pipeline, this run included
  bool new_only = false;       // the gate trips only on new findings (gate --new-only)
};

struct RankedFinding {
  int rank = 0;                                  // 1-based, in report order
  const Finding* finding = nullptr;              // points into the Analysis the report was built from
  std::optional<size_t> caused_by;               // index (into RankedReport::findings) of its cause
  std::vector<size_t> symptoms;                  // indices of the findings it explains
  int depth = 0;                                 // 0 for root causes
  std::vector<FindingFix> fixes;                 // this finding's fixes, best first
  std::vector<std::string> fix_reasons;          // parallel to fixes: why each ranks there
  std::vector<FindingFix> fixes_not_applicable;  // fixes whose `needs` the job's facts contradict
  std::optional<size_t> baseline_entry;          // set by apply_baseline: the entry (into
                                                 // RankedReport::baseline->entries) that matched it
  bool suppressed = false;                       // … and still suppresses it (not expired)
  std::optional<FindingHistory> history;         // set when the run was recorded in a run history
  // Folded under an unexplained error group (index into RankedReport::unexplained): a symptom or a
  // `generic` rule whose failure that earlier error explains. `caused_by` stays a rule's.
  std::optional<size_t> caused_by_unexplained;
};

// An error no rule explains (Analysis::unexplained), as reported: U1, U2 …, with the findings
// folded under it.
struct RankedUnexplained {
  int rank = 0;
  const UnexplainedGroup* group = nullptr;  // points into the Analysis
  std::vector<size_t> symptoms;             // indices into RankedReport::findings
  std::optional<size_t> baseline_entry;     // set by apply_baseline (rule `unexplained-error`)
  bool suppressed = false;
  // What the run history says (apply_novelty); the Analysis' own `group->novelty` stays no-history.
  Novelty novelty = Novelty::kNoHistory;
  bool gate_ignores = false;  // not new, and the gate trips only on new groups (gate --new-only)
  // Noise (green runs have it too) is folded away: listed last, shown as info, never the headline,
  // never a gate's reason.
  bool folded() const { return novelty == Novelty::kNoise; }
  Impact severity() const { return folded() ? Impact::kInfo : group->severity; }
};

// The JSON and text name of a novelty: "new", "recurring", "noise", "no-history".
std::string_view novelty_name(Novelty novelty);

// One job fact that differs between the pipeline's last green run and the reported run.
struct FactChange {
  std::string fact;
  std::string before;  // "" when the green run did not have it (added)
  std::string after;   // "" when the reported run does not have it (removed)
};

// What changed since the pipeline's last green run (a failed run recorded with --db).
struct ChangesSinceGreen {
  RunRef green;                     // the last green run (outcome `succeeded`) before the reported one
  std::vector<FactChange> changes;  // by fact name
};

// The facts that differ between two runs, by name. Facts that describe one run rather than its setup
// (job_id, job_name, outcome, workers_seen) are left out: they differ every time.
std::vector<FactChange> fact_changes(const std::vector<std::pair<std::string, std::string>>& before,
                                     const std::vector<std::pair<std::string, std::string>>& after);

// "ValueError in pipeline.py:88 (process), step 'Embed'"; a plain line's own text, cropped.
std::string unexplained_headline(const UnexplainedGroup& group);

struct RankedReport {
  const Analysis* analysis = nullptr;
  std::vector<RankedFinding> findings;         // roots in rank order, each followed by its symptoms
  std::vector<RankedFix> fixes;                // job-wide, best first
  std::vector<RankedUnexplained> unexplained;  // the engine's order: the most likely cause first
  Verdict verdict = Verdict::kOk;
  std::string verdict_line;                // one line a person reads first
  std::optional<BaselineReview> baseline;  // set by apply_baseline
  std::optional<ReportHistory> history;    // set when the run was recorded in a run history
  // Set for a failed run recorded in a run history whose pipeline had a green run before it.
  std::optional<ChangesSinceGreen> changes_since_green;
  // One per job of the export (Analysis::jobs), the worst first; the fields above describe the
  // worst one. Each job's own `jobs` is empty.
  std::vector<RankedReport> jobs;
};

// Orders findings and fixes, and gives the verdict. The Analysis must outlive the report.
RankedReport rank(const Analysis& analysis);

// Sets each unexplained group's novelty from a run history (parallel to report.unexplained) and
// ranks the groups again: noise last, U1 … renumbered, the findings folded under the most likely
// group that is not noise, and the verdict line named after it. `new_only` (gate --new-only): only
// new groups (or any, when there is no earlier run) trip the gate. Called by history's annotate().
void apply_novelty(RankedReport& report, const std::vector<Novelty>& novelty, bool new_only);

// Whether any analysed entry belongs to a Dataflow job: it carries a job id (resource.labels.job_id,
// the dataflow.googleapis.com/job_id label) or sits in a log only Dataflow writes (job-message,
// worker, harness …). An export without one gets the verdict `empty`.
bool holds_dataflow_job(const Analysis& analysis);

// The run a report was recorded as, in one line (report.history must be set): "run #10 of pipeline
// nightly (10 runs recorded): 1 new finding, 1 known".
std::string history_summary(const RankedReport& report);

// Marks the findings a baseline accepts (rule id and fingerprint match, not expired on `today`,
// "YYYY-MM-DD") and reviews every entry. Nothing else changes: ranks, fixes and the verdict describe
// the job; the gate (below) is what suppression affects.
RankedReport apply_baseline(RankedReport report, const Baseline& baseline, std::string_view today);

// The gate: a finding counts when it is at least `threshold`, not suppressed by a baseline, and not
// known to the run history when the gate trips only on new findings (gate --new-only).
bool counts_for_gate(const RankedFinding& finding, Impact threshold);
// An unexplained group counts like a finding (its severity is error only when its job failed).
bool counts_for_gate(const RankedUnexplained& group, Impact threshold);
bool trips_gate(const RankedReport& report, Impact threshold);
// Why the gate refuses this input whatever the findings (exit code 2): an input that could not be
// read, or — unless `allow_empty` (--allow-empty) — an export without a Dataflow job (verdict
// `empty`). "" when it does not.
std::string gate_refusal(const RankedReport& report, bool allow_empty);

// How much the text report says: everything; the verdict, the causes with one evidence line each
// and the first fix in at most 15 lines (--brief); the verdict line alone (-q).
enum class TextDetail : uint8_t { kFull, kBrief, kVerdict };

struct RenderOptions {
  bool color = false;                  // ANSI colours (text only; callers enable it on a TTY)
  bool deterministic = false;          // no run times, no absolute paths, no version drift (goldens)
  std::string version = "0.0.0";       // gpudiag's version, shown unless deterministic
  size_t evidence_per_finding = 3;     // text: evidence lines shown per finding
  std::optional<Impact> fail_on;       // the gate's threshold when there is one: reports say whether it
                                       // tripped; JUnit fails testcases at or above it (error when unset)
  size_t markdown_max_bytes = 60'000;  // Markdown: fits a PR comment (65,536 characters)
  bool allow_empty = false;            // with fail_on: an export without a Dataflow job passes (--allow-empty)
  // The text report only (docs/formats.md, "The text report"):
  TextDetail text_detail = TextDetail::kFull;  // --brief, -q
  std::optional<Impact> min_severity;          // findings and unexplained groups below it are not shown,
                                               // only counted (--min-severity); the gate still sees them
  size_t width = 80;                           // prose is wrapped to this many columns (log excerpts never)
  // Inputs, the baseline and evidence locations under this absolute directory are shown relative to
  // it (the CLI sets the working directory); "" shows paths as display_path does.
  std::string working_directory;
  // The language of documentation citations (--lang; doc_language.h): "en", or a tag such as "es-419"
  // whose translated page and section titles text, Markdown, HTML and JSON show (docs/formats.md).
  std::string lang = "en";
  // Lines the text report's header adds under the entry counts: where an export gpudiag fetched
  // itself was kept, and how to analyse it again offline (the user never typed its path).
  std::vector<std::string> header_notes;
};

// The schema name and version of render_json's output (docs/json-schema.md).
inline constexpr std::string_view kJsonSchema = "gpudiag.report/v1";

std::string render_text(const RankedReport& report, const RenderOptions& options);
std::string render_json(const RankedReport& report, const RenderOptions& options);

// Helpers shared by renderers (and tests): text safe for a terminal (control characters shown as
// \xNN or \u009b, bidi controls and zero-width characters as <U+202E>, invalid UTF-8 as U+FFFD;
// tabs as two spaces, newlines as \x0a), and UTF-8-safe cropping with an ellipsis in the middle.
std::string terminal_safe(std::string_view text);
// terminal_safe for text of several lines (a diagnostic with its source line and caret): each line
// made safe, the line breaks kept.
std::string terminal_safe_lines(std::string_view text);
std::string crop_middle(std::string_view text, size_t max_bytes);
// An input path as reports show it: as given, or only its file name when deterministic and absolute.
std::string display_path(const std::string& path, bool deterministic);
// … and relative to options.working_directory when it lies under it (the text report).
std::string display_path(const std::string& path, const RenderOptions& options);

}  // namespace gpudiag
