// ingest reads what `bq query --format=json|prettyjson` prints (docs/formats.md, "BigQuery results"):
// BigQuery's timestamp forms, JSON columns printed as strings, a sink's label columns, INT64 strings,
// summary rows; and the rows of tests/fixtures/bq/ diagnose as the corpus export they were made from.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "gpudiag/entry_labels.h"
#include "gpudiag/ingest.h"
#include "json_support.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

Timestamp at(std::string_view rfc3339) {
  auto t = parse_rfc3339(rfc3339);
  REQUIRE(t.has_value());
  return *t;
}

struct Rows {
  InputSummary summary;
  std::vector<KeptRecord> records;
};

Rows read_rows(const std::string& text, const std::string& name = "rows.json") {
  const std::string path = test::temp_dir() + "/" + name;
  test::write_file(path, text);
  Rows out;
  auto summary = read_export(path, [&](const LogRecord& r) { out.records.emplace_back(r); });
  REQUIRE(summary.ok());
  out.summary = *summary;
  return out;
}

// One analytics row as `bq query --format=json` prints it: keys sorted, JSON columns as strings.
const char* kAnalyticsRow =
    R"({"gpudiag_summary":null,"insert_id":"1fqbbwpf5cmbb6","json_payload":"{\"exception\":\"Traceback (most recent call last):\\n  File \\\"x.py\\\", line 1\",\"logger\":\"root:sdk_worker.py:_execute\",\"message\":\"Error processing instruction process_bundle-1.\",\"portability_worker_id\":\"sdk-0-0\",\"worker\":\"w-1\"}",)"
    R"("labels":"{\"compute.googleapis.com/resource_name\":\"clip-embeddings-harness-q2rv\",\"dataflow.googleapis.com/job_id\":\"2022-09-06_14_08_19-75\"}",)"
    R"("log_name":"projects/p/logs/dataflow.googleapis.com%2Fworker",)"
    R"("resource":{"labels":"{\"job_name\":\"clip\",\"project_id\":\"p\",\"region\":\"us-central1\",\"step_id\":\"s01\"}","type":"dataflow_step"},)"
    R"("severity":null,"severity_number":"500","text_payload":null,"timestamp":"2022-09-06 21:14:02"})";

}  // namespace

