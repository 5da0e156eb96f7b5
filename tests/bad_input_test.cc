// The bad-input matrix (issue 6): every hostile or broken input gets a clear message naming the file
// and a line or byte, either exit 2 or a partial result with a warning — and nothing is lost: the
// entries read are always analysed + skipped + duplicates.
#include <fmt/format.h>
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "test_support.h"

using namespace gpudiag;

namespace {

struct Outcome {
  int exit_code;
  uint64_t entries = 0, analysed = 0, skipped = 0, duplicates = 0;
  std::string problems;  // every problem, "line: message" per line
  std::string err;
};

Outcome run(const std::vector<std::string>& inputs) {
  std::vector<std::string> args{"analyze", "--format", "json"};
  args.insert(args.end(), inputs.begin(), inputs.end());
  const auto r = test::run_gpudiag(args);
  Outcome o{r.exit_code};
  o.err = r.err;
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(r.out).get(root)) return o;  // no report (exit 2 before analysis)
  o.entries = uint64_t(root["totals"]["entries"]);
  o.analysed = uint64_t(root["totals"]["analysed"]);
  o.skipped = uint64_t(root["totals"]["skipped"]);
  o.duplicates = uint64_t(root["totals"]["duplicates"]);
  for (auto input : root["inputs"].get_array()) {
    for (auto p : input["problems"].get_array()) {
      o.problems += fmt::format("{}: {}\n", int64_t(p["line"]), std::string_view(p["message"]));
    }
  }
  // Nothing is lost, whatever the input.
  CHECK(o.analysed + o.skipped + o.duplicates == o.entries);
  return o;
}

std::string fixture(const std::string& name) { return "tests/fixtures/bad-input/" + name; }

const std::string kEntry =
    R"({"timestamp":"2024-01-01T00:00:01Z","severity":"ERROR","logName":"projects/p/logs/dataflow.googleapis.com%2Fworker","jsonPayload":{"message":"RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB"}})";

}  // namespace

TEST_CASE("empty and blank inputs are valid and say so", "[badinput]") {
  for (const char* name : {"empty.json", "whitespace-only.json"}) {
    const Outcome o = run({fixture(name)});
    CHECK(o.exit_code == 0);
    CHECK(o.entries == 0);
    CHECK_THAT(o.problems, Catch::Contains("no entries"));
  }
}

TEST_CASE("{} is an entry, skipped as not a LogEntry", "[badinput]") {
  const Outcome o = run({fixture("empty-object.json")});
  CHECK(o.exit_code == 0);
  CHECK((o.entries == 1 && o.skipped == 1));
  CHECK_THAT(o.problems, Catch::Contains("1: not a LogEntry"));
}

TEST_CASE("a scalar at the top level is not an export: exit 2 with file and line", "[badinput]") {
  const Outcome number = run({fixture("scalar-number.json")});
  CHECK(number.exit_code == 2);
  CHECK_THAT(number.err, Catch::Contains("scalar-number.json:1") && Catch::Contains("a number"));
  const Outcome string = run({fixture("scalar-string.json")});
  CHECK(string.exit_code == 2);
  CHECK_THAT(string.err, Catch::Contains("a string"));
  const Outcome null = run({fixture("scalar-null.json")});
  CHECK(null.exit_code == 2);
  CHECK_THAT(null.err, Catch::Contains("scalar-null.json:3"));
}

TEST_CASE("a truncated file keeps what was complete and reports the cut", "[badinput]") {
  // What was complete is analysed; the cut makes it an input not read in full: exit 2 (issue 37).
  const Outcome mid_string = run({fixture("truncated-mid-string.ndjson")});
  CHECK(mid_string.exit_code == 2);
  CHECK_THAT(mid_string.err, Catch::Contains("the input ends inside its last entry"));
  CHECK((mid_string.entries == 3 && mid_string.analysed == 2 && mid_string.skipped == 1));
  CHECK_THAT(mid_string.problems, Catch::Contains("3: the input ends inside this entry"));
  const Outcome mid_entry = run({fixture("truncated-mid-entry.json")});
  CHECK((mid_entry.entries == 2 && mid_entry.analysed == 1 && mid_entry.skipped == 1));
  CHECK_THAT(mid_entry.problems, Catch::Contains("3: the input ends inside this entry"));
}

