// The run history (--db, gpudiag history/ingest/query): recurrence and new-versus-known findings for
// the CI gate, SQL over stored entries, migrations, concurrent writers, and databases that must be
// refused without being touched.
#include "gpudiag/history.h"

#include <fmt/format.h>
#include <simdjson.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "json_support.h"
#include "test_support.h"

using namespace gpudiag;
using test::run_gpudiag;

namespace {

const std::string kHealthy = "corpus/healthy-gpu-t4-tensorflow/export.json";
const std::string kCapacity = "corpus/zone-pool-exhausted-t4-retrying/export.json";
const std::string kOom = "corpus/gpu-oom-pytorch-runinference/export.json";
const std::string kJobIds[] = {"2024-03-11_06_12_41-2167543646706589111", "2021-01-15_14_21_03-19119913696439472768",
                               "2022-09-06_14_08_19-7519291900695754857", "2025-09-17_01_30_12-3312660184773105529"};

// A corpus export as another launch of the pipeline: every job id in it replaced by `job_id`.
std::string launch(const std::string& corpus_export, const std::string& job_id, const std::string& dir) {
  std::string text = test::read_file(test::source_dir() + "/" + corpus_export);
  for (const auto& old_id : kJobIds) {
    for (size_t at = text.find(old_id); at != std::string::npos; at = text.find(old_id, at + job_id.size())) {
      text.replace(at, old_id.size(), job_id);
    }
  }
  const std::string path =
      fmt::format("{}/{}-{}.json", dir, job_id, std::filesystem::path(corpus_export).parent_path().filename().string());
  test::write_file(path, text);
  return path;
}

std::string job(int n) { return fmt::format("2024-06-{:02}_04_00_00-10000000000000000{:02}", n, n); }

// Runs SQL on a database directly (fixtures, locks), failing the test on an error.
struct RawDb {
  sqlite3* db = nullptr;
  explicit RawDb(const std::string& path) { REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK); }
  ~RawDb() { sqlite3_close(db); }
  void exec(const std::string& sql) {
    char* error = nullptr;
    const int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    INFO((error ? error : ""));
    sqlite3_free(error);
    REQUIRE(rc == SQLITE_OK);
  }
  int64_t single(const std::string& sql) {
    sqlite3_stmt* s = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
    const int64_t v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
    sqlite3_finalize(s);
    return v;
  }
};

using test::finding;
using test::parse_json;

}  // namespace

TEST_CASE("the pipeline key drops what changes per launch", "[history]") {
  CHECK(pipeline_key("beamapp-user-0426123456-abcdef") == "beamapp-user");
  CHECK(pipeline_key("beamapp-root-0426123456-789012") == "beamapp-root");
  CHECK(pipeline_key("wordcount-alice-0426123456-5f3e2a1b") == "wordcount-alice");
  CHECK(pipeline_key("nightly-embed-20240101-120000") == "nightly-embed");
  CHECK(pipeline_key("etl-v2-2024-01-01") == "etl-v2");
  CHECK(pipeline_key("etl-20240101t120000") == "etl");
  CHECK(pipeline_key("tensorflow-gpu-landsat-0115") == "tensorflow-gpu-landsat");
  CHECK(pipeline_key("score-7f3a9c1") == "score");
  CHECK(pipeline_key("score-123e4567-e89b-12d3-a456-426614174000") == "score");
  // What names the pipeline stays.
  CHECK(pipeline_key("tf-embed-images-nightly") == "tf-embed-images-nightly");
  CHECK(pipeline_key("traffic-cam-detections-p4") == "traffic-cam-detections-p4");
  CHECK(pipeline_key("resnet-50") == "resnet-50");
  CHECK(pipeline_key("resnet-50-20240101") == "resnet-50");
  CHECK(pipeline_key("gpu-a100-20240101") == "gpu-a100");
  CHECK(pipeline_key("decade-feed-cafe") == "decade-feed-cafe");
  CHECK(pipeline_key("20240101") == "20240101");
  CHECK(pipeline_key("") == "unnamed");
}

