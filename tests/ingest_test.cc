// ingest: every shape, line numbers, and bad input reported with file, line and byte.
#include "gpudiag/ingest.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "duplicate_filter.h"
#include "json_string.h"
#include "log_entry_reader.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

struct Read {
  InputSummary summary;
  std::vector<std::string> messages;
  std::vector<uint64_t> lines;
  std::vector<std::string> logs;
  std::vector<Severity> severities;
  std::vector<Timestamp> times;
  std::vector<std::string> workers;
};

Read read_text(const std::string& text, const std::string& name = "export.json") {
  const std::string path = test::temp_dir() + "/" + name;
  test::write_file(path, text);
  Read out;
  auto summary = read_export(path, [&](const LogRecord& r) {
    out.messages.emplace_back(r.message);
    out.lines.push_back(r.where.line);
    out.logs.emplace_back(r.log);
    out.severities.push_back(r.severity);
    out.times.push_back(r.timestamp);
    out.workers.emplace_back(r.worker);
  });
  REQUIRE(summary.ok());
  out.summary = *summary;
  return out;
}

const char* kPrettyArray = R"([
  {
    "insertId": "s=f8b7;i=182",
    "jsonPayload": {
      "message": "ima: No architecture policies found"
    },
    "labels": {
      "compute.googleapis.com/resource_name": "app-10281307-71o6-harness-cqks"
    },
    "logName": "projects/p/logs/dataflow.googleapis.com%2Fsystem",
    "resource": {
      "labels": {
        "job_id": "2022-10-28_13_07_17-12646045757829274894",
        "project_id": "823514981911"
      },
      "type": "dataflow_step"
    },
    "severity": "INFO",
    "timestamp": "2022-10-28T20:08:29.567718Z"
  },
  {
    "insertId": "1lfy432c42x",
    "logName": "projects/p/logs/dataflow.googleapis.com%2Fjob-message",
    "severity": "ERROR",
    "textPayload": "Worker pool stopped.",
    "timestamp": "2021-11-16T20:27:14.996634424Z"
  }
]
)";

}  // namespace

TEST_CASE("a pretty-printed gcloud array gives every entry with the line it starts on", "[unit][ingest]") {
  const Read r = read_text(kPrettyArray);
  CHECK(r.summary.shape == ExportShape::kArray);
  CHECK(r.summary.entries == 2);
  CHECK(r.summary.skipped == 0);
  REQUIRE(r.messages.size() == 2);
  CHECK(r.messages[0] == "ima: No architecture policies found");
  CHECK(r.lines == std::vector<uint64_t>{2, 21});
  CHECK(r.logs == std::vector<std::string>{"system", "job-message"});
  CHECK(r.workers[0] == "app-10281307-71o6-harness-cqks");
  CHECK(r.severities[1] == Severity::kError);
  CHECK(format_rfc3339(r.times[1]) == "2021-11-16T20:27:14.996634424Z");
}

TEST_CASE("the same export as NDJSON, gzip, CRLF and a compact array reads the same", "[unit][ingest]") {
  const std::string ndjson =
      "{\"textPayload\":\"one\",\"timestamp\":\"2021-01-01T00:00:00Z\",\"logName\":\"projects/p/logs/"
      "dataflow.googleapis.com%2Fjob-message\"}\n"
      "{\"jsonPayload\":{\"message\":\"two\"},\"timestamp\":\"2021-01-01T00:00:01.5Z\",\"severity\":\"WARNING\"}\n";
  const Read plain = read_text(ndjson, "shard.json");
  CHECK(plain.summary.shape == ExportShape::kNdjson);
  CHECK(plain.messages == std::vector<std::string>{"one", "two"});
  CHECK(plain.lines == std::vector<uint64_t>{1, 2});

  std::string crlf = ndjson;
  for (size_t at = crlf.find('\n'); at != std::string::npos; at = crlf.find('\n', at + 2)) crlf.insert(at, "\r");
  const Read windows = read_text(crlf);
  CHECK(windows.messages == plain.messages);
  CHECK(windows.lines == plain.lines);

  const Read zipped = read_text(test::gzip(ndjson), "shard.txt");  // the name says nothing: bytes decide
  CHECK(zipped.summary.gzip);
  CHECK(zipped.messages == plain.messages);

  const Read concatenated = read_text(test::gzip(ndjson) + test::gzip(ndjson));  // `cat a.gz b.gz`
  CHECK(concatenated.messages.size() == 4);

  const Read compact =
      read_text("[{\"textPayload\":\"one\"},{\"textPayload\":\"two, with [brackets] and \\\"quotes\\\" }\"}]");
  CHECK(compact.summary.shape == ExportShape::kArray);
  CHECK(compact.messages == std::vector<std::string>{"one", "two, with [brackets] and \"quotes\" }"});
}