TEST_CASE("invalid UTF-8 and NUL bytes cost only their own entry", "[badinput]") {
  for (const char* name : {"invalid-utf8.ndjson", "nul-bytes.ndjson"}) {
    INFO(name);
    const Outcome o = run({fixture(name)});
    CHECK(o.exit_code == 0);
    CHECK((o.entries == 3 && o.analysed == 2 && o.skipped == 1));
    CHECK_THAT(o.problems, Catch::StartsWith("2: malformed entry skipped"));
  }
}

TEST_CASE("a UTF-8 byte-order mark is skipped, UTF-16 is refused with a way out", "[badinput]") {
  const Outcome bom = run({fixture("bom.ndjson")});
  CHECK((bom.exit_code == 0 && bom.analysed == 2));
  CHECK_THAT(bom.problems, Catch::Contains("byte-order mark"));
  const Outcome utf16 = run({fixture("utf16.json")});
  CHECK(utf16.exit_code == 2);
  CHECK_THAT(utf16.err, Catch::Contains("utf16.json: byte 0") && Catch::Contains("UTF-16") && Catch::Contains("iconv"));
}

TEST_CASE("lone surrogates (Python's surrogateescape) are read as U+FFFD, the entry kept with a note", "[badinput]") {
  const std::string dir = test::temp_dir();
  const std::string path = dir + "/surrogates.ndjson";
  // A traceback whose undecodable bytes Python's json module wrote as \udcXX, and a lone high one.
  test::write_file(
      path,
      R"({"timestamp":"2024-01-01T00:00:01Z","severity":"ERROR","logName":"projects/p/logs/dataflow.googleapis.com%2Fworker","jsonPayload":{"message":"Traceback (most recent call last):\n  File \"/tmp/caf\udce9.py\", line 3\nRuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB","worker":"w-\ud800"}})"
      "\n" +
          kEntry + "\n");
  const Outcome o = run({path});
  CHECK((o.exit_code == 0 && o.entries == 2 && o.analysed == 2 && o.skipped == 0));
  CHECK_THAT(o.problems, Catch::Contains("1: jsonPayload.message holds 1 escaped surrogate without its pair "
                                         "(as Python's surrogateescape writes); read as U+FFFD"));
  CHECK_THAT(o.problems, Catch::Contains("1: a jsonPayload field holds 1 escaped surrogate"));
  const auto json = test::run_gpudiag({"analyze", "--deterministic", "--format", "json", path});
  CHECK_THAT(json.out, Catch::Contains("caf\uFFFD.py") && Catch::Contains("w-\uFFFD"));
}

TEST_CASE("CRLF, mixed endings, duplicate keys and huge numbers are read", "[badinput]") {
  const Outcome crlf = run({fixture("crlf-and-mixed-endings.ndjson")});
  CHECK((crlf.exit_code == 0 && crlf.analysed == 4 && crlf.skipped == 0));
  const Outcome dup = run({fixture("duplicate-keys.ndjson")});
  CHECK((dup.exit_code == 0 && dup.analysed == 1));
  const Outcome huge = run({fixture("huge-numbers.ndjson")});
  CHECK((huge.exit_code == 0 && huge.analysed == 2 && huge.skipped == 0));
}

TEST_CASE("wrong field types are tolerated with a note per field", "[badinput]") {
  const Outcome o = run({fixture("wrong-field-types.ndjson")});
  CHECK((o.exit_code == 0 && o.analysed == 2 && o.skipped == 0));
  CHECK_THAT(o.problems, Catch::Contains("1: severity is a number that is not a LogSeverity"));
  CHECK_THAT(o.problems, Catch::Contains("1: logName is not a string"));
  CHECK_THAT(o.problems, Catch::Contains("2: severity is a boolean"));
}

TEST_CASE("array elements that are not objects, and text between entries, are skipped one by one", "[badinput]") {
  const Outcome scalars = run({fixture("array-of-scalars.json")});
  CHECK((scalars.entries == 4 && scalars.analysed == 1 && scalars.skipped == 3));
  CHECK_THAT(scalars.problems, Catch::Contains("a JSON number, not a LogEntry"));
  const Outcome text = run({fixture("text-between-entries.json")});
  CHECK((text.entries == 3 && text.analysed == 2 && text.skipped == 1));
  CHECK_THAT(text.problems, Catch::Contains("5: text between entries is not JSON: `oops`"));
  const Outcome concatenated = run({fixture("concatenated-arrays.json")});
  CHECK((concatenated.analysed == 2 && concatenated.skipped == 0));
  CHECK_THAT(concatenated.problems, Catch::Contains("concatenated"));
}

