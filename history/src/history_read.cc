// Reading runs back: a pipeline's runs and findings, and how often each finding recurs.
#include <fmt/format.h>

#include <algorithm>

#include "gpudiag/diagnostic_codes.h"
#include "store.h"

namespace gpudiag::detail {
namespace {

constexpr std::string_view kRunColumns =
    "id, pipeline, job_id, job_name, project, region, start_time, end_time, verdict, summary, rule_pack, "
    "recorded_at, accepted_at, outcome";

Timestamp parse_time(std::string_view text) {
  const auto t = parse_rfc3339(text);
  return t ? *t : kNoTime;
}

RunSummary read_run(const Statement& s) {
  RunSummary r;
  r.id = s.int64(0);
  r.pipeline = s.text(1);
  r.job = JobInfo{.id = std::string(s.text(2)),
                  .name = std::string(s.text(3)),
                  .project = std::string(s.text(4)),
                  .region = std::string(s.text(5))};
  r.start = parse_time(s.text(6));
  r.end = parse_time(s.text(7));
  r.verdict = parse_verdict(s.text(8)).value_or(Verdict::kOk);  // an unknown name reads as ok, as before
  r.summary = s.text(9);
  r.rule_pack = s.text(10);
  r.recorded_at = s.text(11);
  r.accepted = !s.is_null(12);
  r.job.outcome = parse_job_outcome(s.text(13)).value_or(JobOutcome::kUnknown);  // a name from a newer gpudiag
  return r;
}

RunRef ref(const RunSummary& r) { return RunRef{.run = r.id, .job_id = r.job.id, .time = r.start}; }

}  // namespace

PipelineRuns load_pipeline(const Database& db, const std::string& pipeline, int64_t last_run) {
  PipelineRuns p;
  std::map<int64_t, size_t> index;
  Statement runs = db.prepare(
      fmt::format("SELECT {} FROM run WHERE pipeline = ?1 AND (?2 = 0 OR id <= ?2) ORDER BY id", kRunColumns));
  runs.bind(1, pipeline).bind(2, last_run);
  while (runs.step()) {
    index[runs.int64(0)] = p.runs.size();
    p.runs.push_back(read_run(runs));
  }
  // Each finding is stored under the fingerprint of its gpudiag (schema version ≤ 2: v1; 3: v2;
  // 4: v3), with the older values beside it (`fingerprint_v2`, `fingerprint_v1`). A finding whose
  // stored fingerprint is an older value of a later run's finding is that finding: it takes the
  // newest fingerprint, so recurrence and new-versus-known continue across upgrades.
  struct Row {
    size_t run;
    RunFinding finding;
    std::string title;
  };
  std::vector<Row> rows;
  std::map<PipelineRuns::Key, std::string> newer;  // (rule, older fingerprint) → the fingerprint a later row has
  Statement findings = db.prepare(R"sql(
    SELECT f.run_id, f.rule_id, f.fingerprint, f.title, f.severity, f.fingerprint_v1, f.fingerprint_v2
    FROM finding f JOIN run r ON r.id = f.run_id
    WHERE r.pipeline = ?1 AND (?2 = 0 OR r.id <= ?2) ORDER BY f.run_id, f.rank)sql");
  findings.bind(1, pipeline).bind(2, last_run);
  while (findings.step()) {
    const Impact severity = parse_impact(findings.text(4)).value_or(Impact::kWarning);
    Row row{index.at(findings.int64(0)),
            RunFinding{std::string(findings.text(1)), std::string(findings.text(2)), severity},
            std::string(findings.text(3))};
    for (const int column : {5, 6}) {
      if (findings.is_null(column) || findings.text(column) == row.finding.fingerprint) continue;
      newer[{row.finding.rule_id, std::string(findings.text(column))}] = row.finding.fingerprint;  // later runs win
    }
    rows.push_back(std::move(row));
  }
  // An error no rule explains is a run's finding too, under `unexplained-error` and its group's
  // fingerprint, titled by what failed (schema v6 on: a database opened read-only may be older).
  if (db.single_int("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'unexplained'") > 0) {
    Statement groups = db.prepare(R"sql(
      SELECT u.run_id, u.fingerprint, u.headline, u.severity FROM unexplained u JOIN run r ON r.id = u.run_id
      WHERE r.pipeline = ?1 AND (?2 = 0 OR r.id <= ?2) AND u.severity = 'error' ORDER BY u.run_id, u.rank)sql");
    groups.bind(1, pipeline).bind(2, last_run);
    while (groups.step()) {
      rows.push_back(Row{index.at(groups.int64(0)),
                         RunFinding{std::string(kUnexplainedRuleId), std::string(groups.text(1)), Impact::kError},
                         std::string(groups.text(2))});
    }
  }
  const auto key_of = [&](const std::string& rule_id, const std::string& fingerprint) {
    PipelineRuns::Key key{rule_id, fingerprint};
    for (int step = 0; step < 3; ++step) {  // v1 → v2 → v3 at most
      const auto it = newer.find(key);
      if (it == newer.end() || it->second == key.second) break;
      key.second = it->second;
    }
    return key;
  };
  for (Row& row : rows) {
    PipelineRuns::Seen& seen = p.findings[key_of(row.finding.rule_id, row.finding.fingerprint)];
    if (seen.runs.empty() || seen.runs.back() != row.run) seen.runs.push_back(row.run);
    seen.title = std::move(row.title);
    seen.severity = row.finding.severity;
    p.runs[row.run].findings.push_back(std::move(row.finding));
  }
  Statement accepted = db.prepare("SELECT rule_id, fingerprint FROM accepted WHERE pipeline = ?1");
  accepted.bind(1, pipeline);
  while (accepted.step()) p.accepted.insert(key_of(std::string(accepted.text(0)), std::string(accepted.text(1))));
  return p;
}

FindingHistory recurrence(const PipelineRuns& p, const PipelineRuns::Key& key, size_t reported) {
  FindingHistory h;
  h.accepted = p.accepted.count(key) > 0;
  h.known = h.accepted;
  const auto it = p.findings.find(key);
  if (p.runs.empty() || it == p.findings.end()) return h;
  const size_t upto = std::min(reported, p.runs.size() - 1);  // the latest run counted
  h.runs_recorded = upto + 1;
  const std::vector<size_t>& runs = it->second.runs;
  for (size_t i : runs) {
    if (i > upto) break;
    ++h.runs_affected;
    if (h.first_seen.run == 0) h.first_seen = ref(p.runs[i]);
    if (i != reported) {
      h.last_seen = ref(p.runs[i]);
      h.known = true;
    }
  }
  for (size_t i = upto + 1; i-- > 0 && std::binary_search(runs.begin(), runs.end(), i);) ++h.streak;
  return h;
}

RunSummary load_run(const Database& db, int64_t run_id) {
  Statement s = db.prepare(fmt::format("SELECT {} FROM run WHERE id = ?1", kRunColumns));
  s.bind(1, run_id);
  if (!s.step()) {
    throw DbError{Diagnostic{.code = code_name(DiagnosticCode::kNoSuchRun),
                             .message = fmt::format("no run {} is recorded", run_id),
                             .file = db.path(),
                             .help = "`gpudiag history` lists the runs with their numbers"}};
  }
  RunSummary run = read_run(s);
  Statement findings = db.prepare("SELECT rule_id, fingerprint, severity FROM finding WHERE run_id = ?1 ORDER BY rank");
  findings.bind(1, run_id);
  while (findings.step()) {
    run.findings.push_back(RunFinding{std::string(findings.text(0)), std::string(findings.text(1)),
                                      parse_impact(findings.text(2)).value_or(Impact::kWarning)});
  }
  return run;
}

std::optional<RunSummary> last_green_run(const Database& db, const std::string& pipeline, int64_t before_run_id) {
  const int64_t id = db.single_int(
      "SELECT coalesce(max(id), 0) FROM run WHERE pipeline = ?1 AND outcome = 'succeeded' AND (?2 = 0 OR id < ?2)",
      pipeline, before_run_id);
  if (id == 0) return std::nullopt;
  return load_run(db, id);
}

}  // namespace gpudiag::detail