TEST_CASE("ten runs: a capacity error in three recurs, a new OOM in the tenth trips gate --new-only", "[history]") {
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/runs.db";
  const auto gate = [&](std::vector<std::string> inputs, const std::string& format = "text") {
    std::vector<std::string> args = {
        "gate", "--db", db, "--pipeline", "nightly-embed", "--new-only", "--deterministic", "--format", format};
    args.insert(args.end(), inputs.begin(), inputs.end());
    return run_gpudiag(args);
  };
  for (int n = 1; n <= 9; ++n) {
    const bool capacity = n == 4 || n == 7;
    const auto r = gate({launch(capacity ? kCapacity : kHealthy, job(n), dir)});
    INFO(r.out << r.err);
    // The first capacity error is new and trips the gate; the second is known and does not.
    CHECK(r.exit_code == (n == 4 ? 1 : 0));
  }
  // Run ten: the capacity error again, and an OOM never seen before.
  const auto tenth = gate({launch(kCapacity, job(10), dir), launch(kOom, job(10), dir)});
  INFO(tenth.out << tenth.err);
  CHECK(tenth.exit_code == 1);
  CHECK_THAT(tenth.out, Catch::Contains("gate: tripped: 1 new finding at or above error (gpu-out-of-memory); "
                                        "1 finding known to the run history (--new-only)"));
  CHECK_THAT(tenth.out,
             Catch::Contains("history: run #10 of pipeline nightly-embed (10 runs recorded): 1 new finding, 1 known"));
  CHECK_THAT(tenth.out,
             Catch::Contains(
                 "history: known: in 3 of 10 runs, last seen in run #7 (2021-01-15T22:21:04.200764782Z), streak 1"));
  CHECK_THAT(tenth.out, Catch::Contains("history: new: no earlier run of this pipeline had it (10 runs recorded)"));

  // The recurrence, as `gpudiag history` tells it.
  const auto history = run_gpudiag({"history", "--db", db, "--pipeline", "nightly-embed", "--format", "json"});
  REQUIRE(history.exit_code == 0);
  simdjson::dom::parser parser;
  const auto root = parse_json(parser, history.out);
  CHECK(std::string_view(root["schema"]) == "gpudiag.history/v1");
  const simdjson::dom::element pipeline = root["pipelines"].at(0);
  CHECK(uint64_t(pipeline["runs_recorded"]) == 10);
  const auto capacity = finding(pipeline["findings"], "zone-resource-pool-exhausted")["history"];
  CHECK(uint64_t(capacity["runs_affected"]) == 3);
  CHECK(uint64_t(capacity["runs_recorded"]) == 10);
  CHECK(uint64_t(capacity["streak"]) == 1);
  CHECK(int64_t(capacity["first_seen"]["run"]) == 4);
  CHECK(int64_t(capacity["last_seen"]["run"]) == 10);
  CHECK(std::string_view(capacity["last_seen"]["job_id"]) == job(10));
  const auto oom = finding(pipeline["findings"], "gpu-out-of-memory")["history"];
  CHECK(uint64_t(oom["runs_affected"]) == 1);
  simdjson::dom::array runs = pipeline["runs"];
  CHECK(runs.size() == 10);
  CHECK(std::string_view(runs.at(0)["verdict"]) == "ok");
  CHECK(std::string_view(runs.at(3)["verdict"]) == "failed");
  const auto text = run_gpudiag({"history", "--db", db, "--deterministic"});
  CHECK_THAT(text.out, Catch::Contains("pipeline nightly-embed — 10 runs"));
  CHECK_THAT(text.out, Catch::Matches("[\\s\\S]*zone-resource-pool-exhausted +error +3/10 +1 +#4 [\\s\\S]*"));

  // The same run in JSON: each finding carries its history.
  const auto json = gate({launch(kCapacity, job(10), dir), launch(kOom, job(10), dir)}, "json");
  CHECK(json.exit_code == 1);
  const auto report = parse_json(parser, json.out);
  CHECK(int64_t(report["history"]["run"]) == 10);  // the same job again: its run is rewritten, not added
  CHECK(bool(report["history"]["new_only"]));
  const auto known = finding(report["findings"], "zone-resource-pool-exhausted")["history"];
  CHECK(std::string_view(known["status"]) == "known");
  CHECK(uint64_t(known["runs_affected"]) == 3);
  CHECK(int64_t(known["last_seen"]["run"]) == 7);
  const auto fresh = finding(report["findings"], "gpu-out-of-memory")["history"];
  CHECK(std::string_view(fresh["status"]) == "new");
  CHECK(fresh["last_seen"].is_null());
  CHECK(bool(report["gate"]["tripped"]));

  // A post-mortem question the rules did not ask, once the entries are stored.
  REQUIRE(run_gpudiag({"ingest", "--db", db, launch(kOom, job(10), dir)}).exit_code == 0);
  const auto q =
      run_gpudiag({"query", "--db", db, "--format", "csv",
                   "SELECT worker, count(*) AS errors FROM entry WHERE severity = 'ERROR' AND worker IS NOT NULL "
                   "AND time >= (SELECT strftime('%Y-%m-%dT%H:%M:%fZ', min(time), '-5 minutes') FROM entry_fts "
                   "JOIN entry ON entry.id = entry_fts.rowid WHERE entry_fts MATCH '\"out of memory\"') "
                   "GROUP BY worker ORDER BY errors DESC"});
  INFO(q.err);
  CHECK(q.exit_code == 0);
  CHECK_THAT(q.out, Catch::StartsWith("worker,errors\r\nclip-embeddings-backfill-09061408-lp8v-harness-zbca,"));
}

TEST_CASE("an accepted run's findings stay known, even after the run is pruned", "[history]") {
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/runs.db";
  const auto gate = [&](int n) {
    return run_gpudiag({"gate", "--db", db, "--pipeline", "p", "--new-only", launch(kOom, job(n), dir)});
  };
  CHECK(run_gpudiag({"analyze", "--db", db, "--pipeline", "p", launch(kHealthy, job(1), dir)}).exit_code == 0);
  CHECK(gate(2).exit_code == 1);
  const auto accept = run_gpudiag({"history", "accept", "2", "--db", db, "--reason", "known driver issue"});
  CHECK(accept.exit_code == 0);
  CHECK_THAT(accept.out, Catch::Contains("accepted run #2 of p"));
  const auto pruned = run_gpudiag({"history", "prune", "--keep", "1", "--db", db});
  CHECK(pruned.exit_code == 0);
  CHECK_THAT(pruned.out, Catch::Contains("pruned 1 run"));  // run 1; run 2 is the latest
  CHECK(run_gpudiag({"history", "prune", "--keep", "1", "--db", db}).exit_code == 0);
  CHECK(run_gpudiag({"history", "prune", "--older-than", "0s", "--db", db}).exit_code == 0);  // everything
  const auto again = gate(3);
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.out, Catch::Contains("known: in 1 of 1 runs, streak 1, accepted"));
  CHECK(run_gpudiag({"history", "accept", "99", "--db", db}).exit_code == 2);
  CHECK(run_gpudiag({"history", "prune", "--db", db}).exit_code == 2);  // nothing to prune by
  CHECK(run_gpudiag({"history", "prune", "--older-than", "soon", "--db", db}).exit_code == 2);
  CHECK(run_gpudiag({"gate", "--new-only", kOom}).exit_code == 2);  // --new-only needs --db
}

