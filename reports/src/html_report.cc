// The HTML post-mortem: one self-contained file that opens from disk, prints well and needs no
// JavaScript. A Content-Security-Policy forbids every load (no scripts, fonts, images or styles from
// anywhere); the only links are in-page anchors, documentation <a href>s and links back into the Cloud
// console (the job and each evidence entry in Logs Explorer, the job's Dataflow page), none fetched.
// Order: header and verdict, the timeline and the job's story, findings (symptoms folded under
// their cause) with evidence and its neighbouring entries, which worker saw what, fixes, and what was
// inconclusive or skipped. With several jobs, a jobs table follows the header, the sections above
// describe the worst job, and each other failed or warning job gets a section of its own at the end.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "console_links.h"
#include "gpudiag/doc_language.h"
#include "gpudiag/formats.h"
#include "html_timeline.h"
#include "job_views.h"
#include "wording.h"

namespace gpudiag {
namespace {

using detail::plural;
using detail::time_span;
using detail::upper;

constexpr size_t kMessageBytes = 3000;     // one evidence message, whole
constexpr size_t kExcerptLineBytes = 600;  // one line of its excerpt
constexpr size_t kContextBytes = 240;      // a neighbouring entry's first line
constexpr size_t kMaxWorkerRows = 60;
constexpr size_t kProblemsShown = 50;

constexpr std::string_view kStyle = R"css(
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--card:#f6f8fa;--critical:#8250df;--error:#cf222e;--warning:#9a6700;--info:#0969da;--ok:#1a7f37}
*{box-sizing:border-box}
body{margin:0;color:var(--fg);background:#fff;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Liberation Sans",Arial,sans-serif}
main{max-width:1120px;margin:0 auto;padding:28px 32px 56px}
h1{font-size:26px;line-height:1.25;margin:2px 0 10px;word-break:break-word}
h2{font-size:20px;margin:36px 0 12px;padding-bottom:6px;border-bottom:1px solid var(--line)}
h3{font-size:16px;margin:0;word-break:break-word}
a{color:var(--info)}
code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono","DejaVu Sans Mono",monospace;font-size:12.5px}
pre{white-space:pre-wrap;overflow-wrap:anywhere;background:var(--card);border:1px solid var(--line);border-radius:6px;padding:8px 10px;margin:6px 0}
.kicker{text-transform:uppercase;letter-spacing:.08em;font-size:12px;color:var(--muted);margin:0}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 18px;margin:8px 0 16px;font-size:14px}
dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;overflow-wrap:anywhere}
.verdict{border-left:6px solid var(--ok);background:#dafbe1;border-radius:6px;padding:12px 16px;font-size:17px;font-weight:600}
.verdict.failed,.verdict.incomplete{border-color:var(--error);background:#ffebe9}.verdict.warning,.verdict.empty{border-color:var(--warning);background:#fff8c5}
.unread{border:2px solid var(--error);background:#ffebe9;border-radius:6px;padding:10px 16px;margin:12px 0 0}
.unread ul{margin:4px 0}
.verdict p{margin:4px 0 0;font-size:14px;font-weight:400}
nav{margin:16px 0 0;font-size:14px}nav a{margin-right:14px}
.sev-critical{--sev:var(--critical)}.sev-error{--sev:var(--error)}.sev-warning{--sev:var(--warning)}.sev-info{--sev:var(--info)}
.badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:700;color:#fff;background:var(--sev);vertical-align:2px}
.muted{color:var(--muted)}.small{font-size:13px}
.finding{border:1px solid var(--line);border-left:5px solid var(--sev);border-radius:6px;padding:12px 16px;margin:16px 0}
.finding.symptom{margin:10px 0 0 28px;padding:8px 14px;background:var(--card)}
.finding.suppressed{opacity:.7;border-left-style:dashed}
.facts{font-size:13px;color:var(--muted);margin:4px 0 8px}
.note{border-left:3px solid var(--line);padding:2px 10px;margin:8px 0;font-size:14px}
.evidence{margin:18px 0;border-left:3px solid var(--line);padding-left:10px;display:grid;grid-template-columns:max-content max-content fit-content(12em) minmax(0,1fr);gap:0 10px;align-items:baseline}
.evidence>.hit,.evidence>.merged{grid-column:1/-1;min-width:0}.evidence>.merged{margin:0 0 2px}
.ctx{display:contents;font-size:12px;color:var(--muted)}.ctx>span{padding:1px 0;min-width:0}
.ctx>.lg,.ctx>.x{overflow-wrap:anywhere}.ctx>.ln{text-align:right;font-variant-numeric:tabular-nums}
.ln,.ctx>.t{white-space:nowrap}.loc{overflow-wrap:anywhere}
.hit-head{font-size:13px;margin-top:4px}
mark{background:#fff1a8;color:inherit}
ol.fixes li{margin-bottom:10px}
ol.story{list-style:none;padding:0;margin:12px 0}
ol.story li{display:grid;grid-template-columns:9.5em minmax(0,1fr);gap:10px;padding:3px 0;border-bottom:1px dotted var(--line);overflow-wrap:anywhere}
ol.story li.finding-event{font-weight:600}
table{border-collapse:collapse;font-size:13px;margin:8px 0}
th,td{border:1px solid var(--line);padding:3px 8px;text-align:left;vertical-align:top}
th{background:var(--card)}td.hit{text-align:center;color:var(--sev);font-weight:700}
.legend{font-size:12px;color:var(--muted);margin:4px 0}.legend span{display:inline-block;margin-right:12px}
.legend i{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:4px;vertical-align:-1px}
svg#timeline{width:100%;height:auto;display:block;border:1px solid var(--line);border-radius:6px;background:#fff}
svg text{font:11px system-ui,-apple-system,"Segoe UI",Roboto,"Liberation Sans",Arial,sans-serif;fill:var(--fg)}
svg .tick,svg .axis-label,svg .none,svg .count{fill:var(--muted)}svg .none{font-style:italic}
svg .lane-label{font-weight:600}svg .lane-label.suppressed{fill:var(--muted);text-decoration:line-through}
svg .lane-head{font-weight:700;fill:var(--muted)}
svg .grid{stroke:#eaeef2}svg .lane,svg .baseline{stroke:var(--line)}
svg .milestone line{stroke:#57606a;stroke-dasharray:2 2}svg .milestone text{fill:#32383f}
svg .state-submitted,.state-submitted{fill:#eaeef2;background:#eaeef2}svg .state-starting,.state-starting{fill:#fde68a;background:#fde68a}
svg .state-running,.state-running{fill:#aceebb;background:#aceebb}svg .state-failed,.state-failed{fill:#ffcecb;background:#ffcecb}
svg .state-stopping,.state-stopping{fill:#d1d9e0;background:#d1d9e0}svg .state-stopped,.state-stopped{fill:#afb8c1;background:#afb8c1}
svg .state-text{font-weight:600;fill:#32383f}
svg .workers{fill:#ddf4ff;stroke:var(--info);stroke-width:1.5}
svg .span{fill:var(--sev);opacity:.35}svg .pin{fill:var(--sev)}svg .pin-text{fill:#fff;font-weight:700;font-size:10px}
footer{margin-top:40px;font-size:12px;color:var(--muted)}
@media print{
body{font-size:11pt}main{max-width:none;padding:0}nav{display:none}
*{-webkit-print-color-adjust:exact;print-color-adjust:exact}
.finding,.evidence,ol.story li,tr{break-inside:avoid}h2{break-after:avoid}
a{color:inherit;text-decoration:none}
.doc a[href^="http"]::after{content:" <" attr(href) ">";font-size:9pt;color:var(--muted);overflow-wrap:anywhere}
}
)css";

std::string esc(std::string_view s) { return html_escape(s); }

// A citation in the report's language (--lang): the translated titles carry their own `lang` and
// `dir="auto"`, so a right-to-left title (Hebrew) reads right to left inside the English page; one
// left in English says so in the language.
// A fix's command on a line of its own, in a code element so that a triple click selects it whole.
std::string command_html(const std::string& command) {
  if (command.empty()) return {};
  return fmt::format(R"(<br><span class="small muted">{}</span> <code class="cmd">{}</code>)",
                     esc(detail::command_label(command)), esc(command));
}

std::string doc_link(const DocLink& doc, const RenderOptions& o) {
  const auto loc = localize(doc, o.lang);
  const std::string_view title = loc ? loc->title : doc.title, section = loc ? loc->section : doc.section;
  const std::string text = esc(section.empty() ? std::string(title) : fmt::format("{} › {}", title, section));
  const std::string url = detail::safe_url(loc ? loc->url : doc.url);
  const std::string lang =
      loc ? fmt::format(R"( lang="{}" dir="auto")", loc->title_fallback && loc->section_fallback ? "en" : loc->lang)
          : "";
  std::string out = url.empty() ? fmt::format("<span{}>{}</span>", lang, text)
                                : fmt::format(R"(<a href="{}" rel="noreferrer"{}{}>{}</a>)", esc(url), lang,
                                              loc ? fmt::format(R"( hreflang="{}")", loc->lang) : "", text);
  if (loc && loc->fallback()) {
    out +=
        fmt::format(R"( <span class="muted small" lang="{}" dir="auto">({})</span>)", loc->lang, esc(loc->in_english));
  }
  return out;
}

// "path:line" with the line number kept on one line (the path may wrap).
std::string location_html(const Analysis& d, const LogRecord& r, const RenderOptions& o) {
  return fmt::format(R"(<code class="loc">{}<span class="ln">:{}</span></code>)",
                     esc(detail::input_path(d, r, o.deterministic)), r.where.line);
}

// The job's links into the console: its entries in Logs Explorer over the export's time span, and
// its Dataflow page when the region is known. "" without a job id.
std::string job_links(const Analysis& d) {
  const std::string logs = detail::logs_explorer_job_url(d.job, d.start, d.end);
  if (logs.empty()) return "";
  std::string out =
      fmt::format(R"(<a class="console" href="{}" rel="noreferrer">view in Logs Explorer</a>)", esc(logs));
  if (const std::string page = detail::dataflow_job_url(d.job); !page.empty()) {
    out += fmt::format(R"( · <a class="console" href="{}" rel="noreferrer">job page</a>)", esc(page));
  }
  return out;
}

void header(std::string& out, const RankedReport& report, const RenderOptions& o) {
  const Analysis& d = *report.analysis;
  out += R"(<header><p class="kicker">gpudiag post-mortem</p>)";
  out +=
      fmt::format("<h1>{}</h1>", esc(d.job.name.empty() ? (d.job.id.empty() ? "Unknown job" : d.job.id) : d.job.name));
  out += R"(<dl class="meta">)";
  const auto row = [&](std::string_view name, const std::string& value) {
    if (!value.empty()) out += fmt::format("<dt>{}</dt><dd>{}</dd>", name, value);
  };
  row("Job id", d.job.id.empty() ? "" : "<code>" + esc(d.job.id) + "</code>");
  row("Region", esc(d.job.region));
  row("Project", esc(d.job.project));
  row("Console", job_links(d));
  if (!d.job.other_ids.empty()) {
    row("Other jobs",
        detail::several_jobs(report)
            ? fmt::format(R"({} more in the export: see <a href="#jobs">the jobs</a>)", d.job.other_ids.size())
            : fmt::format("{} more in the export; findings cover all of them", d.job.other_ids.size()));
  }
  row("Time span", esc(time_span(d.start, d.end)));
  std::string inputs;
  for (const auto& in : d.inputs) {
    inputs += fmt::format("{}<code>{}</code> ({})", inputs.empty() ? "" : ", ",
                          esc(display_path(in.path, o.deterministic)), shape_name(in.shape));
  }
  row(d.inputs.size() == 1 ? "Input" : "Inputs", inputs);
  row("Entries", fmt::format("{}: {} analysed, {} skipped, {}", d.entries, d.analysed, d.skipped,
                             plural(d.duplicates, "duplicate", "duplicates")));
  out += "</dl>";
  out +=
      fmt::format(R"(<div class="verdict {}" id="verdict">{})", verdict_name(report.verdict), esc(report.verdict_line));
  if (!report.fixes.empty() && !report.fixes.front().demoted) {
    out += fmt::format("<p>First thing to try: {}</p>", esc(detail::fix_action(report.fixes.front(), o)));
  }
  if (o.fail_on) out += fmt::format("<p>Gate: {}</p>", esc(detail::gate_line(report, o)));
  out += "</div>";
  // Input problems as docs/formats.md defines them: an input not read is an error box, skipped or
  // cropped entries a note (each listed under "Inconclusive and skipped").
  if (!d.input_errors.empty()) {
    out += fmt::format(R"(<div class="unread" role="alert"><strong>{} not read in full</strong>; this report )"
                       R"(covers only what was read.<ul>)",
                       plural(d.input_errors.size(), "input", "inputs"));
    for (const auto& e : d.input_errors) {
      out += fmt::format("<li><code>{}</code>: {}</li>", esc(display_path(e.file, o.deterministic)), esc(e.message));
    }
    out += "</ul></div>";
  }
  uint64_t problems = 0;
  for (const auto& in : d.inputs) problems += in.problems_total;
  if (problems > 0) {
    out += fmt::format(R"(<p class="note">{} in the input ({} skipped): see <a href="#skipped">what was )"
                       R"(skipped</a>.</p>)",
                       plural(problems, "problem", "problems"), plural(d.skipped, "entry", "entries"));
  }
  if (detail::several_jobs(report)) out += R"(<nav><a href="#jobs">Jobs</a></nav>)";
  out += fmt::format(
      R"(<nav><a href="#timeline-section">Timeline</a>{}<a href="#findings">Findings</a><a href="#workers">Workers</a>)"
      R"(<a href="#fixes">Fixes</a><a href="#skipped">Inconclusive and skipped</a></nav></header>)",
      report.unexplained.empty() ? "" : R"(<a href="#unexplained">Errors no rule explains</a>)");
}

// `prefix` goes before every id and in-page link: "" for the report's first job, "j2-" … for the
// sections of the other jobs of a several-job report.
void timeline(std::string& out, const RankedReport& report, std::string_view prefix = "") {
  out += fmt::format(R"(<section id="{}timeline-section"><h2>Timeline</h2>)", prefix);
  const std::string svg = detail::timeline_svg(report, prefix);
  if (svg.empty()) {
    out += R"(<p class="muted">The export has no timestamps, so there is no timeline.</p></section>)";
    return;
  }
  out += svg;
  out += R"(<p class="legend">)";
  for (std::string_view state : {"submitted", "starting", "running", "failed", "stopping", "stopped"}) {
    out += fmt::format(R"(<span><i class="state-{0}"></i>{0}</span>)", state);
  }
  out +=
      "<span>workers: the count the job messages announce (a target)</span>"
      "<span>● a finding, pinned where it first appeared; its bar spans first to last entry</span>";
  if (!report.unexplained.empty()) out += "<span>▪ U1 … an error no rule explains, pinned at its first entry</span>";
  out += "</p>";
  out += R"(<h3>The job's story</h3><ol class="story">)";
  for (const auto& e : detail::story_events(report)) {
    const std::string when = e.at == kNoTime ? "—" : format_rfc3339(e.at).substr(11, 8) + "Z";
    if (e.group_rank > 0) {
      out += fmt::format(
          R"(<li class="finding-event sev-{}"><time class="mono">{}</time><span><a href="#{}u-{}">{}</a> first seen <span class="muted small">— {}</span></span></li>)",
          impact_name(e.severity), when, prefix, e.group_rank, esc(e.label), esc(e.detail));
    } else if (e.finding_rank > 0) {
      out += fmt::format(
          R"(<li class="finding-event sev-{}"><time class="mono">{}</time><span><a href="#{}f-{}">{}</a> first seen <span class="muted small">— {}</span></span></li>)",
          impact_name(e.severity), when, prefix, e.finding_rank, esc(e.label), esc(e.detail));
    } else {
      out +=
          fmt::format(R"(<li><time class="mono">{}</time><span>{} <span class="muted small">— {}</span></span></li>)",
                      when, esc(upper(e.label.substr(0, 1)) + e.label.substr(1)), esc(crop_middle(e.detail, 200)));
    }
  }
  out += "</ol></section>";
}

// One log entry around the evidence: a row of the evidence grid (line number, time, log, first
// line). Neighbours come from the evidence's own input, so the line number is enough; the whole
// location is its tooltip.
void context_row(std::string& out, const Analysis& d, const LogRecord& r, const RenderOptions& o) {
  out += fmt::format(
      R"(<div class="ctx"><span class="ln" title="{}">{}</span><span class="t">{}</span><span class="lg">{}</span>)"
      R"(<span class="x">{}</span></div>)",
      esc(detail::source_location(d, r, o.deterministic)), r.where.line,
      r.timestamp == kNoTime ? "" : format_rfc3339(r.timestamp).substr(11), esc(r.log),
      esc(crop_middle(detail::first_line(detail::entry_text(r)), kContextBytes)));
}

// The excerpt with the matched line marked; under it, when `whole`, the entire message folded
// in a <details> (the excerpt leaves lines out).
std::string excerpt_html(const Evidence& e, bool whole) {
  std::string pre;
  const auto lines = detail::excerpt_of(e);
  for (const auto& line : lines) {
    const std::string text = esc(detail::excerpt_text(line, e, kExcerptLineBytes));
    pre += (pre.empty() ? "" : "\n") + (line.match_at != std::string::npos ? "<mark>" + text + "</mark>"
                                        : line.fold ? R"(<span class="muted">)" + text + "</span>"
                                                    : text);
  }
  std::string out = "<pre>" + pre + "</pre>";
  const std::string_view text = detail::entry_text(e.entry.record());
  if (whole && (text.find('\n') != std::string_view::npos || text.size() > kExcerptLineBytes)) {
    out += fmt::format(R"(<details class="small"><summary>The whole entry</summary><pre>{}</pre></details>)",
                       esc(crop_middle(text, kMessageBytes)));
  }
  return out;
}

// One evidence entry as evidence shows it: where, when, which log, a link to it in Logs Explorer,
// and its excerpt. `also` names the other logs that held a copy ("" none).
void evidence_hit(std::string& out, const Analysis& d, const Evidence& e, std::string_view also, const RenderOptions& o,
                  bool whole) {
  const LogRecord& r = e.entry.record();
  std::string head = fmt::format("{} · {} · {} · {}", location_html(d, r, o),
                                 r.timestamp == kNoTime ? "time unknown" : format_rfc3339(r.timestamp),
                                 severity_name(r.severity), esc(r.log.empty() ? "-" : r.log));
  if (!r.worker.empty()) head += " · " + esc(r.worker);
  if (!r.sdk_worker.empty()) head += " · " + esc(r.sdk_worker);
  if (!also.empty()) head += " · also in: " + esc(also);
  if (const std::string url = detail::logs_explorer_entry_url(d.job, r); !url.empty()) {
    head += fmt::format(R"( · <a class="console" href="{}" rel="noreferrer">view in Logs Explorer</a>)", esc(url));
  }
  out += fmt::format(R"(<div class="hit"><div class="hit-head">{}</div>{}</div>)", head, excerpt_html(e, whole));
}

struct EvidenceItem {
  const Evidence* evidence = nullptr;
  std::string also;    // other logs holding a copy
  bool whole = false;  // also the whole entry, folded
};

// An entry's place in its input: two neighbours with the same place are one entry.
using EntryKey = std::tuple<uint32_t, uint64_t, uint64_t>;
EntryKey key_of(const LogRecord& r) { return {r.where.input, r.where.line, r.where.offset}; }

std::set<EntryKey> window_of(const Evidence& e) {
  std::set<EntryKey> keys{key_of(e.entry.record())};
  for (const auto* side : {&e.before, &e.after}) {
    for (const auto& k : *side) keys.insert(key_of(k.record()));
  }
  return keys;
}

// Evidence entries whose neighbourhoods overlap, as one block: every entry once, the evidence as
// hits and the rest as context rows, earlier above later (a gcloud export is newest first, so file
// order alone would read backwards; without timestamps, file order).
void evidence_block(std::string& out, const Analysis& d, const std::vector<EvidenceItem>& items,
                    const RenderOptions& o) {
  struct Row {
    const LogRecord* record;
    const EvidenceItem* hit;  // nullptr: a neighbour
  };
  std::vector<Row> rows;
  std::set<EntryKey> shown;
  for (const auto& item : items) {
    if (shown.insert(key_of(item.evidence->entry.record())).second)
      rows.push_back({&item.evidence->entry.record(), &item});
  }
  for (const auto& item : items) {
    for (const auto* side : {&item.evidence->before, &item.evidence->after}) {
      for (const auto& k : *side) {
        if (shown.insert(key_of(k.record())).second) rows.push_back({&k.record(), nullptr});
      }
    }
  }
  const bool timed = std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.record->timestamp != kNoTime; });
  std::stable_sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    if (timed && a.record->timestamp != b.record->timestamp) return a.record->timestamp < b.record->timestamp;
    if (timed && (a.hit == nullptr) != (b.hit == nullptr))
      return a.hit == nullptr;  // a neighbour of the same time first
    return key_of(*a.record) < key_of(*b.record);
  });
  out += R"(<div class="evidence">)";
  if (items.size() > 1) {
    out += fmt::format(
        R"(<p class="merged small muted">{} entries close together, with the entries around them shown once:</p>)",
        items.size());
  }
  for (const auto& row : rows) {
    if (row.hit)
      evidence_hit(out, d, *row.hit->evidence, row.hit->also, o, row.hit->whole);
    else
      context_row(out, d, *row.record, o);
  }
  out += "</div>";
}

// One evidence entry with its neighbours; `also` names the other logs that held a copy ("" none).
void evidence_entry(std::string& out, const Analysis& d, const Evidence& e, std::string_view also,
                    const RenderOptions& o, bool whole) {
  evidence_block(out, d, {EvidenceItem{&e, std::string(also), whole}}, o);
}

// Evidence entries with their neighbours in the input, earlier ones above and later ones below; entries
// whose neighbourhoods overlap share one block. The first entry is shown by its excerpt and, folded,
// whole; the others by their excerpt.
void evidence(std::string& out, const Analysis& d, const Finding& f, const RenderOptions& o) {
  if (f.evidence.empty()) return;
  out += fmt::format(
      R"(<p class="small muted">Evidence: {}{}, each with the entries around it in its input.</p>)",
      plural(f.count, "entry", "entries"),
      f.count > f.evidence.size() ? fmt::format(" ({} kept: the earliest and the latest)", f.evidence.size()) : "");
  std::vector<EvidenceItem> group;
  std::set<EntryKey> group_keys;
  for (size_t i = 0; i < f.evidence.size(); ++i) {
    const std::set<EntryKey> keys = window_of(f.evidence[i]);
    const bool overlaps =
        std::any_of(keys.begin(), keys.end(), [&](const EntryKey& k) { return group_keys.count(k) > 0; });
    if (!group.empty() && !overlaps) {
      evidence_block(out, d, group, o);
      group.clear();
      group_keys.clear();
    }
    group.push_back({&f.evidence[i], detail::also_in(f.evidence[i]), i == 0});
    group_keys.insert(keys.begin(), keys.end());
  }
  evidence_block(out, d, group, o);
}
std::string finding_facts(const Finding& f) {
  if (f.via == "facts") return "found from the job's configuration";
  std::string s =
      fmt::format("{}, {}", f.via == "absence" ? "found by what is missing" : plural(f.count, "entry", "entries"),
                  time_span(f.first_seen, f.last_seen));
  if (f.workers_total > 0) s += ", " + plural(f.workers_total, "worker", "workers");
  return s;
}

void finding(std::string& out, const RankedReport& report, size_t index, const RenderOptions& o,
             std::string_view prefix = "") {
  const RankedFinding& rf = report.findings[index];
  const Finding& f = *rf.finding;
  out += fmt::format(R"(<article class="finding sev-{}{}{}" id="{}f-{}">)", impact_name(f.severity),
                     rf.depth > 0 ? " symptom" : "", rf.suppressed ? " suppressed" : "", prefix, rf.rank);
  out += fmt::format(R"(<h3>{}. <span class="badge">{}</span> {}</h3>)", rf.rank, upper(impact_name(f.severity)),
                     esc(f.title));
  out += fmt::format(
      R"(<div class="facts"><code>{}</code> · confidence {:.0f}%{} · {}{}</div>)", esc(f.rule_id), f.confidence * 100,
      f.confidence_note.empty() ? "" : fmt::format(" ({})", esc(f.confidence_note)), esc(finding_facts(f)),
      rf.caused_by
          ? fmt::format(R"( · a symptom of <a href="#{1}f-{0}">#{0}</a>)", report.findings[*rf.caused_by].rank, prefix)
      : rf.caused_by_unexplained
          ? fmt::format(R"( · a symptom of <a href="#{1}u-{0}">U{0}</a> {2})",
                        report.unexplained[*rf.caused_by_unexplained].rank, prefix,
                        esc(unexplained_headline(*report.unexplained[*rf.caused_by_unexplained].group)))
          : "");
  if (rf.baseline_entry) {
    const BaselineEntry& e = report.baseline->entries[*rf.baseline_entry].entry;
    out +=
        fmt::format(R"(<p class="note">{} (<code>{}:{}</code>){}</p>)",
                    rf.suppressed ? "Suppressed by the baseline" : "In the baseline but expired on " + esc(e.expires),
                    esc(report.baseline->file), e.line, rf.suppressed ? ": " + esc(e.reason) : "; it counts again");
  }
  if (rf.history) {
    out += fmt::format(R"(<p class="note history-{}">History: {}</p>)", rf.history->known ? "known" : "new",
                       esc(history_note(*rf.history)));
  }
  if (rf.depth == 0) {
    out += fmt::format("<p>{}</p>", esc(f.description));
    evidence(out, *report.analysis, f, o);
    if (!rf.fixes.empty()) {
      out += R"(<p class="small"><strong>Fixes for this finding, best first:</strong></p><ol class="small doc">)";
      for (const auto& fix : rf.fixes) {
        out += fmt::format("<li>{}{}{} — {}</li>", esc(detail::fix_action(fix, o)),
                           fix.demoted ? " <em>(already in place)</em>" : "", command_html(fix.command),
                           doc_link(fix.doc, o));
      }
      out += "</ol>";
    }
  } else if (!f.evidence.empty()) {
    const LogRecord& r = f.evidence.front().entry.record();
    out += fmt::format(R"(<p class="small">{} {}</p>)", location_html(*report.analysis, r, o),
                       esc(detail::matched_excerpt(f.evidence.front(), kContextBytes)));
  }
  // Symptoms fold inside their cause.
  if (!rf.symptoms.empty() && rf.depth == 0) {
    out += fmt::format(R"(<p class="small"><strong>Symptoms of this cause ({}):</strong></p>)", rf.symptoms.size());
  }
  for (size_t s : rf.symptoms) finding(out, report, s, o, prefix);
  out += "</article>";
}

void findings(std::string& out, const RankedReport& report, const RenderOptions& o, std::string_view prefix = "") {
  out += fmt::format(R"(<section id="{}findings"><h2>Findings, most likely cause first</h2>)", prefix);
  if (report.findings.empty()) out += R"(<p class="muted">No rule fired: no known problem in this export.</p>)";
  for (size_t i = 0; i < report.findings.size(); ++i) {
    if (report.findings[i].depth == 0) finding(out, report, i, o, prefix);
  }
  out += "</section>";
}

void workers(std::string& out, const RankedReport& report) {
  out += R"(<section id="workers"><h2>Which workers saw what</h2>)";
  std::set<std::string> names;
  for (const auto& rf : report.findings) names.insert(rf.finding->workers.begin(), rf.finding->workers.end());
  if (names.empty()) {
    out += R"(<p class="muted">No finding came from a worker VM's entries.</p></section>)";
    return;
  }
  out += "<table><thead><tr><th>Worker VM</th>";
  for (const auto& rf : report.findings) {
    out += fmt::format(R"(<th title="{}"><a href="#f-{}">#{}</a></th>)", esc(rf.finding->rule_id), rf.rank, rf.rank);
  }
  out += "</tr></thead><tbody>";
  size_t rows = 0;
  for (const auto& name : names) {
    if (rows++ == kMaxWorkerRows) break;
    out += fmt::format("<tr><td><code>{}</code></td>", esc(name));
    for (const auto& rf : report.findings) {
      const auto& w = rf.finding->workers;
      const bool hit = std::binary_search(w.begin(), w.end(), name);
      out += hit ? fmt::format(R"(<td class="hit sev-{}" title="{}">●</td>)", impact_name(rf.finding->severity),
                               esc(rf.finding->rule_id))
                 : "<td></td>";
    }
    out += "</tr>";
  }
  out += "</tbody></table>";
  if (names.size() > kMaxWorkerRows) {
    out += fmt::format(R"(<p class="small muted">… and {} more workers (the JSON report lists them per finding).</p>)",
                       names.size() - kMaxWorkerRows);
  }
  out +=
      R"(<p class="small muted">Columns are findings by rank; findings from job messages or configuration name no worker.</p></section>)";
}

void fixes(std::string& out, const RankedReport& report, const RenderOptions& o, std::string_view prefix = "") {
  out += fmt::format(R"(<section id="{}fixes"><h2>Fixes, best first</h2>)", prefix);
  if (report.fixes.empty())
    out += R"(<p class="muted">Nothing to fix.</p>)";
  else
    out += R"(<ol class="fixes doc">)";
  for (const auto& fix : report.fixes) {
    out += fmt::format("<li><strong>{}</strong>{}{}", esc(detail::fix_action(fix, o)),
                       fix.demoted ? " <em>(already in place)</em>" : "", command_html(fix.command));
    // A translated `why` stands for the fix's one reason; several findings' reasons stay English.
    const FixTranslation* t = detail::fix_translation(fix.i18n, o);
    for (const auto& why : fix.reasons) {
      out += fmt::format("<br>{}", esc(t && !t->why.empty() && fix.reasons.size() == 1 ? t->why : why));
    }
    out += fmt::format(R"(<br><span class="small muted">{}</span> · <span class="small">{}</span></li>)",
                       esc(fix.rank_reason), doc_link(fix.doc, o));
  }
  if (!report.fixes.empty()) out += "</ol>";
  out += "</section>";
}

void skipped(std::string& out, const RankedReport& report, const RenderOptions& o) {
  const Analysis& d = *report.analysis;
  out += R"(<section id="skipped"><h2>Inconclusive and skipped</h2>)";
  if (d.inconclusive.empty()) {
    out += R"(<p class="muted">Every check could be decided from this export.</p>)";
  } else {
    out += "<p>Not findings: the export cannot tell.</p><ul>";
    for (const auto& i : d.inconclusive) {
      out += fmt::format("<li><strong>{}</strong> (<code>{}</code>): {}</li>", esc(i.title), esc(i.rule_id),
                         esc(i.reason));
    }
    out += "</ul>";
  }
  out += fmt::format("<p>{} read: {} analysed, {} skipped as malformed, {} ignored as {}.{}</p>",
                     plural(d.entries, "entry", "entries"), d.analysed, d.skipped, d.duplicates,
                     d.duplicates == 1 ? "a duplicate" : "duplicates",
                     d.duplicates_windowed ? " Duplicates far apart in this huge input may have been missed." : "");
  size_t shown = 0;
  std::string items;
  for (const auto& e : d.input_errors) {
    items +=
        fmt::format("<li><code>{}</code>: error: {}</li>", esc(display_path(e.file, o.deterministic)), esc(e.message));
  }
  for (const auto& in : d.inputs) {
    const std::string path = display_path(in.path, o.deterministic);
    for (const auto& p : in.problems) {
      if (shown++ >= kProblemsShown) break;
      items += fmt::format(
          "<li><code>{}</code>{}: {}{}</li>", esc(p.line > 0 ? fmt::format("{}:{}", path, p.line) : path),
          p.offset >= 0 ? fmt::format(" (byte {})", p.offset) : "", p.skipped_entry ? "skipped: " : "", esc(p.message));
    }
    if (in.problems_total > in.problems.size()) {
      items += fmt::format("<li><code>{}</code>: … and {} more problems</li>", esc(path),
                           in.problems_total - in.problems.size());
    }
  }
  if (!items.empty()) out += "<h3>Input problems</h3><ul class=\"small\">" + items + "</ul>";
  if (report.baseline) {
    const BaselineReview& b = *report.baseline;
    out += fmt::format("<h3>Baseline <code>{}</code></h3><p>{} suppressed, {} stale {}.</p>", esc(b.file),
                       plural(b.suppressed, "finding", "findings"), b.stale(), b.stale() == 1 ? "entry" : "entries");
    out += "<ul class=\"small\">";
    for (const auto& e : b.entries) {
      out += fmt::format(
          "<li><code>{}:{}</code> <code>{}</code> — {}{}</li>", esc(b.file), e.entry.line, esc(e.entry.rule_id),
          baseline_state_name(e.state),
          e.state == BaselineState::kSuppressing ? ": " + esc(e.entry.reason) : ": " + esc(detail::stale_reason(e)));
    }
    out += "</ul>";
  }
  out += "</section>";
}

constexpr size_t kJobRows = 200;  // rows of the jobs table; the JSON report lists every job

// With several jobs: the jobs table (worst first), each row linking to the job's section when it
// has one; healthy jobs are only their row.
void jobs_table(std::string& out, const RankedReport& report) {
  const Analysis& d = *report.analysis;
  out += fmt::format(R"(<section id="jobs"><h2>Jobs ({})</h2><table class="jobs"><thead><tr><th>Job id</th>)"
                     "<th>Name</th><th>Outcome</th><th>Verdict</th><th>Top "
                     "cause</th><th>Entries</th><th>Console</th></tr></thead><tbody>",
                     detail::jobs_count(report));
  for (size_t i = 0; i < report.jobs.size() && i < kJobRows; ++i) {
    const RankedReport& job = report.jobs[i];
    const JobInfo& j = job.analysis->job;
    const std::string id = "<code>" + esc(j.id.empty() ? "(no id)" : j.id) + "</code>";
    const std::string cause = detail::top_cause(job);
    out += fmt::format(
        R"(<tr class="job-{}"><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>)",
        verdict_name(job.verdict),
        i == 0                       ? fmt::format(R"(<a href="#verdict">{}</a>)", id)
        : detail::shown_in_full(job) ? fmt::format(R"(<a href="#j{}-job">{}</a>)", i + 1, id)
                                     : id,
        esc(j.name), job_outcome_name(j.outcome), verdict_name(job.verdict), cause.empty() ? "—" : esc(cause),
        j.entries, job_links(*job.analysis));
  }
  out += "</tbody></table>";
  if (report.jobs.size() > kJobRows) {
    out += fmt::format(R"(<p class="small muted">… and {} (the JSON report lists them).</p>)",
                       plural(report.jobs.size() - kJobRows, "more job", "more jobs"));
  }
  if (const std::string line = detail::unlisted_jobs_line(report); !line.empty()) {
    out += fmt::format(R"(<p class="small muted">{}.</p>)", esc(line));
  }
  if (!d.not_diagnosed.empty()) {
    out += fmt::format(R"(<p class="small muted">{} not diagnosed (over --max-jobs).</p>)",
                       plural(d.not_diagnosed.size(), "job", "jobs"));
  }
  if (!d.not_selected.empty()) {
    out += fmt::format(R"(<p class="small muted">{} not selected (--job-id, --job-name).</p>)",
                       plural(d.not_selected.size(), "job", "jobs"));
  }
  out += R"(<p class="small muted">The sections below the table's first row describe its job; each other job )"
         R"(whose verdict is not ok has a section of its own after them.</p></section>)";
}

// One error no rule explains: what it is, where and when, the raw exemplar (whole, folded) and the
// findings it explains.
void unexplained_group(std::string& out, const RankedReport& report, const RankedUnexplained& u, const RenderOptions& o,
                       std::string_view prefix) {
  const UnexplainedGroup& g = *u.group;
  out += fmt::format(R"(<article class="finding unexplained sev-{}{}" id="{}u-{}">)", impact_name(u.severity()),
                     u.suppressed ? " suppressed" : "", prefix, u.rank);
  out += fmt::format(R"(<h3>U{}. <span class="badge">{}</span> {}</h3>)", u.rank, upper(impact_name(u.severity())),
                     esc(unexplained_headline(g)));
  out += fmt::format(R"(<div class="facts"><code>{}</code> · {}</div>)", kUnexplainedRuleId,
                     esc(detail::unexplained_stats(g)));
  out += R"(<dl class="meta small">)";
  const auto row = [&](std::string_view name, const std::string& value) {
    if (!value.empty()) out += fmt::format("<dt>{}</dt><dd>{}</dd>", name, value);
  };
  row("Exception", g.exception.empty() ? "" : "<code>" + esc(g.exception) + "</code>");
  if (g.user_frame) {
    row("User frame", fmt::format("<code>{}:{}</code> in <code>{}</code>", esc(g.user_frame->file), g.user_frame->line,
                                  esc(g.user_frame->function)));
  }
  row("Step", esc(g.step));
  if (g.exception.empty()) row("Template", "<code>" + esc(g.template_text) + "</code>");
  std::string names;
  for (const auto& w : g.workers) names += (names.empty() ? "" : ", ") + ("<code>" + esc(w) + "</code>");
  if (g.workers_total > g.workers.size()) names += fmt::format(" … of {}", g.workers_total);
  row("Workers", names);
  row("First seen", g.first_seen == kNoTime ? "" : format_rfc3339(g.first_seen));
  row("Last seen", g.last_seen == kNoTime ? "" : format_rfc3339(g.last_seen));
  row("Fingerprint", "<code>" + esc(g.fingerprint) + "</code>");
  out += "</dl>";
  if (u.baseline_entry) {
    const BaselineEntry& e = report.baseline->entries[*u.baseline_entry].entry;
    out += fmt::format(R"(<p class="note">{} (<code>{}:{}</code>){}</p>)",
                       u.suppressed ? "Suppressed by the baseline" : "In the baseline but expired on " + esc(e.expires),
                       esc(report.baseline->file), e.line, u.suppressed ? ": " + esc(e.reason) : "; it counts again");
  }
  if (u.novelty != Novelty::kNoHistory) {
    out += fmt::format(R"(<p class="note history-{}">History: {}</p>)", u.novelty == Novelty::kNew ? "new" : "known",
                       esc(detail::novelty_note(u.novelty)));
  }
  out += R"(<p class="small muted">The earliest entry, as logged:</p>)";
  evidence_entry(out, *report.analysis, g.exemplar, fmt::format("{}", fmt::join(g.also_in, ", ")), o, true);
  if (!u.symptoms.empty()) {
    out += R"(<p class="small"><strong>Explains:</strong></p><ul class="small">)";
    for (size_t i : u.symptoms) {
      const RankedFinding& s = report.findings[i];
      out += fmt::format(R"(<li><a href="#{}f-{}">#{}</a> {} (<code>{}</code>)</li>)", prefix, s.rank, s.rank,
                         esc(s.finding->title), esc(s.finding->rule_id));
    }
    out += "</ul>";
  }
  out += "</article>";
}

// The errors no rule explains (all the report keeps; the text and Markdown show three), the most
// likely cause first. "" when there are none.
void unexplained(std::string& out, const RankedReport& report, const RenderOptions& o, std::string_view prefix = "") {
  if (report.unexplained.empty()) return;
  const Analysis& d = *report.analysis;
  out += fmt::format(
      R"(<section id="{}unexplained"><h2>Errors no rule explains ({}{})</h2>)", prefix, report.unexplained.size(),
      d.unexplained_groups_total > report.unexplained.size() ? fmt::format(" of {}", d.unexplained_groups_total) : "");
  if (!detail::unexplained_first(report)) {
    out += std::any_of(report.unexplained.begin(), report.unexplained.end(),
                       [](const RankedUnexplained& u) { return u.severity() >= Impact::kError; })
               ? R"(<p class="muted">Errors no rule in the pack knows, grouped; a rule's finding ranks first.</p>)"
               : R"(<p class="muted">None came before a failure: error chatter, not a cause.</p>)";
  }
  for (const auto& u : report.unexplained) unexplained_group(out, report, u, o, prefix);
  out += "</section>";
}

// Another job whose verdict is not ok, in full: its verdict, timeline, findings and fixes.
void job_section(std::string& out, const RankedReport& job, size_t number, const RenderOptions& o) {
  const std::string prefix = fmt::format("j{}-", number);
  const JobInfo& j = job.analysis->job;
  out += fmt::format(R"(<section class="job" id="{}job"><h2>{}</h2>)", prefix, esc(detail::job_label(j)));
  const std::string links = job_links(*job.analysis);
  out += fmt::format(R"(<dl class="meta"><dt>Outcome</dt><dd>{}</dd><dt>Time span</dt><dd>{}</dd>{}</dl>)",
                     job_outcome_name(j.outcome), esc(time_span(job.analysis->start, job.analysis->end)),
                     links.empty() ? "" : "<dt>Console</dt><dd>" + links + "</dd>");
  out += fmt::format(R"(<div class="verdict {}">{})", verdict_name(job.verdict), esc(job.verdict_line));
  if (!job.fixes.empty() && !job.fixes.front().demoted) {
    out += fmt::format("<p>First thing to try: {}</p>", esc(detail::fix_action(job.fixes.front(), o)));
  }
  out += "</div>";
  timeline(out, job, prefix);
  const bool groups_first = detail::unexplained_first(job);
  if (groups_first) unexplained(out, job, o, prefix);
  findings(out, job, o, prefix);
  if (!groups_first) unexplained(out, job, o, prefix);
  fixes(out, job, o, prefix);
  out += "</section>";
}

// Only in a several-job report: the other jobs' timelines have ids of their own.
constexpr std::string_view kJobsStyle = R"css(
svg[id$="timeline"]{width:100%;height:auto;display:block;border:1px solid var(--line);border-radius:6px;background:#fff}
section.job{border-top:3px solid var(--line);margin-top:40px}
tr.job-failed td:nth-child(4),tr.job-incomplete td:nth-child(4){color:var(--error);font-weight:600}
tr.job-warning td:nth-child(4){color:var(--warning);font-weight:600}
)css";

}  // namespace

std::string render_html(const RankedReport& report, const RenderOptions& o) {
  const Analysis& d = *report.analysis;
  std::string out = R"(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="generator" content="gpudiag">
)";
  const bool several = detail::several_jobs(report);
  out += fmt::format("<title>{} — gpudiag post-mortem</title>\n<style>{}</style>\n{}</head><body><main>\n",
                     esc(d.job.name.empty() ? d.job.id : d.job.name), kStyle,
                     several ? fmt::format("<style>{}</style>\n", kJobsStyle) : "");
  header(out, report, o);
  out += '\n';
  if (several) {
    jobs_table(out, report);
    out += '\n';
  }
  timeline(out, report);
  out += '\n';
  // An error no rule explains that is the likely cause comes before the findings it explains.
  const bool groups_first = detail::unexplained_first(report);
  if (groups_first) {
    unexplained(out, report, o);
    out += '\n';
  }
  findings(out, report, o);
  out += '\n';
  if (!groups_first && !report.unexplained.empty()) {
    unexplained(out, report, o);
    out += '\n';
  }
  workers(out, report);
  out += '\n';
  fixes(out, report, o);
  out += '\n';
  skipped(out, report, o);
  if (several) {
    for (size_t i : detail::full_jobs(report)) {
      if (i == 0) continue;  // the worst job: the sections above
      out += '\n';
      job_section(out, report.jobs[i], i + 1, o);
    }
  }
  // Version and rule-pack hash are left out of deterministic output, so goldens survive releases.
  out += fmt::format(
      "\n<footer>gpudiag{}</footer>\n</main></body></html>\n",
      o.deterministic ? "" : fmt::format(" {} · rule pack <code>{}</code>", esc(o.version), esc(d.rule_pack_hash)));
  return out;
}

}  // namespace gpudiag
