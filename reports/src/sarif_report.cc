// SARIF 2.1.0: tool.driver.rules is the rule pack, or with several jobs the rules each run names (helpUri = the
// documentation its first fix cites); one result per finding in rank order, located at the input file and line of its
// first evidence entry, with partialFingerprints[gpudiagFingerprint/v2] = Finding::fingerprint (stable across runs of
// the same job family) and [gpudiagFingerprint/v1] = the value gpudiag 0.1 wrote. With a baseline, results carry
// baselineState and accepted ones an external suppression; baseline entries that matched nothing come back as "absent"
// results. With several jobs: a run per failed or warning job (automationDetails.id gpudiag/PIPELINE/JOB), the healthy
// ones summed up in the first run's properties (docs/formats.md, Several jobs). Errors no rule explains are results of
// the reserved rule `unexplained-error` (added to tool.driver.rules when a run has one), each with
// partialFingerprints[gpudiagGroup/v1] = the group's fingerprint.
// Every artifact URI is relative to a uriBaseId (SarifPaths); each rule has help.markdown; a symptom
// is never an error (ci_levels.h); input problems are the invocation's toolExecutionNotifications.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "ci_levels.h"
#include "finding_history.h"
#include "gpudiag/formats.h"
#include "gpudiag/json_writer.h"
#include "job_views.h"
#include "wording.h"

namespace gpudiag {
namespace {

constexpr size_t kLineBytes = 1000;
constexpr size_t kSarifWorkers = 20;  // workers listed per result; workersTotal counts them all

std::string_view level(Impact i) { return detail::ci_level(i, "note"); }

// A path as a URI reference: unreserved characters and "/" kept, the rest %-encoded.
std::string uri(std::string_view path) {
  std::string out;
  for (char c : path) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
      out += c;
    else
      out += fmt::format("%{:02X}", u);
  }
  return out;
}

// Every artifact URI is relative to a base (docs/formats.md, SARIF): %SRCROOT%, the working
// directory, for inputs under it; INPUT_DIR_1, INPUT_DIR_2 … for the directories of the inputs
// outside it. originalUriBaseIds gives each base's absolute URI (left out with --deterministic, so
// that no report names the machine's directories), so no result carries a file:/// URI and code
// scanning resolves them against the checkout.
class SarifPaths {
 public:
  static constexpr std::string_view kWorkingDirectory = "%SRCROOT%";

  // `working_directory`: RenderOptions::working_directory, the %SRCROOT% base ("": none is known).
  SarifPaths(bool deterministic, std::string working_directory)
      : deterministic_(deterministic), working_directory_(std::move(working_directory)) {}

  // Makes a base for the directory of `path` when it lies outside the working directory.
  void add(const std::string& path) { locate(path); }

  struct Located {
    std::string base;  // "" for stdin
    std::string uri;
  };
  Located locate(const std::string& path) const {
    if (path.empty() || path == "-") return {"", uri(path.empty() ? "-" : path)};
    const std::string rel = detail::relative_to(path, working_directory_);
    if (rel.front() != '/') return {std::string(kWorkingDirectory), uri(rel)};
    const std::filesystem::path p(rel);
    const std::string dir = p.parent_path().string();
    auto it = dirs_.find(dir);
    if (it == dirs_.end()) it = dirs_.emplace(dir, fmt::format("INPUT_DIR_{}", dirs_.size() + 1)).first;
    return {it->second, uri(p.filename().string())};
  }

  void write_bases(JsonWriter& w) const {
    w.key("originalUriBaseIds").begin_object();
    w.key(kWorkingDirectory).begin_object();
    if (!deterministic_ && !working_directory_.empty()) w.field("uri", directory_uri(working_directory_));
    w.key("description").begin_object().field("text", "the working directory gpudiag ran in").end_object();
    w.end_object();
    std::vector<std::pair<std::string, std::string>> bases;  // id → directory, in id order
    for (const auto& [dir, id] : dirs_) bases.emplace_back(id, dir);
    std::sort(bases.begin(), bases.end(), [](const auto& a, const auto& b) {
      return a.first.size() != b.first.size() ? a.first.size() < b.first.size() : a.first < b.first;
    });
    for (const auto& [id, dir] : bases) {
      w.key(id).begin_object();
      if (!deterministic_) w.field("uri", directory_uri(dir));
      w.key("description").begin_object().field("text", "the directory of an input outside the working directory");
      w.end_object().end_object();
    }
    w.end_object();
  }

