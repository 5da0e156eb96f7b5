// `gpudiag history` and `history --reclassify` as text and JSON (schema gpudiag.history/v1,
// docs/json-schema.md).
#include <fmt/format.h>

#include "finding_history.h"
#include "gpudiag/json_writer.h"
#include "gpudiag/run_history.h"

namespace gpudiag {
namespace {

// To the second: tables read better without nine fractional digits.
std::string time_or_dash(Timestamp t) {
  return t == kNoTime ? "-" : format_rfc3339(t - ((t % 1'000'000'000) + 1'000'000'000) % 1'000'000'000);
}

std::string seen_text(const RunRef& ref) {
  if (ref.run == 0) return "-";
  return fmt::format("#{} {}", ref.run, time_or_dash(ref.time));
}

void write_time(JsonWriter& w, std::string_view key, Timestamp t) {
  w.key(key);
  if (t == kNoTime)
    w.null();
  else
    w.value(format_rfc3339(t));
}

void write_run(JsonWriter& w, const RunSummary& r, bool deterministic) {
  w.begin_object();
  w.field("id", r.id);
  w.key("job").begin_object();
  w.field("id", r.job.id).field("name", r.job.name).field("project", r.job.project).field("region", r.job.region);
  w.end_object();
  write_time(w, "start", r.start);
  write_time(w, "end", r.end);
  w.field("verdict", verdict_name(r.verdict)).field("outcome", job_outcome_name(r.job.outcome));
  w.field("summary", r.summary).field("rule_pack", r.rule_pack);
  if (!deterministic) w.field("recorded_at", r.recorded_at);
  w.field("accepted", r.accepted);
  w.key("findings").begin_array();
  for (const auto& f : r.findings) {
    w.begin_object();
    w.field("rule_id", f.rule_id).field("fingerprint", f.fingerprint).field("severity", impact_name(f.severity));
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace

std::string render_history_text(const std::vector<PipelineHistory>& pipelines, bool deterministic) {
  if (pipelines.empty()) return "No runs recorded yet: record some with analyze, gate or report --db.\n";
  std::string out;
  for (const auto& p : pipelines) {
    out += fmt::format("{}pipeline {} — {} run{}\n", out.empty() ? "" : "\n", terminal_safe(p.pipeline), p.runs.size(),
                       p.runs.size() == 1 ? "" : "s");
    if (!p.findings.empty()) {
      out += fmt::format("\n  {:<34} {:<9} {:>7} {:>6}  {:<26} {}\n", "finding", "severity", "runs", "streak",
                         "first seen", "last seen");
      for (const auto& f : p.findings) {
        const FindingHistory& h = f.history;
        out += fmt::format("  {:<34} {:<9} {:>7} {:>6}  {:<26} {}{}\n", f.rule_id, impact_name(f.severity),
                           fmt::format("{}/{}", h.runs_affected, h.runs_recorded), h.streak, seen_text(h.first_seen),
                           seen_text(h.last_seen), h.accepted ? "  accepted" : "");
        out += fmt::format("    {}  ({})\n", terminal_safe(f.title), f.fingerprint);
      }
    }
    out +=
        fmt::format("\n  {:<6} {:<20} {:<8} {:<9} {:<42} {}\n", "run", "start", "verdict", "outcome", "job", "summary");
    for (const auto& r : p.runs) {
      out += fmt::format("  {:<6} {:<20} {:<8} {:<9} {:<42} {}{}{}\n", fmt::format("#{}", r.id), time_or_dash(r.start),
                         verdict_name(r.verdict), job_outcome_name(r.job.outcome),
                         terminal_safe(r.job.id.empty() ? "-" : r.job.id), terminal_safe(r.summary),
                         r.accepted ? "  [accepted]" : "",
                         deterministic ? "" : fmt::format("  (recorded {})", r.recorded_at.substr(0, 19)));
    }
  }
  return out;
}

std::string render_history_json(const std::vector<PipelineHistory>& pipelines, bool deterministic) {
  JsonWriter w;
  w.begin_object();
  w.field("schema", kHistoryJsonSchema);
  w.key("pipelines").begin_array();
  for (const auto& p : pipelines) {
    w.begin_object();
    w.field("pipeline", p.pipeline);
    w.field("runs_recorded", static_cast<uint64_t>(p.runs.size()));
    w.key("findings").begin_array();
    for (const auto& f : p.findings) {
      w.begin_object();
      w.field("rule_id", f.rule_id).field("fingerprint", f.fingerprint).field("title", f.title);
      w.field("severity", impact_name(f.severity));
      w.key("history");
      detail::write_finding_history(w, f.history);
      w.end_object();
    }
    w.end_array();
    w.key("runs").begin_array();
    for (const auto& r : p.runs) write_run(w, r, deterministic);
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.take();
}

std::string render_reclassified_text(const std::vector<Reclassified>& runs, const std::string& rule_pack) {
  size_t changed = 0, without = 0;
  std::string lines;
  for (const auto& r : runs) {
    if (!r.has_entries) {
      ++without;
      continue;
    }
    if (!r.changed()) continue;
    ++changed;
    lines += fmt::format("  run #{} ({}, job {}): {} → {}\n", r.run.id, terminal_safe(r.run.pipeline),
                         terminal_safe(r.run.job.id), verdict_name(r.run.verdict), verdict_name(r.verdict));
    lines += fmt::format("      then: {}\n      now:  {}\n", terminal_safe(r.run.summary), terminal_safe(r.summary));
    for (const auto& id : r.appeared) lines += fmt::format("      + {}\n", id);
    for (const auto& id : r.disappeared) lines += fmt::format("      - {}\n", id);
  }
  std::string out = fmt::format("Reclassified {} run{} with rule pack {}: {} would change.\n", runs.size() - without,
                                runs.size() - without == 1 ? "" : "s", rule_pack, changed);
  out += lines;
  if (without > 0) {
    out += fmt::format(
        "{} run{} could not be judged again: none of {} job's entries are stored "
        "(store them with `gpudiag ingest EXPORT --db …`).\n",
        without, without == 1 ? "" : "s", without == 1 ? "its" : "their");
  }
  return out;
}

std::string render_reclassified_json(const std::vector<Reclassified>& runs, const std::string& rule_pack) {
  JsonWriter w;
  w.begin_object();
  w.field("schema", kHistoryJsonSchema);
  w.field("rule_pack", rule_pack);
  w.key("reclassified").begin_array();
  for (const auto& r : runs) {
    w.begin_object();
    w.field("run", r.run.id).field("pipeline", r.run.pipeline).field("job_id", r.run.job.id);
    w.field("has_entries", r.has_entries).field("entries", r.entries);
    w.field("changed", r.changed());
    w.key("before").begin_object();
    w.field("verdict", verdict_name(r.run.verdict)).field("summary", r.run.summary);
    w.field("rule_pack", r.run.rule_pack);
    w.end_object();
    w.key("after");
    if (r.has_entries) {
      w.begin_object();
      w.field("verdict", verdict_name(r.verdict)).field("summary", r.summary);
      w.end_object();
    } else {
      w.null();
    }
    w.array_field("appeared", r.appeared);
    w.array_field("disappeared", r.disappeared);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.take();
}

}  // namespace gpudiag