TEST_CASE("a schema version 1 database is migrated forward and keeps its runs", "[history]") {
  const std::string path = test::temp_dir() + "/v1.db";
  {
    // Version 1 as it was released (a frozen copy: migrations must never change it), with one run.
    RawDb v1(path);
    v1.exec(R"sql(
      CREATE TABLE run (id INTEGER PRIMARY KEY, pipeline TEXT NOT NULL, job_id TEXT NOT NULL, job_name TEXT NOT NULL,
        project TEXT NOT NULL, region TEXT NOT NULL, start_time TEXT, end_time TEXT,
        verdict TEXT NOT NULL CHECK (verdict IN ('ok', 'warning', 'failed')), summary TEXT NOT NULL,
        rule_pack TEXT NOT NULL, entries INTEGER NOT NULL, recorded_at TEXT NOT NULL);
      CREATE INDEX run_by_pipeline ON run (pipeline, id);
      CREATE INDEX run_by_job ON run (job_id);
      CREATE TABLE finding (run_id INTEGER NOT NULL REFERENCES run (id) ON DELETE CASCADE, rule_id TEXT NOT NULL,
        fingerprint TEXT NOT NULL, rank INTEGER NOT NULL, title TEXT NOT NULL, family TEXT NOT NULL,
        severity TEXT NOT NULL, confidence REAL NOT NULL, count INTEGER NOT NULL, first_seen TEXT, last_seen TEXT,
        workers INTEGER NOT NULL, caused_by TEXT, PRIMARY KEY (run_id, rule_id, fingerprint)) WITHOUT ROWID;
      CREATE INDEX finding_by_fingerprint ON finding (rule_id, fingerprint);
      CREATE TABLE evidence (run_id INTEGER NOT NULL, rule_id TEXT NOT NULL, fingerprint TEXT NOT NULL,
        seq INTEGER NOT NULL, time TEXT, severity TEXT NOT NULL, log TEXT, worker TEXT, file TEXT NOT NULL,
        line INTEGER NOT NULL, message TEXT NOT NULL, PRIMARY KEY (run_id, rule_id, fingerprint, seq),
        FOREIGN KEY (run_id, rule_id, fingerprint) REFERENCES finding (run_id, rule_id, fingerprint) ON DELETE CASCADE
      ) WITHOUT ROWID;
      CREATE TABLE source (id INTEGER PRIMARY KEY, path TEXT NOT NULL, format TEXT NOT NULL, bytes INTEGER NOT NULL,
        entries INTEGER NOT NULL, ingested_at TEXT NOT NULL);
      CREATE TABLE job (id TEXT PRIMARY KEY, name TEXT NOT NULL, project TEXT NOT NULL, region TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE entry (id INTEGER PRIMARY KEY, source_id INTEGER NOT NULL, line INTEGER NOT NULL, time TEXT,
        severity TEXT NOT NULL, log TEXT, worker TEXT, sdk_worker TEXT, job_id TEXT, step TEXT, logger TEXT,
        message TEXT, exception TEXT, insert_id TEXT);
      CREATE TABLE meta (key TEXT PRIMARY KEY, value ANY) WITHOUT ROWID;
      PRAGMA application_id = 1735418983;
      PRAGMA user_version = 1;
      INSERT INTO run VALUES (1, 'nightly', 'job-1', 'nightly-20240101', 'p', 'us-central1',
        '2024-01-01T00:00:00.000000000Z', '2024-01-01T01:00:00.000000000Z', 'failed', 'FAILED — GPU ran out of memory',
        'abc', 10, '2024-01-01T02:00:00.000000000Z');
      INSERT INTO finding VALUES (1, 'gpu-out-of-memory', 'gpu-out-of-memory/8f0828455c766f42', 1,
        'GPU ran out of memory', 'runtime', 'error', 0.9, 4, NULL, NULL, 1, NULL);
    )sql");
  }
  auto store = HistoryStore::open(path);
  REQUIRE(store.ok());
  CHECK(store->opened_version() == 1);
  CHECK(RawDb(path).single("PRAGMA user_version") == kHistorySchemaVersion);
  auto history = store->history("nightly");
  REQUIRE(history.ok());
  REQUIRE(history->size() == 1);
  CHECK(history->front().runs.front().verdict == Verdict::kFailed);
  CHECK(history->front().runs.front().job.outcome == JobOutcome::kUnknown);  // version 5's column
  CHECK(RawDb(path).single("SELECT count(*) FROM run WHERE outcome = 'unknown'") == 1);
  CHECK(history->front().findings.front().history.runs_affected == 1);
  REQUIRE(store->accept(1, "migrated").ok());  // version 2's table
  CHECK(RawDb(path).single("SELECT count(*) FROM accepted") == 1);
  // Opening again is a no-op.
  REQUIRE(HistoryStore::open(path).ok());
  CHECK(HistoryStore::open(path)->opened_version() == kHistorySchemaVersion);
}

TEST_CASE("a new database is WAL-mode and at the current version, and each run is one transaction", "[history]") {
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/runs.db";
  REQUIRE(HistoryStore::open(db).ok());
  {
    RawDb raw(db);
    CHECK(raw.single("PRAGMA user_version") == kHistorySchemaVersion);
    sqlite3_stmt* s = nullptr;
    REQUIRE(sqlite3_prepare_v2(raw.db, "PRAGMA journal_mode", -1, &s, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(s) == SQLITE_ROW);
    CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, 0))) == "wal");
    sqlite3_finalize(s);
    // A failure in the middle of writing a run: the evidence insert aborts after the run and its
    // findings were written.
    raw.exec("CREATE TRIGGER fail_evidence BEFORE INSERT ON evidence BEGIN SELECT RAISE(ABORT, 'disk on fire'); END");
  }
  const auto r = run_gpudiag({"analyze", "--db", db, kOom});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("disk on fire"));
  RawDb raw(db);
  CHECK(raw.single("SELECT count(*) FROM run") == 0);
  CHECK(raw.single("SELECT count(*) FROM finding") == 0);
}

TEST_CASE("two gate processes writing one database at once both succeed and both runs are kept", "[history]") {
  const std::string dir = test::temp_dir();
  for (int round = 0; round < 3; ++round) {
    const std::string db = fmt::format("{}/runs-{}.db", dir, round);  // a new file: both may create it
    const std::string a = launch(kOom, job(2 * round + 1), dir), b = launch(kOom, job(2 * round + 2), dir);
    test::CommandResult ra, rb;
    std::thread first([&] { ra = run_gpudiag({"gate", "--db", db, "--pipeline", "p", a}); });
    std::thread second([&] { rb = run_gpudiag({"gate", "--db", db, "--pipeline", "p", b}); });
    first.join();
    second.join();
    INFO(ra.err << rb.err);
    CHECK(ra.exit_code == 1);  // the OOM trips the gate: the database did not get in the way
    CHECK(rb.exit_code == 1);
    RawDb raw(db);
    CHECK(raw.single("SELECT count(*) FROM run") == 2);
    CHECK(raw.single("SELECT count(*) FROM finding") == 2);
    CHECK(raw.single("SELECT count(DISTINCT job_id) FROM run") == 2);
  }
}

