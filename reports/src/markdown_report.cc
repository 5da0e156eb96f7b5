// Markdown for a pull-request comment or $GITHUB_STEP_SUMMARY: the verdict first, root causes with
// their symptoms folded beneath, evidence in <details>, the ranked fixes with links. It stays under
// RenderOptions::markdown_max_bytes: evidence is what gets cut first, with a note saying so.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gpudiag/formats.h"
#include "job_views.h"
#include "wording.h"

namespace gpudiag {
namespace {

using detail::plural;
using detail::time_span;
using detail::upper;

constexpr size_t kLineBytes = 400;  // one log line in a code block
constexpr size_t kProblemsShown = 20;

std::string_view severity_icon(Impact i) {
  switch (i) {
    case Impact::kCritical:
      return "🟣";
    case Impact::kError:
      return "🔴";
    case Impact::kWarning:
      return "🟡";
    case Impact::kInfo:
      return "🔵";
  }
  return "";
}

// In the report's language (--lang), marked when left in English.
std::string doc_link(const DocLink& doc, const RenderOptions& o) {
  const detail::CitationText c = detail::citation(doc, o);
  const std::string text = markdown_escape(c.label);
  const std::string url = detail::safe_url(c.url);
  return (url.empty() ? text : fmt::format("[{}]({})", text, url)) +
         (c.in_english.empty() ? "" : " (" + markdown_escape(c.in_english) + ")");
}

std::string finding_stats(const Finding& f) {
  if (f.via == "absence") return fmt::format("found by what is missing · {}", time_span(f.first_seen, f.last_seen));
  if (f.via == "facts") return "found from the job's configuration";
  std::string s = fmt::format("{} · {}", plural(f.count, "entry", "entries"), time_span(f.first_seen, f.last_seen));
  if (f.workers_total > 0) s += " · " + plural(f.workers_total, "worker", "workers");
  return s;
}

std::string baseline_note(const RankedReport& report, const RankedFinding& rf) {
  if (!rf.baseline_entry) return "";
  const BaselineEntry& e = report.baseline->entries[*rf.baseline_entry].entry;
  const std::string where = markdown_code_span(fmt::format("{}:{}", report.baseline->file, e.line));
  if (!rf.suppressed)
    return fmt::format("> ⏰ In the baseline ({}) but expired on {}: not suppressed.\n\n", where, e.expires);
  return fmt::format("> 🔕 **Suppressed** by the baseline ({}): {}\n\n", where, markdown_escape(e.reason));
}

// The part of a root cause that is always shown: header, description, symptoms, its best fix.
std::string finding_head(const RankedReport& report, size_t index) {
  const RankedFinding& rf = report.findings[index];
  const Finding& f = *rf.finding;
  std::string out =
      fmt::format("#### {}. {} {} — {}{}\n\n", rf.rank, severity_icon(f.severity), upper(impact_name(f.severity)),
                  markdown_prose(f.title), rf.suppressed ? " (suppressed)" : "");
  out += fmt::format("{} · confidence {:.0f}% · {}\n\n", markdown_code_span(f.rule_id), f.confidence * 100,
                     markdown_escape(finding_stats(f)));
  if (rf.caused_by_unexplained) {
    const RankedUnexplained& u = report.unexplained[*rf.caused_by_unexplained];
    out += fmt::format("↳ A symptom of **U{}** {}\n\n", u.rank, markdown_escape(unexplained_headline(*u.group)));
  }
  out += baseline_note(report, rf);
  if (rf.history)
    out += fmt::format("> {} {}\n\n", rf.history->known ? "🔁" : "🆕", markdown_escape(history_note(*rf.history)));
  out += markdown_prose(f.description) + "\n\n";
  if (!rf.symptoms.empty()) {
    out += "Symptoms folded under it:\n\n";
    for (size_t i = index + 1; i < report.findings.size() && report.findings[i].depth > 0; ++i) {
      const RankedFinding& s = report.findings[i];
      out += fmt::format("{}- {}. {} {} {} · {}{}\n", std::string(static_cast<size_t>(s.depth - 1) * 2, ' '), s.rank,
                         severity_icon(s.finding->severity), markdown_prose(s.finding->title),
                         markdown_code_span(s.finding->rule_id), markdown_escape(finding_stats(*s.finding)),
                         s.suppressed ? " · suppressed" : "");
    }
    out += "\n";
  }
  return out;
}

std::string finding_fix(const RankedFinding& rf, const RenderOptions& o) {
  if (rf.fixes.empty()) return "";
  const FindingFix& top = rf.fixes.front();
  return fmt::format("**Fix:** {} ({}){}\n\n", markdown_prose(detail::fix_action(top, o)), doc_link(top.doc, o),
                     rf.fixes.size() > 1 ? fmt::format(" — {} more below", rf.fixes.size() - 1) : "");
}

std::string evidence_block(const Analysis& d, const Finding& f, const RenderOptions& o) {
  if (f.evidence.empty()) return "";
  std::string out = fmt::format("<details><summary>Evidence: {}{}</summary>\n\n", plural(f.count, "entry", "entries"),
                                f.count > f.evidence.size() ? fmt::format(", {} shown", f.evidence.size()) : "");
  for (const auto& e : f.evidence) {
    const LogRecord& r = e.entry.record();
    out += fmt::format("{} · {} · {}{}{}\n\n", markdown_code_span(detail::source_location(d, r, o)),
                       format_rfc3339(r.timestamp), markdown_escape(r.log.empty() ? "-" : r.log),
                       r.worker.empty() ? "" : fmt::format(" · {}", markdown_code_span(r.worker)),
                       e.also_in.empty() ? "" : fmt::format(" · also in: {}", markdown_escape(detail::also_in(e))));
    std::string text;
    for (const auto& line : detail::excerpt_of(e)) {
      text += (text.empty() ? "" : "\n") + detail::excerpt_text(line, e, kLineBytes);
    }
    out += markdown_code_block(text) + "\n";
  }
  return out + "</details>\n\n";
}

constexpr size_t kShownGroups = 3;  // as in the text report; the JSON and HTML reports have them all
constexpr size_t kListedWorkers = 5;

// One error no rule explains: headline, counts, workers, time, the raw exemplar and what it explains.
std::string unexplained_group(const RankedReport& report, const RankedUnexplained& u, const RenderOptions& o) {
  const Analysis& d = *report.analysis;
  const UnexplainedGroup& g = *u.group;
  std::string out =
      fmt::format("#### U{}. {} {} — {}{}\n\n", u.rank, severity_icon(u.severity()), upper(impact_name(u.severity())),
                  markdown_escape(unexplained_headline(g)), u.suppressed ? " (suppressed)" : "");
  out +=
      fmt::format("{} · {}\n\n", markdown_code_span(kUnexplainedRuleId), markdown_escape(detail::unexplained_stats(g)));
  if (!g.workers.empty()) {
    std::string names;
    for (size_t i = 0; i < g.workers.size() && i < kListedWorkers; ++i)
      names += (names.empty() ? "" : ", ") + markdown_code_span(g.workers[i]);
    const size_t listed = std::min(g.workers.size(), kListedWorkers);
    out += fmt::format("Workers: {}{}  \n", names,
                       g.workers_total > listed ? fmt::format(" … of {}", g.workers_total) : "");
  }
  out += fmt::format("First seen {}, last seen {}\n\n", g.first_seen == kNoTime ? "—" : format_rfc3339(g.first_seen),
                     g.last_seen == kNoTime ? "—" : format_rfc3339(g.last_seen));
  if (u.baseline_entry) {
    const BaselineEntry& e = report.baseline->entries[*u.baseline_entry].entry;
    const std::string where = markdown_code_span(fmt::format("{}:{}", report.baseline->file, e.line));
    out += u.suppressed
               ? fmt::format("> 🔕 **Suppressed** by the baseline ({}): {}\n\n", where, markdown_escape(e.reason))
               : fmt::format("> ⏰ In the baseline ({}) but expired on {}: not suppressed.\n\n", where, e.expires);
  }
  if (u.novelty != Novelty::kNoHistory) {
    out += fmt::format("> {} {}\n\n", u.novelty == Novelty::kNew ? "🆕" : "🔁",
                       markdown_escape(detail::novelty_note(u.novelty)));
  }
  const Evidence& e = g.exemplar;
  const LogRecord& r = e.entry.record();
  out += fmt::format("{} · {} · {}{}{}\n\n", markdown_code_span(detail::source_location(d, r, o)),
                     format_rfc3339(r.timestamp), markdown_escape(r.log.empty() ? "-" : r.log),
                     r.worker.empty() ? "" : fmt::format(" · {}", markdown_code_span(r.worker)),
                     g.also_in.empty() ? ""
                                       : fmt::format(" · also in: {}",
                                                     markdown_escape(fmt::format("{}", fmt::join(g.also_in, ", ")))));
  std::string text;  // the raw exemplar, not the masked template: it is what the reader searches for
  for (const auto& line : detail::excerpt_of(e)) {
    if (!text.empty()) text += '\n';
    text += detail::excerpt_text(line, e, kLineBytes);
  }
  out += markdown_code_block(text) + "\n";
  if (!u.symptoms.empty()) {
    out += "Explains:\n\n";
    for (size_t i : u.symptoms) {
      const RankedFinding& s = report.findings[i];
      out += fmt::format("- {}. {} {} {}\n", s.rank, severity_icon(s.finding->severity),
                         markdown_prose(s.finding->title), markdown_code_span(s.finding->rule_id));
    }
    out += "\n";
  }
  if (const int by = detail::named_as_cause_by(report, u); by > 0)
    out += fmt::format("The cause U{} names (logged before it by the same worker).\n\n", by);
  out += fmt::format("Fingerprint {}\n\n", markdown_code_span(g.fingerprint));
  return out;
}

// The errors no rule explains, the most likely cause first (at most kShownGroups); a healthy job's
// error chatter (verdict ok, none at error) is one line. `heading`: the section's own heading, which
// a several-job report's other jobs go without.
std::string unexplained_section(const RankedReport& report, const RenderOptions& o, bool heading) {
  if (report.unexplained.empty()) return "";
  const Analysis& d = *report.analysis;
  if (!detail::unexplained_first(report) && report.verdict == Verdict::kOk) {
    return fmt::format("{} that no rule explains, none before a failure (the JSON report lists them).\n\n",
                       plural(d.unexplained_groups_total, "Error group", "Error groups"));
  }
  std::string out;
  if (heading) {
    out += fmt::format("### Errors no rule explains ({}{})\n\n", report.unexplained.size(),
                       d.unexplained_groups_total > report.unexplained.size()
                           ? fmt::format(" of {}", d.unexplained_groups_total)
                           : "");
  }
  const size_t shown = std::min(kShownGroups, report.unexplained.size());
  for (size_t i = 0; i < shown; ++i) out += unexplained_group(report, report.unexplained[i], o);
  if (report.unexplained.size() > shown) {
    out += fmt::format("… and {} (the HTML and JSON reports list them).\n\n",
                       plural(report.unexplained.size() - shown, "more group", "more groups"));
  }
  return out;
}

std::string fixes_section(const RankedReport& report, const RenderOptions& o) {
  if (report.fixes.empty()) return "";
  std::string out = "### Fixes, best first\n\n";
  for (const auto& fix : report.fixes) {
    out += fmt::format("{}. **{}**{}  \n", fix.rank, markdown_prose(detail::fix_action(fix, o)),
                       fix.demoted ? " (already in place)" : "");
    if (!fix.command.empty())
      out += fmt::format("   {} {}  \n", detail::command_label(fix.command), markdown_code_span(fix.command));
    for (const auto& why : fix.reasons) out += fmt::format("   {}  \n", markdown_prose(why));
    std::string rules;
    for (const auto& r : fix.for_rules) rules += (rules.empty() ? "" : ", ") + markdown_code_span(r);
    out += fmt::format("   for {} · {}\n", rules, doc_link(fix.doc, o));
  }
  return out + "\n";
}

std::string baseline_section(const RankedReport& report) {
  if (!report.baseline) return "";
  const BaselineReview& b = *report.baseline;
  std::string out =
      fmt::format("### Baseline {}\n\n{} suppressed, {} stale {}.\n\n", markdown_code_span(b.file),
                  plural(b.suppressed, "finding", "findings"), b.stale(), b.stale() == 1 ? "entry" : "entries");
  for (const auto& e : b.entries) {
    if (e.state == BaselineState::kSuppressing) continue;
    out += fmt::format("- {} {} **{}**: {}\n", markdown_code_span(fmt::format("{}:{}", b.file, e.entry.line)),
                       markdown_code_span(e.entry.rule_id), baseline_state_name(e.state),
                       markdown_escape(detail::stale_reason(e)));
  }
  return out + "\n";
}

std::string skipped_section(const Analysis& d, const RenderOptions& o) {
  std::string out;
  if (!d.inconclusive.empty()) {
    out += "### Inconclusive\n\nNot findings: the export cannot tell.\n\n";
    for (const auto& i : d.inconclusive) {
      out += fmt::format("- **{}** ({}): {}\n", markdown_prose(i.title), markdown_code_span(i.rule_id),
                         markdown_prose(i.reason));
    }
    out += "\n";
  }
  std::string problems;
  size_t shown = 0, total = d.input_errors.size();
  for (const auto& e : d.input_errors) {
    problems +=
        fmt::format("- {}: error: {}\n", markdown_code_span(display_path(e.file, o)), markdown_escape(e.message));
  }
  for (const auto& in : d.inputs) {
    total += in.problems_total;
    for (const auto& p : in.problems) {
      if (shown++ >= kProblemsShown) break;
      const std::string path = display_path(in.path, o);
      problems +=
          fmt::format("- {}: {}{}\n", markdown_code_span(p.line > 0 ? fmt::format("{}:{}", path, p.line) : path),
                      p.skipped_entry ? "skipped: " : "", markdown_escape(p.message));
    }
  }
  if (total > 0) {
    out += fmt::format("<details><summary>Input problems: {}</summary>\n\n{}{}\n</details>\n\n", total, problems,
                       total > shown + d.input_errors.size() ? "- … more in the JSON report\n" : "");
  }
  return out;
}

std::string_view verdict_icon(Verdict v) {
  return v == Verdict::kFailed || v == Verdict::kIncomplete ? "❌"
         : v == Verdict::kWarning || v == Verdict::kEmpty   ? "⚠️"
                                                            : "✅";
}

std::string job_span(const JobInfo& j) {
  std::string job = j.id.empty() ? "job unknown" : "job " + markdown_code_span(j.id);
  if (!j.name.empty()) job += " **" + markdown_escape(j.name) + "**";
  return job;
}

constexpr size_t kJobRows = 50;  // rows of the jobs table; the JSON report lists every job

// With several jobs: one row per job, worst first (id, name, outcome, verdict, top cause, entries).
std::string jobs_table(const RankedReport& report) {
  const Analysis& d = *report.analysis;
  std::string out = fmt::format(
      "### Jobs ({})\n\n| Job | Name | Outcome | Verdict | Top cause | Entries |\n"
      "|---|---|---|---|---|---:|\n",
      detail::jobs_count(report));
  for (size_t i = 0; i < report.jobs.size() && i < kJobRows; ++i) {
    const RankedReport& job = report.jobs[i];
    const JobInfo& j = job.analysis->job;
    const std::string cause = detail::top_cause(job);
    out += fmt::format("| {} | {} | {} | {} {} | {} | {} |\n", j.id.empty() ? "—" : markdown_code_span(j.id),
                       markdown_escape(j.name), job_outcome_name(j.outcome), verdict_icon(job.verdict),
                       verdict_name(job.verdict), cause.empty() ? "—" : markdown_escape(cause), j.entries);
  }
  out += "\n";
  if (report.jobs.size() > kJobRows) {
    out += fmt::format("… and {} (the JSON report lists them).\n\n",
                       plural(report.jobs.size() - kJobRows, "more job", "more jobs"));
  }
  if (const std::string line = detail::unlisted_jobs_line(report); !line.empty()) {
    out += fmt::format("{}.\n\n", markdown_prose(line));
  }
  if (!d.not_diagnosed.empty()) {
    out += fmt::format("{} not diagnosed (over --max-jobs).\n\n", plural(d.not_diagnosed.size(), "job", "jobs"));
  }
  if (!d.not_selected.empty()) {
    out += fmt::format("{} not selected (--job-id, --job-name).\n\n", plural(d.not_selected.size(), "job", "jobs"));
  }
  return out;
}

// Another job shown in full (not the worst, whose findings lead the summary): its root causes and
// their best fixes; evidence stays in the HTML and JSON reports.
std::string job_section(const RankedReport& job, const RenderOptions& o) {
  std::string out = fmt::format("### {} {}: {}\n\n", verdict_icon(job.verdict), job_span(job.analysis->job),
                                markdown_prose(job.verdict_line));
  const bool groups_first = detail::unexplained_first(job);
  if (groups_first) out += unexplained_section(job, o, false);
  for (size_t i = 0; i < job.findings.size(); ++i) {
    if (job.findings[i].depth > 0) continue;
    out += finding_head(job, i) + finding_fix(job.findings[i], o);
  }
  if (!groups_first) out += unexplained_section(job, o, false);
  return out;
}

}  // namespace

std::string render_markdown(const RankedReport& report, const RenderOptions& o) {
  const Analysis& d = *report.analysis;
  const std::string_view icon = verdict_icon(report.verdict);
  std::string head = fmt::format("## {} gpudiag: {}\n\n", icon, markdown_prose(report.verdict_line));
  std::string job = d.job.id.empty() ? "job unknown" : "job " + markdown_code_span(d.job.id);
  if (!d.job.name.empty()) job += " **" + markdown_escape(d.job.name) + "**";
  if (!d.job.region.empty()) job += " in " + markdown_escape(d.job.region);
  if (!d.job.project.empty()) job += ", project " + markdown_escape(d.job.project);
  head +=
      fmt::format("{}  \n{} from {}: {} analysed, {} skipped, {} · {}\n\n", job, plural(d.entries, "entry", "entries"),
                  plural(d.inputs.size(), "input", "inputs"), d.analysed, d.skipped,
                  plural(d.duplicates, "duplicate", "duplicates"), markdown_escape(time_span(d.start, d.end)));
  // Input problems as docs/formats.md defines them: an input not read is an error box (a GitHub
  // alert), skipped or cropped entries a note; both are listed under "Input problems".
  if (!d.input_errors.empty()) {
    head += fmt::format("> [!CAUTION]\n> **{} not read in full**; this summary covers only what was read.\n",
                        plural(d.input_errors.size(), "input", "inputs"));
    for (const auto& e : d.input_errors) {
      head += fmt::format("> - {}: {}\n", markdown_code_span(display_path(e.file, o)), markdown_escape(e.message));
    }
    head += "\n";
  }
  uint64_t problems = 0;
  for (const auto& in : d.inputs) problems += in.problems_total;
  if (problems > 0) {
    head += fmt::format("> [!NOTE]\n> {} in the input ({} skipped), listed under Input problems.\n\n",
                        plural(problems, "problem", "problems"), plural(d.skipped, "entry", "entries"));
  }
  if (o.fail_on) {
    const bool tripped = trips_gate(report, *o.fail_on) || !gate_refusal(report, o.allow_empty).empty();
    head += fmt::format("**Gate** {} {}\n\n", tripped ? "❌" : "✅", markdown_prose(detail::gate_line(report, o)));
  }
  if (report.changes_since_green && !report.changes_since_green->changes.empty()) {
    const ChangesSinceGreen& c = *report.changes_since_green;
    head += fmt::format("**Since the last green run** (#{}, job {}):\n\n| fact | before | after |\n|---|---|---|\n",
                        c.green.run, markdown_code_span(c.green.job_id));
    // markdown_escape, not code spans: it escapes `|`, which would end a table cell even inside one.
    for (const FactChange& f : c.changes) {
      head += fmt::format("| {} | {} | {} |\n", markdown_escape(f.fact),
                          f.before.empty() ? "—" : markdown_escape(crop_middle(f.before, 120)),
                          f.after.empty() ? "—" : markdown_escape(crop_middle(f.after, 120)));
    }
    head += "\n";
  }
  // The fixes right after the verdict: what to do is what a reader of a PR comment wants first.
  head += fixes_section(report, o);
  const bool several = detail::several_jobs(report);
  if (several) head += jobs_table(report);

  // Everything but evidence is always shown; evidence fills what room is left, best finding first.
  struct Root {
    std::string head, evidence, fix;
  };
  std::vector<Root> roots;
  for (size_t i = 0; i < report.findings.size(); ++i) {
    if (report.findings[i].depth > 0) continue;
    roots.push_back({finding_head(report, i), evidence_block(d, *report.findings[i].finding, o),
                     finding_fix(report.findings[i], o)});
  }
  const std::string footer = fmt::format(
      "---\n<sub>gpudiag{}</sub>\n",
      o.deterministic ? "" : fmt::format(" {} · rule pack {}", o.version, markdown_escape(d.rule_pack_hash)));
  // Errors no rule explains lead when the top one is the likely cause; else they follow the findings.
  const bool groups_first = detail::unexplained_first(report);
  const std::string groups = unexplained_section(report, o, true);
  std::string tail = (groups_first ? "" : groups) + baseline_section(report) + skipped_section(d, o);
  if (several) {
    for (size_t i : detail::full_jobs(report)) {
      if (i > 0) tail += job_section(report.jobs[i], o);
    }
  }
  size_t fixed = head.size() + (groups_first ? groups.size() : 0) + tail.size() + footer.size() + 200;
  for (const auto& r : roots) fixed += r.head.size() + r.fix.size();
  size_t room = o.markdown_max_bytes > fixed ? o.markdown_max_bytes - fixed : 0;

  std::string out = head;
  if (groups_first) out += groups;
  if (!roots.empty()) {
    // Under an error no rule explains, the findings are its symptoms rather than root causes.
    out += fmt::format("### {}{}, most likely first ({})\n\n", groups_first ? "Rule findings" : "Root causes",
                       several ? " in " + job_span(d.job) : "", plural(report.findings.size(), "finding", "findings"));
  }
  bool cut = false;
  for (const auto& r : roots) {
    out += r.head;
    if (r.evidence.size() <= room) {
      out += r.evidence;
      room -= r.evidence.size();
    } else {
      cut = true;
    }
    out += r.fix;
  }
  if (cut) {
    out += fmt::format(
        "> ✂️ Evidence was cut to keep this summary under {} KB; the HTML and JSON reports have all of it.\n\n",
        o.markdown_max_bytes / 1000);
  }
  out += tail;
  // Still too long (a great many findings): end at a heading that fits, where no element is open.
  if (out.size() + footer.size() > o.markdown_max_bytes) {
    const size_t limit = o.markdown_max_bytes > footer.size() + 300 ? o.markdown_max_bytes - footer.size() - 300 : 0;
    size_t at = out.rfind("\n#### ", limit);
    const size_t section = out.rfind("\n### ", limit);
    if (at == std::string::npos || (section != std::string::npos && section > at)) at = section;
    out.resize(at == std::string::npos || at < head.size() ? head.size() : at + 1);  // the verdict always stays
    out +=
        "\n> ✂️ The rest was cut to keep this summary within its size; the HTML and JSON reports have all of "
        "it.\n\n";
  }
  return out + footer;
}

}  // namespace gpudiag
