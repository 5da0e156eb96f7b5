// Input truthfulness (issue 14): no report pretends a job is OK on input gpudiag could not read,
// an export without a Dataflow job is `empty` and fails a gate (exit 2) unless --allow-empty, and
// --job files are checked: their shape, with a position, and their job id against the export.
#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <filesystem>

#include "test_support.h"

using namespace gpudiag;
using test::run_gpudiag;

namespace {

const std::string kHealthy = "corpus/healthy-gpu-t4-tensorflow/export.json";
// The job of corpus/healthy-gpu-t4-tensorflow.
std::string healthy_job_id() {
  const auto r = run_gpudiag({"analyze", "--format", "json", kHealthy});
  const size_t at = r.out.find("\"id\": \"");
  REQUIRE(at != std::string::npos);
  const size_t start = at + 7;
  return r.out.substr(start, r.out.find('"', start) - start);
}

bool says_ok(const test::CommandResult& r) {
  return r.out.find("OK —") != std::string::npos || r.err.find("OK —") != std::string::npos ||
         r.out.find("\"verdict\": \"ok\"") != std::string::npos || r.out.find("gate: passed") != std::string::npos;
}

}  // namespace

TEST_CASE("a missing input: exit 2, no report on stdout or in -o files, never OK", "[cli]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/kept.json", "earlier report\n");
  for (const std::string format : {"text", "json", "github", "md", "sarif", "junit", "html"}) {
    INFO(format);
    const auto r = run_gpudiag({"gate", "--format", format, dir + "/no-such-export.json"});
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_FALSE(says_ok(r));
    CHECK_THAT(r.err, Catch::Contains("no-such-export.json") && Catch::Contains("no report was written"));
  }
  const auto report = run_gpudiag(
      {"report", dir + "/no-such-export.json", "-o", dir + "/new.html", "-o", dir + "/kept.json", "-o", "-"});
  CHECK(report.exit_code == 2);
  CHECK(report.out.empty());
  CHECK_FALSE(std::filesystem::exists(dir + "/new.html"));
  CHECK(test::read_file(dir + "/kept.json") == "earlier report\n");  // not replaced
  // With --format github the runner still gets an annotation: on stderr, which it reads too.
  const auto gh = run_gpudiag({"gate", "--format", "github", dir + "/no-such-export.json"});
  CHECK_THAT(gh.err, Catch::Contains("::error file=" + dir + "/no-such-export.json,title=gpudiag%3A input not read::"));
  const auto analyze = run_gpudiag({"analyze", dir + "/no-such-export.json"});
  CHECK(analyze.exit_code == 2);
  CHECK(analyze.out.empty());
}

TEST_CASE("an empty export is `empty`, not OK, and a threshold makes it exit 2 unless allow-empty", "[cli]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/export.json", "[]\n");
  const std::string empty = dir + "/export.json";

  const auto gate = run_gpudiag({"gate", empty});
  CHECK(gate.exit_code == 2);
  CHECK_FALSE(says_ok(gate));
  CHECK_THAT(gate.out, Catch::Contains("verdict: EMPTY — the export holds no log entries"));
  CHECK_THAT(gate.out, Catch::Contains("--freshness"));
  CHECK_THAT(gate.out, Catch::Contains("gate: refused"));
  CHECK_THAT(gate.err, Catch::Contains("--allow-empty"));

  CHECK(run_gpudiag({"gate", "--allow-empty", empty}).exit_code == 0);
  CHECK(run_gpudiag({"analyze", "--fail-on", "warning", empty}).exit_code == 2);
  CHECK(run_gpudiag({"analyze", "--fail-on", "warning", "--allow-empty", empty}).exit_code == 0);
  const auto json = run_gpudiag({"analyze", "--format", "json", empty});  // no threshold: exit 0, still `empty`
  CHECK(json.exit_code == 0);
  CHECK_THAT(json.out, Catch::Contains("\"verdict\": \"empty\""));

  for (const std::string format : {"json", "github", "md", "sarif", "junit", "html"}) {
    INFO(format);
    const auto r = run_gpudiag({"gate", "--format", format, empty});
    CHECK(r.exit_code == 2);
    CHECK_FALSE(says_ok(r));
  }
  CHECK_THAT(run_gpudiag({"gate", "--format", "github", empty}).out,
             Catch::Contains("::error title=gpudiag%3A empty export::EMPTY — the export holds no log entries"));
  CHECK_THAT(run_gpudiag({"gate", "--format", "sarif", empty}).out,
             Catch::Contains("\"level\": \"warning\",\n              \"message\": {\n                \"text\": "
                             "\"the input holds no entry of a Dataflow job\""));
  const auto junit = run_gpudiag({"gate", "--format", "junit", empty});
  CHECK_THAT(junit.out, Catch::Contains("<testcase name=\"input\" classname=\"input\" time=\"0\">\n      <failure "));
  CHECK_THAT(junit.out, Catch::Contains("type=\"empty-export\""));

  // Entries, but none of a Dataflow job (a filter that selected another resource).
  test::write_file(dir + "/gce.json",
                   R"([{"timestamp":"2024-01-01T00:00:00Z","logName":"projects/p/logs/syslog",)"
                   R"("resource":{"type":"gce_instance","labels":{"instance_id":"1"}},"textPayload":"boot"}])");
  const auto other = run_gpudiag({"gate", dir + "/gce.json"});
  CHECK(other.exit_code == 2);
  CHECK_THAT(other.out, Catch::Contains("verdict: EMPTY — none of the 1 entries belongs to a Dataflow job"));
}

