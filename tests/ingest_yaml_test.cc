// ingest reads what users have on disk besides JSON exports: gcloud's default YAML output of
// `gcloud logging read` read as the same entries; a gcloud error, an HTML page or a CSV download
// saved in an export's place refused with one diagnostic that says what it is and what to do.
#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "gpudiag/ingest.h"
#include "json_support.h"
#include "test_support.h"
#include "yaml_entry.h"

using namespace gpudiag;

namespace {

// Two entries as `gcloud logging read --format=json` prints them (keys as the API sends them)…
const char* kJson = R"([
  {
    "insertId": "s=f8b7;i=182",
    "jsonPayload": {
      "exception": "Traceback (most recent call last):\n  File \"/app/infer.py\", line 41, in process\n    out = model(batch)\nRuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB",
      "job": "2022-10-28_13_07_17-12646045757829274894",
      "logger": "root:sdk_worker.py:_execute",
      "message": "Error processing instruction process_bundle-7. Original traceback is",
      "portability_worker_id": "sdk-0-0",
      "thread": "43:140101",
      "worker": "app-10281307-71o6-harness-cqks"
    },
    "labels": {
      "compute.googleapis.com/resource_name": "app-10281307-71o6-harness-cqks",
      "dataflow.googleapis.com/job_id": "2022-10-28_13_07_17-12646045757829274894",
      "dataflow.googleapis.com/job_name": "app",
      "dataflow.googleapis.com/region": "us-central1"
    },
    "logName": "projects/p/logs/dataflow.googleapis.com%2Fworker",
    "receiveTimestamp": "2022-10-28T20:08:31.104921532Z",
    "resource": {
      "labels": {
        "job_id": "2022-10-28_13_07_17-12646045757829274894",
        "job_name": "app",
        "project_id": "823514981911",
        "region": "us-central1",
        "step_id": ""
      },
      "type": "dataflow_step"
    },
    "severity": "ERROR",
    "timestamp": "2022-10-28T20:08:29.567718Z"
  },
  {
    "insertId": "1lfy432c42x",
    "logName": "projects/p/logs/dataflow.googleapis.com%2Fjob-message",
    "resource": {
      "labels": {
        "job_id": "2022-10-28_13_07_17-12646045757829274894",
        "project_id": "823514981911",
        "region": "us-central1",
        "step_id": ""
      },
      "type": "dataflow_step"
    },
    "severity": "ERROR",
    "textPayload": "Workflow failed. Causes: S01:Read+Infer failed., The job failed because a work item has failed 4 times. \n\n        Root cause: Timed out waiting for an update from the worker.\n        Worker ID: app-10281307-71o6-harness-cqks",
    "timestamp": "2022-10-28T20:27:14.996634424Z"
  }
]
)";

// …and as it prints them without --format=json (tools/gcloud-yaml writes this form): a `---` line
// before each document, keys sorted, multi-line texts as literal blocks (the trailing space after
// "4 times." kept), strings that YAML would read as another type quoted.
const char* kYaml = R"(---
insertId: s=f8b7;i=182
jsonPayload:
  exception: |-
    Traceback (most recent call last):
      File "/app/infer.py", line 41, in process
        out = model(batch)
    RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB
  job: 2022-10-28_13_07_17-12646045757829274894
  logger: root:sdk_worker.py:_execute
  message: Error processing instruction process_bundle-7. Original traceback is
  portability_worker_id: sdk-0-0
  thread: 43:140101
  worker: app-10281307-71o6-harness-cqks
labels:
  compute.googleapis.com/resource_name: app-10281307-71o6-harness-cqks
  dataflow.googleapis.com/job_id: 2022-10-28_13_07_17-12646045757829274894
  dataflow.googleapis.com/job_name: app
  dataflow.googleapis.com/region: us-central1
logName: projects/p/logs/dataflow.googleapis.com%2Fworker
receiveTimestamp: '2022-10-28T20:08:31.104921532Z'
resource:
  labels:
    job_id: 2022-10-28_13_07_17-12646045757829274894
    job_name: app
    project_id: '823514981911'
    region: us-central1
    step_id: ''
  type: dataflow_step
severity: ERROR
timestamp: '2022-10-28T20:08:29.567718Z'
---
insertId: 1lfy432c42x
logName: projects/p/logs/dataflow.googleapis.com%2Fjob-message
resource:
  labels:
    job_id: 2022-10-28_13_07_17-12646045757829274894
    project_id: '823514981911'
    region: us-central1
    step_id: ''
  type: dataflow_step
severity: ERROR
textPayload: |-
  Workflow failed. Causes: S01:Read+Infer failed., The job failed because a work item has failed 4 times. 

          Root cause: Timed out waiting for an update from the worker.
          Worker ID: app-10281307-71o6-harness-cqks
timestamp: '2022-10-28T20:27:14.996634424Z'
)";

