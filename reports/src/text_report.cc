// The terminal report: the verdict first, then findings (causes with their symptoms indented
// beneath), evidence lines, the job-wide fixes, inconclusive checks and what was skipped.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "gpudiag/report.h"
#include "gpudiag/utf8.h"
#include "report_text.h"

namespace gpudiag {
namespace {

using detail::gate_line;
using detail::plural;
using detail::stale_reason;
using detail::time_span;

constexpr size_t kExcerptBytes = 220;

struct Style {
  bool on;
  std::string wrap(std::string_view code, std::string_view text) const {
    return on ? fmt::format("\x1b[{}m{}\x1b[0m", code, text) : std::string(text);
  }
  std::string bold(std::string_view t) const { return wrap("1", t); }
  std::string dim(std::string_view t) const { return wrap("2", t); }
  std::string severity(Impact i) const {
    const std::string label = fmt::format("[{}]", impact_name(i));
    std::string upper = label;
    std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
    switch (i) {
      case Impact::kCritical:
        return wrap("1;35", upper);
      case Impact::kError:
        return wrap("1;31", upper);
      case Impact::kWarning:
        return wrap("1;33", upper);
      case Impact::kInfo:
        return wrap("1;36", upper);
    }
    return upper;
  }
};

// Words filled into lines of at most `width` columns (counting UTF-8 characters), each indented.
std::string wrap(std::string_view text, const std::string& indent, size_t width) {
  std::string out, line;
  size_t line_chars = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t space = text.find(' ', pos);
    const std::string_view word =
        text.substr(pos, space == std::string_view::npos ? std::string_view::npos : space - pos);
    pos = space == std::string_view::npos ? text.size() : space + 1;
    if (word.empty()) continue;
    if (line_chars > 0 && indent.size() + line_chars + 1 + utf8_length(word) > width) {
      out += indent + line + "\n";
      line.clear();
      line_chars = 0;
    }
    if (line_chars > 0) {
      line += ' ';
      ++line_chars;
    }
    line += word;
    line_chars += utf8_length(word);
  }
  if (!line.empty()) out += indent + line + "\n";
  return out;
}

void render_finding(std::string& out, const RankedReport& report, const RankedFinding& rf, const RenderOptions& o,
                    const Style& st) {
  const Analysis& d = *report.diagnosis;
  const Finding& f = *rf.finding;
  const std::string indent(static_cast<size_t>(rf.depth) * 4, ' ');
  const std::string pad = indent + "   ";
  out += fmt::format("{}{}. {} {} {}  confidence {:.0f}%{}\n", indent, rf.rank, st.severity(f.severity),
                     st.bold(terminal_safe(f.title)), st.dim(fmt::format("({})", f.rule_id)), f.confidence * 100,
                     f.confidence_note.empty() ? "" : fmt::format(" — {}", f.confidence_note));
  if (rf.caused_by) {
    out += fmt::format("{}{}\n", pad,
                       st.dim(fmt::format("a symptom of #{} {}", report.findings[*rf.caused_by].rank,
                                          report.findings[*rf.caused_by].finding->rule_id)));
  }
  if (rf.baseline_entry) {
    const BaselineEntry& e = report.baseline->entries[*rf.baseline_entry].entry;
    out += fmt::format(
        "{}{}\n", pad,
        st.dim(rf.suppressed ? fmt::format("suppressed by the baseline ({}:{}): {}",
                                           terminal_safe(report.baseline->file), e.line, terminal_safe(e.reason))
                             : fmt::format("in the baseline ({}:{}) but the entry expired on {}: not suppressed",
                                           terminal_safe(report.baseline->file), e.line, e.expires)));
  }
  if (rf.history) {
    const std::string note = fmt::format("history: {}", history_note(*rf.history));
    out += fmt::format("{}{}\n", pad, rf.history->known ? st.dim(note) : st.bold(note));
  }
  if (f.via == "absence") {
    out += fmt::format("{}found by what is missing; {}\n", pad, time_span(f.first_seen, f.last_seen));
  } else if (f.via == "facts") {
    out += fmt::format("{}found from the job's configuration\n", pad);
  } else {
    out += fmt::format("{}{}, {}{}\n", pad, plural(f.count, "entry", "entries"), time_span(f.first_seen, f.last_seen),
                       f.workers_total == 0 ? "" : fmt::format(", {}", plural(f.workers_total, "worker", "workers")));
  }
  if (rf.caused_by_unexplained) {
    const RankedUnexplained& u = report.unexplained[*rf.caused_by_unexplained];
    out +=
        fmt::format("{}{}\n", pad,
                    st.dim(fmt::format("a symptom of U{} {}", u.rank, terminal_safe(unexplained_headline(*u.group)))));
  }
  if (rf.depth > 0 || rf.caused_by_unexplained) return;  // symptoms stay short: their cause carries the story
  out += wrap(terminal_safe(f.description), pad, 100);
  const size_t shown = std::min(o.evidence_per_finding, f.evidence.size());
  for (size_t i = 0; i < shown; ++i) {
    const LogRecord& r = f.evidence[i].entry.record();
    const Evidence& e = f.evidence[i];
    out +=
        fmt::format("{}  {} {} {}{}{}\n", pad, st.dim(format_rfc3339(r.timestamp)),
                    r.log.empty() ? "-" : terminal_safe(r.log), r.worker.empty() ? "" : terminal_safe(r.worker) + " ",
                    st.dim(terminal_safe(detail::source_location(d, r, o.deterministic))),
                    e.also_in.empty() ? "" : st.dim(fmt::format("  (also in: {})", terminal_safe(detail::also_in(e)))));
    for (const auto& line : detail::excerpt_of(e)) {
      const std::string text = terminal_safe(detail::excerpt_text(line, e, kExcerptBytes));
      out += fmt::format("{}    {}\n", pad, line.fold ? st.dim(text) : text);
    }
  }
  if (f.evidence.size() > shown)
    out += fmt::format("{}  … {} more kept in the JSON report\n", pad, f.evidence.size() - shown);
  if (!rf.fixes.empty()) {
    const FindingFix& top = rf.fixes.front();
    out += fmt::format("{}fix: {}{}\n", pad, terminal_safe(top.action),
                       rf.fixes.size() > 1 ? st.dim(fmt::format("  (+{} more below)", rf.fixes.size() - 1)) : "");
  }
}

constexpr size_t kShownGroups = 3;
constexpr size_t kShownChanges = 8;

// "It worked yesterday": the facts that differ from the pipeline's last green run, near the top.
void render_changes_since_green(std::string& out, const RankedReport& report, const Style& st) {
  if (!report.changes_since_green) return;
  const ChangesSinceGreen& c = *report.changes_since_green;
  out += fmt::format(
      "  since the last green run (#{}, job {}, {}): {}\n", c.green.run, terminal_safe(c.green.job_id),
      format_rfc3339(c.green.time),
      c.changes.empty() ? "no job fact changed" : plural(c.changes.size(), "fact changed", "facts changed"));
  for (size_t i = 0; i < c.changes.size() && i < kShownChanges; ++i) {
    const FactChange& f = c.changes[i];
    const std::string line = f.before.empty()  ? fmt::format("{}: added {}", f.fact, f.after)
                             : f.after.empty() ? fmt::format("{}: removed (was {})", f.fact, f.before)
                                               : fmt::format("{}: {} → {}", f.fact, f.before, f.after);
    out += fmt::format("    {}\n", terminal_safe(crop_middle(line, 200)));
  }
  if (c.changes.size() > kShownChanges) {
    out +=
        fmt::format("    {}\n", st.dim(fmt::format("… {} more in the JSON report", c.changes.size() - kShownChanges)));
  }
}

// The errors no rule explains (docs/unexplained.md): U1, U2 … with the raw exemplar.
void render_unexplained(std::string& out, const RankedReport& report, const RenderOptions& o, const Style& st) {
  const Analysis& d = *report.diagnosis;
  const size_t shown = std::min(kShownGroups, report.unexplained.size());
  out += fmt::format("\n{}\n", st.bold(fmt::format("Errors no rule explains ({}{})", report.unexplained.size(),
                                                   d.unexplained_groups_total > report.unexplained.size()
                                                       ? fmt::format(" of {}", d.unexplained_groups_total)
                                                       : "")));
  for (size_t i = 0; i < shown; ++i) {
    const RankedUnexplained& u = report.unexplained[i];
    const UnexplainedGroup& g = *u.group;
    const std::string pad = "    ";
    out += fmt::format("\nU{}. {} {} {}\n", u.rank, st.severity(u.severity()),
                       st.bold(terminal_safe(unexplained_headline(g))), st.dim("(unexplained-error)"));
    out += fmt::format("{}{}\n", pad, detail::unexplained_stats(g));
    if (u.suppressed) out += fmt::format("{}{}\n", pad, st.dim("suppressed by the baseline"));
    if (u.novelty != Novelty::kNoHistory) out += fmt::format("{}history: {}\n", pad, detail::novelty_note(u.novelty));
    const Evidence& e = g.exemplar;
    const LogRecord& r = e.entry.record();
    out += fmt::format(
        "{}  {} {} {}{}{}\n", pad, st.dim(format_rfc3339(r.timestamp)), r.log.empty() ? "-" : terminal_safe(r.log),
        r.worker.empty() ? "" : terminal_safe(r.worker) + " ",
        st.dim(terminal_safe(detail::source_location(d, r, o.deterministic))),
        g.also_in.empty()
            ? ""
            : st.dim(fmt::format("  (also in: {})", terminal_safe(fmt::format("{}", fmt::join(g.also_in, ", "))))));
    bool exception_shown = g.exception.empty(), frame_shown = !g.user_frame;
    for (const auto& line : detail::excerpt_of(e)) {
      const std::string text = terminal_safe(detail::excerpt_text(line, e, kExcerptBytes));
      out += fmt::format("{}    {}\n", pad, line.fold ? st.dim(text) : text);
      exception_shown = exception_shown || text.find(terminal_safe(g.exception)) != std::string::npos;
      frame_shown = frame_shown || text.find(terminal_safe(g.user_frame->file)) != std::string::npos;
    }
    // A flattened or cut copy (the job message's) holds them somewhere in one long line: say them.
    if (!exception_shown) out += fmt::format("{}    {}\n", pad, terminal_safe(crop_middle(g.exception, kExcerptBytes)));
    if (!frame_shown) {
      out += fmt::format("{}    {}\n", pad,
                         terminal_safe(fmt::format("File \"{}\", line {}, in {}", g.user_frame->file,
                                                   g.user_frame->line, g.user_frame->function)));
    }
    if (!u.symptoms.empty())
      out += fmt::format("{}explains: {}\n", pad, fmt::join(detail::unexplained_explains(report, u), ", "));
    out += fmt::format("{}{}\n", pad,
                       st.dim(fmt::format("fingerprint {} (a rule stub: gpudiag patterns suggest {} PATH…)",
                                          g.fingerprint, g.fingerprint)));
  }
  if (report.unexplained.size() > shown) {
    out +=
        fmt::format("  … {} more in the JSON report\n", plural(report.unexplained.size() - shown, "group", "groups"));
  }
}

// One job's findings, fixes and inconclusive checks.
void render_job_body(std::string& out, const RankedReport& report, const RenderOptions& o, const Style& st) {
  const Analysis& d = *report.diagnosis;
  // An error no rule explains that is the likely cause comes first: it is what the reader came for.
  const bool groups_first = detail::unexplained_first(report);
  if (groups_first) render_unexplained(out, report, o, st);
  if (!report.findings.empty()) {
    out +=
        fmt::format("\n{}\n", st.bold(fmt::format("Findings ({}), most likely cause first", report.findings.size())));
    for (const auto& rf : report.findings) {
      if (rf.depth == 0) out += '\n';
      render_finding(out, report, rf, o, st);
    }
  }
  if (!report.fixes.empty()) {
    out += fmt::format("\n{}\n", st.bold("Fixes, best first"));
    // The fixes of root causes; what only a folded symptom proposes waits in the JSON and HTML
    // reports, so the list stays about what to do first.
    const auto for_a_cause = [&](const RankedFix& fix) {
      return std::any_of(fix.for_rules.begin(), fix.for_rules.end(), [&](const std::string& id) {
        return std::any_of(report.findings.begin(), report.findings.end(),
                           [&](const RankedFinding& rf) { return rf.depth == 0 && rf.finding->rule_id == id; });
      });
    };
    size_t symptom_only = 0;
    int shown = 0;
    for (const auto& fix : report.fixes) {
      if (!for_a_cause(fix)) {
        ++symptom_only;
        continue;
      }
      out += fmt::format("  {}. {}\n", ++shown, terminal_safe(detail::fix_action(fix, o)));
      for (const auto& why : fix.reasons) out += fmt::format("     why: {}\n", terminal_safe(why));
      out += fmt::format("     {}\n", st.dim(fmt::format("rank: {}", terminal_safe(fix.rank_reason))));
      const detail::CitationText doc = detail::citation(fix.doc, o);  // in --lang
      out += fmt::format("     doc: {}{}\n          {}\n", doc.label,
                         doc.in_english.empty() ? "" : " (" + doc.in_english + ")", doc.url);
    }
    if (symptom_only > 0) {
      out += fmt::format("  … and {} for the symptoms only (--format json or html lists them)\n",
                         plural(symptom_only, "fix", "fixes"));
    }
  }
  if (!groups_first && !report.unexplained.empty()) {
    if (report.verdict == Verdict::kOk) {  // a healthy job's error chatter: noted, not shown
      out += fmt::format(
          "\n{}\n", st.dim(fmt::format("{} that no rule explains, none before a failure (--format json lists them)",
                                       plural(d.unexplained_groups_total, "error group", "error groups"))));
    } else {
      render_unexplained(out, report, o, st);
    }
  }
  if (!d.inconclusive.empty()) {
    out += fmt::format("\n{}\n", st.bold("Inconclusive (not findings: the export cannot tell)"));
    for (const auto& i : d.inconclusive) {
      out += fmt::format("  - {} ({}): {}\n", i.title, i.rule_id, terminal_safe(i.reason));
    }
  }
}

std::string verdict_text(const RankedReport& report, const Style& st) {
  const std::string verdict_line = terminal_safe(report.verdict_line);
  const bool red = report.verdict == Verdict::kFailed || report.verdict == Verdict::kIncomplete;
  const bool yellow = report.verdict == Verdict::kWarning || report.verdict == Verdict::kEmpty;
  return red ? st.wrap("1;31", verdict_line) : yellow ? st.wrap("1;33", verdict_line) : st.wrap("1;32", verdict_line);
}

std::string job_label(const JobInfo& job) {
  std::string out = job.id.empty() ? "entries of no job" : fmt::format("job {}", terminal_safe(job.id));
  if (!job.name.empty()) out += fmt::format(" ({})", terminal_safe(job.name));
  return out;
}

// Several jobs: one line per job, worst first, then the jobs that are not ok in full.
void render_jobs(std::string& out, const RankedReport& report, const RenderOptions& o, const Style& st) {
  const Analysis& d = *report.diagnosis;
  out += fmt::format("\n{}\n", st.bold(fmt::format("Jobs ({}), worst first", report.jobs.size())));
  size_t name_width = 4;
  for (const auto& job : report.jobs) name_width = std::max(name_width, job.diagnosis->job.name.size());
  name_width = std::min<size_t>(name_width, 40);
  for (const auto& job : report.jobs) {
    const JobInfo& info = job.diagnosis->job;
    std::string verdict{verdict_name(job.verdict)};
    for (char& c : verdict) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    std::string cause;
    if (job.verdict != Verdict::kOk && !job.findings.empty()) cause = job.findings.front().finding->title;
    if (job.verdict == Verdict::kFailed &&
        (job.findings.empty() || job.findings.front().finding->severity < Impact::kError)) {
      cause = "no rule in the pack explains it";
    }
    // An error no rule explains that leads the job is its cause, as in the job's verdict line.
    if (detail::unexplained_first(job)) cause = unexplained_headline(*job.unexplained.front().group);
    out += fmt::format("  {:<8} {:<{}}  {:<40}  {:<9}  {:>12}  {}\n", st.bold(verdict),
                       terminal_safe(crop_middle(info.name, 40)), name_width,
                       info.id.empty() ? "(no job id)" : terminal_safe(info.id), job_outcome_name(info.outcome),
                       plural(info.entries, "entry", "entries"), terminal_safe(cause));
  }
  for (const auto& c : d.not_diagnosed) {
    out += fmt::format("  {:<8} {:<{}}  {:<40}  {:<9}  {:>12}  {}\n", "-", terminal_safe(crop_middle(c.name, 40)),
                       name_width, terminal_safe(c.id), "", plural(c.entries, "entry", "entries"),
                       "not diagnosed: over --max-jobs");
  }
  if (d.not_diagnosed_unlisted > 0) {
    out += fmt::format("  … and {} of further jobs, not diagnosed (over --max-jobs)\n",
                       plural(d.not_diagnosed_unlisted, "entry", "entries"));
  }
  if (!d.not_selected.empty()) {
    uint64_t entries = d.not_selected_unlisted;
    for (const auto& c : d.not_selected) entries += c.entries;
    out += fmt::format("  {} with {} not selected (--job-id, --job-name)\n",
                       plural(d.not_selected.size(), "job", "jobs"), plural(entries, "entry", "entries"));
  }
  for (const auto& job : report.jobs) {
    if (job.verdict == Verdict::kOk) continue;
    const Analysis& jd = *job.diagnosis;
    std::string where;
    if (!jd.job.region.empty()) where += fmt::format(" in {}", terminal_safe(jd.job.region));
    out += fmt::format("\n{}\n", st.bold(fmt::format("━━ {}{}", job_label(jd.job), where)));
    out += fmt::format("  {}, outcome {}{}, time span: {}\n", plural(jd.job.entries, "entry", "entries"),
                       job_outcome_name(jd.job.outcome),
                       jd.job.outcome_source.empty() ? "" : fmt::format(" ({})", terminal_safe(jd.job.outcome_source)),
                       time_span(jd.start, jd.end));
    out += fmt::format("  verdict: {}\n", verdict_text(job, st));
    if (job.history) out += fmt::format("  history: {}\n", terminal_safe(history_summary(job)));
    render_changes_since_green(out, job, st);
    render_job_body(out, job, o, st);
  }
}

}  // namespace

