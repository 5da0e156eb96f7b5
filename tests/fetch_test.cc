// gpudiag fetch's pure parts: the job's filter (the one export-command prints), the times it is
// written with, the job file's name beside an export, and the note a job file carries. The gcloud
// runs themselves are tested with the real gcloud in tests/fetch_gcloud.py.
#include "gpudiag/fetch.h"

#include <catch2/catch.hpp>

#include "gpudiag/job_file.h"

using namespace gpudiag;

TEST_CASE("fetch: the job's filter names its resource and its window", "[unit][fetch]") {
  CHECK(job_log_filter("2022-11-28_14_05_40-1", "2022-11-28T21:50:40Z", "2022-11-28T22:39:25Z") ==
        R"(resource.type="dataflow_step" AND resource.labels.job_id="2022-11-28_14_05_40-1" AND )"
        R"(timestamp>="2022-11-28T21:50:40Z" AND timestamp<="2022-11-28T22:39:25Z")");
  CHECK(job_log_filter("J", "2022-11-28T21:50:40Z", "") ==
        R"(resource.type="dataflow_step" AND resource.labels.job_id="J" AND timestamp>="2022-11-28T21:50:40Z")");
}

TEST_CASE("fetch: RFC 3339 times as Dataflow writes them", "[unit][fetch]") {
  const auto t = parse_rfc3339_seconds("2022-11-28T22:05:40.123456Z");
  REQUIRE(t);
  CHECK(rfc3339_utc(*t) == "2022-11-28T22:05:40Z");
  CHECK(rfc3339_utc(*parse_rfc3339_seconds("2022-11-28T14:05:40-08:00")) == "2022-11-28T22:05:40Z");
  CHECK(rfc3339_utc(*parse_rfc3339_seconds("2024-02-29T23:59:59Z")) == "2024-02-29T23:59:59Z");
  CHECK_FALSE(parse_rfc3339_seconds("2022-11-28 22:05:40Z"));
  CHECK_FALSE(parse_rfc3339_seconds("2023-02-29T00:00:00Z"));
  CHECK_FALSE(parse_rfc3339_seconds("2022-11-28T22:05:40"));
  CHECK_FALSE(parse_rfc3339_seconds(""));
}

TEST_CASE("fetch: the job file beside an export", "[unit][fetch]") {
  CHECK(job_path_for("logs.json") == "logs.job.json");
  CHECK(job_path_for("out/logs.json.gz") == "out/logs.job.json");
  CHECK(job_path_for("shard.ndjson") == "shard.job.json");
  CHECK(job_path_for("export") == "export.job.json");
}

TEST_CASE("a job file's gpudiagFetch note says whether its export came whole", "[unit][fetch]") {
  const auto whole = parse_job_descriptions(
      R"({"id": "J", "currentState": "JOB_STATE_FAILED", "gpudiagFetch": {"complete": true, "export": "x.json"}})",
      "x.job.json");
  REQUIRE(whole);
  CHECK(whole->front().fetch_complete == true);
  CHECK(whole->front().fetch_export == "x.json");
  CHECK(whole->front().terminal());
  const auto part = parse_job_descriptions(
      R"({"id": "J", "currentState": "JOB_STATE_RUNNING", "gpudiagFetch": {"complete": false, "incompleteReason": "429"}})",
      "x.job.json");
  REQUIRE(part);
  CHECK(part->front().fetch_complete == false);
  CHECK(part->front().fetch_incomplete_reason == "429");
  CHECK_FALSE(part->front().terminal());
  const auto plain = parse_job_descriptions(R"({"id": "J", "currentState": "JOB_STATE_DONE"})", "job.json");
  REQUIRE(plain);
  CHECK_FALSE(plain->front().fetch_complete.has_value());
}