TEST_CASE("pretty-printed objects one after another (jq '.[]') are a stream", "[unit][ingest]") {
  const Read r = read_text("{\n  \"textPayload\": \"a\"\n}\n{\n  \"textPayload\": \"b\"\n}\n");
  CHECK(r.summary.shape == ExportShape::kSequence);
  CHECK(r.messages == std::vector<std::string>{"a", "b"});
  CHECK(r.lines == std::vector<uint64_t>{1, 4});
}

TEST_CASE("an empty array is a valid empty export", "[unit][ingest]") {
  const Read r = read_text("[]\n");
  CHECK(r.summary.entries == 0);
  CHECK(r.summary.problems.empty());
}

TEST_CASE("a malformed entry in the middle is reported with line and byte, the rest still read", "[unit][ingest]") {
  const std::string text =
      "{\"textPayload\":\"first\"}\n"
      "{\"textPayload\":\"broken\n"
      "{\"textPayload\":\"third\"}\n";
  const Read r = read_text(text);
  CHECK(r.messages == std::vector<std::string>{"first", "third"});
  CHECK(r.lines == std::vector<uint64_t>{1, 3});
  CHECK(r.summary.entries == 3);
  CHECK(r.summary.skipped == 1);
  REQUIRE(r.summary.problems.size() == 1);
  CHECK(r.summary.problems[0].line == 2);
  CHECK(r.summary.problems[0].offset == 24);  // the second line starts at byte 24
  CHECK(r.summary.problems[0].skipped_entry);
}

TEST_CASE("a broken element of a pretty array costs only that element", "[unit][ingest]") {
  std::string text = kPrettyArray;
  text.replace(text.find("\"Worker pool stopped.\""), 22, "\"Worker pool stopped.");  // unterminated string
  const Read r = read_text(text);
  CHECK(r.messages == std::vector<std::string>{"ima: No architecture policies found"});
  CHECK(r.summary.skipped == 1);
  REQUIRE(r.summary.problems.size() == 1);
  CHECK(r.summary.problems[0].line == 21);
}

TEST_CASE("a truncated tail is reported as such", "[unit][ingest]") {
  const std::string text = kPrettyArray;
  const Read r = read_text(text.substr(0, text.find("\"Worker pool")));
  CHECK(r.messages.size() == 1);
  CHECK(r.summary.skipped == 1);
  REQUIRE(!r.summary.problems.empty());
  CHECK_THAT(r.summary.problems.back().message, Catch::Contains("truncated"));
}

TEST_CASE("inputs that are not log exports are clear errors", "[unit][ingest]") {
  const auto open_text = [](const std::string& text) {
    const std::string path = test::temp_dir() + "/x.json";
    test::write_file(path, text);
    return read_export(path, [](const LogRecord&) {});
  };
  const auto scalar = open_text("42\n");
  REQUIRE_FALSE(scalar.ok());
  CHECK(scalar.error().code == "input-not-json");
  CHECK(scalar.error().line == 1);
  CHECK_THAT(scalar.error().message, Catch::Contains("a number"));

  const auto text = open_text("Listed 0 items.\n");
  REQUIRE_FALSE(text.ok());
  CHECK_THAT(to_string(text.error()), Catch::Contains("x.json:1"));

  const auto utf16 = open_text(std::string("\xFF\xFE[\0]\0", 6));
  REQUIRE_FALSE(utf16.ok());
  CHECK(utf16.error().code == "input-utf16");

  const auto missing = read_export("/nonexistent/logs.json", [](const LogRecord&) {});
  REQUIRE_FALSE(missing.ok());
  CHECK_THAT(missing.error().message, Catch::Contains("No such file"));

  const auto dir = read_export(test::temp_dir(), [](const LogRecord&) {});
  REQUIRE_FALSE(dir.ok());
  CHECK_THAT(dir.error().message, Catch::Contains("directory"));
}