TEST_CASE("a corrupt gzip never passes the gate", "[cli]") {
  // Damaged after its header: nothing decodes to an entry, so no report; stderr says why.
  const std::string damaged = "tests/fixtures/bad-input/corrupt.ndjson.gz";
  for (const std::string format : {"text", "json", "github", "junit", "sarif"}) {
    INFO(format);
    const auto r = run_gpudiag({"gate", "--format", format, damaged});
    CHECK(r.exit_code == 2);
    CHECK_FALSE(says_ok(r));
  }
  const auto text = run_gpudiag({"gate", damaged});
  CHECK(text.out.empty());
  CHECK_THAT(text.err, Catch::Contains("gzip data is corrupt") && Catch::Contains("no report was written"));
  // Damaged so that what it decodes to is not JSON: no report at all.
  const std::string dir = test::temp_dir();
  std::string bytes = test::gzip(std::string(2000, ' '));
  for (size_t i = 12; i + 8 < bytes.size(); ++i) bytes[i] = static_cast<char>(0xFF);
  test::write_file(dir + "/export.json.gz", bytes);
  const auto garbage = run_gpudiag({"gate", dir + "/export.json.gz"});
  CHECK(garbage.exit_code == 2);
  CHECK(garbage.out.empty());
  CHECK_THAT(garbage.err, Catch::Contains("export.json.gz") && Catch::Contains("no report was written"));
}

TEST_CASE("an input not read beside one that was: a report of what was read that says so, exit 2", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string missing = dir + "/missing.json";
  const auto json = run_gpudiag({"report", "--deterministic", kHealthy, missing, "-o", dir + "/r.json", "-o",
                                 dir + "/r.md", "-o", dir + "/r.html", "-o", dir + "/r.xml", "-o", dir + "/r.sarif"});
  CHECK(json.exit_code == 2);
  CHECK_THAT(json.err, Catch::Contains("missing.json"));
  const std::string report = test::read_file(dir + "/r.json");
  CHECK_THAT(report, Catch::Contains("\"verdict\": \"incomplete\""));
  CHECK_THAT(report, Catch::Contains("\"summary\": \"INCOMPLETE — 1 of 2 inputs could not be read"));
  CHECK_THAT(report, Catch::Contains("\"input_errors\": [\n    {\n      \"path\": \"missing.json\""));
  CHECK_THAT(test::read_file(dir + "/r.md"), Catch::Contains("> [!CAUTION]\n> **1 input not read in full**"));
  CHECK_THAT(test::read_file(dir + "/r.html"), Catch::Contains("<div class=\"unread\" role=\"alert\">"));
  CHECK_THAT(test::read_file(dir + "/r.xml"), Catch::Contains("<error message=\"1 input not read in full"));
  CHECK_THAT(test::read_file(dir + "/r.sarif"), Catch::Contains("\"executionSuccessful\": false"));

  const auto gh = run_gpudiag({"gate", "--deterministic", "--format", "github", kHealthy, missing});
  CHECK(gh.exit_code == 2);
  CHECK_THAT(gh.out, Catch::Contains("::error file=missing.json,title=gpudiag%3A input not read::"));
  CHECK_THAT(gh.out, Catch::Contains("gate refused: 1 of 2 inputs could not be read"));
  const auto text = run_gpudiag({"gate", "--deterministic", kHealthy, missing});
  CHECK_THAT(text.out, Catch::Contains("  input not read in full: missing.json: "));
  CHECK_FALSE(says_ok(text));
}

