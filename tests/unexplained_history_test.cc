// Run history for unexplained error groups (issue 15, "History" and "What changed since the last
// green run"): each run's groups and facts are stored (schema v6); a group is new, recurring or
// noise; noise is folded away; gate --new-only trips on new groups only; a failed run lists the facts
// that changed since the pipeline's last green run. Every run is a real corpus export (their sources
// are cited in tools/corpus/cases/*.py) recorded through the CLI into a real SQLite file.
#include <fmt/format.h>
#include <simdjson.h>
#include <sqlite3.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "gpudiag/history.h"
#include "json_support.h"
#include "test_support.h"

using namespace gpudiag;
using test::parse_json;
using test::run_gpudiag;

namespace {

// Green: TensorFlow's cuBLAS/cuFFT registration lines and pip's resolver warning at ERROR, job succeeded.
const std::string kNoisyGreen = "healthy-with-error-noise";
// Green: a CPU batch job on Beam 2.56.0, n1-standard-2 (its facts differ from the red runs').
const std::string kCpuGreen = "healthy-cpu-batch";
// Red: a user DoFn's ValueError (scikit-learn's check_array) fails the job.
const std::string kValueError = "user-dofn-valueerror-python";
// Red: a chained grpc _InactiveRpcError from a user DoFn on Beam 2.58.0, n1-standard-4.
const std::string kChained = "chained-exception-python";

// Each case's own job id, replaced by the launch's.
const std::string kCaseJobIds[] = {
    "2024-06-18_04_00_07-15182816939607119742", "2024-05-01_18_00_03-19616800021034156808",
    "2024-05-13_20_10_12-17096802295837905429", "2024-09-03_14_44_50-2173014321915272424"};

std::string job(int n) { return fmt::format("2024-07-{:02}_04_00_00-20000000000000000{:02}", n, n); }

// A corpus export as another launch of the pipeline: the case's job id replaced by `job_id`.
std::string launch(const std::string& corpus_case, const std::string& job_id, const std::string& dir) {
  std::string text = test::read_file(test::source_dir() + "/corpus/" + corpus_case + "/export.json");
  for (const auto& old_id : kCaseJobIds) {
    for (size_t at = text.find(old_id); at != std::string::npos; at = text.find(old_id, at + job_id.size())) {
      text.replace(at, old_id.size(), job_id);
    }
  }
  const std::string path = fmt::format("{}/{}-{}.json", dir, job_id, corpus_case);
  test::write_file(path, text);
  return path;
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

// The group of `report` (JSON) whose headline starts with `headline`.
simdjson::dom::element group(simdjson::dom::element report, std::string_view headline) {
  for (const auto g : simdjson::dom::array(report["unexplained"])) {
    if (std::string_view(g["headline"]).starts_with(headline)) return g;
  }
  FAIL("no unexplained group " << headline);
  return {};
}

std::string_view change(simdjson::dom::element report, std::string_view fact, std::string_view side) {
  for (const auto c : simdjson::dom::array(report["changes_since_green"]["changes"])) {
    if (std::string_view(c["fact"]) == fact) return std::string_view(c[side]);
  }
  return "(unchanged)";
}

}  // namespace

TEST_CASE("ten runs: green runs' benign error groups are noise and only the red run's new group is new",
          "[history][unexplained]") {
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/runs.db";
  const auto gate = [&](int n, const std::vector<std::string>& cases, std::vector<std::string> extra = {"--new-only"}) {
    std::vector<std::string> args = {"gate", "--db", db, "--pipeline", "embed-nightly", "--deterministic"};
    args.insert(args.end(), extra.begin(), extra.end());
    for (const auto& c : cases) args.push_back(launch(c, job(n), dir));
    return run_gpudiag(args);
  };
  simdjson::dom::parser parser;

  // Runs 1–7 green with the same benign groups, run 8 green on another setup.
  for (int n = 1; n <= 7; ++n) {
    const auto r = gate(n, {kNoisyGreen}, {"--new-only", "--format", "json"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const auto report = parse_json(parser, r.out);
    for (const auto g : simdjson::dom::array(report["unexplained"])) {
      CHECK(std::string_view(g["novelty"]) == (n == 1 ? "no-history" : "noise"));
    }
    CHECK(report["changes_since_green"].error() == simdjson::NO_SUCH_FIELD);  // green runs show none
  }
  REQUIRE(gate(8, {kCpuGreen}).exit_code == 0);
  CHECK(single_int(db, "SELECT count(*) FROM unexplained") == 7);  // 1 group (pip's conflict line) × 7 runs
  CHECK(single_int(db, "SELECT count(*) FROM fact WHERE run_id = 8 AND name = 'beam_version_worker'") == 1);

  // Run 9, red: a ValueError no earlier run had trips gate --new-only.
  const auto ninth = gate(9, {kValueError}, {"--new-only", "--format", "json"});
  INFO(ninth.out << ninth.err);
  CHECK(ninth.exit_code == 1);
  const auto report9 = parse_json(parser, ninth.out);
  CHECK(std::string_view(group(report9, "ValueError")["novelty"]) == "new");

  // Run 10, red: the benign groups again and a chained grpc error never seen before.
  const auto tenth = gate(10, {kNoisyGreen, kChained}, {"--new-only", "--format", "json"});
  INFO(tenth.out << tenth.err);
  CHECK(tenth.exit_code == 1);
  const auto report = parse_json(parser, tenth.out);
  simdjson::dom::array groups = report["unexplained"];
  REQUIRE(groups.size() == 2);
  const auto fresh = groups.at(0);
  CHECK(std::string_view(fresh["headline"])
            .starts_with("status = StatusCode.PERMISSION_DENIED — raised as grpc._channel._InactiveRpcError "
                         "(publish_alerts.py:41 in process"));
  CHECK(std::string_view(fresh["novelty"]) == "new");
  CHECK(std::string_view(fresh["severity"]) == "error");
  CHECK(int64_t(fresh["rank"]) == 1);
  for (size_t i = 1; i < groups.size(); ++i) {  // the benign ones: folded last, shown as info
    CHECK(std::string_view(groups.at(i)["novelty"]) == "noise");
    CHECK(std::string_view(groups.at(i)["severity"]) == "info");
    CHECK(int64_t(groups.at(i)["rank"]) == static_cast<int64_t>(i) + 1);
  }
  // The engine calls them errors (they came before the failure); only the history folds them.
  CHECK(single_int(db, "SELECT count(*) FROM unexplained WHERE run_id = 10 AND severity = 'error'") == 2);
  CHECK_THAT(std::string(std::string_view(report["summary"])),
             Catch::StartsWith("FAILED — most likely cause: status = StatusCode.PERMISSION_DENIED — raised as "
                               "grpc._channel._InactiveRpcError (publish_alerts.py:41 in process"));
  // What changed since run 8, the last green one.
  const auto changes = report["changes_since_green"];
  CHECK(int64_t(changes["run"]) == 8);
  CHECK(std::string_view(changes["job_id"]) == job(8));
  CHECK(change(report, "beam_version_worker", "before") == "2.56.0");
  CHECK(change(report, "beam_version_worker", "after") == "2.58.0");
  CHECK(change(report, "machine_type", "before") == "n1-standard-2");
  CHECK(change(report, "machine_type", "after") != "n1-standard-2");
  CHECK(change(report, "job_id", "after") == "(unchanged)");  // per-run facts are left out

  // The text report: the changes near the top, the gate naming the new group only.
  const auto text = gate(10, {kNoisyGreen, kChained});
  CHECK(text.exit_code == 1);
  CHECK_THAT(text.out, Catch::Contains(fmt::format("  since the last green run (#8, job {}", job(8))));
  CHECK_THAT(text.out, Catch::Contains("    beam_version_worker: 2.56.0 → 2.58.0\n"));
  CHECK_THAT(text.out,
             Catch::Contains(fmt::format("1 unexplained error group ({})", std::string_view(fresh["fingerprint"]))));
  CHECK_THAT(text.out, Catch::Contains("1 unexplained error group not new (--new-only)"));
  CHECK_THAT(text.out, Catch::Contains("history: noise: green runs of this pipeline have it too"));
  CHECK(text.out.find("since the last green run") < text.out.find("Errors no rule explains"));

  const auto markdown = gate(10, {kNoisyGreen, kChained}, {"--new-only", "--format", "md"});
  CHECK_THAT(markdown.out, Catch::Contains(fmt::format("**Since the last green run** (#8, job `{}`):", job(8))));
  CHECK_THAT(markdown.out, Catch::Contains("| beam\\_version\\_worker | 2.56.0 | 2.58.0 |"));

  // Run 11, red: the chained error again (so far only in a failed run) is recurring, and with its
  // findings known too, gate --new-only passes; without --new-only it trips.
  const auto eleventh = gate(11, {kChained}, {"--new-only", "--format", "json"});
  INFO(eleventh.out << eleventh.err);
  const auto report11 = parse_json(parser, eleventh.out);
  CHECK(std::string_view(group(report11, "status = StatusCode.PERMISSION_DENIED")["novelty"]) == "recurring");
  CHECK(std::string_view(group(report11, "status = StatusCode.PERMISSION_DENIED")["severity"]) == "error");
  CHECK(eleventh.exit_code == 0);
  CHECK(gate(11, {kChained}, {}).exit_code == 1);
}

TEST_CASE("apply_novelty folds noise away: last, info, never the headline nor the gate", "[unit][unexplained]") {
  const Analysis d = test::analyze_case("corpus/" + kValueError);
  RankedReport report = rank(d);
  REQUIRE(report.unexplained.size() == 1);
  REQUIRE(report.unexplained.front().group->severity == Impact::kError);
  CHECK_THAT(report.verdict_line, Catch::StartsWith("FAILED — most likely cause: ValueError"));
  CHECK(counts_for_gate(report.unexplained.front(), Impact::kError));

  apply_novelty(report, {Novelty::kNoise}, false);
  const RankedUnexplained& u = report.unexplained.front();
  CHECK(u.novelty == Novelty::kNoise);
  CHECK(u.severity() == Impact::kInfo);
  CHECK(u.symptoms.empty());  // nothing folds under noise
  CHECK_FALSE(counts_for_gate(u, Impact::kError));
  CHECK_THAT(report.verdict_line, !Catch::Contains("ValueError"));
  CHECK(report.verdict == Verdict::kFailed);  // the job still failed

  apply_novelty(report, {Novelty::kRecurring}, true);
  CHECK(report.unexplained.front().gate_ignores);
  CHECK_FALSE(counts_for_gate(report.unexplained.front(), Impact::kError));
  CHECK_THAT(report.verdict_line, Catch::StartsWith("FAILED — most likely cause: ValueError"));
  apply_novelty(report, {Novelty::kNew}, true);
  CHECK(counts_for_gate(report.unexplained.front(), Impact::kError));
  apply_novelty(report, {Novelty::kNoHistory}, true);  // no earlier run: everything is new
  CHECK(counts_for_gate(report.unexplained.front(), Impact::kError));
}

TEST_CASE("fact_changes lists added removed and changed facts but not per-run ones", "[unit][unexplained]") {
  const auto changes = fact_changes(
      {{"beam_version_worker", "2.56.0"}, {"job_id", "a"}, {"zone", "us-central1-b"}, {"gpu_type", "nvidia-tesla-t4"}},
      {{"beam_version_worker", "2.58.0"},
       {"job_id", "b"},
       {"zone", "us-central1-b"},
       {"machine_type", "n1-standard-4"}});
  REQUIRE(changes.size() == 3);
  CHECK((changes[0].fact == "beam_version_worker" && changes[0].before == "2.56.0" && changes[0].after == "2.58.0"));
  CHECK((changes[1].fact == "gpu_type" && changes[1].before == "nvidia-tesla-t4" && changes[1].after.empty()));
  CHECK((changes[2].fact == "machine_type" && changes[2].before.empty() && changes[2].after == "n1-standard-4"));
}

TEST_CASE("a schema version 5 database is migrated: its runs stored no groups so the next run has no history",
          "[history][unexplained]") {
  const std::string dir = test::temp_dir();
  const std::string db = dir + "/v5.db";
  REQUIRE(run_gpudiag({"analyze", "--db", db, "--pipeline", "p", launch(kNoisyGreen, job(1), dir)}).exit_code == 0);
  {
    // Back to version 5 as the previous gpudiag left it: no unexplained or fact table.
    sqlite3* handle = nullptr;
    REQUIRE(sqlite3_open(db.c_str(), &handle) == SQLITE_OK);
    REQUIRE(
        sqlite3_exec(handle,
                     "DROP VIEW unexplained_groups; DROP TABLE unexplained; DROP TABLE fact; PRAGMA user_version = 5;",
                     nullptr, nullptr, nullptr) == SQLITE_OK);
    sqlite3_close(handle);
  }
  {
    auto store = HistoryStore::open(db);
    REQUIRE(store.ok());
    CHECK(store->opened_version() == 5);
  }
  CHECK(single_int(db, "PRAGMA user_version") == kHistorySchemaVersion);
  CHECK(single_int(db, "SELECT count(*) FROM run") == 1);
  CHECK(single_int(db, "SELECT count(*) FROM unexplained_groups") == 0);
  const auto next =
      run_gpudiag({"analyze", "--db", db, "--pipeline", "p", "--format", "json", launch(kNoisyGreen, job(2), dir)});
  INFO(next.err);
  REQUIRE(next.exit_code == 0);
  simdjson::dom::parser parser;
  simdjson::dom::array groups = parse_json(parser, next.out)["unexplained"];
  REQUIRE(groups.size() == 1);
  for (const auto g : groups) CHECK(std::string_view(g["novelty"]) == "no-history");
  CHECK(single_int(db, "SELECT count(*) FROM unexplained_groups WHERE run_id = 2") == 1);
  // The run after that knows them from run 2.
  const auto third =
      run_gpudiag({"analyze", "--db", db, "--pipeline", "p", "--format", "json", launch(kNoisyGreen, job(3), dir)});
  for (const auto g : simdjson::dom::array(parse_json(parser, third.out)["unexplained"])) {
    CHECK(std::string_view(g["novelty"]) == "noise");
  }
}
