// Each run's unexplained error groups and job facts (schema v6): stored with the run, then read back
// to say which groups are new, recurring or noise, and what changed since the last green run.
#include <fmt/format.h>

#include "gpudiag/history.h"
#include "gpudiag/name_suggestions.h"
#include "store.h"

namespace gpudiag::detail {
namespace {

// elastic-recheck's rule: a signature that green runs also hit is not a cause. "Often" is at least
// one in ten of the pipeline's latest green runs.
constexpr int64_t kGreenRunsLooked = 20;
constexpr int64_t kNoiseShareDenominator = 10;  // ≥ 1/10 of them

}  // namespace

void insert_unexplained_and_facts(const Database& db, const RankedReport& report, int64_t run_id) {
  const Analysis& d = *report.analysis;
  Statement group = db.prepare(R"sql(
    INSERT INTO unexplained (run_id, fingerprint, rank, severity, count, headline, template, first_seen,
                             stub_id, example, no_match, explains)
    VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) ON CONFLICT DO NOTHING)sql");
  for (const RankedUnexplained& u : report.unexplained) {
    const UnexplainedGroup& g = *u.group;
    const std::string first = db_time(g.first_seen);
    // The stub's lines are bounded (kMaxStubLineBytes each), so a noisy run stays small.
    const RuleStubInput stub = rule_stub_input(g, stub_healthy_line(d, g));
    group.bind(1, run_id).bind(2, g.fingerprint).bind(3, u.rank).bind(4, impact_name(g.severity));
    group.bind(5, g.count).bind(6, stub.headline).bind(7, g.template_text).bind_or_null(8, first);
    group.bind(9, stub.rule_id).bind(10, stub.example).bind(11, stub.no_match);
    const std::string explains = fmt::format("{}", fmt::join(stub_explains(report, g), ","));  // bound, not copied
    group.bind(12, explains);
    group.run();
  }
  Statement fact = db.prepare("INSERT INTO fact (run_id, name, value) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING");
  for (const JobFact& f : d.facts) fact.bind(1, run_id).bind(2, f.name).bind(3, f.value).run();
}

StoredRuleStub stored_rule_stub(const Database& db, std::string fingerprint, int schema_version) {
  constexpr std::string_view kPrefix = "unexplained-error/";
  if (fingerprint.rfind(kPrefix, 0) != 0) fingerprint = std::string(kPrefix) + fingerprint;
  StoredRuleStub out;
  // A database opened read-only is not migrated: before v6 it has no groups at all, and v6 has
  // them without the stub fields.
  if (schema_version < 6) {
    out.status = StoredRuleStub::Status::kNotStored;
    return out;
  }
  const char* stub_columns = schema_version >= 8   ? "u.stub_id, u.example, u.no_match, u.explains"
                             : schema_version >= 7 ? "u.stub_id, u.example, u.no_match, NULL"
                                                   : "NULL, NULL, NULL, NULL";
  Statement s = db.prepare(fmt::format(R"sql(
    SELECT u.run_id, r.pipeline, r.job_id, u.headline, u.template, {}
    FROM unexplained u JOIN run r ON r.id = u.run_id WHERE u.fingerprint = ?1
    ORDER BY ({} IS NOT NULL) DESC, u.run_id DESC LIMIT 1)sql",
                                       stub_columns, schema_version >= 7 ? "u.stub_id" : "NULL"));
  s.bind(1, fingerprint);
  if (s.step()) {
    out.run_id = s.int64(0);
    out.pipeline = s.text(1);
    out.job_id = s.text(2);
    if (s.is_null(5)) {
      out.status = StoredRuleStub::Status::kNotStored;
      return out;
    }
    out.status = StoredRuleStub::Status::kFound;
    out.stub = RuleStubInput{.fingerprint = fingerprint,
                             .rule_id = std::string(s.text(5)),
                             .headline = std::string(s.text(3)),
                             .template_text = std::string(s.text(4)),
                             .example = std::string(s.text(6)),
                             .no_match = s.is_null(7) ? std::string() : std::string(s.text(7)),
                             .explains = {}};
    for (std::string_view rest = s.is_null(8) ? std::string_view() : s.text(8); !rest.empty();) {
      const size_t comma = rest.find(',');
      out.stub.explains.emplace_back(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    return out;
  }
  // Unknown: the stored fingerprints it is closest to (a typo, a prefix), else the latest run's groups.
  // Matched on the hex digits alone: the shared prefix would make every fingerprint look close.
  std::vector<std::string> digits;
  Statement all = db.prepare("SELECT DISTINCT fingerprint FROM unexplained ORDER BY fingerprint LIMIT 100000");
  while (all.step()) {
    const std::string_view f = all.text(0);
    if (f.rfind(kPrefix, 0) == 0) digits.emplace_back(f.substr(kPrefix.size()));
  }
  std::vector<std::string> near;
  for (std::string& d : suggest_names(std::string_view(fingerprint).substr(kPrefix.size()), digits, 10))
    near.push_back(std::string(kPrefix) + d);
  Statement headline =
      db.prepare("SELECT headline FROM unexplained WHERE fingerprint = ?1 ORDER BY run_id DESC LIMIT 1");
  if (near.empty()) {
    Statement latest = db.prepare(R"sql(
      SELECT fingerprint FROM unexplained WHERE run_id = (SELECT max(run_id) FROM unexplained)
      ORDER BY rank LIMIT 10)sql");
    while (latest.step()) near.emplace_back(latest.text(0));
    out.near_are_latest = true;
  }
  for (const std::string& f : near) {
    headline.bind(1, f);
    out.near.push_back(headline.step() ? fmt::format("{}  {}", f, headline.text(0)) : f);
    headline.reset();
  }
  return out;
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
  for (const JobFact& f : report.analysis->facts) after.emplace_back(f.name, f.value);
  return ChangesSinceGreen{.green = RunRef{.run = green->id, .job_id = green->job.id, .time = green->start},
                           .changes = fact_changes(before, after)};
}

}  // namespace gpudiag::detail