struct Read {
  InputSummary summary;
  std::vector<KeptRecord> records;
};

Read read_text(const std::string& text, const std::string& name = "logs.yaml", ReadLimits limits = {}) {
  const std::string path = test::temp_dir() + "/" + name;
  test::write_file(path, text);
  Read out;
  auto summary = read_export(
      path, [&](const LogRecord& r) { out.records.emplace_back(r); }, limits);
  REQUIRE(summary.ok());
  out.summary = *summary;
  return out;
}

// Everything a record says but where it came from.
std::string fields_of(const LogRecord& r) {
  std::string labels;
  for (size_t i = 0; i < r.label_count; ++i) labels += fmt::format("{}={};", r.labels[i].key, r.labels[i].value);
  return fmt::format(
      "time {} severity {} log {} message [{}] exception [{}] worker {} logger {} thread {} step {} sdk {} insert {} "
      "job {} name {} project {} region {} resource {} labels {}",
      format_rfc3339(r.timestamp), severity_name(r.severity), r.log, r.message, r.exception, r.worker, r.logger,
      r.thread, r.step, r.sdk_worker, r.insert_id, r.job_id, r.job_name, r.project, r.region, r.resource_type, labels);
}

std::vector<std::string> all_fields(const Read& r) {
  std::vector<std::string> out;
  for (const auto& k : r.records) out.push_back(fields_of(k.record()));
  return out;
}

std::string problems_of(const InputSummary& s) {
  std::string out;
  for (const auto& p : s.problems)
    out += fmt::format("{}{}: {}\n", p.line, p.skipped_entry ? " skipped" : "", p.message);
  return out;
}

// The 1-based line of `text` that byte `at` is on.
uint64_t line_at(const std::string& text, size_t at) {
  return 1 + static_cast<uint64_t>(std::count(text.begin(), text.begin() + static_cast<ptrdiff_t>(at), '\n'));
}

// One small worker entry as gcloud prints it, its message `message` (one line).
std::string yaml_entry(int second, const std::string& message) {
  return fmt::format(
      "---\ninsertId: e{0}\njsonPayload:\n  message: {1}\nlogName: projects/p/logs/dataflow.googleapis.com%2Fworker\n"
      "resource:\n  labels:\n    job_id: 2024-01-01_00_00_00-1\n  type: dataflow_step\nseverity: INFO\n"
      "timestamp: '2024-01-01T00:00:{0:02}Z'\n",
      second, message);
}

}  // namespace

TEST_CASE("yaml: gcloud's YAML documents read as the same entries as the JSON export", "[unit][ingest][yaml]") {
  const Read json = read_text(kJson, "logs.json");
  const Read yaml = read_text(kYaml);
  REQUIRE(json.records.size() == 2);
  CHECK(all_fields(yaml) == all_fields(json));
  CHECK(yaml.records[0]->exception ==
        "Traceback (most recent call last):\n  File \"/app/infer.py\", line 41, in process\n    out = model(batch)\n"
        "RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB");
  CHECK(yaml.records[1]->message.find("4 times. \n\n        Root cause") != std::string_view::npos);
  CHECK(yaml.records[0]->thread == "43:140101");  // YAML 1.2 has no sexagesimal numbers
  // Each entry is placed at its document's first line, and the byte it starts at.
  CHECK(yaml.records[0]->where.line == 2);
  CHECK(yaml.records[1]->where.line == 33);
  CHECK(yaml.records[1]->where.offset == std::string_view(kYaml).find("insertId: 1lfy"));
  CHECK(yaml.summary.shape == ExportShape::kYaml);
  CHECK(yaml.summary.entries == 2);
  CHECK(yaml.summary.analysed == 2);
  CHECK(yaml.summary.problems.empty());
  CHECK_FALSE(yaml.summary.not_read_in_full.has_value());
}

TEST_CASE("yaml: keys in any order and quoted or plain scalars read alike", "[unit][ingest][yaml]") {
  // The same entry four ways: gcloud's order, reversed, timestamps unquoted (yaml-cpp keeps them
  // text), and everything double-quoted with the message folded over two lines.
  const std::string sorted =
      "insertId: a1\nlogName: projects/p/logs/dataflow.googleapis.com%2Fworker\nseverity: WARNING\n"
      "textPayload: Refreshing due to a 401\ntimestamp: '2024-05-01T10:00:00.123456Z'\n";
  const std::string reversed =
      "timestamp: '2024-05-01T10:00:00.123456Z'\ntextPayload: Refreshing due to a 401\nseverity: WARNING\n"
      "logName: projects/p/logs/dataflow.googleapis.com%2Fworker\ninsertId: a1\n";
  const std::string unquoted =
      "severity: WARNING\ntimestamp: 2024-05-01T10:00:00.123456Z\ninsertId: a1\n"
      "logName: projects/p/logs/dataflow.googleapis.com%2Fworker\ntextPayload: Refreshing due to a 401\n";
  const std::string quoted =
      "\"insertId\": \"a1\"\n\"logName\": 'projects/p/logs/dataflow.googleapis.com%2Fworker'\n"
      "\"severity\": \"WARNING\"\n\"textPayload\": \"Refreshing due\n  to a 401\"\n"
      "\"timestamp\": \"2024-05-01T10:00:00.123456Z\"\n";
  const Read want = read_text(sorted);
  REQUIRE(want.records.size() == 1);
  CHECK(want.records[0]->message == "Refreshing due to a 401");
  CHECK(want.records[0]->severity == Severity::kWarning);
  CHECK(format_rfc3339(want.records[0]->timestamp) == "2024-05-01T10:00:00.123456Z");
  for (const auto& text : {reversed, unquoted, quoted}) {
    INFO(text);
    const Read got = read_text("---\n" + text);
    CHECK(all_fields(got) == all_fields(want));
    CHECK(got.summary.problems.empty());
  }
}