std::string render_text(const RankedReport& report, const RenderOptions& o) {
  const Analysis& d = *report.diagnosis;
  const Style st{o.color};
  std::string out;
  const bool several = report.jobs.size() > 1;
  std::string where;
  if (!d.job.name.empty()) where += fmt::format(" ({})", terminal_safe(d.job.name));
  if (!d.job.region.empty()) where += fmt::format(" in {}", terminal_safe(d.job.region));
  if (!d.job.project.empty()) where += fmt::format(", project {}", terminal_safe(d.job.project));
  const std::string tool = st.bold(fmt::format("gpudiag{} — ", o.deterministic ? "" : " " + o.version));
  if (several) {  // the worst job is named first: it is what the reader came for
    out += fmt::format("{}{} jobs; the worst: job {}{}\n", tool, report.jobs.size(), terminal_safe(d.job.id), where);
  } else {
    const std::string job = d.job.id.empty() ? "job unknown" : fmt::format("job {}", terminal_safe(d.job.id));
    out += fmt::format("{}{}{}\n", tool, job, where);
  }
  out += fmt::format("  {} from {}: {} analysed, {} skipped, {} duplicate{}{}\n", plural(d.entries, "entry", "entries"),
                     plural(d.inputs.size(), "input", "inputs"), d.analysed, d.skipped, d.duplicates,
                     d.duplicates == 1 ? "" : "s",
                     d.duplicates_windowed ? " (duplicates far apart in a huge input may be missed)" : "");
  if (several) {
    std::map<Verdict, size_t> by_verdict;
    for (const auto& job : report.jobs) ++by_verdict[job.verdict];
    std::vector<std::string> counts;
    for (const Verdict v : {Verdict::kFailed, Verdict::kWarning, Verdict::kOk}) {
      if (by_verdict[v] > 0) counts.push_back(fmt::format("{} {}", by_verdict[v], verdict_name(v)));
    }
    out += fmt::format("  jobs: {}\n", fmt::join(counts, ", "));
    out += fmt::format("  verdict: {} (job {})\n", verdict_text(report, st),
                       terminal_safe(d.job.name.empty() ? d.job.id : d.job.name));
  } else {
    out += fmt::format("  time span: {}\n", time_span(d.start, d.end));
    out += fmt::format("  verdict: {}\n", verdict_text(report, st));
  }
  for (const auto& e : d.input_errors) {  // an input not read is said before anything else (docs/formats.md)
    out += fmt::format("  {}: {}: {}\n", st.wrap("1;31", "input not read"),
                       terminal_safe(display_path(e.file, o.deterministic)), terminal_safe(e.message));
  }
  if (o.fail_on) out += fmt::format("  gate: {}\n", gate_line(report, o));
  if (report.history && !several) {
    out += fmt::format("  history: {}\n", terminal_safe(history_summary(report)));
    render_changes_since_green(out, report, st);
  }

  if (several) {
    render_jobs(out, report, o, st);
  } else {
    render_job_body(out, report, o, st);
  }
  if (report.baseline) {
    const BaselineReview& b = *report.baseline;
    out += fmt::format("\n{}\n", st.bold(fmt::format("Baseline {}: {} suppressed, {} stale {}", terminal_safe(b.file),
                                                     plural(b.suppressed, "finding", "findings"), b.stale(),
                                                     b.stale() == 1 ? "entry" : "entries")));
    for (const auto& e : b.entries) {
      if (e.state == BaselineState::kSuppressing) continue;
      out += fmt::format("  {}:{}: {} {} — {}\n", terminal_safe(b.file), e.entry.line, terminal_safe(e.entry.rule_id),
                         baseline_state_name(e.state), stale_reason(e));
    }
  }
  bool any_problem = !d.input_errors.empty();
  for (const auto& in : d.inputs) any_problem = any_problem || in.problems_total > 0;
  if (any_problem) {
    out += fmt::format("\n{}\n", st.bold("Input problems"));
    for (const auto& e : d.input_errors) {
      out += fmt::format("  {}: error: {}\n", terminal_safe(display_path(e.file, o.deterministic)),
                         terminal_safe(e.message));
    }
    for (const auto& in : d.inputs) {
      const std::string path = terminal_safe(display_path(in.path, o.deterministic));
      for (const auto& p : in.problems) {
        const std::string at = p.line > 0 ? fmt::format("{}:{}", path, p.line) : path;
        out += fmt::format("  {}{}: {}{}\n", at, p.offset >= 0 ? fmt::format(" (byte {})", p.offset) : "",
                           p.skipped_entry ? "skipped: " : "", terminal_safe(p.message));
      }
      if (in.problems_total > in.problems.size()) {
        out += fmt::format("  {}: … and {} more problems\n", path, in.problems_total - in.problems.size());
      }
    }
  }
  return out;
}

}  // namespace gpudiag
