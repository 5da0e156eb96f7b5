// How reports show what a run history says about a finding: new, or known with its recurrence.
#include "finding_history.h"

#include <fmt/format.h>

namespace gpudiag {

std::string history_note(const FindingHistory& h) {
  if (!h.known) {
    return fmt::format("new: no earlier run of this pipeline had it ({} run{} recorded)", h.runs_recorded,
                       h.runs_recorded == 1 ? "" : "s");
  }
  std::string note = fmt::format("known: in {} of {} runs", h.runs_affected, h.runs_recorded);
  if (h.last_seen.run != 0) {
    note += fmt::format(", last seen in run #{}", h.last_seen.run);
    if (h.last_seen.time != kNoTime) note += fmt::format(" ({})", format_rfc3339(h.last_seen.time));
  }
  note += fmt::format(", streak {}", h.streak);
  if (h.accepted) note += ", accepted";
  return note;
}

std::string history_summary(const RankedReport& report) {
  const ReportHistory& run = *report.history;
  size_t known = 0;
  for (const auto& rf : report.findings) known += rf.history && rf.history->known ? 1 : 0;
  const size_t fresh = report.findings.size() - known;
  return fmt::format("run #{} of pipeline {} ({} run{} recorded): {} new finding{}, {} known{}", run.run, run.pipeline,
                     run.runs_recorded, run.runs_recorded == 1 ? "" : "s", fresh, fresh == 1 ? "" : "s", known,
                     run.new_only ? "; only new findings trip the gate" : "");
}

namespace detail {

void write_run_ref(JsonWriter& w, const RunRef& ref) {
  if (ref.run == 0) {
    w.null();
    return;
  }
  w.begin_object();
  w.field("run", ref.run).field("job_id", ref.job_id);
  w.key("time");
  if (ref.time == kNoTime)
    w.null();
  else
    w.value(format_rfc3339(ref.time));
  w.end_object();
}

void write_finding_history(JsonWriter& w, const FindingHistory& h) {
  w.begin_object();
  w.field("status", h.known ? "known" : "new");
  w.field("accepted", h.accepted);
  w.field("runs_affected", h.runs_affected).field("runs_recorded", h.runs_recorded).field("streak", h.streak);
  w.key("first_seen");
  write_run_ref(w, h.first_seen);
  w.key("last_seen");
  write_run_ref(w, h.last_seen);
  w.end_object();
}

}  // namespace detail
}  // namespace gpudiag