TEST_CASE("yaml: block scalars and escapes and folded lines give the text the JSON holds", "[unit][ingest][yaml]") {
  // Each form gcloud's printer (ruamel.yaml) writes, with the text it stands for.
  const std::vector<std::pair<std::string, std::string>> forms{
      {"|-\n  line one\n    indented\n  line three", "line one\n  indented\nline three"},
      {"|\n  trailing newline", "trailing newline\n"},
      {"|+\n  two trailing\n", "two trailing\n\n"},
      {"|2-\n    leading spaces\n  line2", "  leading spaces\nline2"},
      {"|2-\n\n  abc", "\nabc"},
      {"|-\n  a\tb\n  c", "a\tb\nc"},
      {"\"a\\tb\\e[31m \\u00e9\\U0001F600 \\\\ \\\"q\\\"\"", "a\tb\x1b[31m \xc3\xa9\xf0\x9f\x98\x80 \\ \"q\""},
      {"\"x \\\n  y\"", "x y"},
      {"'it''s ''quoted'''", "it's 'quoted'"},
      {"word word word\n  word word", "word word word word word"},
      {"'folded single\n  quoted'", "folded single quoted"},
      {"été ✓ 😀", "été ✓ 😀"},
      {"''", ""},
      {"'123'", "123"},
      {"'true'", "true"},
      {"'null'", "null"},
      {"yes", "yes"},  // YAML 1.2: a string (ruamel writes it plain)
  };
  std::string text;
  for (size_t i = 0; i < forms.size(); ++i)
    text += fmt::format("---\ntextPayload: {}\ntimestamp: '2024-05-01T10:00:{:02}Z'\n", forms[i].first, i);
  const Read r = read_text(text);
  INFO(problems_of(r.summary));
  REQUIRE(r.records.size() == forms.size());
  for (size_t i = 0; i < forms.size(); ++i) {
    INFO(forms[i].first);
    CHECK(r.records[i]->message == forms[i].second);
  }
}

TEST_CASE("yaml: plain scalars are typed as YAML 1.2 types them", "[unit][ingest][yaml]") {
  using detail::plain_scalar_json;
  CHECK(plain_scalar_json("") == "null");
  CHECK(plain_scalar_json("~") == "null");
  CHECK(plain_scalar_json("NULL") == "null");
  CHECK(plain_scalar_json("True") == "true");
  CHECK(plain_scalar_json("FALSE") == "false");
  CHECK(plain_scalar_json("500") == "500");
  CHECK(plain_scalar_json("-007") == "-7");
  CHECK(plain_scalar_json("+12") == "12");
  CHECK(plain_scalar_json("1_000") == "1000");
  CHECK(plain_scalar_json("12345678901234567890") == "12345678901234567890");
  CHECK(plain_scalar_json("0x1F") == "31");
  CHECK(plain_scalar_json("0o17") == "15");
  CHECK(plain_scalar_json("0b101") == "5");
  CHECK(plain_scalar_json("1.5") == "1.5");
  CHECK(plain_scalar_json("1.") == "1.0");
  CHECK(plain_scalar_json("-.5") == "-0.5");
  CHECK(plain_scalar_json("1e3") == "1e3");
  CHECK(plain_scalar_json("1.5E-3") == "1.5e-3");
  CHECK(plain_scalar_json("1666987709.567718") == "1666987709.567718");
  // Strings: YAML 1.1's booleans and sexagesimals, timestamps, what JSON has no number for.
  for (const char* text : {"yes", "on", "No", "43:140101", "2024-05-01T10:00:00Z", "2024-05-01", ".inf", "-.Inf",
                           ".nan", "1.2.3", "12abc", "0x", "_1", "-", ".", "1e", ".5e3", "a1", "-_"}) {
    INFO(text);
    CHECK(plain_scalar_json(text).empty());
  }
  // As the JSON path reads them: a severity number, a number or boolean as the message.
  const Read r = read_text(
      "---\nseverity: 500\ntextPayload: 42\ntimestamp: '2024-05-01T10:00:00Z'\n"
      "---\nseverity: '400'\ntextPayload: true\ntimestamp: 1714557601.5\n"
      "---\njsonPayload:\n  message: null\n  logger: 7\nseverity: WARNING\ntimestamp: '2024-05-01T10:00:02Z'\n");
  REQUIRE(r.records.size() == 3);
  CHECK(r.records[0]->severity == Severity::kError);
  CHECK(r.records[0]->message == "42");
  CHECK(r.records[1]->severity == Severity::kWarning);
  CHECK(r.records[1]->message == "true");
  CHECK(format_rfc3339(r.records[1]->timestamp) == "2024-05-01T10:00:01.500Z");  // seconds, as BigQuery sends them
  CHECK(r.records[2]->message.empty());
  CHECK(r.records[2]->logger.empty());  // a number is no logger name, as in JSON
}