TEST_CASE("history prune while 8 writers record runs: no run lost, none it should keep deleted, the file intact",
          "[history]") {
  // Eight processes each record three runs of their own pipeline while another prunes again and
  // again, by count (--keep 2) and by age (--older-than 1d: none is that old). The two latest runs
  // of a pipeline are never prunable, so they must all be there; what is there is a pipeline's
  // latest runs; and SQLite finds the file sound.
  constexpr int kWriters = 8, kRuns = 3;
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/runs.db";
  std::vector<std::vector<std::string>> exports(kWriters);
  for (int w = 0; w < kWriters; ++w) {
    for (int k = 0; k < kRuns; ++k) exports[w].push_back(launch(k == 1 ? kHealthy : kOom, job(w * kRuns + k + 1), dir));
  }
  std::vector<test::CommandResult> writes(kWriters * kRuns);
  std::vector<test::CommandResult> prunes;
  std::atomic<int> writers_left{kWriters};
  std::thread pruner([&] {
    for (int n = 0; writers_left > 0 || n < 2; ++n) {
      prunes.push_back(n % 2 == 0 ? run_gpudiag({"history", "prune", "--keep", "2", "--db", db})
                                  : run_gpudiag({"history", "prune", "--older-than", "1d", "--db", db}));
    }
  });
  std::vector<std::thread> writers;
  for (int w = 0; w < kWriters; ++w) {
    writers.emplace_back([&, w] {
      for (int k = 0; k < kRuns; ++k) {
        writes[w * kRuns + k] =
            run_gpudiag({"analyze", "--db", db, "--pipeline", fmt::format("writer-{}", w), exports[w][k]});
      }
      --writers_left;
    });
  }
  for (auto& t : writers) t.join();
  pruner.join();
  for (const auto& r : writes) {
    INFO(r.err);
    CHECK(r.exit_code == 0);
  }
  for (const auto& r : prunes) {
    INFO(r.out << r.err);
    // Before the first run, the file may not yet be a database: that is the only refusal allowed.
    CHECK((r.exit_code == 0 || r.err.find("no history database here") != std::string::npos));
  }
  RawDb raw(db);
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(raw.db, "PRAGMA integrity_check", -1, &s, nullptr) == SQLITE_OK);
  REQUIRE(sqlite3_step(s) == SQLITE_ROW);
  CHECK(std::string(reinterpret_cast<const char*>(sqlite3_column_text(s, 0))) == "ok");
  sqlite3_finalize(s);
  CHECK(raw.single("SELECT count(*) FROM pragma_foreign_key_check") == 0);
  CHECK(raw.single("SELECT count(*) FROM finding WHERE run_id NOT IN (SELECT id FROM run)") == 0);
  for (int w = 0; w < kWriters; ++w) {
    INFO("writer " << w);
    const auto has = [&](int k) {
      return raw.single(fmt::format("SELECT count(*) FROM run WHERE pipeline = 'writer-{}' AND job_id = '{}'", w,
                                    job(w * kRuns + k + 1))) == 1;
    };
    CHECK(has(kRuns - 1));  // the two latest: no rule given could prune them
    CHECK(has(kRuns - 2));
    if (has(0)) CHECK(has(1));  // only the oldest go
    CHECK(raw.single(fmt::format("SELECT count(*) FROM run WHERE pipeline = 'writer-{}'", w)) <= kRuns);
  }
  // Once the writers are done, one more prune by count leaves exactly the two latest of each.
  CHECK(run_gpudiag({"history", "prune", "--keep", "2", "--db", db}).exit_code == 0);
  CHECK(raw.single("SELECT count(*) FROM run") == 2 * kWriters);
  const auto by_age = run_gpudiag({"history", "prune", "--older-than", "1d", "--db", db});
  CHECK_THAT(by_age.out, Catch::Contains("pruned 0 runs"));
}

TEST_CASE("databases that cannot be used exit 2 with a clear message and are left untouched", "[history]") {
  const std::string dir = test::temp_dir();
  const auto bytes = [](const std::string& path) { return test::read_file(path); };
  const auto refused = [&](const std::string& db, const std::string& code, const std::string& phrase) {
    const std::string before = bytes(db);
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"analyze", "--db", db, "--db-timeout", "0.3", kOom},
                                               {"gate", "--db", db, "--db-timeout", "0.3", "--new-only", kOom},
                                               {"ingest", "--db", db, "--db-timeout", "0.3", kOom},
                                               {"history", "--db", db, "--db-timeout", "0.3"}}) {
      const auto r = run_gpudiag(args);
      INFO(args.front() << ": " << r.err);
      CHECK(r.exit_code == 2);
      CHECK_THAT(r.err, Catch::Contains("error[" + code + "]") && Catch::Contains(phrase) && Catch::Contains(db));
    }
    CHECK(bytes(db) == before);
  };

  SECTION("not a database") {
    const std::string db = dir + "/notes.db";
    test::write_file(db, std::string(8192, 'x'));
    refused(db, "db-corrupt", "not a gpudiag database, or a corrupt one");
  }
  SECTION("corrupt") {
    const std::string db = dir + "/corrupt.db";
    REQUIRE(run_gpudiag({"analyze", "--db", db, kOom}).exit_code == 0);
    std::string content = bytes(db);
    REQUIRE(content.size() > 4096);
    for (size_t i = 100; i < content.size(); ++i) content[i] = static_cast<char>(0xA5 ^ (i * 31));
    test::write_file(db, content);
    std::filesystem::remove(db + "-wal");
    std::filesystem::remove(db + "-shm");
    refused(db, "db-corrupt", "corrupt");
  }
  SECTION("from a newer gpudiag") {
    const std::string db = dir + "/newer.db";
    REQUIRE(HistoryStore::open(db).ok());
    RawDb(db).exec("PRAGMA user_version = 99");
    refused(db, "db-newer", fmt::format("schema version 99; this gpudiag knows up to {}", kHistorySchemaVersion));
  }
  SECTION("someone else's database") {
    const std::string db = dir + "/other.db";
    RawDb(db).exec("CREATE TABLE invoices (id INTEGER)");
    refused(db, "db-foreign", "not a gpudiag history database");
  }
  SECTION("locked past the timeout") {
    const std::string db = dir + "/locked.db";
    REQUIRE(HistoryStore::open(db).ok());
    const std::string before = bytes(db);  // not while the lock is held: closing any descriptor of
    RawDb holder(db);                      // the file would drop this process's POSIX locks on it
    holder.exec("BEGIN EXCLUSIVE; INSERT INTO meta (key, value) VALUES ('held', 1)");
    for (const auto& args :
         std::vector<std::vector<std::string>>{{"analyze", "--db", db, "--db-timeout", "0.3", kOom},
                                               {"ingest", "--db", db, "--db-timeout", "0.3", kOom}}) {
      const auto r = run_gpudiag(args);
      CHECK(r.exit_code == 2);
      CHECK_THAT(r.err, Catch::Contains("error[db-locked]") && Catch::Contains("locked by another process"));
    }
    holder.exec("ROLLBACK");
    CHECK(bytes(db) == before);
  }
  SECTION("read-only") {
    const std::string db = dir + "/readonly.db";
    REQUIRE(run_gpudiag({"analyze", "--db", db, kOom}).exit_code == 0);
    std::filesystem::permissions(db, std::filesystem::perms::owner_read | std::filesystem::perms::group_read |
                                         std::filesystem::perms::others_read);
    const std::string before = bytes(db);
    // root writes read-only files anyway: as root, gpudiag runs as nobody, who cannot.
    const std::string gpudiag =
        ::geteuid() == 0 ? fmt::format("setpriv --reuid=65534 --regid=65534 --clear-groups {}", GPUDIAG_BINARY)
                         : GPUDIAG_BINARY;
    const std::string err = dir + "/read-only.err";
    const int status = std::system(
        fmt::format("cd {} && {} analyze --db {} {} 2> {}", test::source_dir(), gpudiag, db, kOom, err).c_str());
    CHECK(WEXITSTATUS(status) == 2);
    CHECK_THAT(bytes(err),
               Catch::Contains("error[db-read-only]") && Catch::Contains("cannot be written") && Catch::Contains(db));
    CHECK(bytes(db) == before);
  }
}

