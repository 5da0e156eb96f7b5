// Each run's unexplained error groups and job facts (schema v6): stored with the run, then read back
// to say which groups are new, recurring or noise, and what changed since the last green run.
#include "gpudiag/history.h"
#include "store.h"

namespace gpudiag::detail {
namespace {

// elastic-recheck's rule: a signature that green runs also hit is not a cause. "Often" is at least
// one in ten of the pipeline's latest green runs.
constexpr int64_t kGreenRunsLooked = 20;
constexpr int64_t kNoiseShareDenominator = 10;  // ≥ 1/10 of them

}  // namespace

void insert_unexplained_and_facts(const Database& db, const RankedReport& report, int64_t run_id) {
  const Analysis& d = *report.diagnosis;
  Statement group = db.prepare(R"sql(
    INSERT INTO unexplained (run_id, fingerprint, rank, severity, count, headline, template, first_seen)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING)sql");
  for (const RankedUnexplained& u : report.unexplained) {
    const UnexplainedGroup& g = *u.group;
    const std::string headline = unexplained_headline(g), first = db_time(g.first_seen);
    group.bind(1, run_id).bind(2, g.fingerprint).bind(3, u.rank).bind(4, impact_name(g.severity));
    group.bind(5, g.count).bind(6, headline).bind(7, g.template_text).bind_or_null(8, first);
    group.run();
  }
  Statement fact = db.prepare("INSERT INTO fact (run_id, name, value) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING");
  for (const JobFact& f : d.facts) fact.bind(1, run_id).bind(2, f.name).bind(3, f.value).run();
}

std::vector<Novelty> unexplained_novelty(const Database& db, const RankedReport& report, const std::string& pipeline,
                                         int64_t run_id) {
  std::vector<Novelty> out(report.unexplained.size(), Novelty::kNoHistory);
  // Only runs recorded since schema v6 stored their groups; every such run stored its facts too.
  if (db.single_int(R"sql(SELECT count(*) FROM run r WHERE pipeline = ?1 AND id < ?2
                          AND EXISTS (SELECT 1 FROM fact f WHERE f.run_id = r.id))sql",
                    pipeline, run_id) == 0) {
    return out;
  }
  Statement s = db.prepare(R"sql(
    WITH green AS (SELECT id FROM run r WHERE pipeline = ?1 AND outcome = 'succeeded' AND id < ?2
                   AND EXISTS (SELECT 1 FROM fact f WHERE f.run_id = r.id) ORDER BY id DESC LIMIT ?4)
    SELECT (SELECT count(*) FROM unexplained u JOIN run r ON r.id = u.run_id
            WHERE r.pipeline = ?1 AND r.id < ?2 AND u.fingerprint = ?3),
           (SELECT count(*) FROM unexplained u WHERE u.fingerprint = ?3 AND u.run_id IN green),
           (SELECT count(*) FROM green))sql");
  for (size_t i = 0; i < report.unexplained.size(); ++i) {
    const std::string& fingerprint = report.unexplained[i].group->fingerprint;
    s.bind(1, pipeline).bind(2, run_id).bind(3, fingerprint).bind(4, kGreenRunsLooked);
    s.step();
    const int64_t earlier = s.int64(0), in_green = s.int64(1), green = s.int64(2);
    s.reset();
    if (earlier == 0) {
      out[i] = Novelty::kNew;
    } else if (in_green > 0 && in_green * kNoiseShareDenominator >= green) {
      out[i] = Novelty::kNoise;
    } else {
      out[i] = Novelty::kRecurring;
    }
  }
  return out;
}

std::optional<ChangesSinceGreen> changes_since_green(const Database& db, const RankedReport& report,
                                                     const std::string& pipeline, int64_t run_id) {
  if (report.verdict != Verdict::kFailed) return std::nullopt;
  const std::optional<RunSummary> green = last_green_run(db, pipeline, run_id);
  if (!green) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> before, after;
  Statement s = db.prepare("SELECT name, value FROM fact WHERE run_id = ?1 ORDER BY name");
  s.bind(1, green->id);
  while (s.step()) before.emplace_back(std::string(s.text(0)), std::string(s.text(1)));
  if (before.empty()) return std::nullopt;  // recorded before schema v6 (or it had no fact): nothing to compare
  for (const JobFact& f : report.diagnosis->facts) after.emplace_back(f.name, f.value);
  return ChangesSinceGreen{.green = RunRef{.run = green->id, .job_id = green->job.id, .time = green->start},
                           .changes = fact_changes(before, after)};
}

}  // namespace gpudiag::detail
