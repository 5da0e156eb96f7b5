// Summary rows of `gpudiag sql`'s result (docs/sql.md, "Summary rows"): ingest reads them as a job's
// aggregates over the whole queried table, and the engine judges the job's whole-job checks by them.
#include <algorithm>
#include <catch2/catch.hpp>

#include "gpudiag/analyzer.h"
#include "gpudiag/ingest.h"
#include "json_support.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

struct Read {
  InputSummary input;
  std::vector<KeptRecord> records;
  std::vector<JobSummary> summaries;
};

Read read_rows(const std::string& text) {
  const std::string path = test::temp_dir() + "/summary-rows.json";
  test::write_file(path, text);
  Read out;
  StreamSummary s = read_exports({path}, {}, keeping_sink, [&](RecordBatch&& batch) {
    auto& kept = static_cast<KeptBatch&>(*batch.output);
    for (auto& [entry, record] : kept.records) out.records.push_back(std::move(record));
    for (auto& summary : kept.summaries) out.summaries.push_back(std::move(summary));
  });
  REQUIRE(s.inputs.at(0).ok());
  out.input = *s.inputs[0];
  return out;
}

Timestamp at(std::string_view rfc3339) { return *parse_rfc3339(rfc3339); }

// A row of the query's result with every column null but gpudiag_summary, as bq prints it (the
// JSON column's text as a string).
std::string summary_row(const std::string& column) {
  return R"({"gpudiag_summary":)" + column +
         R"(,"insert_id":null,"json_payload":null,"labels":null,"log_name":null,"resource":null,)"
         R"("severity":null,"text_payload":null,"timestamp":null})";
}

const char* kJob = "2024-01-01_00_00_00-1";

// What TO_JSON_STRING writes for a job of three workers, two SDK processes on one of them.
const std::string kSummary =
    R"({\"v\":1,\"job_id\":\"2024-01-01_00_00_00-1\",\"job_name\":\"clip\",\"project\":\"p\",\"region\":\"us-central1\",)"
    R"(\"entries\":\"28389\",\"returned\":2,\"capped\":0,\"first\":\"2024-01-01T10:00:00Z\",\"last\":\"2024-01-01 11:30:00 UTC\",)"
    R"(\"logs\":[{\"log\":\"job-message\",\"entries\":40,\"first\":\"2024-01-01T10:00:00Z\",\"last\":\"2024-01-01T11:30:00Z\"},)"
    R"({\"log\":\"worker\",\"entries\":28349,\"first\":\"2024-01-01T10:04:00Z\",\"last\":\"2024-01-01T11:29:00Z\"}],)"
    R"(\"workers\":[{\"worker\":\"w-1\",\"entries\":\"10000\",\"sdk_workers\":[\"sdk-0-0\",\"sdk-0-1\"]},)"
    R"({\"worker\":\"w-2\",\"entries\":9000,\"sdk_workers\":[\"sdk-0-0\"]},{\"worker\":\"w-3\",\"entries\":9349,\"sdk_workers\":[]}],)"
    R"(\"workers_total\":3})";

}  // namespace

TEST_CASE("summary rows: read as a job's aggregates and counted as analysed", "[unit]") {
  const auto rows =
      read_rows("[" + summary_row("\"" + kSummary + "\"") + ",\n" +
                R"({"gpudiag_summary":null,"log_name":"projects/p/logs/dataflow.googleapis.com%2Fworker",)"
                R"("text_payload":"x","timestamp":"2024-01-01 10:05:00"}])");
  CHECK(rows.input.entries == 2);
  CHECK(rows.input.analysed == 2);
  CHECK(rows.input.skipped == 0);
  CHECK(rows.input.problems.empty());
  CHECK(rows.records.size() == 1);
  CHECK(rows.input.summary_rows.rows == 1);
  CHECK(rows.input.summary_rows.source_entries == 28389);
  CHECK(rows.input.summary_rows.returned == 2);
  REQUIRE(rows.summaries.size() == 1);
  const JobSummary& s = rows.summaries[0];
  CHECK(s.job_id == kJob);
  CHECK(s.job_name == "clip");
  CHECK(s.first == at("2024-01-01T10:00:00Z"));
  CHECK(s.last == at("2024-01-01T11:30:00Z"));
  REQUIRE(s.logs.size() == 2);
  CHECK(s.logs[1].log == "worker");
  CHECK(s.logs[1].entries == 28349);
  REQUIRE(s.workers.size() == 3);
  CHECK(s.workers[0].entries == 10000);  // an INT64 string
  CHECK(s.workers[0].sdk_workers == std::vector<std::string>{"sdk-0-0", "sdk-0-1"});
  CHECK(s.workers_total == 3);
  CHECK(s.where.line == 1);
}

TEST_CASE("summary rows: an object column reads as its string form does", "[unit]") {
  std::string object = kSummary;
  object.erase(std::remove(object.begin(), object.end(), '\\'), object.end());
  const auto rows = read_rows("[" + summary_row(object) + "]");
  REQUIRE(rows.summaries.size() == 1);
  CHECK(rows.summaries[0].entries == 28389);
  CHECK(rows.summaries[0].workers.size() == 3);
}