TEST_CASE("query stops a statement that outruns --timeout, with exit 2 and how to give it longer", "[history]") {
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/entries.db";
  REQUIRE(run_gpudiag({"ingest", "--db", db, kOom}).exit_code == 0);
  const std::string endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n";
  const auto start = std::chrono::steady_clock::now();
  const auto stopped = run_gpudiag({"query", "--db", db, "--timeout", "0.5", endless});
  const auto took = std::chrono::steady_clock::now() - start;
  CHECK(stopped.exit_code == 2);
  CHECK(stopped.out.empty());
  CHECK_THAT(stopped.err, Catch::Contains("error[query-timeout]: the query was stopped after 0.5 s, still running") &&
                              Catch::Contains("help: give it longer with --timeout SECONDS (0: no limit)"));
  CHECK(took < std::chrono::seconds(20));
  // Within its time a query runs as before, and in the library the limit is the caller's choice.
  CHECK(run_gpudiag({"query", "--db", db, "--timeout", "5", "SELECT count(*) FROM entry"}).exit_code == 0);
  CHECK(run_gpudiag({"query", "--db", db, "--timeout", "-1", "SELECT 1"}).exit_code == 2);  // usage
  auto store = HistoryStore::open(db, {.read_only = true, .create = false});
  REQUIRE(store.ok());
  uint64_t rows = 0;
  const auto limited = store->query(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 1000) SELECT i FROM n",
      [&](const auto&, const auto&) { ++rows; }, 30);
  CHECK(limited.ok());
  CHECK(rows == 1000);
  const auto timed_out = store->query(
      endless, [](const auto&, const auto&) {}, 0.2);
  REQUIRE_FALSE(timed_out.ok());
  CHECK(timed_out.error().code == "query-timeout");
  // The handler is gone afterwards: the store goes on working.
  CHECK(store->query("SELECT 1", [](const auto&, const auto&) {}).ok());
}

TEST_CASE("ingest stores every entry and query reads them back, read-only", "[history]") {
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/entries.db";
  const auto ingest = run_gpudiag({"ingest", "--db", db, kOom, "corpus/messy-duplicates-ndjson/export.ndjson"});
  INFO(ingest.err);
  REQUIRE(ingest.exit_code == 0);
  CHECK_THAT(ingest.out, Catch::Contains("stored "));
  CHECK_THAT(ingest.out, Catch::Contains("full-text index (entry_fts): "));
  // The same counts analyze gives.
  const Analysis d = [&] {
    auto a = analyze(test::builtin_pack(), {kOom, "corpus/messy-duplicates-ndjson/export.ndjson"}, {.threads = 1});
    REQUIRE(a.ok());
    return std::move(*a);
  }();
  // A connection per look: reading the file with read_file() would drop a lasting one's POSIX locks.
  const auto count = [&](const std::string& sql) { return RawDb(db).single(sql); };
  CHECK(count("SELECT count(*) FROM entry") == static_cast<int64_t>(d.analysed));
  CHECK(count("SELECT count(*) FROM source") == 2);
  CHECK(count("SELECT count(*) FROM entry_fts WHERE entry_fts MATCH 'CUDA'") > 0);
  CHECK(count("SELECT count(*) FROM entries WHERE file = '" + kOom + "' AND line = 142") == 1);

  const std::string before = test::read_file(db);
  const auto table = run_gpudiag(
      {"query", "--db", db, "SELECT log, count(*) AS n FROM entry GROUP BY log ORDER BY n DESC, log LIMIT 2"});
  CHECK(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::StartsWith("log ") && Catch::EndsWith("(2 rows)\n"));
  const auto json =
      run_gpudiag({"query", "--db", db, "--format", "json", "SELECT 1 AS one, 'a\"b' AS text, NULL AS missing"});
  CHECK(json.out ==
        "{\n  \"schema\": \"gpudiag.query/v1\",\n  \"columns\": [\"one\", \"text\", \"missing\"],\n  \"rows\": [\n"
        "    {\"one\": 1, \"text\": \"a\\\"b\", \"missing\": null}\n  ]\n}\n");
  const auto csv = run_gpudiag({"query", "--db", db, "--format", "csv", "SELECT 'x,y' AS a, 2 AS b WHERE 0"});
  CHECK(csv.out == "a,b\r\n");
  const auto hostile = run_gpudiag({"query", "--db", db, "SELECT char(27) || '[31mred' AS t"});
  CHECK_THAT(hostile.out, Catch::Contains("\\x1b[31mred"));
  CHECK(hostile.out.find('\x1b') == std::string::npos);

  const auto writes = run_gpudiag({"query", "--db", db, "DELETE FROM entry"});
  CHECK(writes.exit_code == 2);
  CHECK_THAT(writes.err, Catch::Contains("error[query-writes]"));
  CHECK(run_gpudiag({"query", "--db", db, "ATTACH 'x.db' AS x"}).exit_code == 2);
  const auto typo = run_gpudiag({"query", "--db", db, "SELECT wroker FROM entry"});
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Catch::Contains("no such column: wroker") && Catch::Contains("SQL:1:8") &&
                           Catch::Contains("1 | SELECT wroker FROM entry\n  |        ^"));
  CHECK(run_gpudiag({"query", "--db", db, "SELECT 1; SELECT 2"}).exit_code == 2);
  CHECK(test::read_file(db) == before);
  CHECK(run_gpudiag({"query", "--db", dir + "/missing.db", "SELECT 1"}).exit_code == 2);
  CHECK(run_gpudiag({"history", "--db", dir + "/missing.db"}).exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(dir + "/missing.db"));

  // --no-fts leaves the index behind; the next ingest catches up.
  const auto later = run_gpudiag({"ingest", "--db", db, "--no-fts", kHealthy});
  CHECK_THAT(later.out, Catch::Contains("entries are not in it yet"));
  CHECK(run_gpudiag({"ingest", "--db", db, kCapacity}).exit_code == 0);
  CHECK(count("SELECT count(*) FROM entry_fts WHERE entry_fts MATCH 'Tearing'") ==
        count("SELECT count(*) FROM entry WHERE message LIKE '%Tearing%'"));
  CHECK(run_gpudiag({"ingest", "--db", db, "no/such/export.json"}).exit_code == 2);

  // Pruning by age drops ingested inputs too, and the full-text index follows.
  const auto pruned = run_gpudiag({"history", "prune", "--older-than", "0s", "--db", db});
  CHECK(pruned.exit_code == 0);
  CHECK_THAT(pruned.out, Catch::Contains("4 ingested inputs"));
  CHECK(count("SELECT count(*) FROM entry") == 0);
  CHECK(count("SELECT count(*) FROM entry_fts WHERE entry_fts MATCH 'CUDA'") == 0);
  RawDb(db).exec("INSERT INTO entry_fts (entry_fts) VALUES ('integrity-check')");
}

