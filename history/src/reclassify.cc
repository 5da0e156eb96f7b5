// `gpudiag history --reclassify`: stored runs judged again by today's rule pack, over their jobs'
// ingested entries, to see which verdicts a rule change would have changed. Nothing is written.
#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <unordered_map>

#include "gpudiag/analyzer.h"
#include "store.h"

namespace gpudiag {
namespace {

// The text fields of a record, in the order the query below selects them from its fifth column on.
constexpr std::array<std::string_view LogRecord::*, 12> kTextColumns{
    &LogRecord::log,       &LogRecord::worker,   &LogRecord::sdk_worker, &LogRecord::job_id,
    &LogRecord::step,      &LogRecord::logger,   &LogRecord::message,    &LogRecord::exception,
    &LogRecord::insert_id, &LogRecord::job_name, &LogRecord::project,    &LogRecord::region};

std::set<std::string> rule_ids(const std::vector<RunFinding>& findings) {
  std::set<std::string> ids;
  for (const auto& f : findings) ids.insert(f.rule_id);
  return ids;
}

std::vector<std::string> minus(const std::set<std::string>& a, const std::set<std::string>& b) {
  std::vector<std::string> out;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

}  // namespace

Result<std::vector<Reclassified>> HistoryStore::reclassify(const RulePack& pack, const std::string& pipeline) {
  return detail::guarded([&]() -> std::vector<Reclassified> {
    const detail::Database& db = impl_->db;
    detail::Transaction snapshot(db, detail::Transaction::kRead);
    std::vector<Reclassified> out;
    detail::Statement runs = db.prepare("SELECT id FROM run WHERE ?1 = '' OR pipeline = ?1 ORDER BY id");
    runs.bind(1, pipeline);
    while (runs.step()) out.push_back(Reclassified{.run = detail::load_run(db, runs.int64(0))});
    if (out.empty()) return out;

    std::vector<std::string> inputs;
    std::map<int64_t, uint32_t> input_of;
    detail::Statement sources = db.prepare("SELECT id, path FROM source ORDER BY id");
    while (sources.step()) {
      input_of[sources.int64(0)] = static_cast<uint32_t>(inputs.size());
      inputs.emplace_back(sources.text(1));
    }
    // One analysis per job that has a run; entries are read once, in the order they were stored.
    struct Job {
      std::unique_ptr<RecordAnalysis> analysis;
      uint64_t entries = 0;
    };
    std::unordered_map<std::string, Job> jobs;
    for (const auto& r : out) {
      if (!r.run.job.id.empty()) jobs.try_emplace(r.run.job.id, Job{std::make_unique<RecordAnalysis>(pack, inputs)});
    }
    detail::Statement entries = db.prepare(R"sql(
      SELECT e.source_id, e.line, e.time, e.severity, e.log, e.worker, e.sdk_worker, e.job_id, e.step, e.logger,
             e.message, e.exception, e.insert_id, j.name, j.project, j.region
      FROM entry e LEFT JOIN job j ON j.id = e.job_id WHERE e.job_id IS NOT NULL ORDER BY e.id)sql");
    while (entries.step()) {
      const auto job = jobs.find(std::string(entries.text(7)));
      if (job == jobs.end()) continue;
      LogRecord r;
      r.where = SourceLocation{.input = input_of[entries.int64(0)], .line = static_cast<uint64_t>(entries.int64(1))};
      r.timestamp = parse_rfc3339(entries.text(2)).value_or(kNoTime);
      r.severity = parse_severity(entries.text(3)).value_or(Severity::kDefault);
      for (size_t i = 0; i < kTextColumns.size(); ++i) r.*kTextColumns[i] = entries.text(static_cast<int>(i) + 4);
      job->second.analysis->add(r);
      ++job->second.entries;
    }
    for (auto& [id, job] : jobs) {
      const Analysis d = job.analysis->finish();
      const RankedReport report = rank(d);
      std::vector<RunFinding> now;
      for (const auto& f : d.findings) now.push_back(RunFinding{f.rule_id, f.fingerprint, f.severity});
      for (auto& r : out) {
        if (r.run.job.id != id) continue;
        r.has_entries = job.entries > 0;
        r.entries = job.entries;
        r.verdict = report.verdict;
        r.summary = report.verdict_line;
        r.appeared = minus(rule_ids(now), rule_ids(r.run.findings));
        r.disappeared = minus(rule_ids(r.run.findings), rule_ids(now));
      }
    }
    return out;
  });
}

}  // namespace gpudiag
