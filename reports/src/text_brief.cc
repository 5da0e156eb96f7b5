#include "text_brief.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "job_views.h"
#include "text_layout.h"
#include "wording.h"

namespace gpudiag::detail {
namespace {

constexpr size_t kExcerptBytes = 220;
constexpr size_t kShownJobs = 3;  // jobs that are not ok, one line each; the rest are counted

// Lines and the notations they used.
struct Block {
  std::vector<std::string> lines;
  TextLegend legend;
};

// Prose folded to `max_lines` lines of `width` columns; a word longer than a line (a long flag) is cut
// rather than overflow.
std::vector<std::string> fold_within(std::string_view text, std::string_view first, size_t width, size_t max_lines,
                                     TextLegend& legend) {
  bool cut = false;
  std::vector<std::string> lines = fold_prose(text, first, "  ", width, max_lines, " …", &cut);
  for (auto& line : lines) {
    std::string shown = crop_columns(line, width);
    cut = cut || shown != line;
    line = std::move(shown);
  }
  if (cut) legend.note_cut();
  return lines;
}

// "logs.json:488  RuntimeError: CUDA out of memory …": where an entry is and its matched line,
// within `width` columns. A long path gives way to its file name, so the line has room for the log.
std::string evidence_line(const Analysis& d, const Evidence& e, const RenderOptions& o, size_t width,
                          TextLegend& legend) {
  const LogRecord& r = e.entry.record();
  std::string where = legend.safe(source_location(d, r, o));
  if (display_width(where) > width / 3) {
    where =
        legend.safe(fmt::format("{}:{}", std::filesystem::path(input_path(d, r, o)).filename().string(), r.where.line));
  }
  const std::vector<ExcerptLine> lines = excerpt_of(e);
  if (lines.empty()) return fmt::format("  {}", where);
  const auto matched =
      std::find_if(lines.begin(), lines.end(), [](const ExcerptLine& l) { return l.match_at != std::string::npos; });
  const ExcerptLine& line = matched == lines.end() ? lines.front() : *matched;
  const std::string excerpt = excerpt_text(line, e, kExcerptBytes);
  legend.note_cut(excerpt, line.text);
  const std::string text = legend.safe(excerpt);
  const std::string lead = fmt::format("  {}  ", where);
  const std::string shown = crop_columns(text, width > display_width(lead) ? width - display_width(lead) : 0);
  legend.note_cut(shown, text);
  return lead + shown;
}

// "1. [ERROR] GPU ran out of memory (gpu-out-of-memory), 4 entries" within `width`: wrapped onto a
// second line when long, and when even two lines are too few the title gives way word by word, so
// the rule id is never cut (users search and baseline by it); the count may be.
std::vector<std::string> cause_lines(std::string_view label, Impact severity, std::string_view title,
                                     std::string_view rule_id, std::string_view count, size_t width,
                                     const TextPaint& paint, TextLegend& legend) {
  const std::string lead = fmt::format("{} [{}] ", label, impact_name(severity));
  const std::string id = fmt::format("({}),", rule_id);
  const auto fold = [&](std::string_view shown_title, bool* cut) {
    return fold_prose(fmt::format("{} {} {}", shown_title, id, count), lead, "  ", width, 2, " …", cut);
  };
  const auto id_whole = [&](const std::vector<std::string>& lines) {
    return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) { return l.find(id) != l.npos; });
  };
  bool cut = false;
  std::vector<std::string> lines = fold(title, &cut);
  std::string_view shown = title;
  while (!id_whole(lines) && !shown.empty()) {  // drop the title's last word, and say it was shortened
    const size_t space = shown.find_last_of(' ');
    shown = space == std::string_view::npos ? std::string_view{} : shown.substr(0, space);
    lines = fold(fmt::format("{} …", shown), &cut);
  }
  if (cut || shown.size() != title.size()) legend.note_cut();
  for (auto& line : lines) {  // a single word wider than the line (a long path) is cropped
    std::string cropped = crop_columns(line, width);
    if (cropped != line) legend.note_cut();
    line = std::move(cropped);
  }
  // The severity is painted in place: fold_prose measured the plain "[ERROR]".
  if (!lines.empty() && lines.front().starts_with(lead)) {
    lines.front() = fmt::format("{} {} {}", label, paint.severity(severity), lines.front().substr(lead.size()));
  }
  return lines;
}