TEST_CASE("reclassify judges stored runs again with today's rules", "[history]") {
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/runs.db";
  REQUIRE(run_gpudiag({"analyze", "--db", db, kOom}).exit_code == 0);
  REQUIRE(run_gpudiag({"analyze", "--db", db, kHealthy}).exit_code == 0);
  REQUIRE(run_gpudiag({"analyze", "--db", db, kCapacity}).exit_code == 0);
  REQUIRE(run_gpudiag({"ingest", "--db", db, kOom, kHealthy}).exit_code == 0);  // not the capacity run's
  const auto same = run_gpudiag({"history", "--db", db, "--reclassify"});
  INFO(same.out << same.err);
  CHECK(same.exit_code == 0);
  CHECK_THAT(same.out, Catch::Contains("Reclassified 2 runs with rule pack") && Catch::Contains(": 0 would change"));
  CHECK_THAT(same.out, Catch::Contains("1 run could not be judged again"));

  const std::string rules = dir + "/rules";
  std::filesystem::create_directories(rules);
  test::write_file(rules + "/off.yaml", "id: gpu-out-of-memory\nenabled: false\n");
  const auto changed = run_gpudiag({"history", "--db", db, "--reclassify", "--rules", rules});
  CHECK(changed.exit_code == 0);
  CHECK_THAT(changed.out, Catch::Contains(": 1 would change") && Catch::Contains("run #1 (clip-embeddings-backfill") &&
                              Catch::Contains("failed → ok") && Catch::Contains("- gpu-out-of-memory"));
  const auto json = run_gpudiag({"history", "--db", db, "--reclassify", "--rules", rules, "--format", "json"});
  simdjson::dom::parser parser;
  const auto root = parse_json(parser, json.out);
  simdjson::dom::array runs = root["reclassified"];
  CHECK(runs.size() == 3);
  CHECK(bool(runs.at(0)["changed"]));
  CHECK(std::string_view(runs.at(0)["after"]["verdict"]) == "ok");
  CHECK(runs.at(2)["after"].is_null());
}

TEST_CASE("record_run replaces a job recorded before and says what is new", "[history]") {
  const std::string db = test::temp_dir() + "/lib.db";
  auto store = HistoryStore::open(db);
  REQUIRE(store.ok());
  const Analysis d = test::analyze_text(test::read_file(test::source_dir() + "/" + kOom));
  RankedReport report = rank(d);
  auto first = store->record_run(report, "p");
  REQUIRE(first.ok());
  CHECK_FALSE(first->replaced);
  REQUIRE(first->findings.size() == 1);
  CHECK_FALSE(first->findings[0].known);
  auto again = store->record_run(report, "p");
  REQUIRE(again.ok());
  CHECK(again->replaced);
  CHECK(again->id == first->id);
  CHECK(again->runs_recorded == 1);
  CHECK_FALSE(again->findings[0].known);  // the same job is not an earlier run of itself
  annotate(report, *again, /*new_only=*/true);
  CHECK(trips_gate(report, Impact::kError));
  CHECK(render_json(report, {}).find("\"status\": \"new\"") != std::string::npos);
}

TEST_CASE("every report format marks findings new or known", "[history]") {
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/runs.db";
  REQUIRE(run_gpudiag({"analyze", "--db", db, "--pipeline", "p", launch(kCapacity, job(1), dir)}).exit_code == 0);
  const auto r = run_gpudiag({"gate",
                              launch(kCapacity, job(2), dir),
                              launch(kOom, job(2), dir),
                              "--db",
                              db,
                              "--pipeline",
                              "p",
                              "--new-only",
                              "--format",
                              "github",
                              "-o",
                              dir + "/r.md",
                              "-o",
                              dir + "/r.html",
                              "-o",
                              dir + "/r.xml",
                              "-o",
                              dir + "/r.sarif",
                              "-o",
                              dir + "/r.json"});
  CHECK(r.exit_code == 1);
  const std::string known = "known: in 2 of 2 runs, last seen in run #1";
  const std::string fresh = "new: no earlier run of this pipeline had it (2 runs recorded)";
  CHECK_THAT(r.out, Catch::Contains(known) && Catch::Contains(fresh));
  CHECK_THAT(test::read_file(dir + "/r.md"), Catch::Contains("🔁 known: in 2 of 2 runs") && Catch::Contains("🆕 new:"));
  CHECK_THAT(test::read_file(dir + "/r.html"),
             Catch::Contains("history-known") && Catch::Contains("History: " + fresh));
  CHECK_THAT(test::read_file(dir + "/r.xml"), Catch::Contains(known) && Catch::Contains(fresh));
  const std::string sarif = test::read_file(dir + "/r.sarif");
  CHECK_THAT(sarif,
             Catch::Contains("\"baselineState\": \"unchanged\"") && Catch::Contains("\"baselineState\": \"new\""));
  CHECK_THAT(test::read_file(dir + "/r.json"),
             Catch::Contains("\"status\": \"known\"") && Catch::Contains("\"status\": \"new\""));
}