  // artifactLocation's uri and uriBaseId.
  void write_artifact(JsonWriter& w, const std::string& path) const {
    const Located at = locate(path);
    w.field("uri", at.uri);
    if (!at.base.empty()) w.field("uriBaseId", at.base);
  }

 private:
  static std::string directory_uri(const std::string& dir) {
    return "file://" + uri(dir) + (dir.empty() || dir.back() != '/' ? "/" : "");
  }

  bool deterministic_;
  std::string working_directory_;
  mutable std::map<std::string, std::string> dirs_;  // absolute directory → base id
};

void text_object(JsonWriter& w, std::string_view key, std::string_view text) {
  w.key(key).begin_object();
  w.field("text", sarif_text(text));
  w.end_object();
}

std::string input_of(const Analysis& d, size_t input) { return input < d.inputs.size() ? d.inputs[input].path : "?"; }

void location(JsonWriter& w, const Analysis& d, const Evidence& e, const SarifPaths& paths, std::optional<int> id) {
  const LogRecord& r = e.entry.record();
  w.begin_object();
  if (id) w.field("id", *id);
  w.key("physicalLocation").begin_object();
  w.key("artifactLocation").begin_object();
  paths.write_artifact(w, input_of(d, r.where.input));
  if (r.where.input < d.inputs.size()) w.field("index", static_cast<uint64_t>(r.where.input));
  w.end_object();
  if (r.where.line > 0) {
    w.key("region").begin_object();
    w.field("startLine", r.where.line);
    text_object(w, "snippet", detail::matched_excerpt(e, kLineBytes));
    w.end_object();
  }
  w.end_object();
  // Evidence that is no log entry (preflight's launch options: no time, no severity) says only where from.
  const bool entry = r.timestamp != kNoTime || r.severity != Severity::kDefault;
  text_object(w, "message",
              entry ? fmt::format("{} {} {}{}", format_rfc3339(r.timestamp), severity_name(r.severity), r.log,
                                  r.worker.empty() ? "" : fmt::format(" on {}", r.worker))
                    : std::string(r.log));
  w.end_object();
}

// What code scanning shows under "Show more": the rule's explanation, its fixes best first (the
// generic texts: the job's facts fill them in the results) each with why and its documentation.
std::string help_markdown(const RuleInfo& rule) {
  std::string out = markdown_prose(rule.description) + "\n\n**Fixes, best first**\n\n";
  for (size_t i = 0; i < rule.fixes.size(); ++i) {
    const FixInfo& fix = rule.fixes[i];
    const std::string title = markdown_escape(fmt::format("{} › {}", fix.doc.title, fix.doc.section));
    const std::string url = detail::safe_url(fix.doc.url);
    out += fmt::format("{}. **{}**  \n{}   {} ({})\n", i + 1, markdown_prose(fix.action),
                       fix.command.empty() ? ""
                                           : fmt::format("   {} {}  \n", detail::command_label(fix.command),
                                                         markdown_code_span(fix.command)),
                       markdown_prose(fix.why), url.empty() ? title : fmt::format("[{}]({})", title, url));
  }
  out += fmt::format("\n`gpudiag explain {}` prints the rule in full.\n", rule.id);
  return out;
}

void rule_descriptor(JsonWriter& w, const RuleInfo& rule) {
  w.begin_object();
  w.field("id", rule.id);
  text_object(w, "shortDescription", rule.title);
  text_object(w, "fullDescription", rule.description);
  const std::string help_uri = rule.fixes.empty() ? "" : detail::safe_url(rule.fixes.front().doc.url);
  if (!help_uri.empty()) w.field("helpUri", help_uri);
  std::string help;
  for (const auto& fix : rule.fixes)
    help += fmt::format("- {} ({} › {}: {})\n", fix.action, fix.doc.title, fix.doc.section, fix.doc.url);
  if (!help.empty()) {
    w.key("help").begin_object();
    w.field("text", sarif_text("Fixes, best first:\n" + help));
    w.field("markdown", help_markdown(rule));
    w.end_object();
  }
  w.key("defaultConfiguration").begin_object();
  w.field("enabled", rule.enabled).field("level", level(rule.severity));
  w.end_object();
  w.key("properties").begin_object();
  w.field("family", rule.family).field("confidence", rule.confidence);
  w.key("tags").begin_array().value("gpudiag").value(rule.family).end_array();
  w.end_object();
  w.end_object();
}

// The reserved rule of errors no rule explains: its results are the groups (one per group).
void unexplained_rule_descriptor(JsonWriter& w) {
  w.begin_object();
  w.field("id", kUnexplainedRuleId);
  text_object(w, "shortDescription", "An error no rule in the pack explains");
  text_object(w, "fullDescription",
              "Errors no rule of the pack matched, grouped by exception type, the innermost frame of the user's "
              "code and the start of the message (or by the line's template), so that the real error is shown. "
              "At error when it came before the job's failure, a note otherwise.");
  w.key("help").begin_object();
  w.field("text", sarif_text("Read the exemplar: it is the error as logged. `gpudiag patterns suggest FINGERPRINT` "
                             "prints a rule stub for the pack; a baseline accepts a group with "
                             "`rule: unexplained-error` and its fingerprint."));
  w.field("markdown",
          "Read the exemplar: it is the error as logged.\n\n**Fixes, best first**\n\n"
          "1. **Write a rule for it**: `gpudiag patterns suggest FINGERPRINT` prints a rule stub for the pack "
          "(docs/rules.md).\n"
          "2. **Accept it** if it is expected: a baseline entry with `rule: unexplained-error` and the group's "
          "fingerprint (docs/baseline.md).\n");
  w.end_object();
  w.key("defaultConfiguration").begin_object();
  w.field("enabled", true).field("level", "error");
  w.end_object();
  w.key("properties").begin_object();
  w.field("family", "unexplained");
  w.key("tags").begin_array().value("gpudiag").value("unexplained").end_array();
  w.end_object();
  w.end_object();
}

// One error no rule explains, located at its exemplar; partialFingerprints["gpudiagGroup/v1"] is
// the group's fingerprint (stable across runs: the grouping key leaves line numbers out).
void unexplained_result(JsonWriter& w, const RankedReport& report, const RankedUnexplained& u,
                        std::optional<size_t> rule_index, const SarifPaths& paths, std::string_view who) {
  const Analysis& d = *report.analysis;
  const UnexplainedGroup& g = *u.group;
  w.begin_object();
  w.field("ruleId", kUnexplainedRuleId);
  if (rule_index) w.field("ruleIndex", static_cast<uint64_t>(*rule_index));
  w.field("level", level(g.severity));
  std::string text = fmt::format("{}U{} {} — no rule in the pack knows this error. {}.", who, u.rank,
                                 unexplained_headline(g), detail::unexplained_stats(g));
  const auto explains = detail::unexplained_explains(report, u);
  if (!explains.empty()) text += fmt::format(" Explains {}.", fmt::join(explains, ", "));
  text += fmt::format("\n{}", detail::matched_excerpt(g.exemplar, kLineBytes));
  text_object(w, "message", text);
  w.key("locations").begin_array();
  location(w, d, g.exemplar, paths, std::nullopt);
  w.end_array();
  if (!g.also_at.empty()) {  // the other logs' copies of the same failure
    w.key("relatedLocations").begin_array();
    for (size_t i = 0; i < g.also_at.size(); ++i) {
      const SourceLocation& at = g.also_at[i];
      w.begin_object().field("id", static_cast<uint64_t>(i + 1));
      w.key("physicalLocation").begin_object().key("artifactLocation").begin_object();
      paths.write_artifact(w, input_of(d, at.input));
      if (at.input < d.inputs.size()) w.field("index", static_cast<uint64_t>(at.input));
      w.end_object();
      if (at.line > 0) w.key("region").begin_object().field("startLine", at.line).end_object();
      w.end_object();
      text_object(w, "message", i < g.also_in.size() ? fmt::format("a copy in the {} log", g.also_in[i]) : "a copy");
      w.end_object();
    }
    w.end_array();
  }
  w.key("partialFingerprints").begin_object().field(kSarifGroupFingerprintKey, g.fingerprint).end_object();
  if (report.baseline) {
    w.field("baselineState", u.baseline_entry ? "unchanged" : "new");
  } else if (g.novelty != Novelty::kNoHistory) {
    w.field("baselineState", g.novelty == Novelty::kNew ? "new" : "unchanged");  // the run history is the baseline
  }
  if (u.suppressed) {
    const BaselineEntry& e = report.baseline->entries[*u.baseline_entry].entry;
    w.key("suppressions").begin_array().begin_object();
    w.field("kind", "external").field("status", "accepted");
    w.field("justification", fmt::format("{} ({}:{})", e.reason, report.baseline->file, e.line));
    w.end_object().end_array();
  }
  w.key("properties").begin_object();
  w.field("rank", u.rank).field("headline", unexplained_headline(g)).field("count", g.count);
  w.field("exception", g.exception).field("exceptionType", g.exception_type).field("template", g.template_text);
  if (g.user_frame) {
    w.key("userFrame").begin_object().field("file", g.user_frame->file).field("line", g.user_frame->line);
    w.field("function", g.user_frame->function).end_object();
  }
  if (!g.step.empty()) w.field("step", g.step);
  if (g.first_seen != kNoTime) w.field("firstSeen", format_rfc3339(g.first_seen));
  if (g.last_seen != kNoTime) w.field("lastSeen", format_rfc3339(g.last_seen));
  const size_t listed = std::min(g.workers.size(), kSarifWorkers);
  w.array_field("workers",
                std::vector<std::string>(g.workers.begin(), g.workers.begin() + static_cast<ptrdiff_t>(listed)));
  w.field("workersTotal", g.workers_total);
  w.array_field("alsoIn", g.also_in);
  std::vector<std::string> explained;
  for (size_t s : u.symptoms) explained.push_back(report.findings[s].finding->rule_id);
  w.array_field("explains", explained);
  w.end_object();
  w.end_object();
}

std::string result_message(const RankedReport& report, const RankedFinding& rf, std::string_view who) {
  const Finding& f = *rf.finding;
  std::string text = fmt::format("{}{}. {}", who, f.title,
                                 f.via == "facts" ? "Found from the job's configuration."
                                                  : fmt::format("{}, {}.", detail::plural(f.count, "entry", "entries"),
                                                                detail::time_span(f.first_seen, f.last_seen)));
  if (rf.caused_by) {
    text += fmt::format(" A symptom of #{} {}.", report.findings[*rf.caused_by].rank,
                        report.findings[*rf.caused_by].finding->rule_id);
  }
  if (rf.caused_by_unexplained) {
    const RankedUnexplained& u = report.unexplained[*rf.caused_by_unexplained];
    text += fmt::format(" A symptom of U{} {}.", u.rank, unexplained_headline(*u.group));
  }
  if (!f.evidence.empty()) text += fmt::format("\n{}", detail::matched_excerpt(f.evidence.front(), kLineBytes));
  if (!rf.fixes.empty()) {
    const FindingFix& fix = rf.fixes.front();
    text += fmt::format("\nFix: {} ({})", fix.action, fix.doc.url);
    if (!fix.command.empty()) text += fmt::format("\n{} {}", detail::command_label(fix.command), fix.command);
  }
  return text;
}

// A baseline entry's fingerprint (absent results) is one text of unknown version: it goes under
// today's key.
void fingerprints(JsonWriter& w, std::string_view fingerprint, std::string_view v2, std::string_view legacy) {
  w.key("partialFingerprints").begin_object();
  if (!legacy.empty()) w.field(kSarifLegacyFingerprintKey, legacy);
  if (!v2.empty()) w.field(kSarifV2FingerprintKey, v2);
  w.field(kSarifFingerprintKey, fingerprint);
  w.end_object();
}

void result(JsonWriter& w, const RankedReport& report, const RankedFinding& rf,
            const std::map<std::string_view, size_t>& index, const SarifPaths& paths, std::string_view who) {
  const Analysis& d = *report.analysis;
  const Finding& f = *rf.finding;
  w.begin_object();
  w.field("ruleId", f.rule_id);
  if (auto it = index.find(f.rule_id); it != index.end()) w.field("ruleIndex", static_cast<uint64_t>(it->second));
  w.field("level", detail::finding_ci_level(rf, "note"));  // a symptom is never an error (ci_levels.h)
  text_object(w, "message", result_message(report, rf, who));
  w.key("locations").begin_array();
  if (!f.evidence.empty()) {
    location(w, d, f.evidence.front(), paths, std::nullopt);
  } else if (!d.inputs.empty()) {  // absence and configuration findings: the export as a whole
    w.begin_object().key("physicalLocation").begin_object().key("artifactLocation").begin_object();
    paths.write_artifact(w, d.inputs.front().path);
    w.field("index", static_cast<uint64_t>(0));
    w.end_object().end_object().end_object();
  }
  w.end_array();
  if (f.evidence.size() > 1) {
    w.key("relatedLocations").begin_array();
    for (size_t i = 1; i < f.evidence.size(); ++i) location(w, d, f.evidence[i], paths, static_cast<int>(i));
    w.end_array();
  }
  fingerprints(w, f.fingerprint, f.fingerprint_v2, f.legacy_fingerprint);
  if (report.baseline) {
    w.field("baselineState", rf.baseline_entry ? "unchanged" : "new");
  } else if (rf.history) {
    w.field("baselineState", rf.history->known ? "unchanged" : "new");  // the run history is the baseline
  }
  if (rf.suppressed) {
    const BaselineEntry& e = report.baseline->entries[*rf.baseline_entry].entry;
    w.key("suppressions").begin_array().begin_object();
    w.field("kind", "external").field("status", "accepted");
    w.field("justification", fmt::format("{} ({}:{})", e.reason, report.baseline->file, e.line));
    w.end_object().end_array();
  }
  w.key("properties").begin_object();
  w.field("rank", rf.rank).field("confidence", f.confidence).field("count", f.count).field("via", f.via);
  if (f.first_seen != kNoTime) w.field("firstSeen", format_rfc3339(f.first_seen));
  if (f.last_seen != kNoTime) w.field("lastSeen", format_rfc3339(f.last_seen));
  // A bounded list: a finding across a hundred thousand workers must not make a megabyte line.
  const size_t listed = std::min(f.workers.size(), kSarifWorkers);
  w.array_field("workers",
                std::vector<std::string>(f.workers.begin(), f.workers.begin() + static_cast<ptrdiff_t>(listed)));
  w.field("workersTotal", f.workers_total);
  if (rf.caused_by) w.field("causedBy", report.findings[*rf.caused_by].finding->rule_id);
  if (rf.caused_by_unexplained)
    w.field("causedByUnexplained", report.unexplained[*rf.caused_by_unexplained].group->fingerprint);
  if (rf.history) {
    w.key("history");
    detail::write_finding_history(w, *rf.history);
  }
  w.end_object();
  w.end_object();
}

void absent_results(JsonWriter& w, const BaselineReview& b, const std::map<std::string_view, size_t>& index,
                    std::optional<size_t> group_rule) {
  for (const auto& e : b.entries) {
    if (!e.matched.empty()) continue;
    w.begin_object();
    w.field("ruleId", e.entry.rule_id);
    if (auto it = index.find(e.entry.rule_id); it != index.end())
      w.field("ruleIndex", static_cast<uint64_t>(it->second));
    else if (e.entry.rule_id == kUnexplainedRuleId && group_rule)
      w.field("ruleIndex", static_cast<uint64_t>(*group_rule));
    w.field("kind", "pass").field("level", "none");
    text_object(w, "message",
                fmt::format("Accepted in the baseline ({}:{}) but not found in this export: {}", b.file, e.entry.line,
                            detail::stale_reason(e)));
    fingerprints(w, e.entry.fingerprint, "", "");
    w.field("baselineState", "absent");
    w.end_object();
  }
}

// `notifications`: whether this run carries the input problems (the first run does; they are the
// export's, so a document of several runs states them once).
void invocation(JsonWriter& w, const Analysis& d, const SarifPaths& paths, bool notifications = true) {
  w.key("invocations").begin_array().begin_object();
  w.field("executionSuccessful", d.input_errors.empty());
  w.key("toolExecutionNotifications").begin_array();
  if (!notifications) {
    w.end_array();
    w.end_object().end_array();
    return;
  }
  // descriptor.id: an input not read has its diagnostic code (docs/diagnostics.md); then
  // no-dataflow-job, entry-skipped, entry-note and more-problems (docs/formats.md, SARIF).
  const auto note = [&](std::string_view lvl, std::string_view id, const std::string& path, uint64_t line,
                        const std::string& message) {
    w.begin_object();
    w.field("level", lvl);
    text_object(w, "message", message);
    w.key("locations").begin_array().begin_object().key("physicalLocation").begin_object();
    w.key("artifactLocation").begin_object();
    paths.write_artifact(w, path);
    w.end_object();
    if (line > 0) w.key("region").begin_object().field("startLine", line).end_object();
    w.end_object().end_object().end_array();
    w.key("descriptor").begin_object().field("id", id).end_object();
    w.end_object();
  };
  for (const auto& e : d.input_errors) note("error", e.code.empty() ? "unreadable" : e.code, e.file, e.line, e.message);
  if (d.input_errors.empty() && !holds_dataflow_job(d)) {  // verdict `empty`: nothing was diagnosed
    for (const auto& in : d.inputs) {
      note("warning", "no-dataflow-job", in.path, 0, "the input holds no entry of a Dataflow job");
    }
  }
  for (const auto& in : d.inputs) {
    for (const auto& p : in.problems) {
      note("warning", p.skipped_entry ? "entry-skipped" : "entry-note", in.path,
           p.line,  // docs/formats.md, Input problems
           p.skipped_entry ? "skipped: " + p.message : p.message);
    }
    if (in.problems_total > in.problems.size()) {
      note("warning", "more-problems", in.path, 0,
           fmt::format("{} more in this input (the JSON report counts them)",
                       detail::plural(in.problems_total - in.problems.size(), "problem", "problems")));
    }
  }
  w.end_array();
  w.end_object().end_array();
}

// One run: the job of `report` (the whole report for a one-job export, one of RankedReport::jobs for one of
// several). `export_report` is the whole report, for what only it knows (the gate, the other jobs).
void run(JsonWriter& w, const RankedReport& report, const RankedReport& export_report,
         const std::vector<RuleInfo>& rules, const std::map<std::string_view, size_t>& index, const RenderOptions& o,
         const SarifPaths& paths, bool first) {
  const Analysis& d = *report.analysis;
  const bool several = detail::several_jobs(export_report);
  const std::string who = several ? detail::job_label(d.job) + ": " : "";
  w.begin_object();
  w.key("tool").begin_object().key("driver").begin_object();
  w.field("name", "gpudiag");
  if (!o.deterministic) w.field("version", o.version).field("semanticVersion", o.version);
  // The rules this run lists: the whole pack for one job; with several, only those its results name
  // (in pack order), or a document of a thousand failed jobs repeats the pack a thousand times (717 MB
  // for 1,200 jobs, docs/formats.md, Several jobs).
  std::vector<const RuleInfo*> listed;
  std::map<std::string_view, size_t> run_index;
  if (several) {
    std::set<std::string_view> named;
    for (const auto& rf : report.findings) named.insert(rf.finding->rule_id);
    if (report.baseline) {
      for (const auto& e : report.baseline->entries) {
        if (e.matched.empty()) named.insert(e.entry.rule_id);
      }
    }
    for (const auto& rule : rules) {
      if (!named.count(rule.id)) continue;
      run_index.emplace(rule.id, listed.size());
      listed.push_back(&rule);
    }
  } else {
    for (const auto& rule : rules) listed.push_back(&rule);
  }
  const std::map<std::string_view, size_t>& rule_index = several ? run_index : index;
  // The reserved rule follows the pack's when this run has a group (a pack rule cannot take its id).
  const std::optional<size_t> group_rule =
      report.unexplained.empty() ? std::nullopt : std::optional<size_t>(listed.size());
  w.key("rules").begin_array();
  for (const RuleInfo* rule : listed) rule_descriptor(w, *rule);
  if (group_rule) unexplained_rule_descriptor(w);
  w.end_array();
  w.end_object().end_object();

  if (several) {  // a run per job: code scanning keeps each job's results apart (category/run id)
    w.key("automationDetails").begin_object();
    w.field("id", fmt::format("gpudiag/{}/{}", detail::pipeline_key(report, export_report), d.job.id));
    w.end_object();
  } else if (!d.job.name.empty()) {
    w.key("automationDetails").begin_object().field("id", fmt::format("gpudiag/{}/", d.job.name)).end_object();
  }
  invocation(w, *export_report.analysis, paths, first);
  w.key("artifacts").begin_array();
  for (const auto& in : d.inputs) {
    w.begin_object();
    w.key("location").begin_object();
    paths.write_artifact(w, in.path);
    w.end_object();
    w.key("roles").begin_array().value("analysisTarget").end_array();
    w.end_object();
  }
  w.end_array();

  // Results in report order: errors no rule explains first when the top one is the likely cause.
  const bool groups_first = detail::unexplained_first(report);
  const auto groups = [&] {
    for (const auto& u : report.unexplained) unexplained_result(w, report, u, group_rule, paths, who);
  };
  w.key("results").begin_array();
  if (groups_first) groups();
  for (const auto& rf : report.findings) result(w, report, rf, rule_index, paths, who);
  if (!groups_first) groups();
  if (report.baseline) absent_results(w, *report.baseline, rule_index, group_rule);
  w.end_array();
  paths.write_bases(w);

  w.key("properties").begin_object();
  w.field("gpudiag.format", kSarifFormat);
  if (!o.deterministic) w.field("rulePack", d.rule_pack_hash);
  w.field("verdict", verdict_name(report.verdict)).field("summary", report.verdict_line);
  w.key("job").begin_object();
  w.field("id", d.job.id).field("name", d.job.name).field("project", d.job.project).field("region", d.job.region);
  if (several) w.field("outcome", job_outcome_name(d.job.outcome));
  w.end_object();
  if (o.fail_on && first) {
    w.key("gate").begin_object();
    w.field("failOn", impact_name(*o.fail_on)).field("tripped", trips_gate(export_report, *o.fail_on));
    if (const std::string refused = gate_refusal(export_report, o.allow_empty); !refused.empty())
      w.field("refused", refused);
    w.end_object();
  }
  if (several && first) {
    // The jobs without a run of their own (their verdict is ok): one summary, so that the document
    // stays bounded whatever the export holds.
    const Analysis& all = *export_report.analysis;
    w.field("jobsTotal", static_cast<uint64_t>(export_report.jobs.size()));
    w.key("otherJobs").begin_array();
    const auto full = detail::full_jobs(export_report);
    for (size_t i = 0; i < export_report.jobs.size(); ++i) {
      if (std::find(full.begin(), full.end(), i) != full.end()) continue;
      const RankedReport& job = export_report.jobs[i];
      const JobInfo& info = job.analysis->job;
      w.begin_object();
      w.field("id", info.id).field("name", info.name).field("outcome", job_outcome_name(info.outcome));
      w.field("verdict", verdict_name(job.verdict)).field("entries", info.entries);
      w.end_object();
    }
    w.end_array();
    if (all.unlisted_jobs.jobs > 0) {  // past the report's list: counted (docs/formats.md, Several jobs)
      w.field("jobsUnlisted", all.unlisted_jobs.jobs)
          .field("jobsUnlistedNote", detail::unlisted_jobs_line(export_report));
    }
    if (!all.not_diagnosed.empty()) w.field("jobsNotDiagnosed", static_cast<uint64_t>(all.not_diagnosed.size()));
    if (!all.not_selected.empty()) w.field("jobsNotSelected", static_cast<uint64_t>(all.not_selected.size()));
  }
  w.end_object();
  w.end_object();
}

}  // namespace

std::string render_sarif(const RankedReport& report, const std::vector<RuleInfo>& rules, const RenderOptions& o) {
  std::map<std::string_view, size_t> index;
  for (size_t i = 0; i < rules.size(); ++i) index.emplace(rules[i].id, i);

  // Every path a run can name, so that each run's originalUriBaseIds lists every base.
  SarifPaths paths(o.deterministic, o.working_directory);
  for (const auto& in : report.analysis->inputs) paths.add(in.path);
  for (const auto& e : report.analysis->input_errors) paths.add(e.file);
  JsonWriter w;
  w.begin_object();
  w.field("$schema", "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json");
  w.field("version", kSarifVersion);
  w.key("runs").begin_array();
  if (detail::several_jobs(report)) {
    // A run per job whose verdict is not ok (at least the worst job), in report order.
    bool first = true;
    for (size_t i : detail::full_jobs(report)) {
      run(w, report.jobs[i], report, rules, index, o, paths, first);
      first = false;
    }
  } else {
    run(w, report, report, rules, index, o, paths, true);
  }
  w.end_array();
  w.end_object();
  return w.take();
}

}  // namespace gpudiag