TEST_CASE("skipped entries: a ::warning at their line and a failure on JUnit's input testcase", "[cli]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/export.ndjson",
                   test::log_entry_line("2024-01-01T00:00:00Z", "worker", "started") + "\n{\"broken\": }\n" +
                       test::log_entry_line("2024-01-01T00:00:01Z", "worker", "Processing") + "\n");
  CHECK(run_gpudiag({"analyze", "--deterministic", dir + "/export.ndjson"}).exit_code == 0);
  const auto annotations = run_gpudiag({"gate", "--deterministic", "--format", "github", dir + "/export.ndjson"});
  CHECK(annotations.exit_code == 0);
  CHECK_THAT(annotations.out, Catch::Contains("::warning file=export.ndjson,line=3,title=gpudiag%3A entry skipped::"));
  const auto junit = run_gpudiag({"gate", "--deterministic", "--format", "junit", dir + "/export.ndjson"});
  CHECK_THAT(junit.out, Catch::Contains("<failure message=\"1 problem in the input (1 entry skipped)\" "
                                        "type=\"input-problems\">export.ndjson:3: skipped: "));
}

TEST_CASE("job files: a job the export does not hold is exit 2 naming both ids", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string exported = healthy_job_id();
  test::write_file(dir + "/job.json", R"({"id": "2099-01-01_00_00_00-42", "name": "someone-else",
  "currentState": "JOB_STATE_DONE", "type": "JOB_TYPE_BATCH"})");
  const auto r = run_gpudiag({"analyze", "--job", dir + "/job.json", kHealthy});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::Contains("job-mismatch"));
  CHECK_THAT(r.err, Catch::Contains("2099-01-01_00_00_00-42") && Catch::Contains(exported));

  // The exported job's own description is accepted.
  test::write_file(dir + "/own.json", fmt::format(R"({{"id": "{}", "currentState": "JOB_STATE_DONE"}})", exported));
  CHECK(run_gpudiag({"analyze", "--job", dir + "/own.json", kHealthy}).exit_code == 0);
  // An export without any job id cannot be checked: accepted, with a note.
  test::write_file(
      dir + "/nameless.ndjson",
      R"({"timestamp":"2024-01-01T00:00:00Z","logName":"projects/p/logs/dataflow.googleapis.com%2Fworker",)"
      R"("jsonPayload":{"message":"started"}})"
      "\n");
  const auto note = run_gpudiag({"analyze", "--job", dir + "/job.json", dir + "/nameless.ndjson"});
  CHECK(note.exit_code == 0);
  CHECK_THAT(note.err, Catch::Contains("note: the export holds no job id"));
}

TEST_CASE("job files: shapes that are not a job are refused with line:column and a hint", "[cli]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/foo.json", "{\"foo\":1}\n");
  const auto foo = run_gpudiag({"analyze", "--job", dir + "/foo.json", kHealthy});
  CHECK(foo.exit_code == 2);
  CHECK(foo.out.empty());
  CHECK_THAT(foo.err, Catch::Contains("foo.json:1:1"));
  CHECK_THAT(foo.err, Catch::Contains("not a Dataflow job description: it has no job `id` (its keys: foo)"));
  CHECK_THAT(foo.err, Catch::Contains("gcloud dataflow jobs describe JOB --full --format=json"));

  test::write_file(dir + "/string.json", "  \"2024-01-01_00_00_00-1\"\n");
  CHECK_THAT(run_gpudiag({"analyze", "--job", dir + "/string.json", kHealthy}).err,
             Catch::Contains("string.json:1:3") && Catch::Contains("the file is a string"));
  test::write_file(dir + "/numbers.json", "[\n  1,\n  2\n]\n");
  CHECK_THAT(run_gpudiag({"analyze", "--job", dir + "/numbers.json", kHealthy}).err,
             Catch::Contains("numbers.json:2:3") && Catch::Contains("element 1 of the array is a number"));

  test::write_file(dir + "/malformed.json", "{\n  \"id\": \"x\",\n  \"name\": ,\n}\n");
  const auto malformed = run_gpudiag({"analyze", "--job", dir + "/malformed.json", kHealthy});
  CHECK(malformed.exit_code == 2);
  CHECK_THAT(malformed.err, Catch::Contains("malformed.json:3:11") && Catch::Contains("expected a JSON value"));
  CHECK_THAT(malformed.err, Catch::Contains("  \"name\": ,"));  // the line, for the caret
}