TEST_CASE("two runs of one pipeline share fingerprints: ids, pids and digests in captures are masked", "[history]") {
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/runs.db";
  const std::string corpus = "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json";
  // The same work-item failure in two launches: another job id, other worker VMs and SDK ids, and
  // a root cause naming the run's worker, image digest and pid.
  const auto launch_with = [&](int n, const std::string& vm_a, const std::string& vm_b, const std::string& sdk,
                               const std::string& root_cause) {
    const std::string path = launch(corpus, job(n), dir);
    std::string text = test::read_file(path);
    const auto replace_all = [&](const std::string& from, const std::string& to) {
      for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
      }
    };
    replace_all("2022-11-28_14_05_40-8583720370029902118", job(n));
    replace_all("harness-isll", "harness-" + vm_a);
    replace_all("harness-jl52", "harness-" + vm_b);
    replace_all("sdk-0-0", sdk);
    replace_all("Root cause: Timed out waiting for an update from the worker", "Root cause: " + root_cause);
    test::write_file(path, text);
    return path;
  };
  const std::string first = launch_with(
      1, "isll", "jl52", "sdk-0-0",
      "Timed out waiting for an update from the worker traffic-cam-detections-p-11281405-9c1f-harness-isll (image "
      "gcr.io/p/infer@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08, pid 4242, "
      "instruction bundle_17ab3)");
  const std::string second = launch_with(
      2, "q7wz", "m3kd", "sdk-1-3",
      "Timed out waiting for an update from the worker traffic-cam-detections-p-06041200-e0a7-harness-q7wz (image "
      "gcr.io/p/infer@sha256:60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752, pid 97, "
      "instruction bundle_c0ffee9)");
  const auto analyze = [&](const std::string& input) {
    const auto r =
        run_gpudiag({"analyze", "--db", db, "--pipeline", "nightly", "--deterministic", "--format", "json", input});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    return r.out;
  };
  const std::string one = analyze(first), two = analyze(second);
  simdjson::dom::parser p1, p2;
  const simdjson::dom::array a = parse_json(p1, one)["findings"], b = parse_json(p2, two)["findings"];
  const auto root_cause = [](simdjson::dom::element f) {
    return std::string(std::string_view(f["captures"]["root_cause"].at(0)));
  };
  REQUIRE(root_cause(finding(a, "work-item-failed")) != root_cause(finding(b, "work-item-failed")));
  REQUIRE(a.size() == b.size());
  for (const auto f : b) {
    const std::string_view rule = f["rule_id"];
    INFO(rule);
    CHECK(std::string_view(f["fingerprint"]) == std::string_view(finding(a, rule)["fingerprint"]));
    CHECK(std::string_view(f["history"]["status"]) == "known");
    CHECK(uint64_t(f["history"]["runs_affected"]) == 2);
  }
  // The pipeline key is not hashed: the same export under another pipeline has the same fingerprints.
  const auto other = run_gpudiag({"analyze", "--db", db, "--pipeline", "weekly", "--format", "json", second});
  simdjson::dom::parser p3;
  const simdjson::dom::array c = parse_json(p3, other.out)["findings"];
  for (const auto f : c) {
    const std::string_view rule = f["rule_id"];
    CHECK(std::string_view(f["fingerprint"]) == std::string_view(finding(b, rule)["fingerprint"]));
    CHECK(std::string_view(f["history"]["status"]) == "new");
  }
}

TEST_CASE("a schema version 3 database's v2 fingerprints stay known and accepted after the move to v3", "[history]") {
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/v3.db";
  const std::string oom = launch(kOom, job(1), dir);
  REQUIRE(run_gpudiag({"analyze", "--db", db, "--pipeline", "nightly", oom}).exit_code == 0);
  REQUIRE(run_gpudiag({"history", "accept", "1", "--db", db, "--reason", "known"}).exit_code == 0);
  {
    // Back to version 3 as the previous gpudiag left it: each row under its v2 fingerprint.
    RawDb raw(db);
    raw.exec(R"sql(
      DROP VIEW unexplained_groups;
      DROP TABLE unexplained;
      DROP TABLE fact;
      DROP VIEW findings;
      DROP INDEX finding_by_fingerprint_v2;
      DROP INDEX run_by_outcome;
      ALTER TABLE run DROP COLUMN outcome;
      UPDATE finding SET fingerprint = fingerprint_v2;
      UPDATE accepted SET fingerprint = fingerprint_v2;
      ALTER TABLE finding DROP COLUMN fingerprint_v2;
      ALTER TABLE accepted DROP COLUMN fingerprint_v2;
      CREATE VIEW findings AS
        SELECT r.pipeline, r.id AS run_id, r.job_id, r.job_name, r.start_time AS run_start, r.verdict, f.rank,
               f.rule_id, f.fingerprint, f.title, f.severity, f.confidence, f.count, f.first_seen, f.last_seen,
               f.workers, f.caused_by, f.fingerprint_v1, f.identity
        FROM finding f JOIN run r ON r.id = f.run_id;
      PRAGMA user_version = 3;
    )sql");
  }
  const auto r = run_gpudiag({"analyze", "--db", db, "--pipeline", "nightly", "--deterministic", "--format", "json",
                              launch(kOom, job(2), dir)});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(RawDb(db).single("PRAGMA user_version") == kHistorySchemaVersion);
  simdjson::dom::parser parser;
  const auto f = finding(parse_json(parser, r.out)["findings"], "gpu-out-of-memory");
  CHECK(std::string_view(f["fingerprint"]) != std::string_view(f["fingerprint_v2"]));  // `identity: []`
  CHECK(std::string_view(f["history"]["status"]) == "known");
  CHECK(bool(f["history"]["accepted"]));
  CHECK(uint64_t(f["history"]["runs_affected"]) == 2);
  // The migrated rows keep their v2 fingerprint, now also in `fingerprint_v2`.
  CHECK(RawDb(db).single("SELECT count(*) FROM finding WHERE run_id = 1 AND fingerprint_v2 = fingerprint") > 0);
}