TEST_CASE("an empty file and a byte-order mark are noted, not fatal", "[unit][ingest]") {
  const Read empty = read_text("");
  CHECK(empty.summary.entries == 0);
  REQUIRE(empty.summary.problems.size() == 1);
  CHECK_THAT(empty.summary.problems[0].message, Catch::Contains("empty"));

  const Read bom = read_text("\xEF\xBB\xBF{\"textPayload\":\"after bom\"}\n");
  CHECK(bom.messages == std::vector<std::string>{"after bom"});
  CHECK_THAT(bom.summary.problems[0].message, Catch::Contains("byte-order mark"));
}

TEST_CASE("fields of the wrong type are tolerated with a note", "[unit][ingest]") {
  const Read r = read_text(
      "{\"textPayload\":\"a\",\"severity\":5,\"timestamp\":null,\"receiveTimestamp\":\"2021-01-01T00:00:00Z\"}\n"
      "{\"textPayload\":\"b\",\"severity\":500}\n"
      "{}\n");
  REQUIRE(r.messages.size() == 2);
  CHECK(r.severities[0] == Severity::kDefault);
  CHECK(format_rfc3339(r.times[0]) == "2021-01-01T00:00:00Z");  // receiveTimestamp when timestamp is null
  CHECK(r.severities[1] == Severity::kError);
  CHECK(r.summary.skipped == 1);  // {} is no LogEntry
  CHECK(r.summary.entries == 3);
}

TEST_CASE("timestamps: 0–9 fractional digits and offsets", "[unit][ingest]") {
  CHECK(format_rfc3339(*parse_rfc3339("2021-11-16T20:27:14Z")) == "2021-11-16T20:27:14Z");
  CHECK(format_rfc3339(*parse_rfc3339("2021-11-16T20:27:14.9Z")) == "2021-11-16T20:27:14.900Z");
  CHECK(format_rfc3339(*parse_rfc3339("2021-11-16T20:27:14.996634424Z")) == "2021-11-16T20:27:14.996634424Z");
  CHECK(*parse_rfc3339("2021-11-16T21:27:14+01:00") == *parse_rfc3339("2021-11-16T20:27:14Z"));
  CHECK_FALSE(parse_rfc3339("2021-11-16 20:27"));
  CHECK_FALSE(parse_rfc3339("2021-13-16T20:27:14Z"));
  CHECK_FALSE(parse_rfc3339("2021-11-16T20:27:14"));  // no zone
}

TEST_CASE("log names: the part after %2F or the last slash", "[unit][ingest]") {
  CHECK(short_log_name("projects/p/logs/dataflow.googleapis.com%2Fworker-startup") == "worker-startup");
  CHECK(short_log_name("projects/p/logs/dataflow.googleapis.com/kubelet") == "kubelet");
  CHECK(short_log_name("docker") == "docker");
}

TEST_CASE("duplicates are recognised by insertId and timestamp, in bounded memory", "[unit][ingest]") {
  using detail::DuplicateFilter;
  DuplicateFilter exact(1000 * sizeof(uint64_t));
  CHECK_FALSE(exact.seen(11));
  CHECK(exact.seen(11));
  CHECK_FALSE(exact.seen(0));  // no insertId: never a duplicate
  CHECK_FALSE(exact.seen(0));
  DuplicateFilter small(64 * sizeof(uint64_t));
  for (uint64_t f = 1; f < 1000; f += 2) small.seen(f);
  CHECK(small.windowed());
  CHECK(small.seen(997));  // recent ones are still remembered
}