// The causes, most likely first: the errors no rule explains when one leads, then the findings that
// are no symptom of another; each with the line of its first evidence entry.
std::vector<Block> cause_blocks(const RankedReport& report, const RenderOptions& o, size_t width,
                                const TextPaint& paint) {
  const Analysis& d = *report.analysis;
  std::vector<Block> blocks;
  if (unexplained_first(report)) {
    for (const auto& u : report.unexplained) {
      if (u.severity() < Impact::kError || !shown_at(u.severity(), o)) continue;
      Block b;
      b.lines = cause_lines(fmt::format("U{}.", u.rank), u.severity(), b.legend.safe(unexplained_headline(*u.group)),
                            "unexplained-error", plural(u.group->count, "entry", "entries"), width, paint, b.legend);
      b.lines.push_back(evidence_line(d, u.group->exemplar, o, width, b.legend));
      blocks.push_back(std::move(b));
    }
  }
  for (const auto& rf : report.findings) {
    const Finding& f = *rf.finding;
    if (rf.depth > 0 || rf.caused_by_unexplained || !shown_at(f.severity, o)) continue;
    Block b;
    const std::string count = f.via == "facts"     ? "from the job's configuration"
                              : f.via == "absence" ? "by what is missing"
                                                   : plural(f.count, "entry", "entries");
    b.lines = cause_lines(fmt::format("{}.", rf.rank), f.severity, b.legend.safe(f.title), f.rule_id, count, width,
                          paint, b.legend);
    if (!f.evidence.empty()) b.lines.push_back(evidence_line(d, f.evidence.front(), o, width, b.legend));
    blocks.push_back(std::move(b));
  }
  return blocks;
}

// The first fix proposed by a cause the brief can show.
const RankedFix* first_fix(const RankedReport& report, const RenderOptions& o) {
  for (const auto& fix : report.fixes) {
    if (detail::is_first_step(fix)) return &fix;  // an error group the brief shows as the cause
    for (const auto& id : fix.for_rules) {
      for (const auto& rf : report.findings) {
        if (detail::is_root_cause(rf) && rf.finding->rule_id == id && shown_at(rf.finding->severity, o)) return &fix;
      }
    }
  }
  return nullptr;
}

// Failed (and other not-ok) jobs one line each, then how many are healthy.
Block jobs_block(const RankedReport& report, size_t width, const TextPaint& paint) {
  Block b;
  size_t healthy = 0, not_ok = 0;
  for (const auto& job : report.jobs) {
    if (!shown_in_full(job)) {
      ++healthy;
      continue;
    }
    if (++not_ok > kShownJobs) continue;
    const std::string verdict = upper(verdict_name(job.verdict));
    const std::string cause = top_cause(job);
    // The name alone (the id is in the full report), so the line has room for the cause.
    const JobInfo& info = job.analysis->job;
    const std::string name = !info.name.empty() ? info.name : !info.id.empty() ? info.id : "(no job id)";
    const std::string rest = b.legend.safe(fmt::format("{}{}", name, cause.empty() ? "" : fmt::format(": {}", cause)));
    const std::string shown = crop_columns(rest, width > verdict.size() + 3 ? width - verdict.size() - 3 : 0);
    b.legend.note_cut(shown, rest);
    b.lines.push_back(fmt::format("  {} {}", paint.bold(verdict), shown));
  }
  if (not_ok > kShownJobs) b.lines.push_back(fmt::format("  … and {} more not ok", not_ok - kShownJobs));
  const Analysis& d = *report.analysis;
  const bool undiagnosed = !d.not_diagnosed.empty() || d.not_diagnosed_unlisted > 0;
  if (const uint64_t unlisted = d.unlisted_jobs.jobs; unlisted > 0) {
    b.lines.push_back(fmt::format("  … and {} not listed (--format json counts them by cause)",
                                  plural(unlisted, "more job", "more jobs")));
  }
  if (healthy > 0 || undiagnosed) {
    b.lines.push_back(
        fmt::format("  {} healthy{}", healthy, undiagnosed ? "; more jobs not diagnosed (over --max-jobs)" : ""));
  }
  return b;
}

// What the brief leaves out, and where to find it.
std::string rest_note(const RankedReport& report, const RenderOptions& o, size_t causes_shown, size_t causes,
                      bool fix_shown) {
  std::vector<std::string> parts;
  if (causes > causes_shown) parts.push_back(plural(causes - causes_shown, "more cause", "more causes"));
  size_t symptoms = 0, hidden = 0;
  for (const auto& rf : report.findings) {
    if (!shown_at(rf.finding->severity, o)) {
      ++hidden;
    } else if (rf.depth > 0 || rf.caused_by_unexplained) {
      ++symptoms;
    }
  }
  if (symptoms > 0) parts.push_back(plural(symptoms, "symptom", "symptoms"));
  if (const size_t fixes = report.fixes.size() - (fix_shown ? 1 : 0); fixes > 0)
    parts.push_back(plural(fixes, fix_shown ? "more fix" : "fix", fix_shown ? "more fixes" : "fixes"));
  for (const auto& u : report.unexplained) hidden += shown_at(u.severity(), o) ? 0 : 1;
  if (hidden > 0) {
    parts.push_back(fmt::format("{} below {} hidden (--min-severity)", hidden, impact_name(*o.min_severity)));
  }
  if (parts.empty()) return "";
  return fmt::format("not shown: {}; the full report: drop --brief", fmt::join(parts, ", "));
}

}  // namespace