TEST_CASE("yaml: a malformed document in the middle is skipped at its line and the others are read",
          "[unit][ingest][yaml]") {
  const std::string broken =
      "---\ninsertId: bad\njsonPayload:\n  message: fine\n  exception: \"never closed\n  logger: x\n"
      "severity: ERROR\n";
  const std::string text = yaml_entry(1, "before") + broken + yaml_entry(2, "after");
  const Read r = read_text(text);
  REQUIRE(r.records.size() == 2);
  CHECK(r.records[0]->message == "before");
  CHECK(r.records[1]->message == "after");
  CHECK(r.records[1]->where.line == line_at(text, text.rfind("insertId: e2")));
  CHECK(r.summary.entries == 3);
  CHECK(r.summary.analysed == 2);
  CHECK(r.summary.skipped == 1);
  REQUIRE(r.summary.problems.size() == 1);
  const InputProblem& p = r.summary.problems[0];
  CHECK(p.skipped_entry);
  // yaml-cpp reports the string at the end of the document, where it is still open.
  const uint64_t document_line = line_at(text, text.find("insertId: bad"));
  CHECK(p.line > document_line);
  size_t line_start = 0;  // the byte the problem's line starts at
  for (uint64_t l = 1; l < p.line; ++l) line_start = text.find('\n', line_start) + 1;
  CHECK(p.offset == static_cast<int64_t>(line_start));
  CHECK_THAT(p.message, Catch::StartsWith("malformed YAML document skipped: "));
  CHECK_THAT(p.message, Catch::EndsWith(fmt::format("the document starts on line {})", document_line)));
  CHECK_FALSE(r.summary.not_read_in_full.has_value());  // one bad entry in the middle is no cut
}

TEST_CASE("yaml: a syntax error names its line and column", "[unit][ingest][yaml]") {
  const std::string text = yaml_entry(1, "before") +
                           "---\ninsertId: x\njsonPayload:\n  message: [a, b\nseverity: INFO\n" +
                           yaml_entry(2, "after");
  const Read r = read_text(text);
  CHECK(r.records.size() == 2);
  REQUIRE(r.summary.problems.size() == 1);
  CHECK(r.summary.problems[0].line == line_at(text, text.find("severity: INFO", text.find("[a, b"))));
  CHECK_THAT(r.summary.problems[0].message, Catch::Contains("(column "));
}

TEST_CASE("yaml: a quoted text never closed is caught but quotes inside plain and block texts are text",
          "[unit][ingest][yaml]") {
  // yaml-cpp would read the first to the end of the document.
  std::string json;
  const auto open = detail::yaml_document_to_json("insertId: a\ntextPayload: \"cut here\n  and here\n", json);
  REQUIRE(open.has_value());
  CHECK(open->line == 2);
  CHECK(open->column == 14);
  CHECK(open->message == "a double-quoted text that opens here is never closed");
  CHECK(detail::yaml_document_to_json("a:\n- 'never\n  closed\n", json).has_value());
  // A plain text folded before a word that opens a quote, a block's lines, quoted keys and items,
  // escaped quotes and a double-quoted text over several lines all read.
  for (const char* text : {
           "textPayload: the value is 'odd and the text goes on and on past eighty columns so\n  'it folds here\n",
           "textPayload: |-\n  'a quote that never closes\n  \"nor this\nseverity: ERROR\n",
           "'true': 'True'\n\"a\": \"it's\"\nb:\n- 'x'\n- \"y\"\n- - 'z'\n",
           "m: 'it''s\n  folded'\nn: \"a \\\" quote\\\n  \\ and more\"\n",
           "jsonPayload:\n  message: |2-\n     'indented\n  logger: x\n",
       }) {
    INFO(text);
    const auto error = detail::yaml_document_to_json(text, json);
    CHECK_FALSE(error.has_value());
    if (error) INFO(error->message);
  }
}

