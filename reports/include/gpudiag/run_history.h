// A run history as values: the runs recorded for each pipeline and what they say about each
// finding, and stored runs judged again by a newer rule pack. The history library (history.h)
// produces them from its database; the renderers below show them (`gpudiag history`, `history
// --reclassify`), text for people and JSON (schema gpudiag.history/v1, docs/json-schema.md) for tools.
//
//   auto pipelines = store->history("nightly");                 // Result<std::vector<PipelineHistory>>
//   std::string json = render_history_json(*pipelines, /*deterministic=*/false);
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/report.h"

namespace gpudiag {

struct RunFinding {
  std::string rule_id;
  std::string fingerprint;
  Impact severity = Impact::kWarning;
};

// One run as stored.
struct RunSummary {
  int64_t id = 0;
  std::string pipeline;
  JobInfo job;                // id, name, project, region (other_ids are not stored)
  Timestamp start = kNoTime;  // earliest and latest entry of the run's export
  Timestamp end = kNoTime;
  Verdict verdict = Verdict::kOk;
  std::string summary;               // the verdict line
  std::string rule_pack;             // RulePack::version_hash() of the pack that judged it
  std::string recorded_at;           // RFC 3339 UTC, wall clock
  bool accepted = false;             // `history accept`: its findings are part of the pipeline's baseline
  std::vector<RunFinding> findings;  // in rank order
};

// What the history knows about one finding (rule id + fingerprint) across a pipeline's runs.
struct FindingRecurrence {
  std::string rule_id;
  std::string fingerprint;
  std::string title;  // from the latest run that had it
  Impact severity = Impact::kWarning;
  FindingHistory history;  // runs affected out of recorded, first and last seen, streak, accepted
};

struct PipelineHistory {
  std::string pipeline;
  std::vector<RunSummary> runs;             // oldest first
  std::vector<FindingRecurrence> findings;  // most recently seen first
};

// One stored run judged again by the current rule pack over its stored entries.
struct Reclassified {
  RunSummary run;
  bool has_entries = false;  // false: none of its job's entries were ingested
  uint64_t entries = 0;
  Verdict verdict = Verdict::kOk;  // with the current pack
  std::string summary;
  std::vector<std::string> appeared;     // rule ids found now but not then
  std::vector<std::string> disappeared;  // … and the other way round
  bool changed() const { return has_entries && (verdict != run.verdict || !appeared.empty() || !disappeared.empty()); }
};

// Everything taken from the database is escaped for its format.
inline constexpr std::string_view kHistoryJsonSchema = "gpudiag.history/v1";
std::string render_history_text(const std::vector<PipelineHistory>& pipelines, bool deterministic);
std::string render_history_json(const std::vector<PipelineHistory>& pipelines, bool deterministic);
std::string render_reclassified_text(const std::vector<Reclassified>& runs, const std::string& rule_pack);
std::string render_reclassified_json(const std::vector<Reclassified>& runs, const std::string& rule_pack);

}  // namespace gpudiag