std::string render_text_verdict(const RankedReport& report, const RenderOptions& o, const TextPaint& paint) {
  const std::string verdict = paint.verdict(report, terminal_safe(report.verdict_line));
  if (!o.fail_on) return verdict + "\n";
  // With a threshold the one line leads with what the exit code says, so a quiet gate never prints
  // a verdict that reads the opposite of its result (a failure the baseline accepts passes).
  const std::string gate = gate_line(report, o);
  std::string lead;
  if (gate.starts_with("refused: ")) {
    lead = "gate refused";  // why is the verdict's own: INCOMPLETE or EMPTY
  } else if (gate.starts_with("tripped")) {
    lead = "gate failed";
  } else {
    const size_t accepted = report.baseline ? report.baseline->suppressed : 0;
    lead = accepted > 0
               ? fmt::format("gate passed ({} accepted by the baseline)", plural(accepted, "finding", "findings"))
               : "gate passed";
  }
  return fmt::format("{} — {}\n", terminal_safe(lead), verdict);
}

std::string render_text_brief(const RankedReport& report, const RenderOptions& o, const TextPaint& paint) {
  const size_t width = std::clamp<size_t>(o.width, 40, kBriefColumns);
  const Analysis& d = *report.analysis;
  Block top;
  {
    const std::string job = d.job.id.empty() ? "job unknown" : fmt::format("job {}", d.job.id);
    const std::string what =
        several_jobs(report)
            ? fmt::format("{} jobs; the worst: {}", report.jobs.size() + report.analysis->unlisted_jobs.jobs, job)
            : job;
    const std::string name = d.job.name.empty() ? "" : fmt::format(" ({})", d.job.name);
    const std::string rest = top.legend.safe(what + name);  // no "gpudiag VERSION —": the room is the job's
    const std::string shown = crop_columns(rest, width);
    top.legend.note_cut(shown, rest);
    top.lines.push_back(paint.bold(shown));
  }
  for (const auto& line : fold_within(top.legend.safe(report.verdict_line), "", width, 2, top.legend)) {
    top.lines.push_back(paint.verdict(report, line));
  }
  const auto one_line = [&](const std::string& text) {
    const std::string safe = top.legend.safe(text);
    const std::string shown = crop_columns(safe, width);
    top.legend.note_cut(shown, safe);
    top.lines.push_back(shown);
  };
  if (o.fail_on) one_line(fmt::format("gate: {}", gate_line(report, o)));
  if (!d.input_errors.empty()) {
    const auto& e = d.input_errors.front();
    one_line(fmt::format("input not read in full: {}: {}{}", display_path(e.file, o), e.message,
                         d.input_errors.size() > 1 ? fmt::format(" (+{} more)", d.input_errors.size() - 1) : ""));
  }
  if (several_jobs(report)) {
    Block jobs = jobs_block(report, width, paint);
    top.lines.insert(top.lines.end(), jobs.lines.begin(), jobs.lines.end());
    top.legend.add(jobs.legend);
  }
  Block fix;
  const RankedFix* first = first_fix(report, o);
  if (first != nullptr) {
    fix.lines = fold_within(fix.legend.safe(first->action), "fix: ", width, 3, fix.legend);
  }
  const std::vector<Block> causes = cause_blocks(report, o, width, paint);

  // As many causes as fit in kBriefLines, with the note of what is left out and the legend.
  const auto assemble = [&](size_t shown, std::vector<std::string>& lines) {
    TextLegend legend = top.legend;
    lines = top.lines;
    for (size_t i = 0; i < shown; ++i) {
      lines.insert(lines.end(), causes[i].lines.begin(), causes[i].lines.end());
      legend.add(causes[i].legend);
    }
    lines.insert(lines.end(), fix.lines.begin(), fix.lines.end());
    legend.add(fix.legend);
    const std::string note = rest_note(report, o, shown, causes.size(), first != nullptr);
    for (const auto& line : fold_within(note, "", width, 2, legend)) lines.push_back(paint.dim(line));
    const std::string legend_text = legend.line(width);
    for (size_t at = 0; at < legend_text.size();) {
      const size_t nl = legend_text.find('\n', at);
      lines.push_back(paint.dim(legend_text.substr(at, nl - at)));
      at = nl + 1;
    }
  };
  std::vector<std::string> lines;
  for (size_t shown = causes.size() + 1; shown-- > 0;) {
    assemble(shown, lines);
    if (lines.size() <= kBriefLines) break;
  }
  if (lines.size() > kBriefLines) lines.resize(kBriefLines);  // only with many input errors and jobs
  std::string out;
  for (const auto& line : lines) out += line + "\n";
  return out;
}

}  // namespace gpudiag::detail