TEST_CASE("bq timestamps: the forms bq and BigQuery print are read as UTC", "[unit]") {
  const Timestamp whole = at("2022-10-28T20:08:29Z");
  CHECK(parse_bigquery_timestamp("2022-10-28 20:08:29") == whole);  // bq query --format=json
  CHECK(parse_bigquery_timestamp("2022-10-28 20:08:29 UTC") == whole);
  CHECK(parse_bigquery_timestamp("2022-10-28 20:08:29.567718 UTC") == at("2022-10-28T20:08:29.567718Z"));
  CHECK(parse_bigquery_timestamp("2022-10-28 20:08:29.567718+00") == at("2022-10-28T20:08:29.567718Z"));
  CHECK(parse_bigquery_timestamp("2022-10-28 22:08:29+02:00") == whole);
  CHECK(parse_bigquery_timestamp("2022-10-28T20:08:29") == whole);
  // The REST API's seconds since the epoch, exactly (a double would lose the microseconds).
  CHECK(parse_bigquery_timestamp("1.666987709567718E9") == at("2022-10-28T20:08:29.567718Z"));
  CHECK(parse_bigquery_timestamp("1666987709.567718") == at("2022-10-28T20:08:29.567718Z"));
  CHECK(parse_bigquery_timestamp("1666987709") == whole);
  CHECK(parse_bigquery_timestamp("1666987709567718") == at("2022-10-28T20:08:29.567718Z"));  // useInt64Timestamp
  CHECK(parse_bigquery_timestamp("-1.5") == -1'500'000'000);
}

TEST_CASE("bq timestamps: bad ones are refused", "[unit]") {
  for (const char* bad : {"", "2022-13-28 20:08:29", "2022-10-28 25:08:29", "2022-10-28 20:08:29 PST",
                          "2022-10-28 20:08:29.", "2022-10-28", "<date out of range for display>", "1.2.3", "1e",
                          "16669877095677", "12abc", "2022-02-30 00:00:00"}) {
    INFO(bad);
    CHECK_FALSE(parse_bigquery_timestamp(bad).has_value());
  }
}

TEST_CASE("bq rows: a bad timestamp is a note with the file and line and the entry is kept", "[unit]") {
  const auto rows = read_rows(
      "[\n"
      R"({"log_name":"projects/p/logs/dataflow.googleapis.com%2Fworker","text_payload":"a","timestamp":"2022-10-28 20:08:29"},)"
      "\n"
      R"({"log_name":"projects/p/logs/dataflow.googleapis.com%2Fworker","text_payload":"b","timestamp":"<date out of range for display>"})"
      "\n]\n");
  REQUIRE(rows.records.size() == 2);
  CHECK(rows.records[0]->timestamp == at("2022-10-28T20:08:29Z"));
  CHECK(rows.records[1]->timestamp == kNoTime);
  REQUIRE(rows.summary.problems.size() == 1);
  CHECK(rows.summary.problems[0].line == 3);
  CHECK_FALSE(rows.summary.problems[0].skipped_entry);
  CHECK(rows.summary.problems[0].message ==
        R"(timestamp "<date out of range for display>" is neither RFC 3339 nor a BigQuery TIMESTAMP; ignored)");
}

TEST_CASE("bq rows: JSON columns printed as strings are read as the objects they hold", "[unit]") {
  const auto rows = read_rows(fmt::format("[{}]\n", kAnalyticsRow));
  REQUIRE(rows.records.size() == 1);
  const LogRecord& r = rows.records[0].record();
  CHECK(r.message == "Error processing instruction process_bundle-1.");
  CHECK(r.exception == "Traceback (most recent call last):\n  File \"x.py\", line 1");
  CHECK(r.logger == "root:sdk_worker.py:_execute");
  CHECK(r.sdk_worker == "sdk-0-0");
  CHECK(r.worker == "clip-embeddings-harness-q2rv");  // the label wins over jsonPayload.worker
  CHECK(r.job_id == "2022-09-06_14_08_19-75");
  CHECK(r.job_name == "clip");
  CHECK(r.project == "p");
  CHECK(r.step == "s01");
  CHECK(r.resource_type == "dataflow_step");
  CHECK(r.severity == Severity::kError);  // from severity_number, an INT64 string
  CHECK(r.timestamp == at("2022-09-06T21:14:02Z"));
  CHECK(r.label("compute.googleapis.com/resource_name") == "clip-embeddings-harness-q2rv");
  CHECK(rows.summary.problems.empty());
}

TEST_CASE("bq rows: only a string that starts with a brace is parsed again", "[unit]") {
  const auto rows = read_rows(
      R"([{"json_payload":"plain text, not an object","log_name":"projects/p/logs/dataflow.googleapis.com%2Fworker","timestamp":"2022-09-06 21:14:02"},)"
      R"({"json_payload":"{broken","log_name":"projects/p/logs/dataflow.googleapis.com%2Fworker","timestamp":"2022-09-06 21:14:03"},)"
      R"({"jsonPayload":{"message":"{\"not\": \"parsed\"}"},"logName":"projects/p/logs/dataflow.googleapis.com%2Fworker","timestamp":"2022-09-06T21:14:04Z"}])");
  REQUIRE(rows.records.size() == 3);
  CHECK(rows.records[0]->message == "plain text, not an object");
  CHECK(rows.records[1]->message == "{broken");
  CHECK(rows.records[2]->message == R"({"not": "parsed"})");  // a message field stays text
  REQUIRE(rows.summary.problems.size() == 1);
  CHECK(rows.summary.problems[0].message == "json_payload is a string that starts with { but holds no JSON object");
}

TEST_CASE("bq rows: a sink's label columns are read as the labels they stand for", "[unit]") {
  const auto rows = read_rows(
      R"([{"insertId":"a1","jsonPayload":{"exception":null,"job":null,"message":"Refreshing due to a 401","worker":null},)"
      R"("labels":{"compute_googleapis_com_resource_name":"beamapp-harness-rpvn","dataflow_googleapis_com_job_id":"2023-01-01_00_00_00-9",)"
      R"("dataflow_googleapis_com_job_name":"beamapp","dataflow_googleapis_com_region":"europe-west4"},)"
      R"("logName":"projects/p/logs/dataflow.googleapis.com%2Fworker","resource":{"labels":{"job_id":null,"step_id":null},"type":"dataflow_step"},)"
      R"("severity":"WARNING","textPayload":null,"timestamp":"2023-01-01 10:00:00"}])");
  REQUIRE(rows.records.size() == 1);
  const LogRecord& r = rows.records[0].record();
  CHECK(r.message == "Refreshing due to a 401");  // a NULL textPayload after it says nothing
  CHECK(r.worker == "beamapp-harness-rpvn");
  CHECK(r.job_id == "2023-01-01_00_00_00-9");
  CHECK(r.job_name == "beamapp");
  CHECK(r.region == "europe-west4");
  CHECK(r.severity == Severity::kWarning);
  CHECK(r.label("dataflow.googleapis.com/job_id") == "2023-01-01_00_00_00-9");
  CHECK(rows.summary.problems.empty());  // NULL columns are no oddity
}

TEST_CASE("bq rows: the label table names each label's sink column", "[unit]") {
  for (const auto& f : entry_label_fields()) CHECK(f.sink_key == sink_label_key(f.key));
  CHECK(sink_label_key("logging.googleapis.com/instrumentation_source") ==
        "logging_googleapis_com_instrumentation_source");
  CHECK(sink_label_key("_leading.x") == "leading_x");
}

