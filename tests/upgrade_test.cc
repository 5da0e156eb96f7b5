// Upgrading from gpudiag 0.1: a baseline and a run history it wrote (frozen in
// tests/fixtures/upgrade-0.1, see its README) still suppress and recognise the same findings after
// fingerprints moved to XXH3-64 (docs/upgrading.md, "Stable fingerprints").
#include <fmt/format.h>
#include <simdjson.h>
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>

#include "gpudiag/history.h"
#include "gpudiag/stable_hash.h"
#include "json_support.h"
#include "judge/finding_identity.h"
#include "test_support.h"

using namespace gpudiag;
using test::run_gpudiag;

namespace {

const std::string kFixtures = "tests/fixtures/upgrade-0.1";
const std::string kOomThenFailed = "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json";
const std::string kOom = "corpus/gpu-oom-pytorch-runinference/export.json";

// The v1 fingerprints gpudiag 0.1 gave the findings of kOomThenFailed.
const std::vector<std::pair<std::string, std::string>> kFingerprintsV1 = {
    {"gpu-out-of-memory", "gpu-out-of-memory/8f0828455c766f42"},
    {"workflow-failed", "workflow-failed/24ac5fd99a204d1f"},
    {"work-item-failed", "work-item-failed/a283f63e2779b264"},
    {"sdk-harness-disconnected", "sdk-harness-disconnected/1ae280685d1a5956"},
    {"worker-lost-contact", "worker-lost-contact/eab7837471b3f65d"},
};

using test::finding;
using test::parse_json;

// The frozen database, copied: opening it for writing migrates it.
std::string copy_of_history() {
  const std::string db = test::temp_dir() + "/history.db";
  std::filesystem::copy_file(test::source_dir() + "/" + kFixtures + "/history.db", db);
  return db;
}

int64_t single_int(const std::string& db, const std::string& sql) {
  sqlite3* handle = nullptr;
  REQUIRE(sqlite3_open_v2(db.c_str(), &handle, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
  sqlite3_stmt* s = nullptr;
  REQUIRE(sqlite3_prepare_v2(handle, sql.c_str(), -1, &s, nullptr) == SQLITE_OK);
  const int64_t v = sqlite3_step(s) == SQLITE_ROW ? sqlite3_column_int64(s, 0) : -1;
  sqlite3_finalize(s);
  sqlite3_close(handle);
  return v;
}

}  // namespace

TEST_CASE("a fingerprint is XXH3-64 of the identity byte string docs/json-schema.md defines", "[unit][upgrade]") {
  const Analysis d = test::analyze_case("corpus/gpu-oom-then-sdk-disconnected-work-item-failed");
  std::map<std::string, const Finding*> by_rule;
  for (const auto& f : d.findings) by_rule[f.rule_id] = &f;
  const Finding& oom = *by_rule.at("gpu-out-of-memory");
  CHECK(oom.identity == "gpu-out-of-memory");                         // `identity: []`: the requested size is per run
  CHECK(oom.fingerprint_v2 == "gpu-out-of-memory/86bed2dcef36d419");  // of "gpu-out-of-memory|requested=#.# MiB"
  CHECK(oom.legacy_fingerprint == "gpu-out-of-memory/8f0828455c766f42");
  const Finding& work_item = *by_rule.at("work-item-failed");  // `identity: [attempts]`
  CHECK(work_item.identity == "work-item-failed|attempts=#");
  CHECK(by_rule.at("worker-lost-contact")->identity == "worker-lost-contact");  // captures nothing
  for (const auto& f : d.findings) {
    INFO(f.rule_id);
    CHECK(f.fingerprint == fmt::format("{}/{:016x}", f.rule_id, stable_hash(f.identity)));
    // v2 and v1: every capture, digits blurred, in name order.
    std::string v2 = f.rule_id;
    for (const auto& [name, values] : f.captures) {
      for (const auto& v : values) v2 += "|" + name + "=" + detail::blur_digits(v);
    }
    CHECK(f.fingerprint_v2 == fmt::format("{}/{:016x}", f.rule_id, stable_hash(v2)));
    CHECK(f.legacy_fingerprint == fmt::format("{}/{:016x}", f.rule_id, legacy_std_hash(v2)));
  }
}

TEST_CASE("today's findings keep the v1 fingerprints gpudiag 0.1 gave them", "[cli][upgrade]") {
  const auto r = run_gpudiag({"analyze", "--deterministic", "--format", "json", kOomThenFailed});
  REQUIRE(r.exit_code == 0);
  simdjson::dom::parser parser;
  const simdjson::dom::array findings = parse_json(parser, r.out)["findings"];
  REQUIRE(findings.size() == kFingerprintsV1.size());
  for (const auto& [rule, v1] : kFingerprintsV1) {
    INFO(rule);
    CHECK(std::string_view(finding(findings, rule)["fingerprint_v1"]) == v1);
    CHECK(std::string_view(finding(findings, rule)["fingerprint"]) != v1);
  }
}

TEST_CASE("a baseline written by gpudiag 0.1 still suppresses the same findings", "[cli][upgrade]") {
  const std::string baseline = kFixtures + "/baseline.yaml";
  const auto r = run_gpudiag({"gate", "--baseline", baseline, "--format", "json", kOomThenFailed});
  INFO(r.err);
  CHECK(r.exit_code == 0);  // as with 0.1: every error finding is accepted
  simdjson::dom::parser parser;
  const simdjson::dom::element report = parse_json(parser, r.out);
  CHECK(uint64_t(report["baseline"]["suppressed"]) == 3);
  CHECK(uint64_t(report["baseline"]["stale"]) == 0);
  for (simdjson::dom::element e : simdjson::dom::array(report["baseline"]["entries"])) {
    CHECK(std::string_view(e["state"]) == "suppressing");
    const std::string_view current = e["current_fingerprint"];
    CHECK(current == std::string_view(finding(report["findings"], std::string_view(e["rule_id"]))["fingerprint"]));
  }
  for (const auto& [rule, v1] : kFingerprintsV1) {
    INFO(rule);
    const simdjson::dom::element b = finding(report["findings"], rule)["baseline"];
    const bool accepted = rule == "gpu-out-of-memory" || rule == "workflow-failed" || rule == "work-item-failed";
    CHECK(b.is_null() == !accepted);
    if (accepted) CHECK(bool(b["suppressed"]));
  }
  // A note, not an error, with the fingerprints to write instead.
  CHECK_THAT(r.err, Catch::StartsWith("gpudiag: note: " + baseline + " uses old (v1 or v2) fingerprints"));
  CHECK_THAT(r.err, Catch::Contains("  line 4: gpu-out-of-memory/8f0828455c766f42 -> gpu-out-of-memory/"));
  CHECK_THAT(r.err, Catch::Contains("  line 11: work-item-failed/a283f63e2779b264 -> work-item-failed/"));
  CHECK(run_gpudiag({"gate", "--baseline", baseline, "--format", "sarif", kOomThenFailed}).exit_code == 0);
}

TEST_CASE("a history database written by gpudiag 0.1 is migrated and knows the same findings", "[history][upgrade]") {
  const std::string db = copy_of_history();
  REQUIRE(single_int(db, "PRAGMA user_version") == 2);

  // The first `gate --new-only` after the upgrade: every finding is known, the gate passes.
  const auto gate = run_gpudiag({"gate", "--new-only", "--db", db, "--pipeline", "nightly", kOomThenFailed});
  INFO(gate.out << gate.err);
  CHECK(gate.exit_code == 0);
  CHECK_THAT(gate.out, Catch::Contains("of pipeline nightly (3 runs recorded): 0 new findings, 5 known"));
  CHECK_THAT(gate.out, Catch::Contains("known: in 3 of 3 runs, last seen in run #2"));
  CHECK(single_int(db, "PRAGMA user_version") == kHistorySchemaVersion);
  // Recorded from now on: identity and both fingerprints; the old rows keep their v1 fingerprint.
  const int64_t run = single_int(db, "SELECT max(id) FROM run");
  CHECK(single_int(db, fmt::format("SELECT count(*) FROM finding WHERE run_id = {} AND identity LIKE rule_id || '%' "
                                   "AND fingerprint_v1 IN (SELECT fingerprint FROM finding WHERE run_id = 2)",
                                   run)) == 5);
  CHECK(single_int(db,
                   "SELECT count(*) FROM finding WHERE run_id <= 2 AND identity IS NULL AND "
                   "fingerprint_v1 = fingerprint") == 10);
  // gpudiag 0.1 did not know the job's own outcome: its runs are 'unknown', the new one is not.
  CHECK(single_int(db, "SELECT count(*) FROM run WHERE id <= 2 AND outcome = 'unknown'") == 2);
  CHECK(single_int(db, fmt::format("SELECT count(*) FROM run WHERE id = {} AND outcome <> 'unknown'", run)) == 1);

  // Recurrence continues across the upgrade: one finding each, in 3 of 3 runs, not a new one beside it.
  const auto history = run_gpudiag({"history", "--db", db, "--pipeline", "nightly", "--format", "json"});
  REQUIRE(history.exit_code == 0);
  simdjson::dom::parser parser;
  const simdjson::dom::array findings = parse_json(parser, history.out)["pipelines"].at(0)["findings"];
  CHECK(findings.size() == kFingerprintsV1.size());
  for (const auto& [rule, v1] : kFingerprintsV1) {
    INFO(rule);
    const simdjson::dom::element f = finding(findings, rule);
    CHECK(std::string_view(f["fingerprint"]) != v1);  // shown by today's fingerprint
    CHECK(uint64_t(f["history"]["runs_affected"]) == 3);
    CHECK(uint64_t(f["history"]["streak"]) == 3);
    CHECK(int64_t(f["history"]["first_seen"]["run"]) == 1);
  }

  // A finding the pipeline accepted under 0.1 (its runs since pruned) is still accepted.
  const auto accepted = run_gpudiag({"gate", "--new-only", "--db", db, "--pipeline", "accepted", kOom});
  INFO(accepted.out << accepted.err);
  CHECK(accepted.exit_code == 0);
  CHECK_THAT(accepted.out, Catch::Contains("known: in 1 of 1 runs, streak 1, accepted"));

  // Without --new-only the same findings still trip the gate: it is the history that knows them.
  CHECK(run_gpudiag({"gate", "--db", db, "--pipeline", "nightly", kOomThenFailed}).exit_code == 1);
}

TEST_CASE("a database from a newer gpudiag is still refused after the upgrade", "[history][upgrade]") {
  const std::string db = copy_of_history();
  {
    sqlite3* handle = nullptr;
    REQUIRE(sqlite3_open(db.c_str(), &handle) == SQLITE_OK);
    REQUIRE(sqlite3_exec(handle, fmt::format("PRAGMA user_version = {}", kHistorySchemaVersion + 1).c_str(), nullptr,
                         nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(handle);
  }
  const auto r = run_gpudiag({"gate", "--new-only", "--db", db, "--pipeline", "nightly", kOomThenFailed});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("error[db-newer]"));
}

TEST_CASE("query on a 0.1 database (schema 2) reads it as it is, says so, and leaves it unchanged",
          "[history][upgrade]") {
  const std::string db = copy_of_history();
  const std::string before = test::read_file(db);
  const auto r = run_gpudiag({"query", "--db", db, "--format", "csv", "SELECT count(*) AS runs FROM run"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == "runs\r\n2\r\n");  // CSV rows end in CRLF (RFC 4180)
  CHECK_THAT(r.err, Catch::Contains("has history schema 2, older than this gpudiag's " +
                                    std::to_string(kHistorySchemaVersion)));
  CHECK_THAT(r.err, Catch::Contains("does not upgrade it"));
  CHECK(test::read_file(db) == before);
  // Once a run is recorded, the database is current and the note is gone.
  REQUIRE(run_gpudiag({"analyze", "--db", db, "--pipeline", "nightly", kOomThenFailed}).exit_code == 0);
  CHECK(run_gpudiag({"query", "--db", db, "SELECT 1"}).err.empty());
}
