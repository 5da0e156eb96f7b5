// The terminal report: the verdict first, then findings (causes with their symptoms indented
// beneath; a cause's evidence before its explanation, which is folded to two lines), the job-wide
// fixes, inconclusive checks, what was skipped, and a legend of the notations used. Prose is
// wrapped to RenderOptions::width; log excerpts never are. --brief and -q are text_brief.cc.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "gpudiag/report.h"
#include "gpudiag/utf8.h"
#include "job_views.h"
#include "text_brief.h"
#include "text_layout.h"
#include "wording.h"

namespace gpudiag {
namespace {

using detail::display_width;
using detail::gate_line;
using detail::plural;
using detail::shown_at;
using detail::stale_reason;
using detail::TextLegend;
using detail::time_ms;
using detail::time_span_ms;
using detail::wrap_prose;

constexpr size_t kExcerptBytes = 220;

struct Style {
  bool on;
  // Each line is styled on its own, reset before its newline: a style never spans a line break, so
  // nothing bleeds into the next line (a pager, `head`, a terminal scrolled in between).
  std::string wrap(std::string_view code, std::string_view text) const {
    if (!on) return std::string(text);
    std::string out;
    for (size_t start = 0;;) {
      const size_t end = std::min(text.find('\n', start), text.size());
      if (end > start) out += fmt::format("\x1b[{}m{}\x1b[0m", code, text.substr(start, end - start));
      if (end == text.size()) return out;
      out += '\n';
      start = end + 1;
    }
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

// The notations the report uses (its legend) travel with the options and style.
struct Out {
  const RenderOptions& o;
  const Style& st;
  TextLegend legend;
  std::string safe(std::string_view text) { return legend.safe(text); }
  // Prose wrapped to the width: the first line after `first`, the others after `indent`.
  std::string prose(std::string_view text, std::string_view first, std::string_view indent) {
    return wrap_prose(text, first, indent, o.width);
  }
  // A status line people and CI logs grep for (verdict, gate, history, path:line: problem): one line.
  static std::string status(std::string_view text, std::string_view first) {
    return fmt::format("{}{}\n", first, text);
  }
};

// The evidence header ("2022-11-28T22:09:27.200Z worker W path:488") and the excerpt beneath it.
void render_evidence(std::string& out, const Analysis& d, const Evidence& e, const std::vector<std::string>& also_in,
                     const std::string& pad, Out& w) {
  const LogRecord& r = e.entry.record();
  const Style& st = w.st;
  out += fmt::format("{}  {} {} {}{}{}\n", pad, st.dim(time_ms(r.timestamp)), r.log.empty() ? "-" : w.safe(r.log),
                     r.worker.empty() ? "" : w.safe(r.worker) + " ", st.dim(w.safe(detail::source_location(d, r, w.o))),
                     also_in.empty()
                         ? ""
                         : st.dim(fmt::format("  (also in: {})", w.safe(fmt::format("{}", fmt::join(also_in, ", "))))));
}

// The excerpt lines of `e`, as logged (never wrapped); returns them, made safe, for callers that look
// for what they hold.
std::vector<std::string> render_excerpt(std::string& out, const Evidence& e, const std::string& pad, Out& w) {
  std::vector<std::string> shown;
  for (const auto& line : detail::excerpt_of(e)) {
    const std::string cropped = detail::excerpt_text(line, e, kExcerptBytes);
    if (line.fold) w.legend.note_cut();
    w.legend.note_cut(cropped, line.text);
    const std::string text = w.safe(cropped);
    out += fmt::format("{}    {}\n", pad, line.fold ? w.st.dim(text) : text);
    shown.push_back(text);
  }
  return shown;
}

void render_finding(std::string& out, const RankedReport& report, const RankedFinding& rf, Out& w) {
  const Analysis& d = *report.analysis;
  const RenderOptions& o = w.o;
  const Style& st = w.st;
  const Finding& f = *rf.finding;
  const std::string indent(static_cast<size_t>(rf.depth) * 4, ' ');
  const std::string pad = indent + "   ";
  out += w.prose(fmt::format("{}. {} {} {}  confidence {:.0f}%{}", rf.rank, st.severity(f.severity),
                             st.bold(w.safe(f.title)), st.dim(fmt::format("({})", f.rule_id)), f.confidence * 100,
                             f.confidence_note.empty() ? "" : fmt::format(" — {}", f.confidence_note)),
                 indent, pad);
  if (rf.caused_by) {
    out += fmt::format("{}{}\n", pad,
                       st.dim(fmt::format("a symptom of #{} {}", report.findings[*rf.caused_by].rank,
                                          report.findings[*rf.caused_by].finding->rule_id)));
  }
  if (rf.baseline_entry) {
    const BaselineEntry& e = report.baseline->entries[*rf.baseline_entry].entry;
    const std::string file = w.safe(display_path(report.baseline->file, o));
    out += fmt::format(
        "{}{}\n", pad,
        st.dim(rf.suppressed ? fmt::format("suppressed by the baseline ({}:{}): {}", file, e.line, w.safe(e.reason))
                             : fmt::format("in the baseline ({}:{}) but the entry expired on {}: not suppressed", file,
                                           e.line, e.expires)));
  }
  if (rf.history) {
    const std::string note = fmt::format("history: {}", history_note(*rf.history));
    out += fmt::format("{}{}\n", pad, rf.history->known ? st.dim(note) : st.bold(note));
  }
  if (f.via == "absence") {
    out += fmt::format("{}found by what is missing; {}\n", pad, time_span_ms(f.first_seen, f.last_seen));
  } else if (f.via == "facts") {
    out += fmt::format("{}found from the job's configuration\n", pad);
  } else {
    out +=
        fmt::format("{}{}, {}{}\n", pad, plural(f.count, "entry", "entries"), time_span_ms(f.first_seen, f.last_seen),
                    f.workers_total == 0 ? "" : fmt::format(", {}", plural(f.workers_total, "worker", "workers")));
  }
  if (rf.caused_by_unexplained) {
    const RankedUnexplained& u = report.unexplained[*rf.caused_by_unexplained];
    out += fmt::format("{}{}\n", pad,
                       st.dim(fmt::format("a symptom of U{} {}", u.rank, w.safe(unexplained_headline(*u.group)))));
  }
  if (rf.depth > 0 || rf.caused_by_unexplained) return;  // symptoms stay short: their cause carries the story
  // The evidence first: it is what this job logged. The rule's explanation after it, folded.
  const size_t shown = std::min(o.evidence_per_finding, f.evidence.size());
  for (size_t i = 0; i < shown; ++i) {
    render_evidence(out, d, f.evidence[i], f.evidence[i].also_in, pad, w);
    render_excerpt(out, f.evidence[i], pad, w);
  }
  if (f.evidence.size() > shown)
    out += fmt::format("{}  … {} more kept in the JSON report\n", pad, f.evidence.size() - shown);
  const std::string pointer = st.dim(fmt::format("(gpudiag explain {} for the rest)", f.rule_id));
  for (const auto& line :
       detail::fold_prose(w.safe(f.description), pad, pad, o.width, 2, fmt::format(" … {}", pointer))) {
    out += line + "\n";
  }
  if (!rf.fixes.empty()) {
    const FindingFix& top = rf.fixes.front();
    out +=
        w.prose(fmt::format("{}{}", w.safe(top.action),
                            rf.fixes.size() > 1 ? st.dim(fmt::format("  (+{} more below)", rf.fixes.size() - 1)) : ""),
                pad + "fix: ", pad + "     ");
  }
}

constexpr size_t kShownGroups = 3;
constexpr size_t kShownChanges = 8;

// "It worked yesterday": the facts that differ from the pipeline's last green run, near the top.
void render_changes_since_green(std::string& out, const RankedReport& report, Out& w) {
  if (!report.changes_since_green) return;
  const ChangesSinceGreen& c = *report.changes_since_green;
  out += fmt::format(
      "  since the last green run (#{}, job {}, {}): {}\n", c.green.run, w.safe(c.green.job_id), time_ms(c.green.time),
      c.changes.empty() ? "no job fact changed" : plural(c.changes.size(), "fact changed", "facts changed"));
  for (size_t i = 0; i < c.changes.size() && i < kShownChanges; ++i) {
    const FactChange& f = c.changes[i];
    const std::string line = f.before.empty()  ? fmt::format("{}: added {}", f.fact, f.after)
                             : f.after.empty() ? fmt::format("{}: removed (was {})", f.fact, f.before)
                                               : fmt::format("{}: {} → {}", f.fact, f.before, f.after);
    const std::string cropped = crop_middle(line, 200);
    w.legend.note_cut(cropped, line);
    out += fmt::format("    {}\n", w.safe(cropped));
  }
  if (c.changes.size() > kShownChanges) {
    out += fmt::format("    {}\n",
                       w.st.dim(fmt::format("… {} more in the JSON report", c.changes.size() - kShownChanges)));
  }
}

// The errors no rule explains (docs/unexplained.md) at or above --min-severity: U1, U2 … with the
// raw exemplar.
void render_unexplained(std::string& out, const RankedReport& report, Out& w) {
  const Analysis& d = *report.analysis;
  const Style& st = w.st;
  std::vector<const RankedUnexplained*> groups;
  for (const auto& u : report.unexplained) {
    if (shown_at(u.severity(), w.o)) groups.push_back(&u);
  }
  if (groups.empty()) return;
  const size_t shown = std::min(kShownGroups, groups.size());
  out += fmt::format("\n{}\n", st.bold(fmt::format("Errors no rule explains ({}{})", groups.size(),
                                                   d.unexplained_groups_total > groups.size()
                                                       ? fmt::format(" of {}", d.unexplained_groups_total)
                                                       : "")));
  for (size_t i = 0; i < shown; ++i) {
    const RankedUnexplained& u = *groups[i];
    const UnexplainedGroup& g = *u.group;
    const std::string pad = "    ";
    out += "\n" + w.prose(fmt::format("U{}. {} {} {}", u.rank, st.severity(u.severity()),
                                      st.bold(w.safe(unexplained_headline(g))), st.dim("(unexplained-error)")),
                          "", pad);
    out += fmt::format("{}{}\n", pad, detail::unexplained_stats(g, true));
    if (u.suppressed) out += fmt::format("{}{}\n", pad, st.dim("suppressed by the baseline"));
    if (u.novelty != Novelty::kNoHistory) out += fmt::format("{}history: {}\n", pad, detail::novelty_note(u.novelty));
    render_evidence(out, d, g.exemplar, g.also_in, pad, w);
    bool exception_shown = g.exception.empty(), frame_shown = !g.user_frame;
    for (const auto& text : render_excerpt(out, g.exemplar, pad, w)) {
      exception_shown = exception_shown || text.find(terminal_safe(g.exception)) != std::string::npos;
      frame_shown = frame_shown || text.find(terminal_safe(g.user_frame->file)) != std::string::npos;
    }
    // A flattened or cut copy (the job message's) holds them somewhere in one long line: say them.
    if (!exception_shown) {
      const std::string cropped = crop_middle(g.exception, kExcerptBytes);
      w.legend.note_cut(cropped, g.exception);
      out += fmt::format("{}    {}\n", pad, w.safe(cropped));
    }
    if (!frame_shown) {
      out += fmt::format("{}    {}\n", pad,
                         w.safe(fmt::format("File \"{}\", line {}, in {}", g.user_frame->file, g.user_frame->line,
                                            g.user_frame->function)));
    }
    // The chain below the error (docs/unexplained.md, "The cause chain"): what an engineer reads next.
    const size_t chain_shown = std::min<size_t>(g.chain.size(), 4);
    for (size_t k = 0; k < chain_shown; ++k) {
      const std::string cropped = crop_middle(g.chain[k], kExcerptBytes);
      w.legend.note_cut(cropped, g.chain[k]);
      out += fmt::format("{}{} {}\n", pad, st.dim(k == 0 ? "chain:" : "      "), w.safe(cropped));
    }
    if (g.chain.size() > chain_shown)
      out += fmt::format("{}       {}\n", pad,
                         st.dim(fmt::format("… {} more in the JSON report", g.chain.size() - chain_shown)));
    if (!u.symptoms.empty())
      out += fmt::format("{}explains: {}\n", pad, fmt::join(detail::unexplained_explains(report, u), ", "));
    if (const int by = detail::named_as_cause_by(report, u); by > 0)
      out += fmt::format("{}the cause U{} names (logged before it by the same worker)\n", pad, by);
    // One line: the command in it is copied whole.
    out += Out::status(st.dim(fmt::format("fingerprint {} (a rule stub: gpudiag patterns suggest {} PATH…)",
                                          g.fingerprint, g.fingerprint)),
                       pad);
  }
  if (groups.size() > shown) {
    out += fmt::format("  … {} more in the JSON report\n", plural(groups.size() - shown, "group", "groups"));
  }
}

// What --min-severity hid: "2 findings and 1 unexplained error group below error not shown".
std::string hidden_note(const RankedReport& report, const RenderOptions& o) {
  if (!o.min_severity) return "";
  size_t findings = 0, groups = 0;
  for (const auto& rf : report.findings) findings += shown_at(rf.finding->severity, o) ? 0 : 1;
  for (const auto& u : report.unexplained) groups += shown_at(u.severity(), o) ? 0 : 1;
  if (findings + groups == 0) return "";
  std::vector<std::string> parts;
  if (findings > 0) parts.push_back(plural(findings, "finding", "findings"));
  if (groups > 0) parts.push_back(plural(groups, "unexplained error group", "unexplained error groups"));
  return fmt::format("{} below {} not shown (--min-severity {}; --format json lists them)", fmt::join(parts, " and "),
                     impact_name(*o.min_severity), impact_name(*o.min_severity));
}

// One job's findings, fixes and inconclusive checks.
void render_job_body(std::string& out, const RankedReport& report, Out& w) {
  const Analysis& d = *report.analysis;
  const RenderOptions& o = w.o;
  const Style& st = w.st;
  if (const std::string hidden = hidden_note(report, o); !hidden.empty()) {
    out += "\n" + w.prose(st.dim(hidden), "", "");
  }
  // An error no rule explains that is the likely cause comes first: it is what the reader came for.
  const bool groups_first = detail::unexplained_first(report);
  if (groups_first) render_unexplained(out, report, w);
  const auto shown_finding = [&](const RankedFinding& rf) { return shown_at(rf.finding->severity, o); };
  const size_t findings = std::count_if(report.findings.begin(), report.findings.end(), shown_finding);
  if (findings > 0) {
    out += fmt::format("\n{}\n", st.bold(fmt::format("Findings ({}), most likely cause first", findings)));
    for (const auto& rf : report.findings) {
      if (!shown_finding(rf)) continue;
      if (rf.depth == 0) out += '\n';
      render_finding(out, report, rf, w);
    }
  }
  if (!report.fixes.empty()) {
    // The fixes of root causes; what only a folded symptom proposes waits in the JSON and HTML
    // reports, so the list stays about what to do first. Those of causes --min-severity hides wait too.
    const auto proposed_by = [&](const RankedFix& fix, bool shown) {
      if (detail::is_first_step(fix)) return true;  // an error group's: the groups are the causes shown
      return std::any_of(fix.for_rules.begin(), fix.for_rules.end(), [&](const std::string& id) {
        return std::any_of(report.findings.begin(), report.findings.end(), [&](const RankedFinding& rf) {
          return detail::is_root_cause(rf) && rf.finding->rule_id == id && (!shown || shown_finding(rf));
        });
      });
    };
    size_t symptom_only = 0, hidden = 0;
    std::string list;
    int shown = 0;
    for (const auto& fix : report.fixes) {
      if (!proposed_by(fix, false)) {
        ++symptom_only;
        continue;
      }
      if (!proposed_by(fix, true)) {
        ++hidden;
        continue;
      }
      const std::string number = fmt::format("  {}. ", ++shown);
      list += w.prose(w.safe(detail::fix_action(fix, o)), number, "     ");
      // One line, never wrapped: a command pastes only whole.
      if (!fix.command.empty())
        list += fmt::format("     {} {}\n", st.dim(detail::command_label(fix.command)), w.safe(fix.command));
      for (const auto& why : fix.reasons) list += w.prose(w.safe(why), "     why: ", "          ");
      list += w.prose(st.dim(fmt::format("rank: {}", w.safe(fix.rank_reason))), "     ", "           ");
      const detail::CitationText doc = detail::citation(fix.doc, o);  // in --lang
      list += fmt::format("     doc: {}{}\n          {}\n", doc.label,
                          doc.in_english.empty() ? "" : " (" + doc.in_english + ")", doc.url);
    }
    if (shown > 0 || symptom_only > 0 || hidden > 0) out += fmt::format("\n{}\n", st.bold("Fixes, best first"));
    out += list;
    if (symptom_only > 0) {
      out += w.prose(fmt::format("… and {} for the symptoms only (--format json or html lists them)",
                                 plural(symptom_only, "fix", "fixes")),
                     "  ", "    ");
    }
    if (hidden > 0) {
      out += w.prose(fmt::format("… and {} for the findings --min-severity hides", plural(hidden, "fix", "fixes")),
                     "  ", "    ");
    }
    // Fixes the job's facts rule out (`needs:`): named by count, so their absence is not a surprise.
    size_t not_applicable = 0;
    for (const auto& rf : report.findings) {
      if (detail::is_root_cause(rf) && shown_finding(rf)) not_applicable += rf.fixes_not_applicable.size();
    }
    if (not_applicable > 0) {
      out += w.prose(fmt::format("… and {} that do not fit this job (--format json says why)",
                                 plural(not_applicable, "fix", "fixes")),
                     "  ", "    ");
    }
  }
  if (!groups_first && !report.unexplained.empty()) {
    if (report.verdict == Verdict::kOk) {  // a healthy job's error chatter: noted, not shown
      out += "\n" + w.prose(st.dim(fmt::format("{} that no rule explains, none before a failure (--format json lists "
                                               "them)",
                                               plural(d.unexplained_groups_total, "error group", "error groups"))),
                            "", "");
    } else {
      render_unexplained(out, report, w);
    }
  }
  if (!d.inconclusive.empty()) {
    out += fmt::format("\n{}\n", st.bold("Inconclusive (not findings: the export cannot tell)"));
    for (const auto& i : d.inconclusive) {
      out += w.prose(fmt::format("{} ({}): {}", i.title, i.rule_id, w.safe(i.reason)), "  - ", "    ");
    }
  }
}

std::string verdict_text(const RankedReport& report, std::string_view line, const Style& st) {
  const bool red = report.verdict == Verdict::kFailed || report.verdict == Verdict::kIncomplete;
  const bool yellow = report.verdict == Verdict::kWarning || report.verdict == Verdict::kEmpty;
  return red ? st.wrap("1;31", line) : yellow ? st.wrap("1;33", line) : st.wrap("1;32", line);
}

std::string verdict_text(const RankedReport& report, const Style& st) {
  return verdict_text(report, terminal_safe(report.verdict_line), st);
}

// The brief's colours are the report's.
class StylePaint : public detail::TextPaint {
 public:
  explicit StylePaint(const Style& st) : st_(st) {}
  std::string bold(std::string_view text) const override { return st_.bold(text); }
  std::string dim(std::string_view text) const override { return st_.dim(text); }
  std::string severity(Impact impact) const override { return st_.severity(impact); }
  std::string verdict(const RankedReport& report, std::string_view text) const override {
    return verdict_text(report, text, st_);
  }

 private:
  const Style& st_;
};

std::string job_label(const JobInfo& job) {
  std::string out = job.id.empty() ? "entries of no job" : fmt::format("job {}", terminal_safe(job.id));
  if (!job.name.empty()) out += fmt::format(" ({})", terminal_safe(job.name));
  return out;
}

// Several jobs: one line per job, worst first, then the jobs that are not ok in full.
void render_jobs(std::string& out, const RankedReport& report, Out& w) {
  const Analysis& d = *report.analysis;
  const Style& st = w.st;
  out += fmt::format("\n{}\n", st.bold(fmt::format("Jobs ({}), worst first", detail::jobs_count(report))));
  size_t name_width = 4;
  for (const auto& job : report.jobs) name_width = std::max(name_width, job.analysis->job.name.size());
  name_width = std::min<size_t>(name_width, 40);
  for (const auto& job : report.jobs) {
    const JobInfo& info = job.analysis->job;
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
    out +=
        fmt::format("  {:<8} {:<{}}  {:<40}  {:<9}  {:>12}  {}\n", st.bold(verdict), w.safe(crop_middle(info.name, 40)),
                    name_width, info.id.empty() ? "(no job id)" : w.safe(info.id), job_outcome_name(info.outcome),
                    plural(info.entries, "entry", "entries"), w.safe(cause));
  }
  if (const std::string line = detail::unlisted_jobs_line(report); !line.empty()) {
    out += fmt::format("  … {}\n", w.safe(line));
  }
  for (const auto& c : d.not_diagnosed) {
    out += fmt::format("  {:<8} {:<{}}  {:<40}  {:<9}  {:>12}  {}\n", "-", w.safe(crop_middle(c.name, 40)), name_width,
                       w.safe(c.id), "", plural(c.entries, "entry", "entries"), "not diagnosed: over --max-jobs");
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
    const Analysis& jd = *job.analysis;
    std::string where;
    if (!jd.job.region.empty()) where += fmt::format(" in {}", w.safe(jd.job.region));
    out += fmt::format("\n{}\n", st.bold(fmt::format("━━ {}{}", job_label(jd.job), where)));
    out +=
        w.status(fmt::format("{}, outcome {}{}, time span: {}", plural(jd.job.entries, "entry", "entries"),
                             job_outcome_name(jd.job.outcome),
                             jd.job.outcome_source.empty() ? "" : fmt::format(" ({})", w.safe(jd.job.outcome_source)),
                             time_span_ms(jd.start, jd.end)),
                 "  ");
    out += w.status(verdict_text(job, st), "  verdict: ");
    if (job.history) out += w.status(w.safe(history_summary(job)), "  history: ");
    render_changes_since_green(out, job, w);
    render_job_body(out, job, w);
  }
}

}  // namespace

std::string render_text(const RankedReport& report, const RenderOptions& o) {
  const Analysis& d = *report.analysis;
  const Style st{o.color};
  if (o.text_detail == TextDetail::kVerdict) return detail::render_text_verdict(report, o, StylePaint(st));
  if (o.text_detail == TextDetail::kBrief) return detail::render_text_brief(report, o, StylePaint(st));
  Out w{o, st, {}};
  std::string out;
  const bool several = report.jobs.size() > 1;
  std::string where;
  if (!d.job.name.empty()) where += fmt::format(" ({})", w.safe(d.job.name));
  if (!d.job.region.empty()) where += fmt::format(" in {}", w.safe(d.job.region));
  if (!d.job.project.empty()) where += fmt::format(", project {}", w.safe(d.job.project));
  const std::string tool = st.bold(fmt::format("gpudiag{} — ", o.deterministic ? "" : " " + o.version));
  if (several) {  // the worst job is named first: it is what the reader came for
    out += w.status(fmt::format("{}{} jobs; the worst: job {}{}", tool, report.jobs.size() + d.unlisted_jobs.jobs,
                                w.safe(d.job.id), where),
                    "");
  } else if (d.preflight) {
    out += w.status(fmt::format("{}preflight of a job's launch options", tool), "");
  } else {
    const std::string job = d.job.id.empty() ? "job unknown" : fmt::format("job {}", w.safe(d.job.id));
    out += w.status(fmt::format("{}{}{}", tool, job, where), "");
  }
  if (d.preflight) {
    out += w.status(fmt::format("{} from {}", plural(d.launch_options, "option", "options"),
                                plural(d.inputs.size(), "source", "sources")),
                    "  ");
  } else {
    out += w.status(fmt::format("{} from {}: {} analysed, {} skipped, {} duplicate{}{}",
                                plural(d.entries, "entry", "entries"), plural(d.inputs.size(), "input", "inputs"),
                                d.analysed, d.skipped, d.duplicates, d.duplicates == 1 ? "" : "s",
                                d.duplicates_windowed ? " (duplicates far apart in a huge input may be missed)" : ""),
                    "  ");
    for (const auto& note : o.header_notes) out += w.status(w.safe(note), "  ");
    SummaryRowCounts source;
    for (const auto& in : d.inputs) source.add(in.summary_rows);
    if (source.rows > 0) {  // the rows came from `gpudiag sql`: say what the table held beside them
      out += w.status(
          fmt::format(
              "the query's source: {} of {}, {} returned{}", plural(source.source_entries, "entry", "entries"),
              plural(source.rows, "job", "jobs"), source.returned,
              source.capped > 0 ? fmt::format(", {} left out by the per-job row cap", source.capped) : std::string()),
          "  ");
    }
  }
  if (several) {
    std::map<Verdict, size_t> by_verdict;
    for (const auto& job : report.jobs) ++by_verdict[job.verdict];
    by_verdict[Verdict::kFailed] += d.unlisted_jobs.failed;  // the jobs past the list count too
    by_verdict[Verdict::kWarning] += d.unlisted_jobs.warning;
    by_verdict[Verdict::kOk] += d.unlisted_jobs.ok;
    std::vector<std::string> counts;
    for (const Verdict v : {Verdict::kFailed, Verdict::kWarning, Verdict::kOk}) {
      if (by_verdict[v] > 0) counts.push_back(fmt::format("{} {}", by_verdict[v], verdict_name(v)));
    }
    out += fmt::format("  jobs: {}\n", fmt::join(counts, ", "));
    out += w.status(
        fmt::format("{} (job {})", verdict_text(report, st), w.safe(d.job.name.empty() ? d.job.id : d.job.name)),
        "  verdict: ");
  } else {
    if (!d.preflight) out += fmt::format("  time span: {}\n", time_span_ms(d.start, d.end));
    out += w.status(verdict_text(report, st), "  verdict: ");
  }
  for (const auto& e : d.input_errors) {  // an input not read is said before anything else (docs/formats.md)
    out += w.status(fmt::format("{}: {}: {}", st.wrap("1;31", "input not read in full"),
                                w.safe(display_path(e.file, o)), w.safe(e.message)),
                    "  ");
  }
  if (o.fail_on) out += w.status(gate_line(report, o), "  gate: ");
  if (report.history && !several) {
    out += w.status(w.safe(history_summary(report)), "  history: ");
    render_changes_since_green(out, report, w);
  }

  if (several) {
    render_jobs(out, report, w);
  } else {
    render_job_body(out, report, w);
  }
  if (report.baseline) {
    const BaselineReview& b = *report.baseline;
    const std::string file = w.safe(display_path(b.file, o));
    out += fmt::format("\n{}\n", st.bold(fmt::format("Baseline {}: {} suppressed, {} stale {}", file,
                                                     plural(b.suppressed, "finding", "findings"), b.stale(),
                                                     b.stale() == 1 ? "entry" : "entries")));
    for (const auto& e : b.entries) {
      if (e.state == BaselineState::kSuppressing) continue;
      out += w.status(fmt::format("{}:{}: {} {} — {}", file, e.entry.line, w.safe(e.entry.rule_id),
                                  baseline_state_name(e.state), stale_reason(e)),
                      "  ");
    }
  }
  bool any_problem = !d.input_errors.empty();
  for (const auto& in : d.inputs) any_problem = any_problem || in.problems_total > 0;
  if (any_problem) {
    // preflight reads no logs: what it lists there are notes on the options (placeholders, $VARS,
    // names nobody knows, what it could not read and the tables' dates)
    out += fmt::format("\n{}\n", st.bold(d.preflight ? "Notes on the launch options" : "Input problems"));
    for (const auto& e : d.input_errors) {
      out += w.status(fmt::format("{}: error: {}", w.safe(display_path(e.file, o)), w.safe(e.message)), "  ");
    }
    for (const auto& in : d.inputs) {
      const std::string path = w.safe(display_path(in.path, o));
      for (const auto& p : in.problems) {
        const std::string at = p.line > 0 ? fmt::format("{}:{}", path, p.line) : path;
        out += w.status(fmt::format("{}{}: {}{}", at, p.offset >= 0 ? fmt::format(" (byte {})", p.offset) : "",
                                    p.skipped_entry ? "skipped: " : "", w.safe(p.message)),
                        "  ");
      }
      if (in.problems_total > in.problems.size()) {
        out += fmt::format("  {}: … and {} more problems\n", path, in.problems_total - in.problems.size());
      }
    }
  }
  if (const std::string legend = w.legend.line(o.width); !legend.empty()) out += "\n" + st.dim(legend);
  return out;
}

}  // namespace gpudiag