TEST_CASE("yaml: empty documents and comments are no entries", "[unit][ingest][yaml]") {
  const std::string text = "# gcloud logging read 'resource.type=\"dataflow_step\"'\n---\n---\n\n# nothing here\n" +
                           yaml_entry(1, "one") + "---\n...\n" + yaml_entry(2, "two") + "---\n";
  const Read r = read_text(text);
  REQUIRE(r.records.size() == 2);
  CHECK(r.summary.entries == 2);
  INFO(problems_of(r.summary));
  CHECK(r.summary.problems.empty());
  CHECK(r.records[0]->where.line == 7);
}

TEST_CASE("yaml: a document that is no mapping or uses an alias is skipped with why", "[unit][ingest][yaml]") {
  const std::string text = yaml_entry(1, "one") + "---\n- a\n- b\n" + "---\nListed 0 items.\n" +
                           "---\ninsertId: &id x\ntextPayload: *id\n" + "---\njsonPayload:\n  ? [a, b]\n  : c\n" +
                           yaml_entry(2, "two");
  const Read r = read_text(text);
  CHECK(r.records.size() == 2);
  CHECK(r.summary.skipped == 4);
  const std::string problems = problems_of(r.summary);
  CHECK_THAT(problems, Catch::Contains("the document is a list, not a LogEntry mapping"));
  CHECK_THAT(problems, Catch::Contains("the document is a text (`Listed 0 items.`), not a LogEntry mapping"));
  CHECK_THAT(problems, Catch::Contains("an alias (*name): a log export has none"));
  CHECK_THAT(problems, Catch::Contains("a mapping key that is a list"));
}

TEST_CASE("yaml: an export cut in a line or inside its last document is not read in full", "[unit][ingest][yaml]") {
  const std::string whole = yaml_entry(1, "one") + yaml_entry(2, "two");
  SECTION("in the middle of a line") {
    const Read r = read_text(whole.substr(0, whole.rfind("dataflow_step")));
    CHECK(r.records.size() == 1);
    CHECK(r.summary.skipped == 1);
    REQUIRE(r.summary.not_read_in_full.has_value());
    CHECK(r.summary.not_read_in_full->code == "input-truncated");
    CHECK_THAT(problems_of(r.summary), Catch::Contains("in the middle of a line"));
  }
  SECTION("inside a quoted string") {
    const Read r = read_text(yaml_entry(1, "one") + "---\ninsertId: e2\ntextPayload: \"cut\n  here\n");
    CHECK(r.records.size() == 1);
    REQUIRE(r.summary.not_read_in_full.has_value());
    CHECK(r.summary.not_read_in_full->code == "input-truncated");
  }
  SECTION("a whole export, and one whose last line has trailing blanks, are whole") {
    CHECK_FALSE(read_text(whole).summary.not_read_in_full.has_value());
    CHECK_FALSE(read_text(whole + "  ").summary.not_read_in_full.has_value());
  }
}

TEST_CASE("yaml: gcloud's error inside the export means gcloud stopped part way", "[unit][ingest][yaml]") {
  // `gcloud logging read … > logs.yaml 2>&1`, and a quota ran out after two entries.
  const std::string text = yaml_entry(1, "one") + yaml_entry(2, "two") +
                           "ERROR: (gcloud.logging.read) RESOURCE_EXHAUSTED: Quota exceeded for quota metric 'Read "
                           "requests' and limit 'Read requests per minute'\n";
  const Read r = read_text(text);
  CHECK(r.records.size() == 2);
  REQUIRE(r.summary.not_read_in_full.has_value());
  const Diagnostic& d = *r.summary.not_read_in_full;
  CHECK(d.code == "input-gcloud-error");
  CHECK(d.line == line_at(text, text.find("ERROR: ")));
  CHECK(d.message ==
        "gcloud stopped part way with an error, so the entries after it are missing: (gcloud.logging.read) "
        "RESOURCE_EXHAUSTED: Quota exceeded for quota metric 'Read requests' and limit 'Read requests per minute'");
  CHECK_THAT(d.help, Catch::Contains("quota"));
  // The same when the error's line has no line break: the document before it is whole.
  const Read unended = read_text(text.substr(0, text.size() - 1));
  CHECK(unended.records.size() == 2);
  REQUIRE(unended.summary.not_read_in_full.has_value());
  CHECK(unended.summary.not_read_in_full->code == "input-gcloud-error");
}

TEST_CASE("yaml: exports concatenated with a byte-order mark between them read as one", "[unit][ingest][yaml]") {
  const Read r = read_text("\xEF\xBB\xBF" + yaml_entry(1, "one") + "\xEF\xBB\xBF" + yaml_entry(2, "two"));
  REQUIRE(r.records.size() == 2);
  CHECK(r.records[1]->message == "two");
  CHECK(r.summary.skipped == 0);
}