TEST_CASE("job files: the array `gcloud dataflow jobs list` prints is accepted, and --job repeats", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string exported = healthy_job_id();
  test::write_file(dir + "/jobs.json", fmt::format(R"([
  {{"id": "2099-01-01_00_00_00-42", "name": "other", "currentState": "JOB_STATE_RUNNING", "type": "JOB_TYPE_STREAMING"}},
  {{"id": "{}", "name": "healthy", "currentState": "JOB_STATE_DONE", "type": "JOB_TYPE_BATCH"}}
])",
                                                   exported));
  const auto listed = run_gpudiag({"analyze", "--job", dir + "/jobs.json", kHealthy});
  CHECK(listed.exit_code == 0);
  CHECK_THAT(listed.err, Catch::Contains("1 of the jobs the --job list describes is not in the export"));

  test::write_file(dir + "/others.json", R"([{"id": "2099-01-01_00_00_00-42", "name": "other"}])");
  const auto none = run_gpudiag({"analyze", "--job", dir + "/others.json", kHealthy});
  CHECK(none.exit_code == 2);
  CHECK_THAT(none.err, Catch::Contains("none of them in the export") && Catch::Contains(exported));

  // Repeated: each file is checked, and the inputs after a --job stay inputs.
  test::write_file(dir + "/own.json", fmt::format(R"({{"id": "{}", "name": "healthy"}})", exported));
  CHECK(run_gpudiag({"analyze", "--job", dir + "/own.json", "--job", dir + "/jobs.json", kHealthy}).exit_code == 0);
  CHECK(run_gpudiag({"analyze", "--job", dir + "/own.json", "--job", dir + "/others.json", kHealthy}).exit_code == 2);
}

TEST_CASE("job descriptions: parsed with their place, checked against the export's job ids", "[unit]") {
  const auto list = parse_job_descriptions(R"([
  {"id": "a", "name": "first", "currentState": "JOB_STATE_FAILED", "projectId": "p", "location": "us-east1"},
  {"id": "b", "name": "second", "currentState": "JOB_STATE_DONE"}
])",
                                           "jobs.json");
  REQUIRE(list.ok());
  REQUIRE(list->size() == 2);
  CHECK(((*list)[0].id == "a" && (*list)[0].current_state == "JOB_STATE_FAILED" && (*list)[0].line == 2 &&
         (*list)[0].column == 3 && (*list)[0].project == "p" && (*list)[0].region == "us-east1" && (*list)[0].in_list));
  CHECK(((*list)[1].id == "b" && (*list)[1].line == 3));
  CHECK_FALSE(job_whose_facts_apply(*list).has_value());  // two jobs: whose facts would be ambiguous

  const auto one = parse_job_descriptions(R"({"id": "b", "type": "JOB_TYPE_BATCH"})", "job.json");
  REQUIRE(one.ok());
  CHECK_FALSE(one->front().in_list);
  std::vector<JobDescription> both = *one;
  both.insert(both.end(), list->begin(), list->end());
  CHECK(job_whose_facts_apply(both) == std::optional<size_t>{0});  // the describe file's job; the list is checked

  Analysis d;
  d.job.id = "b";
  CHECK(check_job_descriptions(d, *one).value().empty());
  CHECK(check_job_descriptions(d, *list).value() ==
        "1 of the jobs the --job list describes is not in the export (ignored)");
  d.job.id = "c";
  const auto mismatch = check_job_descriptions(d, *one);
  REQUIRE_FALSE(mismatch.ok());
  CHECK(mismatch.error().code == "job-mismatch");
  CHECK(to_string(mismatch.error()) == "job.json:1:1: the --job file describes job b, but the export holds job c");
  d.job.id.clear();
  CHECK_THAT(check_job_descriptions(d, *one).value(), Catch::StartsWith("the export holds no job id"));

  const auto bad = parse_job_descriptions("[{\"id\": \"a\", \"name\": \"x\"},\n \"b\"]", "jobs.json");
  REQUIRE_FALSE(bad.ok());
  CHECK(to_string(bad.error()) ==
        "jobs.json:2:2: element 2 of the array is a string, not a Dataflow job description (a JSON object)");
  CHECK(bad.error().help.find("gcloud dataflow jobs describe JOB --full --format=json") != std::string::npos);
}