TEST_CASE("bq rows: severity names win over severity_number and INT64 strings are numbers", "[unit]") {
  const auto rows =
      read_rows(R"([{"log_name":"l","severity":"INFO","severity_number":"500","text_payload":"a"},)"
                R"({"log_name":"l","severity":"400","text_payload":"b"},)"
                R"({"log_name":"l","severity_number":600,"text_payload":"c"},)"
                R"({"log_name":"l","severity_number":"12x","text_payload":"d"},)"
                R"({"log_name":"l","text_payload":"e","timestamp":{"nanos":"5","seconds":"1666987709"}}])");
  REQUIRE(rows.records.size() == 5);
  CHECK(rows.records[0]->severity == Severity::kInfo);
  CHECK(rows.records[1]->severity == Severity::kWarning);
  CHECK(rows.records[2]->severity == Severity::kCritical);
  CHECK(rows.records[3]->severity == Severity::kDefault);
  CHECK(rows.records[4]->timestamp == at("2022-10-28T20:08:29Z") + 5);
  REQUIRE(rows.summary.problems.size() == 1);
  CHECK(rows.summary.problems[0].message == "severity_number is not a LogSeverity number; ignored");
}

TEST_CASE("bq rows: entries of a one-line array are told apart by their byte offset", "[unit]") {
  // Two entries on line 1 (bq --format=json): same line, distinct places.
  const auto rows = read_rows(
      R"([{"log_name":"l","text_payload":"a","timestamp":"2023-01-01 10:00:00"},{"log_name":"l","text_payload":"b","timestamp":"2023-01-01 10:00:00"}])");
  REQUIRE(rows.records.size() == 2);
  CHECK(rows.records[0]->where.line == rows.records[1]->where.line);
  CHECK(rows.records[0]->where.offset < rows.records[1]->where.offset);
}

namespace {

// What a diagnosis is, for comparing one read from bq rows with one read from the export: evidence
// places and times may differ (one line; whole seconds), the diagnosis may not.
std::string diagnosis_of(const std::string& report_json) {
  simdjson::dom::parser parser;
  const auto report = test::parse_json(parser, report_json);
  std::string d =
      fmt::format("verdict {}\nsummary {}\n", simdjson::minify(report["verdict"]), simdjson::minify(report["summary"]));
  for (auto j : simdjson::dom::array(report["jobs"])) {
    d += fmt::format("job {} {} {}\n", simdjson::minify(j["id"]), simdjson::minify(j["outcome"]),
                     simdjson::minify(j["verdict"]));
  }
  for (auto f : simdjson::dom::array(report["findings"])) {
    d += fmt::format("finding {} x{} confidence {} captures {}\n", simdjson::minify(f["rule_id"]),
                     simdjson::minify(f["count"]), simdjson::minify(f["confidence"]), simdjson::minify(f["captures"]));
  }
  for (auto i : simdjson::dom::array(report["inconclusive"]))
    d += "inconclusive " + simdjson::minify(i["rule_id"]) + "\n";
  for (auto u : simdjson::dom::array(report["unexplained"]))
    d += "unexplained " + simdjson::minify(u["fingerprint"]) + "\n";
  return d;
}

uint64_t entries_of(const std::string& report_json) {
  simdjson::dom::parser parser;
  return uint64_t(test::parse_json(parser, report_json)["inputs"].at(0)["entries"]);
}

size_t problems_of(const std::string& report_json) {
  simdjson::dom::parser parser;
  return simdjson::dom::array(test::parse_json(parser, report_json)["inputs"].at(0)["problems"]).size();
}

}  // namespace

namespace {
const char* kFixtureExport = "corpus/gpu-oom-pytorch-runinference/export.json";
}  // namespace

TEST_CASE("bq rows: each fixture shape diagnoses as the export it was made from", "[cli]") {
  const auto want = test::run_gpudiag({"analyze", "--deterministic", "--format", "json", kFixtureExport});
  REQUIRE(want.exit_code != 2);
  const auto expected = diagnosis_of(want.out);
  REQUIRE(expected.find("finding \"gpu-out-of-memory\"") != std::string::npos);  // a real diagnosis
  for (const char* fixture : {"analytics.json", "sink.json", "analytics-view.prettyjson.json", "sink-table.json.gz"}) {
    INFO(fixture);
    const auto got = test::run_gpudiag(
        {"analyze", "--deterministic", "--format", "json", std::string("tests/fixtures/bq/") + fixture});
    CHECK(got.exit_code == want.exit_code);
    CHECK(diagnosis_of(got.out) == expected);
    CHECK(entries_of(got.out) == entries_of(want.out));
    CHECK(problems_of(got.out) == 0);
  }
}

TEST_CASE("bq rows: piped on stdin they diagnose as the export", "[cli]") {
  const auto want = test::run_gpudiag({"analyze", "--deterministic", "--format", "json", kFixtureExport});
  const auto got = test::run_gpudiag({"analyze", "--deterministic", "--format", "json", "-"},
                                     "tests/fixtures/bq/sink-table.json.gz");
  CHECK(got.exit_code == want.exit_code);
  CHECK(diagnosis_of(got.out) == diagnosis_of(want.out));
}