TEST_CASE("yaml: documents split across chunks and CRLF lines read the same", "[unit][ingest][yaml]") {
  std::string text;
  for (int i = 0; i < 40; ++i) text += yaml_entry(i, fmt::format("message number {}", i));
  const Read whole = read_text(text);
  REQUIRE(whole.records.size() == 40);
  for (uint32_t chunk : {64u, 256u, 1000u}) {
    INFO(chunk);
    ReadLimits limits;
    limits.chunk_bytes = chunk;
    const Read r = read_text(text, "logs.yaml", limits);
    CHECK(all_fields(r) == all_fields(whole));
    std::vector<uint64_t> lines, want;
    for (size_t i = 0; i < 40; ++i) {
      lines.push_back(r.records[i]->where.line);
      want.push_back(whole.records[i]->where.line);
    }
    CHECK(lines == want);
  }
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  const Read r = read_text(crlf);
  CHECK(all_fields(r) == all_fields(whole));
  CHECK(r.summary.problems.empty());
}

TEST_CASE("yaml: a document over the size limit is skipped with its byte and the rest read", "[unit][ingest][yaml]") {
  const std::string big = yaml_entry(2, "big " + std::string(20000, 'x'));
  for (const bool one_line : {false, true}) {
    INFO(one_line);
    const std::string huge = one_line ? big : "---\ntextPayload: |-\n" + [] {
      std::string lines;
      for (int i = 0; i < 2000; ++i) lines += "  a traceback line of a long document\n";
      return lines;
    }();
    const std::string text = yaml_entry(1, "before") + huge + yaml_entry(3, "after");
    ReadLimits limits;
    limits.max_entry_bytes = 8192;
    limits.chunk_bytes = 1024;
    const Read r = read_text(text, "logs.yaml", limits);
    REQUIRE(r.records.size() == 2);
    CHECK(r.records[1]->message == "after");
    CHECK(r.records[1]->where.line == line_at(text, text.rfind("insertId: e3")));
    CHECK(r.summary.entries == 3);
    CHECK(r.summary.skipped == 1);
    CHECK_THAT(problems_of(r.summary),
               Catch::Contains(fmt::format("a YAML document larger than 8192 bytes was skipped (byte {})",
                                           yaml_entry(1, "before").size())));
    CHECK_FALSE(r.summary.not_read_in_full.has_value());
  }
}

TEST_CASE("yaml: what a YAML document converts to is the JSON of its entry", "[unit][ingest][yaml]") {
  std::string json;
  CHECK_FALSE(
      detail::yaml_document_to_json("insertId: a1\ntextPayload: |-\n  two\n  lines\nlabels: {}\nx: []\n", json));
  CHECK(json == R"({"insertId":"a1","textPayload":"two\nlines","labels":{},"x":[]})");
  CHECK_FALSE(detail::yaml_document_to_json("a:\n  - 1\n  - b: ~\n    c: 'true'\n  -\n", json));
  CHECK(json == R"({"a":[1,{"b":null,"c":"true"},null]})");
  const auto error = detail::yaml_document_to_json("a: b\n c: d\n", json);
  REQUIRE(error.has_value());
  CHECK(error->line == 2);
  CHECK(error->column > 0);
}

// --- saved in place of an export --------------------------------------------------------------

namespace {

Diagnostic refused(const std::string& text, const std::string& name = "logs.json") {
  const std::string path = test::temp_dir() + "/" + name;
  test::write_file(path, text);
  auto r = read_export(path, [](const LogRecord&) {});
  REQUIRE_FALSE(r.ok());
  return r.error();
}

}  // namespace

TEST_CASE("inputs saved in place of an export: a gcloud error names its message and what to do",
          "[unit][ingest][yaml]") {
  const Diagnostic denied = refused(
      "ERROR: (gcloud.logging.read) PERMISSION_DENIED: Permission denied for all log views. This command is "
      "authenticated as ci@p.iam.gserviceaccount.com which is the active account specified by the "
      "[core/account] property.\n- '@type': type.googleapis.com/google.rpc.ErrorInfo\n  domain: "
      "logging.googleapis.com\n");
  CHECK(denied.code == "input-gcloud-error");
  CHECK_THAT(denied.message, Catch::StartsWith("this is a gcloud error: (gcloud.logging.read) PERMISSION_DENIED: "
                                               "Permission denied for all log views."));
  CHECK(denied.line == 1);
  CHECK_THAT(denied.help, Catch::Contains("roles/logging.viewer"));
  CHECK_THAT(to_string(denied), Catch::Contains("logs.json:1: this is a gcloud error"));

  const Diagnostic invalid = refused(
      "\nWARNING: Reading logs older than one day; --freshness is ignored\nWARNING: another\n"
      "ERROR: (gcloud.logging.read) INVALID_ARGUMENT: Unparseable filter: syntax error at line 1, column 22\n");
  CHECK(invalid.code == "input-gcloud-error");
  CHECK(invalid.line == 4);
  CHECK_THAT(invalid.message, Catch::Contains("INVALID_ARGUMENT: Unparseable filter"));
  CHECK_THAT(invalid.help, Catch::Contains("export-command"));

  const Diagnostic warnings = refused("WARNING: Some requests did not succeed.\n[\n]\n");
  CHECK(warnings.code == "input-gcloud-error");
  CHECK_THAT(warnings.message, Catch::StartsWith("this is gcloud's output on stderr, not log entries: WARNING: Some"));
  CHECK_THAT(warnings.help, Catch::Contains("2>&1"));

  // Warnings before (or among) YAML documents are skipped, each with a note: the entries are whole.
  const Read warned = read_text("WARNING: Reading logs older than one day\n" + yaml_entry(1, "one") +
                                "WARNING: another\n" + yaml_entry(2, "two"));
  CHECK(warned.records.size() == 2);
  CHECK(warned.summary.skipped == 0);
  CHECK_FALSE(warned.summary.not_read_in_full.has_value());
  CHECK(problems_of(warned.summary) ==
        "1: a line gcloud wrote on stderr was skipped: WARNING: Reading logs older than one day\n"
        "13: a line gcloud wrote on stderr was skipped: WARNING: another\n");

  CHECK_THAT(refused("ERROR: (gcloud.logging.read) You do not currently have an active account selected.\n").help,
             Catch::Contains("gcloud auth login"));
}