TEST_CASE("each recorded run stores its job's own outcome, history shows it beside the verdict and query selects it",
          "[history]") {
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/runs.db";
  // A failed GPU job beside a succeeded CPU job: one run per job, each with its own outcome.
  const std::string failed = "2024-04-16_00_02_11-13059449161467118330";
  const std::string succeeded = "2024-04-16_00_05_40-11543919069562757802";
  const auto r = run_gpudiag({"analyze", "--db", db, "corpus/multi-job-stockout-beside-healthy/export.json"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  RawDb raw(db);
  CHECK(raw.single("SELECT count(*) FROM run") == 2);
  CHECK(raw.single(fmt::format("SELECT count(*) FROM run WHERE job_id = '{}' AND outcome = 'failed'", failed)) == 1);
  CHECK(raw.single(fmt::format("SELECT count(*) FROM run WHERE job_id = '{}' AND outcome = 'succeeded'", succeeded)) ==
        1);
  CHECK(raw.single("SELECT count(*) FROM findings WHERE outcome = 'failed'") > 0);
  CHECK(raw.single("SELECT count(*) FROM findings f JOIN run r ON r.id = f.run_id WHERE f.outcome <> r.outcome") == 0);

  const auto q =
      run_gpudiag({"query", "--db", db, "--format", "csv", "SELECT job_id, verdict, outcome FROM run ORDER BY job_id"});
  INFO(q.err);
  CHECK(q.exit_code == 0);
  CHECK(q.out == fmt::format("job_id,verdict,outcome\r\n{},failed,failed\r\n{},ok,succeeded\r\n", failed, succeeded));

  const auto text = run_gpudiag({"history", "--db", db, "--deterministic"});
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains(" verdict  outcome   job "));
  CHECK_THAT(text.out, Catch::Matches("[\\s\\S]* failed +failed +" + failed + " [\\s\\S]*"));
  CHECK_THAT(text.out, Catch::Matches("[\\s\\S]* ok +succeeded +" + succeeded + " [\\s\\S]*"));

  const auto json = run_gpudiag({"history", "--db", db, "--deterministic", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  simdjson::dom::parser parser;
  for (const auto p : simdjson::dom::array(parse_json(parser, json.out)["pipelines"])) {
    const auto run = p["runs"].at(0);
    const std::string_view id = run["job"]["id"];
    CHECK(std::string_view(run["outcome"]) == (id == failed ? "failed" : "succeeded"));
  }
}

TEST_CASE("a schema version 4 database is migrated: its runs get the outcome 'unknown' and keep their findings",
          "[history]") {
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/v4.db";
  const std::string green = "corpus/flex-start-succeeded-with-config-warning/export.json";
  REQUIRE(run_gpudiag({"analyze", "--db", db, "--pipeline", "nightly", green}).exit_code == 0);
  int64_t findings = 0, evidence = 0;
  {
    // Back to version 4 as the previous gpudiag left it: no outcome column, the v4 findings view.
    RawDb raw(db);
    findings = raw.single("SELECT count(*) FROM finding");
    evidence = raw.single("SELECT count(*) FROM evidence");
    REQUIRE(findings > 0);
    raw.exec(R"sql(
      DROP VIEW unexplained_groups;
      DROP TABLE unexplained;
      DROP TABLE fact;
      DROP VIEW findings;
      DROP INDEX run_by_outcome;
      ALTER TABLE run DROP COLUMN outcome;
      CREATE VIEW findings AS
        SELECT r.pipeline, r.id AS run_id, r.job_id, r.job_name, r.start_time AS run_start, r.verdict, f.rank,
               f.rule_id, f.fingerprint, f.title, f.severity, f.confidence, f.count, f.first_seen, f.last_seen,
               f.workers, f.caused_by, f.fingerprint_v1, f.identity, f.fingerprint_v2
        FROM finding f JOIN run r ON r.id = f.run_id;
      PRAGMA user_version = 4;
    )sql");
  }
  {
    auto store = HistoryStore::open(db);
    REQUIRE(store.ok());
    CHECK(store->opened_version() == 4);
    auto history = store->history("nightly");
    REQUIRE(history.ok());
    REQUIRE(history->size() == 1);
    REQUIRE(history->front().runs.size() == 1);
    CHECK(history->front().runs.front().job.outcome == JobOutcome::kUnknown);
    CHECK(history->front().runs.front().findings.size() == static_cast<size_t>(findings));
    // A run recorded before the outcome was stored is never green.
    auto none = store->last_green_run("nightly");
    REQUIRE(none.ok());
    CHECK_FALSE(none->has_value());
  }
  RawDb raw(db);
  CHECK(raw.single("PRAGMA user_version") == kHistorySchemaVersion);
  CHECK(raw.single("SELECT count(*) FROM run WHERE outcome = 'unknown'") == 1);
  CHECK(raw.single("SELECT count(*) FROM finding") == findings);
  CHECK(raw.single("SELECT count(*) FROM evidence") == evidence);
  CHECK(raw.single("SELECT count(*) FROM findings WHERE outcome = 'unknown'") == findings);
  CHECK_THAT(run_gpudiag({"history", "--db", db, "--deterministic"}).out,
             Catch::Matches("[\\s\\S]*#1 +\\S+ +warning +unknown +[\\s\\S]*"));
  // The next launch of the pipeline: recorded with its outcome, its findings known from the migrated run.
  const auto next =
      run_gpudiag({"analyze", "--db", db, "--pipeline", "nightly", "--format", "json", launch(green, job(2), dir)});
  INFO(next.err);
  REQUIRE(next.exit_code == 0);
  simdjson::dom::parser parser;
  for (const auto f : simdjson::dom::array(parse_json(parser, next.out)["findings"])) {
    CHECK(std::string_view(f["history"]["status"]) == "known");
  }
  CHECK(raw.single("SELECT count(*) FROM run WHERE id = 2 AND outcome = 'succeeded'") == 1);
  auto store = HistoryStore::open(db);
  REQUIRE(store.ok());
  auto last = store->last_green_run("nightly");
  REQUIRE(last.ok());
  REQUIRE(last->has_value());
  CHECK((*last)->id == 2);
}

TEST_CASE("last_green_run: the pipeline's latest run whose job succeeded, before a given run", "[history]") {
  const std::string db = test::temp_dir() + "/green.db";
  auto store = HistoryStore::open(db);
  REQUIRE(store.ok());
  const Analysis analysed = test::analyze_text(test::read_file(test::source_dir() + "/" + kOom));
  const auto record = [&](int n, JobOutcome outcome, const std::string& pipeline = "p") {
    Analysis d = analysed;
    d.job.id = job(n);
    d.job.outcome = outcome;
    const RankedReport report = rank(d);
    auto run = store->record_run(report, pipeline);
    REQUIRE(run.ok());
    return run->id;
  };
  const auto green = [&](const std::string& pipeline, int64_t before = 0) -> int64_t {
    auto run = store->last_green_run(pipeline, before);
    REQUIRE(run.ok());
    if (!run->has_value()) return 0;
    CHECK((*run)->job.outcome == JobOutcome::kSucceeded);
    CHECK((*run)->pipeline == pipeline);
    return (*run)->id;
  };
  CHECK(green("p") == 0);  // no run yet
  REQUIRE(record(1, JobOutcome::kSucceeded) == 1);
  REQUIRE(record(2, JobOutcome::kFailed) == 2);
  REQUIRE(record(3, JobOutcome::kSucceeded) == 3);
  REQUIRE(record(4, JobOutcome::kUnknown) == 4);
  REQUIRE(record(5, JobOutcome::kCancelled) == 5);
  REQUIRE(record(6, JobOutcome::kSucceeded, "other") == 6);
  REQUIRE(record(7, JobOutcome::kDrained) == 7);

  CHECK(green("p") == 3);  // not 6: another pipeline's; not 4, 5, 7: unknown, cancelled, drained
  CHECK(green("p", 100) == 3);
  CHECK(green("p", 3) == 1);  // strictly before
  CHECK(green("p", 2) == 1);
  CHECK(green("p", 1) == 0);
  CHECK(green("other") == 6);
  CHECK(green("nope") == 0);
  auto run = store->last_green_run("p");
  REQUIRE(run.ok());
  REQUIRE(run->has_value());
  CHECK((*run)->job.id == job(3));
  CHECK((*run)->findings.size() == 1);  // with its findings, for comparing with a failed run
  CHECK((*run)->findings.front().rule_id == "gpu-out-of-memory");

  // The same job recorded again (a retried CI step) keeps its run's id and takes the new outcome.
  REQUIRE(record(3, JobOutcome::kFailed) == 3);
  CHECK(green("p") == 1);
  REQUIRE(record(7, JobOutcome::kSucceeded) == 7);
  CHECK(green("p") == 7);
  CHECK(green("p", 7) == 1);
}