TEST_CASE("the duplicate filter stays within its memory budget and forgets the oldest generation", "[unit][ingest]") {
  constexpr size_t kBudget = 64 << 10;  // two tables of 4,096 slots, 3,072 fingerprints each
  detail::DuplicateFilter filter(kBudget);
  size_t most = 0;
  for (uint64_t f = 1; f <= 20'000; ++f) {
    CHECK_FALSE(filter.seen(f * 2 + 1));
    most = std::max(most, filter.memory_bytes());
  }
  CHECK(most <= kBudget);
  CHECK(filter.windowed());
  CHECK(filter.seen(20'000 * 2 + 1));  // the latest generation …
  CHECK(filter.seen(17'000 * 2 + 1));  // … and the one before are remembered
  CHECK_FALSE(filter.seen(3));         // the oldest were forgotten
  detail::DuplicateFilter exact(kBudget);
  for (uint64_t f = 1; f <= 6'144; ++f) exact.seen(f * 2 + 1);  // two generations' worth: exact
  CHECK_FALSE(exact.windowed());
  CHECK(exact.seen(3));
}

TEST_CASE("a second generation of a few fingerprints holds a small table beside the first", "[unit][ingest]") {
  constexpr size_t kBudget = 64 << 10;  // the first generation: one table of 4,096 slots (32 KiB), 3,072 fingerprints
  detail::DuplicateFilter filter(kBudget);
  for (uint64_t f = 1; f <= 3'072 + 100; ++f) CHECK_FALSE(filter.seen(f * 2 + 1));
  // 100 more need 256 slots (2 KiB), not a second table of 32 KiB made up front.
  CHECK(filter.memory_bytes() == (4'096 + 256) * sizeof(uint64_t));
  CHECK(filter.seen(3));  // both generations are still exact
  CHECK(filter.seen((3'072 + 100) * 2 + 1));
  CHECK_FALSE(filter.windowed());
  // The second generation is two tables of 2,048 slots: full at 2 × 1,536 = 3,072, as one of 4,096.
  for (uint64_t f = 3'072 + 101; f <= 6'144; ++f) CHECK_FALSE(filter.seen(f * 2 + 1));
  CHECK(filter.memory_bytes() == (4'096 + 2'048 + 2'048) * sizeof(uint64_t));
  CHECK_FALSE(filter.windowed());
  CHECK_FALSE(filter.seen(6'145 * 2 + 1));  // the third generation begins: the first is forgotten
  CHECK(filter.windowed());
  CHECK_FALSE(filter.seen(3));
  CHECK(filter.seen(6'144 * 2 + 1));
}

TEST_CASE("an entry larger than the limit is read as it streams, kept cropped, and reading goes on", "[unit][ingest]") {
  const std::string big(3000, 'x');
  const std::string text = "{\"textPayload\":\"small\"}\n{\"severity\":\"ERROR\",\"textPayload\":\"" + big +
                           "\",\"ignored\":[1,{\"a\":\"b\"}]}\n{\"textPayload\":\"after\"}\n";
  const std::string path = test::temp_dir() + "/big.json";
  test::write_file(path, text);
  ReadLimits limits;
  limits.max_entry_bytes = 1024;
  limits.chunk_bytes = 256;
  std::vector<std::string> messages;
  std::vector<uint64_t> lines;
  std::vector<Severity> severities;
  auto summary = read_export(
      path,
      [&](const LogRecord& r) {
        messages.emplace_back(r.message);
        lines.push_back(r.where.line);
        severities.push_back(r.severity);
      },
      limits);
  REQUIRE(summary.ok());
  REQUIRE(messages.size() == 3);
  CHECK(messages[0] == "small");
  CHECK(messages[1].size() < 1024);
  CHECK(messages[1].starts_with("xxx"));
  CHECK_THAT(messages[1], Catch::Contains("bytes cropped"));
  CHECK(messages[2] == "after");
  CHECK(severities[1] == Severity::kError);
  CHECK(lines == std::vector<uint64_t>{1, 2, 3});
  CHECK(summary->skipped == 0);
  CHECK(summary->entries == 3);
  REQUIRE(summary->problems.size() == 1);
  CHECK(summary->problems[0].line == 2);
  CHECK(summary->problems[0].offset == 24);
  CHECK_FALSE(summary->problems[0].skipped_entry);
  CHECK_THAT(summary->problems[0].message, Catch::Contains("matched over its whole length and kept cropped: "
                                                           "textPayload (3000 bytes)"));
}

TEST_CASE("an oversized entry nested deeper than any LogEntry is skipped in bounded memory", "[unit][ingest]") {
  // 100,000 levels of nesting (600 KB): each level would keep a frame and a longer path.
  std::string deep = "{\"severity\":\"ERROR\",\"jsonPayload\":";
  for (int i = 0; i < 100'000; ++i) deep += "{\"a\":";
  deep += "1" + std::string(100'000, '}') + "}";
  const std::string path = test::temp_dir() + "/deep.json";
  test::write_file(path, deep + "\n{\"textPayload\":\"after\"}\n");
  ReadLimits limits;
  limits.max_entry_bytes = 1024;
  std::vector<std::string> messages;
  auto summary = read_export(
      path, [&](const LogRecord& r) { messages.emplace_back(r.message); }, limits);
  REQUIRE(summary.ok());
  CHECK(messages == std::vector<std::string>{"after"});
  CHECK(summary->skipped >= 1);  // the deep entry (its unread tail may count as one more)
  CHECK(summary->entries == summary->analysed + summary->skipped);
}

TEST_CASE("the unescaper for refused strings: simdjson's text, lone surrogates as U+FFFD", "[unit][ingest]") {
  using detail::unescape_json_string;
  const auto text = [](std::string_view raw) { return unescape_json_string(raw).value().text; };
  const auto replaced = [](std::string_view raw) { return unescape_json_string(raw).value().replaced; };
  CHECK(text(R"("plain")") == "plain");
  CHECK(text(R"("\" \\ \/ \b\f\n\r\t \u00e9\u20AC")") == "\" \\ / \b\f\n\r\t é€");
  CHECK(text(R"("\u0000")") == std::string(1, '\0'));
  CHECK(text(R"("\ud83d\ude00")") == "😀");
  CHECK(replaced(R"("\ud83d\ude00")") == 0);
  CHECK(text(R"("Traceback \ud800 here")") == "Traceback \uFFFD here");
  CHECK(text(R"("\udc80\udcff")") == "\uFFFD\uFFFD");  // Python's surrogateescape for bytes 80 and ff
  CHECK(replaced(R"("\udc80\udcff")") == 2);
  CHECK(text(R"("\ud800\ud83d\ude00\ud800")") == "\uFFFD😀\uFFFD");  // a high one before a pair
  CHECK(text(R"("\ud800\u0041")") == "\uFFFDA");
  CHECK(text(R"("end" and more)") == "end");
  for (const std::string_view bad : {R"(no quote)", R"("unterminated)", R"("\x41")", R"("\u12G4")", R"("\u12")",
                                     R"("\ud800\uzzzz")", "\"\xff\"", "\"\xed\xa0\x80\"", "\"\\"}) {
    INFO(bad);
    CHECK_FALSE(unescape_json_string(bad).has_value());
  }
}

TEST_CASE("the reader notes a message and an exception read without escapes as holding no line break",
          "[unit][ingest]") {
  // What the error candidates' traceback test relies on: a noted text has no '\n'; any escape, a
  // structured message, blanks after the string or a copy leave the text unnoted (then it is searched).
  const std::vector<std::pair<std::string, std::string>> entries = {
      {R"({"textPayload":"plain words only","timestamp":"2024-05-12T10:00:00Z"})", "10"},
      {R"({"textPayload":"Traceback (most recent call last):\n  File \"a.py\", line 1"})", "00"},
      {R"({"textPayload":"a \"quoted\" word"})", "00"},
      {R"({"jsonPayload":{"message":"blanks after" ,"exception":"ValueError: x\ny"}})", "00"},
      {R"({"jsonPayload":{"message":{"nested":"object"}}})", "00"},
      {R"({"jsonPayload":{"message":"clean","exception":"clean too"}})", "11"},
  };
  simdjson::ondemand::parser parser;
  detail::LogEntryReader reader;
  for (const auto& [json, want] : entries) {
    INFO(json);
    const simdjson::padded_string padded(json);
    simdjson::ondemand::document doc = parser.iterate(padded);
    simdjson::ondemand::object entry = doc.get_object();
    std::string error;
    REQUIRE(reader.read(entry, error) == detail::EntryStatus::kOk);
    const LogRecord& r = reader.record();
    std::string noted;
    noted += !r.message.empty() && LogRecord::known_unescaped(r.message, r.unescaped_message) ? '1' : '0';
    noted += !r.exception.empty() && LogRecord::known_unescaped(r.exception, r.unescaped_exception) ? '1' : '0';
    CHECK(noted == want);
    const KeptRecord kept(r);
    CHECK_FALSE(LogRecord::known_unescaped(kept->message, kept->unescaped_message));
  }
}