TEST_CASE("summary rows: another version, or no JSON, is skipped with why", "[unit]") {
  const auto rows = read_rows("[" + summary_row(R"("{\"v\":2,\"entries\":3}")") + ",\n" + summary_row(R"("not json")") +
                              ",\n" + summary_row(R"("{\"entries\":3}")") + "]");
  CHECK(rows.summaries.empty());
  CHECK(rows.input.entries == 3);
  CHECK(rows.input.skipped == 3);
  REQUIRE(rows.input.problems.size() == 3);
  CHECK(rows.input.problems[0].message == "a summary row of version 2; this gpudiag reads version 1; skipped");
  CHECK(rows.input.problems[0].line == 1);
  CHECK(rows.input.problems[1].message.rfind("gpudiag_summary holds a string that is not JSON", 0) == 0);
  CHECK(rows.input.problems[1].line == 2);
  CHECK(rows.input.problems[2].message == "a summary row without its version (\"v\"); skipped");
}

TEST_CASE("summary rows: a field of the wrong type is a note, the rest is read", "[unit]") {
  const auto rows = read_rows("[" + summary_row(R"("{\"v\":1,\"job_id\":\"j\",\"entries\":-4,\"logs\":7}")") + "]");
  REQUIRE(rows.summaries.size() == 1);
  CHECK(rows.summaries[0].job_id == "j");
  CHECK(rows.summaries[0].entries == 0);
  REQUIRE(rows.input.problems.size() == 2);
  CHECK(rows.input.problems[0].message == "summary row: entries is not a count; ignored");
  CHECK(rows.input.problems[1].message == "summary row: logs is not a list; ignored");
  CHECK_FALSE(rows.input.problems[0].skipped_entry);
}

TEST_CASE("summary rows: the job's span, logs and workers are the table's, not the rows returned", "[unit]") {
  // The query returned one worker entry; the summary says what the whole table held.
  const std::string rows =
      "[" + summary_row("\"" + kSummary + "\"") + ",\n" +
      R"({"gpudiag_summary":null,"log_name":"projects/p/logs/dataflow.googleapis.com%2Fworker","resource":{"type":"dataflow_step",)"
      R"("labels":"{\"job_id\":\"2024-01-01_00_00_00-1\",\"job_name\":\"clip\",\"project_id\":\"p\",\"region\":\"us-central1\"}"},)"
      R"("labels":"{\"compute.googleapis.com/resource_name\":\"w-1\"}","text_payload":"x","timestamp":"2024-01-01 10:05:00"}])";
  const Analysis d = test::analyze_text(rows, "rows.json");
  CHECK(d.start == at("2024-01-01T10:00:00Z"));
  CHECK(d.end == at("2024-01-01T11:30:00Z"));
  CHECK(std::count(d.logs_seen.begin(), d.logs_seen.end(), "job-message") == 1);
  const auto fact = [&](std::string_view name) {
    auto it = std::find_if(d.facts.begin(), d.facts.end(), [&](const JobFact& f) { return f.name == name; });
    return it == d.facts.end() ? std::string("(none)") : it->value;
  };
  CHECK(fact("workers_seen") == "3");
  CHECK(fact("sdk_processes_per_worker") == "2");
  CHECK(d.job.id == kJob);
  CHECK(d.job.entries == 1);  // the entries read of the job: the summary row is none
  CHECK(d.job.source.source_entries == 28389);
  CHECK(d.job.source.rows == 1);
}

TEST_CASE("summary rows: the reports say what the source held", "[cli]") {
  const std::string path = test::temp_dir() + "/summary-report.json";
  test::write_file(path, "[" + summary_row("\"" + kSummary + "\"") + "]");
  const auto json = test::run_gpudiag({"analyze", "--deterministic", "--format", "json", path});
  simdjson::dom::parser parser;
  const auto report = test::parse_json(parser, json.out);
  for (auto source :
       {report["totals"]["source"], report["inputs"].at(0)["source"], report["jobs"].at(0)["totals"]["source"]}) {
    CHECK(uint64_t(source["summary_rows"]) == 1);
    CHECK(uint64_t(source["entries"]) == 28389);
    CHECK(uint64_t(source["returned"]) == 2);
    CHECK(uint64_t(source["capped"]) == 0);
  }
  const auto text = test::run_gpudiag({"analyze", "--deterministic", path});
  CHECK(text.out.find("the query's source: 28389 entries of 1 job, 2 returned") != std::string::npos);
}

TEST_CASE("summary rows: a fact's sources_total counts the entries the query left out", "[unit]") {
  // The query returns an extractor's first entry of the job and counts its others in fact_entries.
  std::string summary = kSummary;
  summary.insert(summary.size() - 1, R"(,\"fact_entries\":{\"sdk-image\":\"40\",\"no-such-extractor\":3})");
  const std::string worker_entry =
      R"({"gpudiag_summary":null,"log_name":"projects/p/logs/dataflow.googleapis.com%2Fworker","resource":{"type":"dataflow_step",)"
      R"("labels":"{\"job_id\":\"2024-01-01_00_00_00-1\"}"},"severity":"INFO",)"
      R"("text_payload":"Default Python SDK image for environment is apache/beam_python3.9_sdk:2.42.0",)"
      R"("timestamp":"2024-01-01 10:05:00"})";
  const auto rows = read_rows("[" + summary_row("\"" + summary + "\"") + ",\n" + worker_entry + "]");
  REQUIRE(rows.summaries.size() == 1);
  CHECK(rows.summaries[0].fact_entries ==
        std::vector<std::pair<std::string, uint64_t>>{{"sdk-image", 40}, {"no-such-extractor", 3}});
  const auto analysed = [&](const std::string& column) {
    const Analysis d = test::analyze_text("[" + summary_row(column) + ",\n" + worker_entry + "]", "rows.json");
    auto it =
        std::find_if(d.facts.begin(), d.facts.end(), [](const JobFact& f) { return f.name == "beam_version_worker"; });
    REQUIRE(it != d.facts.end());
    CHECK(it->value == "2.42.0");
    CHECK(it->sources.size() == 1);
    return it->sources_total;
  };
  CHECK(analysed("\"" + summary + "\"") == 40);
  CHECK(analysed("\"" + kSummary + "\"") == 1);  // without the counts: the entries returned
}