TEST_CASE("inputs saved in place of an export: an HTML page names its title", "[unit][ingest][yaml]") {
  const Diagnostic page = refused(
      "<!DOCTYPE html>\n<html lang=en>\n  <meta charset=utf-8>\n  <title>Error 403 (Forbidden)!!1</title>\n"
      "  <p><b>403.</b> <ins>That’s an error.</ins>\n");
  CHECK(page.code == "input-html");
  CHECK(page.message == "this is an HTML page, not a log export: Error 403 (Forbidden)!!1");
  CHECK(page.line == 4);
  CHECK_THAT(page.help, Catch::Contains("gcloud logging read"));

  const Diagnostic signin = refused("<html><head><TITLE>\n  Sign in &amp; continue\n</TITLE></head></html>");
  CHECK(signin.message == "this is an HTML page, not a log export: Sign in & continue");
  CHECK(signin.line == 1);

  const Diagnostic untitled = refused("<html><body>Not Found</body></html>\n");
  CHECK(untitled.message == "this is an HTML page, not a log export (it has no <title>)");
}

TEST_CASE("inputs saved in place of an export: a CSV of log entries is refused by its header", "[unit][ingest][yaml]") {
  for (const char* header : {"timestamp,severity,text_payload,job_id",  // gcloud --format=csv(…)
                             "\"insertId\",\"logName\",\"jsonPayload.message\",\"resource.labels.job_id\"",
                             "severity, timestamp, textPayload", "Timestamp,Severity,Log name,Summary"}) {
    INFO(header);
    const Diagnostic d = refused(std::string(header) + "\n2022-11-28T22:24:25.700425Z,DEBUG,Tearing down,j\n",
                                 "downloaded-logs-20240501-100000.csv");
    CHECK(d.code == "input-csv");
    CHECK(d.line == 1);
    CHECK_THAT(d.message, Catch::Contains("Logs Explorer CSV download"));
    CHECK_THAT(d.help, Catch::Contains("download JSON instead"));
    CHECK_THAT(d.help, Catch::Contains("--format=json"));
  }
  // Not a header of entries: not JSON, as before.
  CHECK(refused("a,b\n1,2\n").code == "input-not-json");
  CHECK(refused("Listed 0 items.\n").code == "input-not-json");
  CHECK(refused("timestamp,message with spaces and: a colon\n").code == "input-not-json");
}

// --- the binary ---------------------------------------------------------------------------------

namespace {

// What must not change between an export and its YAML form: the verdict, every finding's rule,
// fingerprint, count and captures, the unexplained groups, the entries analysed. Evidence lines
// differ (they point into the YAML file).
std::string diagnosis_of(const std::string& report_json) {
  simdjson::dom::parser parser;
  const auto report = test::parse_json(parser, report_json);
  std::string d = fmt::format("verdict {}\n", simdjson::minify(report["verdict"]));
  for (auto f : simdjson::dom::array(report["findings"])) {
    d += fmt::format("finding {} {} x{} confidence {} captures {}\n", simdjson::minify(f["rule_id"]),
                     simdjson::minify(f["fingerprint"]), simdjson::minify(f["count"]),
                     simdjson::minify(f["confidence"]), simdjson::minify(f["captures"]));
  }
  for (auto u : simdjson::dom::array(report["unexplained"])) {
    d += "unexplained " + simdjson::minify(u["fingerprint"]) + "\n";
  }
  for (auto i : simdjson::dom::array(report["inputs"])) {
    d += fmt::format("input analysed {} duplicates {}\n", simdjson::minify(i["analysed"]),
                     simdjson::minify(i["duplicates"]));
  }
  return d;
}

const std::vector<std::string> kFixtureCases{"gpu-oom-then-sdk-disconnected-work-item-failed",
                                             "job-message-traceback-cut", "cuda-arch-unsupported"};

}  // namespace