TEST_CASE("a corrupt or truncated gzip gives a partial result, says why and exits 2", "[badinput]") {
  // Damaged before its first entry: nothing to report, stderr says why (issue 37: never a pass).
  const Outcome corrupt = run({fixture("corrupt.ndjson.gz")});
  CHECK(corrupt.exit_code == 2);
  CHECK_THAT(corrupt.err, Catch::Contains("gzip data is corrupt"));
  const Outcome truncated = run({fixture("truncated.ndjson.gz")});
  CHECK(truncated.exit_code == 2);
  CHECK_THAT(truncated.problems, Catch::Contains("gzip stream ends early"));
}

TEST_CASE("a gzip bomb is stopped with a clear error", "[badinput]") {
  const std::string path = test::temp_dir() + "/bomb.json.gz";
  std::string zeros = "[" + std::string(200u << 20, ' ');  // 200 MB of blanks compress ~1000:1
  test::write_file(path, test::gzip(zeros));
  const Outcome o = run({path});
  CHECK(o.exit_code == 2);
  CHECK_THAT(o.err, Catch::Contains("bomb.json.gz") && Catch::Contains("gzip bomb"));
}

TEST_CASE("one entry of 100 MB is read like any other", "[badinput]") {
  const std::string path = test::temp_dir() + "/big.ndjson";
  {
    std::ofstream out(path, std::ios::binary);
    out << R"({"timestamp":"2024-01-01T00:00:01Z","jsonPayload":{"message":")" << std::string(100u << 20, 'x')
        << "\"}}\n"
        << kEntry << '\n';
  }
  const Outcome o = run({path});
  CHECK(o.exit_code == 0);
  CHECK((o.entries == 2 && o.analysed == 2));
  std::filesystem::remove(path);
}

TEST_CASE("JSON nested 100,000 deep is read or skipped, never a crash", "[badinput]") {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  // In a field gpudiag does not read, the value is stepped over without descending into it.
  const std::string path = test::temp_dir() + "/deep.ndjson";
  test::write_file(path, kEntry + "\n{\"textPayload\":\"x\",\"deep\":" + deep + "}\n" + kEntry + "\n");
  const Outcome o = run({path});
  CHECK(o.exit_code == 0);
  CHECK((o.entries == 3 && o.analysed == 3));
  // As the message itself it becomes the message's JSON text.
  const std::string msg = test::temp_dir() + "/deep-message.ndjson";
  test::write_file(msg, "{\"jsonPayload\":{\"message\":" + deep + "}}\n");
  CHECK(run({msg}).analysed == 1);
  // As the whole export: one element that is not a LogEntry.
  const std::string top = test::temp_dir() + "/deep-top.json";
  test::write_file(top, deep);
  const Outcome t = run({top});
  CHECK(t.exit_code == 0);
  CHECK((t.entries == 1 && t.skipped == 1));
  CHECK_THAT(t.problems, Catch::Contains("1: malformed entry skipped: the entry is a JSON array, not a LogEntry"));
}

TEST_CASE("directories, missing and unreadable files are input errors (exit 2)", "[badinput]") {
  const Outcome dir = run({test::temp_dir()});
  CHECK(dir.exit_code == 2);
  CHECK_THAT(dir.err, Catch::Contains("is a directory"));
  const Outcome missing = run({"/nonexistent/export.json"});
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("/nonexistent/export.json") && Catch::Contains("No such file"));
  // Opens, then fails to read (root may read any mode bits, so permissions would not do).
  const Outcome unreadable = run({"/proc/self/mem"});
  CHECK(unreadable.exit_code == 2);
  CHECK_THAT(unreadable.err, Catch::Contains("/proc/self/mem") && Catch::Contains("read failed"));
}

TEST_CASE("several inputs of which one is broken: the others are still analysed", "[badinput]") {
  const std::string good = test::temp_dir() + "/good.ndjson";
  test::write_file(good, kEntry + "\n");
  const auto r = test::run_gpudiag({"analyze", "--format", "json", fixture("utf16.json"), "/nonexistent/x.json", good});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.out, Catch::Contains("\"rule_id\": \"gpu-out-of-memory\""));
  CHECK_THAT(r.err, Catch::Contains("utf16.json") && Catch::Contains("/nonexistent/x.json"));
}
