// GitHub Actions workflow commands: `::error file=…,line=…,title=…::message` per finding, highest
// ranked first, at most ten per level (GitHub shows no more per step); the rest are named in one
// notice that points to the Markdown summary. Each error no rule explains is one annotation at its
// level (error, or a notice for info) located at its exemplar, before the findings when it is the
// likely cause. A symptom is never an ::error: folded under its cause it is a ::notice, alone at most
// a ::warning (ci_levels.h). Stale baseline entries become warnings on the baseline file itself. Messages and
// properties are escaped as the runner requires (%25, %0D, %0A; in properties also %3A and %2C), so
// no log line can start or end a command.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "ci_levels.h"
#include "gpudiag/formats.h"
#include "job_views.h"
#include "wording.h"

namespace gpudiag {
namespace {

constexpr size_t kPerLevel = 10;
constexpr size_t kLineBytes = 600;

std::string_view command(Impact i) { return detail::ci_level(i, "notice"); }

std::string annotation(std::string_view level, std::string_view file, uint64_t line, std::string_view title,
                       std::string_view message) {
  std::string props;
  if (!file.empty()) props += "file=" + workflow_command_escape(file, true);
  if (!file.empty() && line > 0) props += fmt::format(",line={}", line);
  props += std::string(props.empty() ? "" : ",") + "title=" + workflow_command_escape(title, true);
  return fmt::format("::{} {}::{}\n", level, props, workflow_command_escape(message));
}

}  // namespace

std::string render_github(const RankedReport& report, const RenderOptions& o) {
  const Analysis& d = *report.analysis;
  std::string out = fmt::format("gpudiag: {}\n", terminal_safe(report.verdict_line));
  std::map<std::string_view, size_t> shown;
  std::vector<std::string> left_out;
  size_t suppressed = 0;
  // Input problems as docs/formats.md defines them: an input not read is an ::error on the input
  // (first: it is what matters most), skipped or cropped entries ::warnings at their line.
  for (const auto& e : d.input_errors) {
    ++shown["error"];
    out += annotation("error", display_path(e.file, o), e.line, "gpudiag: input not read",
                      fmt::format("{}; the report covers only what was read", e.message));
  }
  if (o.fail_on && !o.allow_empty && report.verdict == Verdict::kEmpty) {  // the gate refuses it: exit 2
    ++shown["error"];
    out += annotation("error", "", 0, "gpudiag: empty export", report.verdict_line);
  }
  size_t problems_left = 0;
  const auto input_warnings = [&] {
    if (d.input_errors.empty() && !holds_dataflow_job(d)) {  // verdict `empty`: as SARIF's notification
      for (const auto& in : d.inputs) {
        ++shown["warning"];
        out += annotation("warning", display_path(in.path, o), 0, "gpudiag: no Dataflow job",
                          "the input holds no entry of a Dataflow job");
      }
    }
    for (const auto& in : d.inputs) {
      problems_left += in.problems_total - std::min<uint64_t>(in.problems_total, in.problems.size());
      for (const auto& p : in.problems) {
        if (shown["warning"] >= kPerLevel) {
          ++problems_left;
          continue;
        }
        ++shown["warning"];
        out += annotation("warning", display_path(in.path, o), p.line,
                          p.skipped_entry ? "gpudiag: entry skipped" : "gpudiag: input problem", p.message);
      }
    }
  };
  // Errors no rule explains: one annotation each at its level, located at its exemplar.
  size_t suppressed_groups = 0;
  const auto annotate_groups = [&](const RankedReport& job, const std::string& who) {
    for (const auto& u : job.unexplained) {
      const UnexplainedGroup& g = *u.group;
      if (u.suppressed) {
        ++suppressed_groups;
        continue;
      }
      const std::string_view level = command(u.severity());
      if (shown[level] == kPerLevel) {
        left_out.push_back(who.empty() ? fmt::format("U{}", u.rank)
                                       : fmt::format("U{} ({})", u.rank, job.analysis->job.id));
        continue;
      }
      ++shown[level];
      std::string message = fmt::format("{}U{} {} — no rule in the pack knows this error ({})", who, u.rank,
                                        unexplained_headline(g), g.fingerprint);
      if (const std::string_view n = detail::novelty_note(u.novelty); !n.empty()) message += fmt::format("; {}", n);
      message += fmt::format("\n{}", detail::unexplained_stats(g));
      for (const auto& line : detail::excerpt_of(g.exemplar))
        message += fmt::format("\n{}", detail::excerpt_text(line, g.exemplar, kLineBytes));
      if (!u.symptoms.empty())
        message += fmt::format("\nExplains: {}", fmt::join(detail::unexplained_explains(job, u), ", "));
      const LogRecord& r = g.exemplar.entry.record();
      out += annotation(level, detail::input_path(*job.analysis, r, o), r.where.line,
                        fmt::format("gpudiag: {}", unexplained_headline(g)), message);
    }
  };
  // With several jobs, every job shown in full annotates its own findings, each message naming its
  // job; a one-job export reads as before.
  const auto annotate = [&](const RankedReport& job, const std::string& who) {
    const bool groups_first = detail::unexplained_first(job);  // the likely cause is annotated first
    if (groups_first) annotate_groups(job, who);
    for (const auto& rf : job.findings) {
      const Finding& f = *rf.finding;
      if (rf.suppressed) {
        ++suppressed;
        continue;
      }
      const std::string_view level = detail::finding_ci_level(rf, "notice");  // symptoms: ci_levels.h
      if (shown[level] == kPerLevel) {
        left_out.push_back(who.empty() ? f.rule_id : fmt::format("{} ({})", f.rule_id, job.analysis->job.id));
        continue;
      }
      ++shown[level];
      std::string message =
          fmt::format("{}#{} {} ({}), confidence {:.0f}%", who, rf.rank, f.title, f.rule_id, f.confidence * 100);
      if (rf.caused_by) message += fmt::format("; a symptom of #{}", job.findings[*rf.caused_by].rank);
      if (rf.caused_by_unexplained)
        message += fmt::format("; a symptom of U{}", job.unexplained[*rf.caused_by_unexplained].rank);
      if (rf.history) message += fmt::format("; {}", history_note(*rf.history));
      message +=
          fmt::format("\n{}", f.via == "facts" ? "found from the job's configuration"
                                               : fmt::format("{}, {}", detail::plural(f.count, "entry", "entries"),
                                                             detail::time_span(f.first_seen, f.last_seen)));
      std::string file;
      uint64_t line = 0;
      if (!f.evidence.empty()) {
        const LogRecord& r = f.evidence.front().entry.record();
        file = detail::input_path(d, r, o);
        line = r.where.line;
        message += fmt::format("\n{}", detail::matched_excerpt(f.evidence.front(), kLineBytes));
      }
      if (!rf.fixes.empty()) {
        const FindingFix& fix = rf.fixes.front();
        message += fmt::format("\nFix: {}", fix.action);
        if (!fix.command.empty()) message += fmt::format("\n{} {}", detail::command_label(fix.command), fix.command);
        message += fmt::format("\nDoc: {}", fix.doc.url);
      }
      out += annotation(level, file, line, fmt::format("gpudiag: {}", f.title), message);
    }
    if (!groups_first) annotate_groups(job, who);
  };
  if (detail::several_jobs(report)) {
    for (size_t i : detail::full_jobs(report)) {
      const RankedReport& job = report.jobs[i];
      annotate(job, detail::job_label(job.analysis->job) + ": ");
    }
    size_t healthy = report.jobs.size() - detail::full_jobs(report).size();
    if (healthy > 0) {
      out += fmt::format("gpudiag: {} without a finding worth annotating (ok)\n",
                         detail::plural(healthy, "other job", "other jobs"));
    }
    if (const std::string line = detail::unlisted_jobs_line(report); !line.empty()) {
      out += fmt::format("gpudiag: {}\n", terminal_safe(line));
    }
  } else {
    annotate(report, "");
  }
  if (report.baseline) {
    for (const auto& e : report.baseline->entries) {
      if (e.state == BaselineState::kSuppressing) continue;
      out += annotation("warning", report.baseline->file, e.entry.line,
                        fmt::format("gpudiag: stale baseline entry ({})", baseline_state_name(e.state)),
                        fmt::format("{} {}: {}", e.entry.rule_id, e.entry.fingerprint, detail::stale_reason(e)));
    }
  }
  input_warnings();
  if (!left_out.empty()) {
    out += annotation(
        "notice", "", 0, "gpudiag: more findings",
        fmt::format("{} more not annotated (GitHub shows {} per level): {}. The Markdown summary lists them all "
                    "(gpudiag gate --format md >> \"$GITHUB_STEP_SUMMARY\").",
                    left_out.size(), kPerLevel, fmt::join(left_out, ", ")));
  }
  if (problems_left > 0) {
    out += fmt::format("gpudiag: {} more not annotated (the JSON report lists them)\n",
                       detail::plural(problems_left, "input problem", "input problems"));
  }
  if (suppressed > 0)
    out += fmt::format("gpudiag: {} suppressed by the baseline\n", detail::plural(suppressed, "finding", "findings"));
  if (suppressed_groups > 0) {
    out += fmt::format("gpudiag: {} suppressed by the baseline\n",
                       detail::plural(suppressed_groups, "error group", "error groups"));
  }
  if (o.fail_on) out += fmt::format("gpudiag: gate {}\n", terminal_safe(detail::gate_line(report, o)));
  return out;
}

}  // namespace gpudiag
