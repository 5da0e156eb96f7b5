// JUnit XML (the Apache Ant schema CI systems read): one <testsuite> for the job, one <testcase> per
// rule of the pack with classname = the rule's family. A rule that fired at or above the gate's
// threshold fails its testcase, with the evidence and the best fix in the body; a finding the
// baseline accepts and a disabled rule are skipped; everything else passes. The timestamp is the
// job's first entry, so the document is the same on every run over the same export. With several
// jobs: <testsuites>, a suite per failed or warning job and one summary suite for the rest
// (docs/formats.md, Several jobs). Each error no rule explains is a testcase of classname
// `unexplained`, failing like a finding when it counts for the gate.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "gpudiag/formats.h"
#include "job_views.h"
#include "wording.h"

namespace gpudiag {
namespace {

using detail::plural;

constexpr size_t kLineBytes = 500;

std::string attr(std::string_view s) { return xml_escape(s, true); }

std::string failure_body(const RankedReport& report, const RankedFinding& rf, const RenderOptions& o) {
  const Analysis& d = *report.analysis;
  const Finding& f = *rf.finding;
  std::string body = fmt::format("{} ({}), {} severity, confidence {:.0f}%\n", f.title, f.rule_id,
                                 impact_name(f.severity), f.confidence * 100);
  if (rf.caused_by) {
    const Finding& cause = *report.findings[*rf.caused_by].finding;
    body += fmt::format("A symptom of #{} {} ({}).\n", report.findings[*rf.caused_by].rank, cause.title, cause.rule_id);
  }
  if (rf.caused_by_unexplained) {
    const RankedUnexplained& u = report.unexplained[*rf.caused_by_unexplained];
    body += fmt::format("A symptom of U{} {} ({}).\n", u.rank, unexplained_headline(*u.group), u.group->fingerprint);
  }
  body += fmt::format("{}: {}\n",
                      f.via == "facts" ? "found from the job's configuration" : plural(f.count, "entry", "entries"),
                      detail::time_span(f.first_seen, f.last_seen));
  if (!f.workers.empty()) {
    // A bounded list: a finding across a hundred thousand workers must not make a megabyte line.
    const size_t listed = std::min<size_t>(f.workers.size(), 20);
    body += fmt::format("workers: {}",
                        fmt::join(f.workers.begin(), f.workers.begin() + static_cast<ptrdiff_t>(listed), ", "));
    body += f.workers_total > listed ? fmt::format(" … of {}\n", f.workers_total) : "\n";
  }
  if (!f.evidence.empty()) body += "\nEvidence:\n";
  for (const auto& e : f.evidence) {
    const LogRecord& r = e.entry.record();
    body += fmt::format("  {} {} {}{}{}\n    {}\n", detail::source_location(d, r, o.deterministic),
                        format_rfc3339(r.timestamp), r.log, r.worker.empty() ? "" : fmt::format(" {}", r.worker),
                        e.also_in.empty() ? "" : fmt::format(" (also in: {})", detail::also_in(e)),
                        detail::matched_excerpt(e, kLineBytes));
  }
  if (!rf.fixes.empty()) {
    const FindingFix& fix = rf.fixes.front();
    body += fmt::format("\nFix: {}\n", fix.action);
    if (!fix.command.empty()) body += fmt::format("  {} {}\n", detail::command_label(fix.command), fix.command);
    body += fmt::format("  why: {}\n  doc: {} › {} {}\n", fix.why, fix.doc.title, fix.doc.section, fix.doc.url);
  }
  return body;
}

// An error no rule explains, for a failing (or skipped) testcase's body.
std::string group_body(const RankedReport& report, const RankedUnexplained& u, const RenderOptions& o) {
  const Analysis& d = *report.analysis;
  const UnexplainedGroup& g = *u.group;
  std::string body = fmt::format("U{} {} ({}), {} severity: no rule in the pack knows this error\n", u.rank,
                                 unexplained_headline(g), g.fingerprint, impact_name(u.severity()));
  body += fmt::format("{}\n", detail::unexplained_stats(g));
  if (!g.workers.empty()) {
    const size_t listed = std::min<size_t>(g.workers.size(), 20);
    body += fmt::format("workers: {}",
                        fmt::join(g.workers.begin(), g.workers.begin() + static_cast<ptrdiff_t>(listed), ", "));
    body += g.workers_total > listed ? fmt::format(" … of {}\n", g.workers_total) : "\n";
  }
  if (u.novelty != Novelty::kNoHistory) body += fmt::format("history: {}\n", detail::novelty_note(u.novelty));
  const Evidence& e = g.exemplar;
  const LogRecord& r = e.entry.record();
  body += fmt::format("\nThe earliest entry:\n  {} {} {}{}{}\n", detail::source_location(d, r, o.deterministic),
                      format_rfc3339(r.timestamp), r.log, r.worker.empty() ? "" : fmt::format(" {}", r.worker),
                      g.also_in.empty() ? "" : fmt::format(" (also in: {})", fmt::join(g.also_in, ", ")));
  for (const auto& line : detail::excerpt_of(e))
    body += fmt::format("    {}\n", detail::excerpt_text(line, e, kLineBytes));
  if (!u.symptoms.empty())
    body += fmt::format("\nExplains: {}\n", fmt::join(detail::unexplained_explains(report, u), ", "));
  return body;
}

// A testcase per error no rule explains (classname `unexplained`): failing when it counts for the
// gate (at or above the threshold, not accepted by the baseline), skipped when the baseline accepts it.
std::string group_cases(const RankedReport& report, Impact threshold, const RenderOptions& o, size_t& failures,
                        size_t& skipped) {
  std::string cases;
  for (const auto& u : report.unexplained) {
    const UnexplainedGroup& g = *u.group;
    cases += fmt::format(R"(    <testcase name="{}" classname="unexplained" time="0")",
                         attr(fmt::format("U{} {}", u.rank, unexplained_headline(g))));
    if (u.suppressed) {
      ++skipped;
      const BaselineEntry& e = report.baseline->entries[*u.baseline_entry].entry;
      cases += fmt::format(
          ">\n      <skipped message=\"{}\">{}</skipped>\n    </testcase>\n",
          attr(fmt::format("accepted in the baseline ({}:{}): {}", report.baseline->file, e.line, e.reason)),
          xml_escape(group_body(report, u, o)));
    } else if (counts_for_gate(u, threshold)) {
      ++failures;
      cases += fmt::format(">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                           attr(fmt::format("{} — no rule in the pack knows this error", unexplained_headline(g))),
                           impact_name(u.severity()), xml_escape(group_body(report, u, o)));
    } else {
      cases += "/>\n";
    }
  }
  return cases;
}

// The "input" testcase (docs/formats.md, Input problems): an error when an input could not be read,
// a failure when the gate refuses an empty export or when entries were skipped or cropped, else a pass.
std::string input_case(const RankedReport& report, const RenderOptions& o, size_t& failures, size_t& errors) {
  const Analysis& d = *report.analysis;
  std::string body;
  for (const auto& e : d.input_errors) {
    body += fmt::format("{}: input not read: {}\n", display_path(e.file, o.deterministic), e.message);
  }
  uint64_t problems = 0;
  for (const auto& in : d.inputs) {
    problems += in.problems_total;
    for (const auto& p : in.problems) {
      body += fmt::format("{}:{}: {}{}\n", display_path(in.path, o.deterministic), p.line,
                          p.skipped_entry ? "skipped: " : "", p.message);
    }
  }
  std::string out = R"(    <testcase name="input" classname="input" time="0")";
  if (!d.input_errors.empty()) {
    ++errors;
    return out + fmt::format(">\n      <error message=\"{}\" type=\"input-not-read\">{}</error>\n    </testcase>\n",
                             attr(fmt::format("{} not read in full; the report covers only what was read",
                                              plural(d.input_errors.size(), "input", "inputs"))),
                             xml_escape(body));
  }
  if (o.fail_on && report.verdict == Verdict::kEmpty && !o.allow_empty) {
    ++failures;
    return out + fmt::format(">\n      <failure message=\"{}\" type=\"empty-export\">{}</failure>\n    </testcase>\n",
                             attr(report.verdict_line), xml_escape(body));
  }
  if (problems > 0) {
    ++failures;
    return out + fmt::format(">\n      <failure message=\"{}\" type=\"input-problems\">{}</failure>\n    </testcase>\n",
                             attr(fmt::format("{} in the input ({} skipped)", plural(problems, "problem", "problems"),
                                              plural(d.skipped, "entry", "entries"))),
                             xml_escape(body));
  }
  return out + "/>\n";
}

// One <testsuite>: the job of `report` (the whole report for a one-job export, one of RankedReport::jobs
// for one of several). `top` is the whole report: the "input" testcase and the input problems are
// the export's, in the first suite only. `suite_id`: the suite's position in a <testsuites>.
std::string suite(const RankedReport& report, const RankedReport& top, const std::vector<RuleInfo>& rules,
                  const RenderOptions& o, bool first, std::optional<size_t> suite_id) {
  const Analysis& d = *report.analysis;
  const Impact threshold = o.fail_on.value_or(Impact::kError);
  std::map<std::string_view, const RankedFinding*> fired;
  for (const auto& rf : report.findings) fired.emplace(rf.finding->rule_id, &rf);

  size_t failures = 0, skipped = 0, errors = 0;
  std::string cases = first ? input_case(top, o, failures, errors) : "";
  for (const auto& rule : rules) {
    cases += fmt::format(R"(    <testcase name="{}" classname="{}" time="0")", attr(rule.id), attr(rule.family));
    const auto it = fired.find(rule.id);
    const RankedFinding* rf = it == fired.end() ? nullptr : it->second;
    if (!rule.enabled) {
      ++skipped;
      cases += ">\n      <skipped message=\"disabled in this rule pack\"/>\n    </testcase>\n";
    } else if (rf && rf->suppressed) {
      ++skipped;
      const BaselineEntry& e = report.baseline->entries[*rf->baseline_entry].entry;
      cases += fmt::format(
          ">\n      <skipped message=\"{}\">{}</skipped>\n    </testcase>\n",
          attr(fmt::format("accepted in the baseline ({}:{}): {}", report.baseline->file, e.line, e.reason)),
          xml_escape(failure_body(report, *rf, o)));
    } else if (rf && counts_for_gate(*rf, threshold)) {
      ++failures;
      cases += fmt::format(">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                           attr(rf->finding->title), impact_name(rf->finding->severity),
                           xml_escape(failure_body(report, *rf, o)));
    } else {
      cases += "/>\n";
    }
  }

  cases += group_cases(report, threshold, o, failures, skipped);

  // Findings below the threshold pass their testcase; system-out lists every finding so none is lost.
  std::string out_text = fmt::format("{}\n", report.verdict_line);
  for (const auto& rf : report.findings) {
    out_text += fmt::format("#{} [{}] {} ({}){}{}\n", rf.rank, impact_name(rf.finding->severity), rf.finding->title,
                            rf.finding->rule_id, rf.suppressed ? " — suppressed by the baseline" : "",
                            rf.history ? " — " + history_note(*rf.history) : "");
  }
  for (const auto& u : report.unexplained) {
    const std::string_view novelty = detail::novelty_note(u.group->novelty);
    out_text += fmt::format("U{} [{}] {} ({}){}{}\n", u.rank, impact_name(u.severity()), unexplained_headline(*u.group),
                            u.group->fingerprint, u.suppressed ? " — suppressed by the baseline" : "",
                            novelty.empty() ? "" : fmt::format(" — {}", novelty));
  }
  if (o.fail_on) out_text += fmt::format("gate: {}\n", detail::gate_line(report, o));
  std::string err_text;
  const Analysis& all = *top.analysis;
  if (first) {
    for (const auto& e : all.input_errors)
      err_text += fmt::format("{}: error: {}\n", display_path(e.file, o.deterministic), e.message);
    for (const auto& in : all.inputs) {
      for (const auto& p : in.problems) {
        err_text += fmt::format("{}:{}: {}{}\n", display_path(in.path, o.deterministic), p.line,
                                p.skipped_entry ? "skipped: " : "", p.message);
      }
    }
  }
  if (report.baseline) {
    for (const auto& e : report.baseline->entries) {
      if (e.state == BaselineState::kSuppressing) continue;
      err_text += fmt::format("{}:{}: stale baseline entry for {}: {}\n", report.baseline->file, e.entry.line,
                              e.entry.rule_id, detail::stale_reason(e));
    }
  }

  const std::string stamp = d.start == kNoTime ? "1970-01-01T00:00:00" : format_rfc3339(d.start).substr(0, 19);
  std::string name = "gpudiag";
  if (!d.job.name.empty() || !d.job.id.empty()) name += " " + (d.job.name.empty() ? d.job.id : d.job.name);
  if (suite_id) name = "gpudiag " + detail::job_label(d.job);
  std::string out;
  out += fmt::format(
      "<testsuite{} name=\"{}\" timestamp=\"{}\" hostname=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" "
      "skipped=\"{}\" time=\"0\">\n",
      suite_id ? fmt::format(" id=\"{}\" package=\"gpudiag\"", *suite_id) : "", attr(name), stamp,
      attr(d.job.region.empty() ? "dataflow" : "dataflow " + d.job.region),
      rules.size() + report.unexplained.size() + (first ? 1 : 0), failures, errors, skipped);
  out += "  <properties>\n";
  const auto property = [&](std::string_view key, std::string_view value) {
    if (!value.empty()) out += fmt::format("    <property name=\"{}\" value=\"{}\"/>\n", key, attr(value));
  };
  property("gpudiag.format", kJunitFormat);
  if (!o.deterministic) property("gpudiag.version", o.version);
  if (!o.deterministic) property("gpudiag.rule_pack", d.rule_pack_hash);
  property("gpudiag.fail_on", impact_name(threshold));
  property("gpudiag.verdict", verdict_name(report.verdict));
  property("job.id", d.job.id);
  property("job.name", d.job.name);
  property("job.project", d.job.project);
  property("job.region", d.job.region);
  if (suite_id) property("job.outcome", job_outcome_name(d.job.outcome));
  out += "  </properties>\n";
  out += cases;
  out += fmt::format("  <system-out>{}</system-out>\n  <system-err>{}</system-err>\n</testsuite>\n",
                     xml_escape(out_text), xml_escape(err_text));
  return out;
}

// The jobs without a suite of their own (their verdict is ok), in one suite: a passing testcase per
// job, the first kListedJobs of them, so that the document stays bounded whatever the export holds.
constexpr size_t kListedJobs = 100;

std::string summary_suite(const RankedReport& top, const std::vector<size_t>& full, size_t suite_id) {
  const Analysis& all = *top.analysis;
  std::string cases, listed_out;
  size_t tests = 0, rest = 0;
  for (size_t i = 0; i < top.jobs.size(); ++i) {
    if (std::find(full.begin(), full.end(), i) != full.end()) continue;
    const RankedReport& job = top.jobs[i];
    const JobInfo& info = job.analysis->job;
    if (tests == kListedJobs) {
      ++rest;
      continue;
    }
    ++tests;
    cases += fmt::format("    <testcase name=\"{}\" classname=\"job\" time=\"0\"/>\n", attr(detail::job_label(info)));
    listed_out += fmt::format("{}: {}, {}, {}\n", detail::job_label(info), job_outcome_name(info.outcome),
                              verdict_name(job.verdict), plural(info.entries, "entry", "entries"));
  }
  if (rest > 0)
    listed_out += fmt::format("… and {} (the JSON report lists them)\n", plural(rest, "more job", "more jobs"));
  if (const std::string line = detail::unlisted_jobs_line(top); !line.empty()) listed_out += line + "\n";
  if (!all.not_diagnosed.empty()) {
    listed_out += fmt::format("{} not diagnosed (over --max-jobs)\n", plural(all.not_diagnosed.size(), "job", "jobs"));
  }
  if (!all.not_selected.empty()) {
    listed_out +=
        fmt::format("{} not selected (--job-id, --job-name)\n", plural(all.not_selected.size(), "job", "jobs"));
  }
  Timestamp start = kNoTime;  // the earliest entry of the jobs it sums up
  for (size_t i = 0; i < top.jobs.size(); ++i) {
    const Timestamp t = top.jobs[i].analysis->start;
    if (std::find(full.begin(), full.end(), i) == full.end() && t != kNoTime && (start == kNoTime || t < start))
      start = t;
  }
  const std::string stamp = start == kNoTime ? "1970-01-01T00:00:00" : format_rfc3339(start).substr(0, 19);
  std::string out = fmt::format(
      "<testsuite id=\"{}\" package=\"gpudiag\" name=\"gpudiag: {} without findings\" timestamp=\"{}\" "
      "hostname=\"dataflow\" tests=\"{}\" failures=\"0\" errors=\"0\" skipped=\"0\" time=\"0\">\n",
      suite_id, plural(top.jobs.size() - full.size(), "other job", "other jobs"), stamp, tests);
  out += fmt::format("  <properties>\n    <property name=\"gpudiag.format\" value=\"{}\"/>\n  </properties>\n",
                     kJunitFormat);
  out += cases;
  out +=
      fmt::format("  <system-out>{}</system-out>\n  <system-err></system-err>\n</testsuite>\n", xml_escape(listed_out));
  return out;
}

}  // namespace

std::string render_junit(const RankedReport& report, const std::vector<RuleInfo>& rules, const RenderOptions& o) {
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  if (!detail::several_jobs(report)) return out + suite(report, report, rules, o, true, std::nullopt);
  // Several jobs: a suite per job whose verdict is not ok (at least the worst job), the "input"
  // testcase once in the first, and one summary suite for the rest.
  out += "<testsuites>\n";
  const auto full = detail::full_jobs(report);
  // A testcase per rule in each job's suite: a thousand failed jobs make a document of some 13 MB,
  // which growing by doubling, and copying once more to close it, took 70 MB at its peak (1,200
  // failed jobs, docs/formats.md). About 100 bytes a testcase, reserved once.
  out.reserve(full.size() * (2048 + rules.size() * 100));
  size_t id = 0;
  for (size_t i : full) {
    out += suite(report.jobs[i], report, rules, o, id == 0, id);
    ++id;
  }
  if (full.size() < report.jobs.size() || report.analysis->unlisted_jobs.jobs > 0) {
    out += summary_suite(report, full, id);
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace gpudiag