namespace gpudiag {

Result<std::optional<RunSummary>> HistoryStore::last_green_run(const std::string& pipeline, int64_t before_run_id) {
  return detail::guarded([&]() -> std::optional<RunSummary> {
    const detail::Database& db = impl_->db;
    detail::Transaction snapshot(db, detail::Transaction::kRead);  // the run and its findings from one state
    return detail::last_green_run(db, pipeline, before_run_id);
  });
}

Result<StoredRuleStub> HistoryStore::rule_stub(const std::string& fingerprint) {
  return detail::guarded([&]() -> StoredRuleStub {
    const detail::Database& db = impl_->db;
    detail::Transaction snapshot(db, detail::Transaction::kRead);
    const int version = static_cast<int>(db.single_int("PRAGMA user_version"));
    return detail::stored_rule_stub(db, fingerprint, version);
  });
}

Result<std::vector<PipelineHistory>> HistoryStore::history(const std::string& pipeline) {
  return detail::guarded([&]() -> std::vector<PipelineHistory> {
    const detail::Database& db = impl_->db;
    detail::Transaction snapshot(db, detail::Transaction::kRead);
    std::vector<std::string> names;
    detail::Statement s = db.prepare("SELECT DISTINCT pipeline FROM run WHERE ?1 = '' OR pipeline = ?1 ORDER BY 1");
    s.bind(1, pipeline);
    while (s.step()) names.emplace_back(s.text(0));
    std::vector<PipelineHistory> out;
    for (const auto& name : names) {
      const detail::PipelineRuns runs = detail::load_pipeline(db, name);
      PipelineHistory h{.pipeline = name, .runs = runs.runs, .findings = {}};
      for (const auto& [key, seen] : runs.findings) {
        h.findings.push_back(FindingRecurrence{key.first, key.second, seen.title, seen.severity,
                                               detail::recurrence(runs, key, runs.runs.size())});
      }
      std::sort(h.findings.begin(), h.findings.end(), [](const FindingRecurrence& a, const FindingRecurrence& b) {
        if (a.history.last_seen.run != b.history.last_seen.run)
          return a.history.last_seen.run > b.history.last_seen.run;
        if (a.history.runs_affected != b.history.runs_affected)
          return a.history.runs_affected > b.history.runs_affected;
        return a.fingerprint < b.fingerprint;
      });
      out.push_back(std::move(h));
    }
    return out;
  });
}

}  // namespace gpudiag
