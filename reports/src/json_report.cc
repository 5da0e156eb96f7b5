// The JSON report, schema "gpudiag.report/v1" (docs/json-schema.md): the contract CI scripts and
// other tools rely on. Fields are only ever added within v1.
#include <algorithm>

#include "finding_history.h"
#include "gpudiag/doc_language.h"
#include "gpudiag/json_writer.h"
#include "gpudiag/report.h"
#include "wording.h"

namespace gpudiag {
namespace {

constexpr size_t kMaxEvidenceMessage = 4096;

void write_time(JsonWriter& w, std::string_view key, Timestamp t) {
  w.key(key);
  if (t == kNoTime)
    w.null();
  else
    w.value(format_rfc3339(t));
}

// `title`, `section` and `url` stay the English citation; outside English, `localized` adds it in the
// report's language (docs/json-schema.md, "doc").
void write_doc(JsonWriter& w, const DocLink& doc, const RenderOptions& o) {
  w.key("doc").begin_object();
  w.field("title", doc.title).field("section", doc.section).field("url", doc.url);
  if (const auto loc = localize(doc, o.lang)) {
    w.key("localized").begin_object();
    w.field("lang", loc->lang).field("title", loc->title).field("section", loc->section).field("url", loc->url);
    w.field("fallback", loc->fallback());
    w.end_object();
  }
  w.end_object();
}

void write_evidence(JsonWriter& w, const Evidence& e, const Analysis& d, const RenderOptions& o) {
  const LogRecord& r = e.entry.record();
  w.begin_object();
  const std::string& path = r.where.input < d.inputs.size() ? d.inputs[r.where.input].path : std::string("example");
  w.field("file", display_path(path, o.deterministic));
  w.field("line", r.where.line);
  write_time(w, "timestamp", r.timestamp);
  w.field("log", r.log);
  w.field("worker", r.worker);
  w.field("severity", severity_name(r.severity));
  w.field("message", crop_middle(r.message, kMaxEvidenceMessage));
  if (!r.exception.empty()) w.field("exception", crop_middle(r.exception, kMaxEvidenceMessage));
  if (!r.sdk_worker.empty()) w.field("sdk_worker", r.sdk_worker);
  if (!e.matched_line.empty()) w.field("matched_line", crop_middle(e.matched_line, 1000));
  w.array_field("also_in", e.also_in);
  w.field("job_id", r.job_id);
  w.end_object();
}

void write_baseline(JsonWriter& w, const BaselineReview& b, const RenderOptions& o) {
  w.key("baseline").begin_object();
  w.field("file", display_path(b.file, o.deterministic));
  w.field("suppressed", static_cast<uint64_t>(b.suppressed)).field("stale", static_cast<uint64_t>(b.stale()));
  w.key("entries").begin_array();
  for (const auto& e : b.entries) {
    w.begin_object();
    w.field("line", e.entry.line).field("rule_id", e.entry.rule_id).field("fingerprint", e.entry.fingerprint);
    w.field("reason", e.entry.reason);
    if (!e.entry.expires.empty()) w.field("expires", e.entry.expires);
    w.field("state", baseline_state_name(e.state));
    w.array_field("matched", e.matched);
    if (!e.current_fingerprint.empty()) w.field("current_fingerprint", e.current_fingerprint);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

void write_findings(JsonWriter& w, const RankedReport& r, const RenderOptions& o) {
  const Analysis& d = *r.analysis;
  w.key("findings").begin_array();
  for (const auto& rf : r.findings) {
    const Finding& f = *rf.finding;
    w.begin_object();
    w.field("rank", rf.rank);
    w.field("rule_id", f.rule_id);
    w.field("title", f.title);
    w.field("family", f.family);
    w.field("severity", impact_name(f.severity));
    if (f.severity_before_outcome) w.field("severity_before_outcome", impact_name(*f.severity_before_outcome));
    w.field("confidence", f.confidence);
    if (!f.confidence_note.empty()) w.field("confidence_note", f.confidence_note);
    w.field("description", f.description);
    w.field("via", f.via);
    w.field("count", f.count);
    write_time(w, "first_seen", f.first_seen);
    write_time(w, "last_seen", f.last_seen);
    w.array_field("workers", f.workers);
    w.field("workers_total", f.workers_total);
    w.key("captures").begin_object();
    for (const auto& [name, values] : f.captures) w.array_field(name, values);
    w.end_object();
    w.key("evidence").begin_array();
    for (const auto& e : f.evidence) write_evidence(w, e, d, o);
    w.end_array();
    w.key("fixes").begin_array();
    for (size_t i = 0; i < rf.fixes.size(); ++i) {
      const auto& fix = rf.fixes[i];
      w.begin_object();
      w.field("rank", static_cast<int>(i) + 1);
      w.field("id", fix.id).field("action", fix.action).field("why", fix.why);
      if (!fix.command.empty()) w.field("command", fix.command);
      w.field("demoted", fix.demoted);
      if (fix.demoted) w.field("demoted_because", fix.demoted_because);
      w.field("rank_reason", rf.fix_reasons[i]);
      write_doc(w, fix.doc, o);
      w.end_object();
    }
    w.end_array();
    // Fixes whose `needs` the job's facts contradict: left out of the other reports, kept here.
    w.key("fixes_not_applicable").begin_array();
    for (const auto& fix : rf.fixes_not_applicable) {
      w.begin_object();
      w.field("id", fix.id).field("action", fix.action).field("why", fix.why);
      if (!fix.command.empty()) w.field("command", fix.command);
      w.field("because", fix.not_applicable_because);
      write_doc(w, fix.doc, o);
      w.end_object();
    }
    w.end_array();
    w.key("caused_by");
    if (rf.caused_by)
      w.value(r.findings[*rf.caused_by].finding->rule_id);
    else
      w.null();
    w.key("symptoms").begin_array();
    for (size_t s : rf.symptoms) w.value(r.findings[s].finding->rule_id);
    w.end_array();
    if (rf.caused_by_unexplained) {
      w.field("caused_by_unexplained", r.unexplained[*rf.caused_by_unexplained].group->fingerprint);
    }
    w.field("fingerprint", f.fingerprint).field("fingerprint_v1", f.legacy_fingerprint);
    w.field("fingerprint_v2", f.fingerprint_v2);
    if (r.baseline) {
      w.key("baseline");
      if (rf.baseline_entry) {
        const BaselineEntry& e = r.baseline->entries[*rf.baseline_entry].entry;
        w.begin_object();
        w.field("suppressed", rf.suppressed).field("line", e.line).field("reason", e.reason);
        if (!e.expires.empty()) w.field("expires", e.expires);
        w.end_object();
      } else {
        w.null();
      }
    }
    if (rf.history) {
      w.key("history");
      detail::write_finding_history(w, *rf.history);
    }
    w.end_object();
  }
  w.end_array();
}

// The errors no rule explains (docs/json-schema.md, "unexplained"), the most likely cause first.
void write_unexplained(JsonWriter& w, const RankedReport& r, const RenderOptions& o) {
  const Analysis& d = *r.analysis;
  w.key("unexplained").begin_array();
  for (const auto& u : r.unexplained) {
    const UnexplainedGroup& g = *u.group;
    w.begin_object();
    w.field("rank", u.rank);
    w.field("fingerprint", g.fingerprint);
    w.field("headline", unexplained_headline(g));
    w.field("template", g.template_text);
    w.field("exception", g.exception).field("exception_type", g.exception_type);
    w.key("user_frame");
    if (g.user_frame) {
      w.begin_object().field("file", g.user_frame->file).field("line", g.user_frame->line);
      w.field("function", g.user_frame->function).end_object();
    } else {
      w.null();
    }
    w.field("step", g.step);
    w.field("truncated", g.truncated);
    w.field("generic", g.generic).field("cause", g.cause).field("cause_group", g.cause_group);
    w.array_field("chain", g.chain);
    w.field("count", g.count);
    w.array_field("workers", g.workers);
    w.field("workers_total", g.workers_total);
    w.field("sdk_processes", g.sdk_processes);
    write_time(w, "first_seen", g.first_seen);
    write_time(w, "last_seen", g.last_seen);
    w.field("severity", impact_name(u.severity()));
    w.field("novelty", novelty_name(u.novelty));
    w.array_field("also_in", g.also_in);
    w.key("also_at").begin_array();
    for (const SourceLocation& at : g.also_at) {
      const std::string& path = at.input < d.inputs.size() ? d.inputs[at.input].path : std::string();
      w.begin_object().field("file", display_path(path, o.deterministic)).field("line", at.line).end_object();
    }
    w.end_array();
    w.key("exemplar");
    write_evidence(w, g.exemplar, d, o);
    w.key("explains").begin_array();
    for (size_t s : u.symptoms) w.value(r.findings[s].finding->rule_id);
    w.end_array();
    // The step rules/first-steps.yaml gives by the error's kind (the fixes list ranks it when the
    // group is a cause).
    if (!g.first_step.id.empty()) {
      w.key("first_step").begin_object().field("id", g.first_step.id).field("action", g.first_step.action);
      if (!g.first_step.command.empty()) w.field("command", g.first_step.command);
      write_doc(w, g.first_step.doc, o);
      w.end_object();
    }
    if (r.baseline) {
      w.key("baseline");
      if (u.baseline_entry) {
        const BaselineEntry& e = r.baseline->entries[*u.baseline_entry].entry;
        w.begin_object().field("suppressed", u.suppressed).field("line", e.line).field("reason", e.reason).end_object();
      } else {
        w.null();
      }
    }
    w.end_object();
  }
  w.end_array();
  w.field("unexplained_total", static_cast<uint64_t>(d.unexplained_groups_total));
}

void write_fixes(JsonWriter& w, const RankedReport& r, const RenderOptions& o) {
  w.key("fixes").begin_array();
  for (const auto& fix : r.fixes) {
    w.begin_object();
    w.field("rank", fix.rank).field("id", fix.id).field("action", fix.action);
    if (!fix.command.empty()) w.field("command", fix.command);
    if (const FixTranslation* t = detail::fix_translation(fix.i18n, o)) {
      w.key("localized").begin_object().field("lang", t->lang).field("action", t->action);
      if (!t->why.empty()) w.field("why", t->why);
      w.end_object();
    }
    w.array_field("why", fix.reasons);
    w.array_field("for", fix.for_rules);
    w.field("demoted", fix.demoted);
    w.field("rank_reason", fix.rank_reason);
    write_doc(w, fix.doc, o);
    w.end_object();
  }
  w.end_array();
}

void write_inconclusive(JsonWriter& w, const RankedReport& r, const RenderOptions& o) {
  const Analysis& d = *r.analysis;
  w.key("inconclusive").begin_array();
  for (const auto& i : d.inconclusive) {
    w.begin_object();
    w.field("rule_id", i.rule_id).field("title", i.title).field("reason", i.reason);
    w.end_object();
  }
  w.end_array();
}

void write_facts(JsonWriter& w, const RankedReport& r, const RenderOptions& o) {
  const Analysis& d = *r.analysis;
  w.key("facts").begin_array();
  for (const auto& f : d.facts) {
    w.begin_object();
    w.field("name", f.name).field("value", f.value).field("source", f.source);
    if (!f.extractor.empty()) w.field("extractor", f.extractor);
    w.key("sources").begin_array();
    for (const auto& s : f.sources) {
      w.begin_object().field("what", s.what);
      if (!s.extractor.empty()) w.field("extractor", s.extractor);
      w.field("value", s.value);
      if (s.input >= 0) w.field("input", s.input).field("line", s.line);
      w.end_object();
    }
    w.end_array();
    w.field("sources_total", f.sources_total);
    w.end_object();
  }
  w.end_array();
}

// What changed since the pipeline's last green run (docs/json-schema.md, "changes_since_green").
void write_changes_since_green(JsonWriter& w, const ChangesSinceGreen& c) {
  w.key("changes_since_green").begin_object();
  w.field("run", c.green.run).field("job_id", c.green.job_id);
  write_time(w, "time", c.green.time);
  w.key("changes").begin_array();
  for (const FactChange& f : c.changes) {
    w.begin_object().field("fact", f.fact).field("before", f.before).field("after", f.after).end_object();
  }
  w.end_array();
  w.end_object();
}

// What `gpudiag sql`'s summary rows said of the queried table (docs/sql.md); only when there were any.
void write_source(JsonWriter& w, const SummaryRowCounts& s) {
  if (s.rows == 0) return;
  w.key("source").begin_object();
  w.field("summary_rows", s.rows).field("entries", s.source_entries).field("returned", s.returned);
  w.field("capped", s.capped);
  w.end_object();
}

void write_run_history(JsonWriter& w, const ReportHistory& h) {
  w.key("history").begin_object();
  w.field("pipeline", h.pipeline).field("run", h.run);
  w.field("runs_recorded", h.runs_recorded).field("new_only", h.new_only);
  w.end_object();
}

// One job of several (gpudiag.report/v1 `jobs[]`): what the top level says of the worst one.
void write_job(JsonWriter& w, const RankedReport& r, const RenderOptions& o) {
  const Analysis& d = *r.analysis;
  w.begin_object();
  w.field("id", d.job.id).field("name", d.job.name).field("project", d.job.project).field("region", d.job.region);
  w.field("outcome", job_outcome_name(d.job.outcome));
  if (!d.job.outcome_source.empty()) w.field("outcome_source", d.job.outcome_source);
  w.field("verdict", verdict_name(r.verdict));
  w.field("summary", r.verdict_line);
  write_time(w, "start", d.start);
  write_time(w, "end", d.end);
  w.key("totals").begin_object().field("entries", d.job.entries);
  write_source(w, d.job.source);
  w.end_object();
  write_findings(w, r, o);
  write_fixes(w, r, o);
  write_inconclusive(w, r, o);
  write_unexplained(w, r, o);
  if (r.history) write_run_history(w, *r.history);
  if (r.changes_since_green) write_changes_since_green(w, *r.changes_since_green);
  write_facts(w, r, o);
  w.end_object();
}

void write_job_counts(JsonWriter& w, std::string_view key, const std::vector<JobCount>& jobs) {
  w.key(key).begin_array();
  for (const auto& c : jobs)
    w.begin_object().field("id", c.id).field("name", c.name).field("entries", c.entries).end_object();
  w.end_array();
}

}  // namespace

std::string render_json(const RankedReport& report, const RenderOptions& o) {
  const Analysis& d = *report.analysis;
  JsonWriter w;
  // The report's likely size at most (a job's full report is tens of KiB): the buffer never doubles
  // past it, which held 16 MiB at once for a 13 MiB report of 5,000 jobs (docs/performance.md).
  w.reserve(std::min(size_t{32} << 20, (size_t{1} << 20) + (report.jobs.size() << 16)));
  w.begin_object();
  w.field("schema", kJsonSchema);
  w.key("tool").begin_object();
  w.field("name", "gpudiag");
  if (!o.deterministic) {  // goldens must not change with every release or rule edit
    w.field("version", o.version);
    w.field("rule_pack", d.rule_pack_hash);
  }
  w.end_object();
  w.field("verdict", verdict_name(report.verdict));
  w.field("summary", report.verdict_line);
  // A consumer must be able to tell a check of launch options from a diagnosis of logs.
  if (d.preflight) {
    w.key("preflight").begin_object();
    w.field("launch_options", d.launch_options);
    w.field("sources", static_cast<uint64_t>(d.inputs.size()));
    w.end_object();
  }

  w.key("job").begin_object();
  w.field("id", d.job.id).field("name", d.job.name).field("project", d.job.project).field("region", d.job.region);
  w.array_field("other_ids", d.job.other_ids);
  w.field("outcome", job_outcome_name(d.job.outcome));
  write_time(w, "start", d.start);
  write_time(w, "end", d.end);
  w.end_object();

  w.key("totals").begin_object();
  w.field("entries", d.entries)
      .field("analysed", d.analysed)
      .field("skipped", d.skipped)
      .field("duplicates", d.duplicates);
  w.field("duplicates_windowed", d.duplicates_windowed);
  SummaryRowCounts source;
  for (const auto& in : d.inputs) source.add(in.summary_rows);
  write_source(w, source);
  w.end_object();

  w.key("inputs").begin_array();
  for (const auto& in : d.inputs) {
    w.begin_object();
    w.field("path", display_path(in.path, o.deterministic));
    w.field("format", shape_name(in.shape));
    w.field("gzip", in.gzip);
    w.field("entries", in.entries)
        .field("analysed", in.analysed)
        .field("skipped", in.skipped)
        .field("duplicates", in.duplicates);
    write_source(w, in.summary_rows);
    w.field("problems_total", in.problems_total);
    w.key("problems").begin_array();
    for (const auto& p : in.problems) {
      w.begin_object();
      w.field("line", p.line);
      w.key("byte");
      if (p.offset >= 0)
        w.value(static_cast<int64_t>(p.offset));
      else
        w.null();
      w.field("skipped", p.skipped_entry);
      w.field("message", p.message);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("input_errors").begin_array();
  for (const auto& e : d.input_errors) {
    w.begin_object();
    w.field("path", display_path(e.file, o.deterministic));
    w.field("code", e.code).field("message", e.message);
    if (e.line > 0) w.field("line", e.line);
    if (e.byte >= 0) w.field("byte", static_cast<int64_t>(e.byte));
    w.end_object();
  }
  w.end_array();

  write_findings(w, report, o);
  write_fixes(w, report, o);
  write_inconclusive(w, report, o);
  write_unexplained(w, report, o);
  if (o.fail_on) {
    w.key("gate").begin_object();
    w.field("fail_on", impact_name(*o.fail_on)).field("tripped", trips_gate(report, *o.fail_on));
    if (const std::string refused = gate_refusal(report, o.allow_empty); !refused.empty()) w.field("refused", refused);
    w.end_object();
  }
  if (report.baseline) write_baseline(w, *report.baseline, o);
  if (report.history) write_run_history(w, *report.history);
  if (report.changes_since_green) write_changes_since_green(w, *report.changes_since_green);

  write_facts(w, report, o);
  w.key("jobs").begin_array();
  for (const auto& job : report.jobs) write_job(w, job, o);
  w.end_array();
  // Past the list's cap (kMaxListedJobs), the least bad jobs are counted; present only then.
  if (const UnlistedJobs& u = d.unlisted_jobs; u.jobs > 0) {
    w.key("jobs_unlisted").begin_object();
    w.field("jobs", u.jobs).field("entries", u.entries);
    w.field("failed", u.failed).field("warning", u.warning).field("ok", u.ok);
    w.field("top_severity", impact_name(u.top_severity));
    w.key("top_rules").begin_array();
    for (const auto& [rule_id, jobs] : u.top_rules)
      w.begin_object().field("rule_id", rule_id).field("jobs", jobs).end_object();
    w.end_array();
    w.end_object();
  }
  write_job_counts(w, "not_diagnosed", d.not_diagnosed);
  write_job_counts(w, "not_selected", d.not_selected);
  // Past the lists' cap (10,000 jobs each) only entries are summed; present only then.
  if (d.not_diagnosed_unlisted > 0) w.field("not_diagnosed_unlisted_entries", d.not_diagnosed_unlisted);
  if (d.not_selected_unlisted > 0) w.field("not_selected_unlisted_entries", d.not_selected_unlisted);
  w.end_object();
  return w.take();
}

}  // namespace gpudiag