TEST_CASE("yaml: gcloud's YAML of corpus cases diagnoses as their JSON exports", "[cli][yaml]") {
  // tests/fixtures/yaml/CASE.yaml is tools/gcloud-yaml of corpus/CASE's export (ctest checks that
  // it still is, and that the tool writes what gcloud's own printer writes).
  for (const auto& name : kFixtureCases) {
    INFO(name);
    const auto want =
        test::run_gpudiag({"analyze", "--deterministic", "--format", "json", "corpus/" + name + "/export.json"});
    const auto got =
        test::run_gpudiag({"analyze", "--deterministic", "--format", "json", "tests/fixtures/yaml/" + name + ".yaml"});
    REQUIRE(want.exit_code != 2);
    CHECK(got.exit_code == want.exit_code);
    const std::string expected = diagnosis_of(want.out);
    CHECK_THAT(expected, Catch::Contains("finding \""));  // a real diagnosis
    CHECK(diagnosis_of(got.out) == expected);
    CHECK_THAT(got.out, Catch::Contains(R"("format": "yaml")"));
    CHECK_THAT(got.out, Catch::Contains(R"("problems_total": 0)"));
  }
}

TEST_CASE("yaml: piped on stdin or gzipped the YAML form diagnoses the same", "[cli][yaml]") {
  const std::string name = kFixtureCases[0];
  const auto want =
      test::run_gpudiag({"analyze", "--deterministic", "--format", "json", "corpus/" + name + "/export.json"});
  const auto piped = test::run_gpudiag({"analyze", "--deterministic", "--format", "json", "-"},
                                       "tests/fixtures/yaml/" + name + ".yaml");
  CHECK(piped.exit_code == want.exit_code);
  CHECK(diagnosis_of(piped.out) == diagnosis_of(want.out));
  const std::string gz = test::temp_dir() + "/logs.yaml.gz";
  test::write_file(gz, test::gzip(test::read_file("tests/fixtures/yaml/" + name + ".yaml")));
  const auto gzipped = test::run_gpudiag({"analyze", "--deterministic", "--format", "json", "-j", "2", gz});
  CHECK(gzipped.exit_code == want.exit_code);
  CHECK(diagnosis_of(gzipped.out) == diagnosis_of(want.out));
}

TEST_CASE("yaml: a gcloud error or an HTML page or a CSV saved as the export exits 2 saying what it is",
          "[cli][yaml]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/logs.json",
                   "ERROR: (gcloud.logging.read) PERMISSION_DENIED: Permission denied for all log views.\n");
  const auto denied = test::run_gpudiag({"analyze", dir + "/logs.json"});
  CHECK(denied.exit_code == 2);
  CHECK(denied.out.empty());
  CHECK_THAT(denied.err, Catch::Contains("logs.json:1: this is a gcloud error: (gcloud.logging.read) "
                                         "PERMISSION_DENIED: Permission denied for all log views.\n"));
  CHECK_THAT(denied.err, Catch::Contains("help: the account gcloud used may not read this project's logs: it needs the "
                                         "Logs Viewer role (roles/logging.viewer)"));
  test::write_file(dir + "/page.json", "<!doctype html>\n<html><head><title>403 Forbidden</title></head></html>\n");
  const auto page = test::run_gpudiag({"gate", dir + "/page.json"});
  CHECK(page.exit_code == 2);
  CHECK_THAT(page.err,
             Catch::Contains("page.json:2: this is an HTML page, not a log export: 403 Forbidden"));  // its title
  test::write_file(dir + "/logs.csv", "timestamp,severity,textPayload\n2024-05-01T10:00:00Z,ERROR,boom\n");
  const auto csv = test::run_gpudiag({"analyze", "--format", "json", dir + "/logs.csv"});
  CHECK(csv.exit_code == 2);
  CHECK_THAT(csv.err, Catch::Contains("logs.csv:1: this is a CSV of log entries (a Logs Explorer CSV download"));
  CHECK_THAT(csv.err, Catch::Contains("help: download JSON instead"));
}

TEST_CASE("yaml: a gate never passes a YAML export cut in the middle of a line", "[cli][yaml]") {
  const std::string text = test::read_file("tests/fixtures/yaml/" + kFixtureCases[0] + ".yaml");
  const std::string path = test::temp_dir() + "/cut.yaml";
  test::write_file(path, text.substr(0, text.find("timestamp: ", text.size() / 2) + 5));  // "times"
  const auto r = test::run_gpudiag({"gate", "--format", "json", path});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.out, Catch::Contains(R"("code": "input-truncated")"));
}
