// Schema versions. A step is never edited once released: a change is a new step, and
// tests/history_test.cc keeps a database of every earlier version to migrate from.
#include "schema.h"

#include <fmt/format.h>

#include "gpudiag/history.h"

namespace gpudiag::detail {

constexpr std::array<Migration, 8> kMigrations{{
    {1, "runs, findings, evidence; ingested sources, jobs and entries",
     R"sql(
CREATE TABLE run (
  id          INTEGER PRIMARY KEY,
  pipeline    TEXT NOT NULL,
  job_id      TEXT NOT NULL,
  job_name    TEXT NOT NULL,
  project     TEXT NOT NULL,
  region      TEXT NOT NULL,
  start_time  TEXT,
  end_time    TEXT,
  verdict     TEXT NOT NULL CHECK (verdict IN ('ok', 'warning', 'failed')),
  summary     TEXT NOT NULL,
  rule_pack   TEXT NOT NULL,
  entries     INTEGER NOT NULL,
  recorded_at TEXT NOT NULL
);
CREATE INDEX run_by_pipeline ON run (pipeline, id);
CREATE INDEX run_by_job ON run (job_id);
CREATE TABLE finding (
  run_id      INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
  rule_id     TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  rank        INTEGER NOT NULL,
  title       TEXT NOT NULL,
  family      TEXT NOT NULL,
  severity    TEXT NOT NULL,
  confidence  REAL NOT NULL,
  count       INTEGER NOT NULL,
  first_seen  TEXT,
  last_seen   TEXT,
  workers     INTEGER NOT NULL,
  caused_by   TEXT,
  PRIMARY KEY (run_id, rule_id, fingerprint)
) WITHOUT ROWID;
CREATE INDEX finding_by_fingerprint ON finding (rule_id, fingerprint);
CREATE TABLE evidence (
  run_id      INTEGER NOT NULL,
  rule_id     TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  seq         INTEGER NOT NULL,
  time        TEXT,
  severity    TEXT NOT NULL,
  log         TEXT,
  worker      TEXT,
  file        TEXT NOT NULL,
  line        INTEGER NOT NULL,
  message     TEXT NOT NULL,
  PRIMARY KEY (run_id, rule_id, fingerprint, seq),
  FOREIGN KEY (run_id, rule_id, fingerprint) REFERENCES finding (run_id, rule_id, fingerprint) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE TABLE source (
  id          INTEGER PRIMARY KEY,
  path        TEXT NOT NULL,
  format      TEXT NOT NULL,
  bytes       INTEGER NOT NULL,
  entries     INTEGER NOT NULL,
  ingested_at TEXT NOT NULL
);
CREATE TABLE job (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  project     TEXT NOT NULL,
  region      TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE entry (
  id          INTEGER PRIMARY KEY,
  source_id   INTEGER NOT NULL,
  line        INTEGER NOT NULL,
  time        TEXT,
  severity    TEXT NOT NULL,
  log         TEXT,
  worker      TEXT,
  sdk_worker  TEXT,
  job_id      TEXT,
  step        TEXT,
  logger      TEXT,
  message     TEXT,
  exception   TEXT,
  insert_id   TEXT
);
CREATE TABLE meta (
  key         TEXT PRIMARY KEY,
  value       ANY
) WITHOUT ROWID;
)sql"},
    {2, "accepted findings (a pipeline's baseline) and the entries and findings views",
     R"sql(
ALTER TABLE run ADD COLUMN accepted_at TEXT;
CREATE TABLE accepted (
  pipeline    TEXT NOT NULL,
  rule_id     TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  run_id      INTEGER NOT NULL,
  accepted_at TEXT NOT NULL,
  reason      TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (pipeline, rule_id, fingerprint)
) WITHOUT ROWID;
CREATE VIEW entries AS
  SELECT e.id, e.time, e.severity, e.log, e.worker, e.sdk_worker, e.job_id, j.name AS job_name, e.step,
         e.logger, e.message, e.exception, e.insert_id, s.path AS file, e.line
  FROM entry e JOIN source s ON s.id = e.source_id LEFT JOIN job j ON j.id = e.job_id;
CREATE VIEW findings AS
  SELECT r.pipeline, r.id AS run_id, r.job_id, r.job_name, r.start_time AS run_start, r.verdict, f.rank,
         f.rule_id, f.fingerprint, f.title, f.severity, f.confidence, f.count, f.first_seen, f.last_seen,
         f.workers, f.caused_by
  FROM finding f JOIN run r ON r.id = f.run_id;
)sql"},
    {3, "stable fingerprints (XXH3-64): each finding's identity and v1 fingerprint beside the v2 one",
     R"sql(
ALTER TABLE finding ADD COLUMN fingerprint_v1 TEXT;
ALTER TABLE finding ADD COLUMN identity TEXT;
UPDATE finding SET fingerprint_v1 = fingerprint;
CREATE INDEX finding_by_fingerprint_v1 ON finding (rule_id, fingerprint_v1);
ALTER TABLE accepted ADD COLUMN fingerprint_v1 TEXT;
UPDATE accepted SET fingerprint_v1 = fingerprint;
DROP VIEW findings;
CREATE VIEW findings AS
  SELECT r.pipeline, r.id AS run_id, r.job_id, r.job_name, r.start_time AS run_start, r.verdict, f.rank,
         f.rule_id, f.fingerprint, f.title, f.severity, f.confidence, f.count, f.first_seen, f.last_seen,
         f.workers, f.caused_by, f.fingerprint_v1, f.identity
  FROM finding f JOIN run r ON r.id = f.run_id;
)sql"},
    {4, "fingerprints v3 (identity captures, masked): each finding's v2 fingerprint beside the v3 one",
     R"sql(
ALTER TABLE finding ADD COLUMN fingerprint_v2 TEXT;
UPDATE finding SET fingerprint_v2 = fingerprint WHERE identity IS NOT NULL;
CREATE INDEX finding_by_fingerprint_v2 ON finding (rule_id, fingerprint_v2);
ALTER TABLE accepted ADD COLUMN fingerprint_v2 TEXT;
UPDATE accepted SET fingerprint_v2 = fingerprint WHERE fingerprint_v1 IS NULL OR fingerprint_v1 <> fingerprint;
DROP VIEW findings;
CREATE VIEW findings AS
  SELECT r.pipeline, r.id AS run_id, r.job_id, r.job_name, r.start_time AS run_start, r.verdict, f.rank,
         f.rule_id, f.fingerprint, f.title, f.severity, f.confidence, f.count, f.first_seen, f.last_seen,
         f.workers, f.caused_by, f.fingerprint_v1, f.identity, f.fingerprint_v2
  FROM finding f JOIN run r ON r.id = f.run_id;
)sql"},
    {5, "the job's own outcome on each run (JobOutcome names; 'unknown' for runs recorded before)",
     R"sql(
ALTER TABLE run ADD COLUMN outcome TEXT NOT NULL DEFAULT 'unknown';
CREATE INDEX run_by_outcome ON run (pipeline, outcome, id);
DROP VIEW findings;
CREATE VIEW findings AS
  SELECT r.pipeline, r.id AS run_id, r.job_id, r.job_name, r.start_time AS run_start, r.verdict, f.rank,
         f.rule_id, f.fingerprint, f.title, f.severity, f.confidence, f.count, f.first_seen, f.last_seen,
         f.workers, f.caused_by, f.fingerprint_v1, f.identity, f.fingerprint_v2, r.outcome
  FROM finding f JOIN run r ON r.id = f.run_id;
)sql"},
    {6, "each run's unexplained error groups and job facts (novelty; what changed since the last green run)",
     R"sql(
CREATE TABLE unexplained (
  run_id      INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
  fingerprint TEXT NOT NULL,
  rank        INTEGER NOT NULL,
  severity    TEXT NOT NULL,
  count       INTEGER NOT NULL,
  headline    TEXT NOT NULL,
  template    TEXT NOT NULL,
  first_seen  TEXT,
  PRIMARY KEY (run_id, fingerprint)
) WITHOUT ROWID;
CREATE INDEX unexplained_by_fingerprint ON unexplained (fingerprint, run_id);
CREATE TABLE fact (
  run_id      INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE,
  name        TEXT NOT NULL,
  value       TEXT NOT NULL,
  PRIMARY KEY (run_id, name)
) WITHOUT ROWID;
CREATE VIEW unexplained_groups AS
  SELECT r.pipeline, r.id AS run_id, r.job_id, r.job_name, r.start_time AS run_start, r.verdict, r.outcome,
         u.rank, u.fingerprint, u.severity, u.count, u.headline, u.template, u.first_seen
  FROM unexplained u JOIN run r ON r.id = u.run_id;
)sql"},
    {7, "what a rule stub needs of each unexplained group (gpudiag patterns suggest FINGERPRINT --db FILE)",
     R"sql(
ALTER TABLE unexplained ADD COLUMN stub_id TEXT;
ALTER TABLE unexplained ADD COLUMN example TEXT;
ALTER TABLE unexplained ADD COLUMN no_match TEXT;
)sql"},
    {8, "the rules whose findings a rule stub explains (the group's symptoms, comma-separated)",
     R"sql(
ALTER TABLE unexplained ADD COLUMN explains TEXT;
)sql"},
}};
static_assert(kMigrations.back().to == kHistorySchemaVersion, "a migration step per schema version");

void migrate(const Database& db) {
  Transaction tx(db);
  const int64_t version = db.single_int("PRAGMA user_version");
  if (version >= kHistorySchemaVersion) return;  // another process got there first (or nothing to do)
  for (const Migration& m : kMigrations) {
    if (m.to <= version) continue;
    db.exec(m.sql);
  }
  // PRAGMA takes no bound parameters; these are integer constants of this file, never input.
  db.exec(fmt::format("PRAGMA application_id = {}", kApplicationId));
  db.exec(fmt::format("PRAGMA user_version = {}", kHistorySchemaVersion));
  tx.commit();
}

}  // namespace gpudiag::detail
