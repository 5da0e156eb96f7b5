// Errors no rule explains (issue 15, docs/unexplained.md): what the analysis reports over real
// corpus exports, independent of input order and thread count, and the rule stub that
// `gpudiag patterns suggest` writes from a group — which `rules test` must pass and `rules lint`
// accept with one warning per TODO.
#include <fmt/format.h>
#include <re2/re2.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

#include "gpudiag/report.h"
#include "gpudiag/rule_stub.h"
#include "pack/pack.h"
#include "test_support.h"
#include "unexplained/error_groups.h"
#include "unexplained/group_key.h"
#include "unexplained/unexplained_key.h"

using namespace gpudiag;

namespace {

const UnexplainedGroup& top_group(const Analysis& d) {
  REQUIRE_FALSE(d.unexplained.empty());
  return d.unexplained.front();
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("a docker-split traceback is one group whatever the export's order", "[unit]") {
  // The same entries newest first (gcloud's array) and as shuffled sink shards (NDJSON).
  const Analysis newest_first = test::analyze_case("corpus/docker-split-traceback", 1);
  const Analysis shards = test::analyze_case("corpus/docker-split-traceback-sink-shard", 2);
  const UnexplainedGroup& a = top_group(newest_first);
  const UnexplainedGroup& b = top_group(shards);
  CHECK(a.exception_type == "ImportError");
  CHECK(a.fingerprint == b.fingerprint);
  CHECK(a.count == b.count);
  REQUIRE(a.user_frame);
  CHECK(a.user_frame->line == 12);
  // Reassembled: the exemplar holds the traceback's header and its exception line.
  const std::string text(a.exemplar.entry->message);
  CHECK(text.find("Traceback (most recent call last):") != std::string::npos);
  CHECK(text.find("ImportError: __import__ not found") != std::string::npos);
}

TEST_CASE("the worker and job-message copies of one failure are one group", "[unit]") {
  const Analysis d = test::analyze_case("corpus/user-dofn-valueerror-python");
  const UnexplainedGroup& g = top_group(d);
  CHECK(g.severity == Impact::kError);
  CHECK(g.exception_type == "ValueError");
  CHECK(std::find(g.also_in.begin(), g.also_in.end(), "job-message") != g.also_in.end());
  CHECK(g.step == "Embed");
  // The symptom rules fold under it and the verdict names it.
  const RankedReport report = rank(d);
  CHECK(report.verdict_line.find("ValueError: Input contains NaN, infinity or a value too large for dtype('float32'). "
                                 "(pipeline.py:88 in process, step 'Embed'), 8 entries on 2 workers") !=
        std::string::npos);
  bool folded = false;
  for (const auto& rf : report.findings)
    folded = folded || (rf.finding->rule_id == "work-item-failed" && rf.caused_by_unexplained);
  CHECK(folded);
}

TEST_CASE("a healthy job's error chatter is never at error level", "[unit]") {
  const Analysis d = test::analyze_case("corpus/healthy-with-error-noise");
  for (const auto& g : d.unexplained) CHECK(g.severity == Impact::kInfo);
  // TensorFlow's I/W lines, logged at ERROR because they go to stderr, are not candidates at all.
  for (const auto& g : d.unexplained)
    CHECK(std::string(g.exemplar.entry->message).find(": I tensorflow/") == std::string::npos);
}

TEST_CASE("an error beside a rule's finding is listed after it at info", "[unit]") {
  const Analysis d = test::analyze_case("corpus/unexplained-beside-rule-finding");
  const RankedReport report = rank(d);
  REQUIRE_FALSE(report.findings.empty());
  CHECK(report.findings.front().finding->rule_id == "gpu-out-of-memory");
  CHECK(top_group(d).exception_type == "UnicodeDecodeError");
  CHECK(top_group(d).severity == Impact::kInfo);
}

TEST_CASE("a template's pattern escapes literal text and matches its lines", "[unit]") {
  CHECK(template_pattern("exit status <*>") == "exit\\s+status\\s+\\S+");
  CHECK(template_pattern("dtype('float32').") == "dtype\\('float32'\\)\\.");
  CHECK(template_pattern("rhost=<*> user=root") == "rhost=\\S+\\s+user=root");
}

TEST_CASE("gpudiag patterns suggest writes a stub that rules test passes and rules lint warns on", "[cli]") {
  const std::string export_path = test::source_dir() + "/corpus/user-dofn-valueerror-python/export.json";
  const auto report = test::run_gpudiag({"analyze", "--format", "json", export_path});
  const size_t start = report.out.find("\"unexplained-error/");
  REQUIRE(start != std::string::npos);
  const std::string fingerprint = report.out.substr(start + 1, report.out.find('"', start + 1) - start - 1);
  CHECK(fingerprint.size() == std::string("unexplained-error/").size() + 16);

  const auto stub = test::run_gpudiag({"patterns", "suggest", fingerprint, export_path});
  REQUIRE(stub.exit_code == 0);
  CHECK(stub.out.find("match:\n  text: 'ValueError:\\s+Input\\s+contains") != std::string::npos);
  CHECK(stub.out.find("    - 'ValueError: Input contains NaN") != std::string::npos);
  CHECK(stub.out.find("  no_match:\n") != std::string::npos);
  const std::string dir = test::temp_dir();
  std::ofstream(dir + "/stub.yaml") << stub.out;
  const auto tested = test::run_gpudiag({"rules", "test", "--rules", dir});
  CHECK(tested.exit_code == 0);
  CHECK(tested.out.find(", 0 failed") != std::string::npos);
  const auto linted = test::run_gpudiag({"rules", "lint", "--rules", dir});
  CHECK(linted.exit_code == 0);
  CHECK(count_of(stub.out, "'TODO") == 7);
  CHECK(count_of(linted.out, "warning[rule-todo]") == 7);
  CHECK(linted.out.find("0 problems, 7 warnings") != std::string::npos);
  // With the stub in the pack the error is explained: no group is left at error level.
  const auto again = test::run_gpudiag({"analyze", "--format", "json", "--rules", dir, export_path});
  CHECK(again.out.find("user-value-error-in-process") != std::string::npos);
  CHECK(again.out.find(fingerprint) == std::string::npos);
}

TEST_CASE("gpudiag patterns suggest with an unknown fingerprint is exit 2 listing the groups", "[cli]") {
  const std::string export_path = test::source_dir() + "/corpus/user-dofn-valueerror-python/export.json";
  const auto r = test::run_gpudiag({"patterns", "suggest", "unexplained-error/0000000000000000", export_path});
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK(r.err.find("no unexplained error group unexplained-error/0000000000000000") != std::string::npos);
  CHECK(r.err.find("(pipeline.py:88 in process, step 'Embed')") != std::string::npos);
}

TEST_CASE("error groups stay within the export's budget of kept text and say what they left out", "[unit]") {
  using namespace gpudiag::detail;
  ErrorBudget budget;
  budget.limit = 64u << 10;
  ErrorGroups groups;
  groups.set_budget(&budget);
  // 200 distinct one-line errors of 1 KiB each (a noisy job): the budget holds about 60 of them.
  for (int i = 0; i < 200; ++i) {
    LogRecord r;
    const std::string text = "RuntimeError: failure number " + std::string(1000, static_cast<char>('a' + i % 26)) +
                             std::to_string(i) + " of a kind";
    r.message = text;
    r.timestamp = 1'000'000'000LL * (i + 1);
    r.log = "worker";
    ErrorCandidate c;
    c.at = r.timestamp;
    c.log = "worker";
    auto reading = std::make_shared<CandidateReading>();
    reading->key =
        GroupKey{.kind = GroupKey::Kind::kException, .type = "RuntimeError", .frame = "-", .text = std::to_string(i)}
            .str();
    reading->exception_type = "RuntimeError";
    reading->exception_line = text;
    c.reading = std::move(reading);
    c.record = std::make_unique<KeptRecord>(r);
    groups.add(std::move(c));
    CHECK(budget.held <= budget.limit);
  }
  CHECK(groups.capped());
  CHECK(groups.entries_past_cap() > 100);
  const FrameFilter no_frameworks({});
  const Wrappers no_wrappers;
  const CauseLines no_causes;
  const auto kept = groups.finish(ReadingRules{no_frameworks, no_wrappers, no_causes}, [](int) { return false; });
  CHECK(kept.size() + groups.entries_past_cap() == 200);
  CHECK(budget.held == 0);  // given back when the job is finished
}

TEST_CASE("a plain message's exception line is read by hand as its pattern reads it", "[unit]") {
  // exception_line_parts stands in for RE2 with the pattern: every type and message it reads, and
  // every line it refuses, is RE2's; each line also cut anywhere, and with a UTF-8 letter there.
  const RE2 reference(R"(^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Fault|Failure)): (.*))");
  const auto by_regex = [&](std::string_view line) {
    std::string type, message;
    return RE2::PartialMatch(line, reference, &type, &message) ? type + "|" + message : std::string("-");
  };
  const auto by_hand = [](std::string_view line) {
    std::string type, message;
    return detail::exception_line_parts(line, type, message) ? type + "|" + message : std::string("-");
  };
  const std::vector<std::string> lines = {
      "ValueError: invalid literal for int() with base 10: 'x'",
      "google.api_core.exceptions.ServiceUnavailable: 503 The service is currently unavailable. (retrying)",
      "java.lang.IllegalStateException: Unable to return a default Coder",
      "SystemExit: 2",
      "KeyboardInterrupt: ",
      "SegmentationFault: core dumped",
      "AssertionFailure: x",
      "DeprecationWarning: the imp module is deprecated",
      "com.example.Outer$InnerError: x",
      "_PrivateError: x",
      "Error: x",
      "Exception: x",
      "1Error: x",
      ".Error: x",
      "a.Error: x",
      "ValueError : x",
      "ValueError:",
      "ValueError:x",
      "ValueError:  two blanks",
      "ValueErrors: x",
      "ValueError.more: x",
      "ValueError: a\nb",
      "ValueError: a\r",
      std::string("ValueError: a\0b", 15),
      "ValueError: caf\xc3\xa9",
      "ValueError: cut \xc3",
      "ValueError: \xff\xfe",
      "Ünicode Error: x",
      "NameÜError: x",
      "  File \"x.py\", line 1, in <module>",
      "",
      ":",
      "INFO:root:Job finished",
      "RuntimeError: Error processing request. Original traceback is",
  };
  size_t compared = 0;
  for (const auto& line : lines) {
    for (size_t cut = 0; cut <= line.size(); ++cut) {
      const std::string piece = line.substr(0, cut);
      INFO(piece);
      CHECK(by_hand(piece) == by_regex(piece));
      std::string varied = piece;
      if (!varied.empty()) {
        varied.insert(varied.size() / 2, "\xc3\xa9");
        INFO(varied);
        CHECK(by_hand(varied) == by_regex(varied));
      }
      compared += 2;
    }
  }
  CHECK(compared > 1000);
}

TEST_CASE("a group key is written and read in one place, with its version", "[unit]") {
  using gpudiag::detail::GroupKey;
  using Kind = GroupKey::Kind;
  const GroupKey exception{
      .kind = Kind::kException, .type = "ValueError", .frame = "main.py:run", .text = "bad <*> x|y"};
  CHECK(exception.str() == "g1|exc|ValueError|main.py:run|bad <*> x|y");
  CHECK(GroupKey{.kind = Kind::kCut, .frame = "main.py:run"}.str() == "g1|cut|main.py:run");
  CHECK(GroupKey{.kind = Kind::kLine, .text = "disk <*> full"}.str() == "g1|line|disk <*> full");
  for (const GroupKey& key :
       {exception, GroupKey{.kind = Kind::kException, .type = "E", .frame = "-", .text = "a: b|c"},
        GroupKey{.kind = Kind::kCut, .frame = "-"}, GroupKey{.kind = Kind::kLine, .text = "x|y"}}) {
    INFO(key.str());
    const auto read = GroupKey::parse(key.str());
    REQUIRE(read);
    CHECK(read->str() == key.str());
    CHECK(read->kind == key.kind);
    CHECK(read->frame == key.frame);
  }
  CHECK_FALSE(GroupKey::parse("g2|cut|main.py:run"));  // another version is not read as this one
  CHECK_FALSE(GroupKey::parse("g1|what|x"));
  CHECK_FALSE(GroupKey::parse("g1|exc|NoFrame"));
}

TEST_CASE("one failure in several SDK processes of a worker is one group that counts them", "[unit]") {
  // The corpus case's SDK process is sdk-0-0 throughout; here each of its entries names another of
  // four (Dataflow starts one SDK process per vCPU, and each meets the same bad input).
  std::string text = test::read_file(test::source_dir() + "/corpus/user-dofn-valueerror-python/export.json");
  int n = 0;
  const std::string from = "\"portability_worker_id\": \"sdk-0-0\"";
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + 1)) {
    text.replace(at, from.size(), "\"portability_worker_id\": \"sdk-0-" + std::to_string(n++ % 4) + "\"");
  }
  REQUIRE(n > 4);
  const Analysis d = test::analyze_text(text);
  const UnexplainedGroup& g = top_group(d);
  CHECK(g.exception_type == "ValueError");
  CHECK(g.workers_total == 2);
  CHECK(g.sdk_processes > g.workers_total);
  const RankedReport report = rank(d);
  CHECK(report.verdict_line.find(fmt::format("8 entries on 2 workers ({} SDK processes)", g.sdk_processes)) !=
        std::string::npos);
  // The unchanged case names one process per worker: nothing is said of processes.
  const Analysis plain = test::analyze_case("corpus/user-dofn-valueerror-python");
  CHECK(top_group(plain).sdk_processes == 2);
  CHECK(rank(plain).verdict_line.find("SDK processes") == std::string::npos);
}

// A streaming job retries a failing bundle without end and never fails by itself: the same
// exception still coming back at the end of the export is the job's failure (hs10-06). Pillow's
// Image.open raises this for bytes no plugin identifies (src/PIL/Image.py, `cannot identify image
// file %r`); the frames around it are composed.
TEST_CASE("a streaming job that keeps retrying the same exception is not ok", "[unit]") {
  const std::string error =
      "Error processing instruction process_bundle-7. Original traceback is\nTraceback (most recent call last):\n"
      "  File \"/app/listing/photos.py\", line 41, in process\n    image = Image.open(io.BytesIO(data))\n"
      "  File \"/usr/local/lib/python3.11/site-packages/PIL/Image.py\", line 3580, in open\n"
      "    raise UnidentifiedImageError(msg)\n"
      "PIL.UnidentifiedImageError: cannot identify image file <_io.BytesIO object at 0x7f06e0ab22b0> "
      "[while running 'DecodeImage']\n";
  const auto export_of = [&](bool streaming, int copies, int error_every_minutes, int quiet_hours) {
    std::string text = test::log_entry_line(
        "2025-10-14T07:10:00Z", "worker",
        fmt::format("Pipeline_options: {{'runner': 'DataflowRunner', 'streaming': {}, 'project': 'p'}}",
                    streaming ? "True" : "False"));
    int minute = 20;
    for (int i = 0; i < copies; ++i, minute += error_every_minutes)
      text += test::log_entry_line(fmt::format("2025-10-14T{:02}:{:02}:00Z", 7 + minute / 60, minute % 60), "worker",
                                   error, "ERROR");
    const int last = minute + quiet_hours * 60;
    text += test::log_entry_line(fmt::format("2025-10-14T{:02}:{:02}:30Z", 7 + last / 60, last % 60), "worker",
                                 "Processing bundle", "INFO");
    return text;
  };
  SECTION("six copies to the end of a streaming export: failed, the exception first") {
    const Analysis d = test::analyze_text(export_of(true, 6, 45, 0), "export.ndjson");
    CHECK(verdict_of(d) == Verdict::kFailed);
    CHECK(top_group(d).severity == Impact::kError);
    CHECK(top_group(d).exception_type == "PIL.UnidentifiedImageError");
  }
  SECTION("the same in a batch job that did not fail: ok, the group at info") {
    const Analysis d = test::analyze_text(export_of(false, 6, 45, 0), "export.ndjson");
    CHECK(verdict_of(d) == Verdict::kOk);
    CHECK(top_group(d).severity == Impact::kInfo);
  }
  SECTION("three copies are retries that may have worked") {
    CHECK(verdict_of(test::analyze_text(export_of(true, 3, 45, 0), "export.ndjson")) == Verdict::kOk);
  }
  SECTION("copies that stopped long before the export ends: the job went on") {
    CHECK(verdict_of(test::analyze_text(export_of(true, 6, 5, 10), "export.ndjson")) == Verdict::kOk);
  }
}

// pydantic's ValidationError names the model on its first line and each error's reason on the lines
// after it; vLLM's engine arguments are pydantic dataclasses (vllm-project/vllm#26161, 0.10.2). The
// reason is the cause, not the count nor the docs link nor a field's location.
TEST_CASE("pydantic's ValidationError is read through to its reason", "[unit]") {
  // The cause the unexplained stage names for the ValidationError followed by `reason_lines`.
  const auto cause_of = [](const std::string& reason_lines) {
    const std::string error =
        "Traceback (most recent call last):\n"
        "  File \"/usr/local/lib/python3.12/dist-packages/vllm/engine/arg_utils.py\", line 963, in "
        "create_model_config\n    return ModelConfig(\n"
        "  File \"/usr/local/lib/python3.12/dist-packages/pydantic/_internal/_dataclasses.py\", line 123, in "
        "__init__\n    s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)\n"
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig\n" +
        reason_lines;
    const Analysis d =
        test::analyze_text(test::log_entry_line("2025-10-03T08:12:44Z", "worker", error, "ERROR"), "export.ndjson");
    return top_group(d).cause;
  };
  // A model-level error: the Value error line.
  CHECK_THAT(cause_of("  Value error, Expecting value: line 1 column 1 (char 0) [type=value_error, "
                      "input_value=ArgsKwargs((), {'model': ...}), input_type=ArgsKwargs]\n"
                      "    For further information visit https://errors.pydantic.dev/2.12/v/value_error"),
             Catch::StartsWith("Value error, Expecting value: line 1 column 1"));
  // A field's error: the reason under the field's location.
  CHECK_THAT(cause_of("max_model_len\n  Input should be a valid integer [type=int_parsing, input_value='8k', "
                      "input_type=str]\n"
                      "    For further information visit https://errors.pydantic.dev/2.12/v/int_parsing"),
             Catch::StartsWith("Input should be a valid integer"));
}

// pip's advisories go to stderr, so Dataflow's docker log has them at ERROR; every install as root in
// a container prints them (pypa/pip req_command.py warn_if_run_as_root, self_outdated_check.py). A
// failed job's verdict named one before the failure no rule knew (hs13-03).
TEST_CASE("pip's advisories on stderr are never errors no rule explains", "[unit]") {
  std::string text;
  int second = 0;
  for (const char* line :
       {"WARNING: Running pip as the 'root' user can result in broken permissions and conflicting behaviour with the "
        "system package manager, possibly rendering your system unusable. It is recommended to use a virtual "
        "environment instead: https://pip.pypa.io/warnings/venv. Use the --root-user-action option if you know what "
        "you are doing and want to suppress this warning.",
        "WARNING: Running pip as root will break packages and permissions. You should install packages reliably by "
        "using venv: https://pip.pypa.io/warnings/venv",
        "[notice] A new release of pip is available: 24.0 -> 25.2",
        "[notice] To update, run: pip install --upgrade pip",
        "WARNING: You are using pip version 21.2.4; however, version 22.0.3 is available."}) {
    text += test::log_entry_line(fmt::format("2025-11-12T09:05:{:02}Z", second++), "docker", line, "ERROR", "w-1");
  }
  text +=
      test::log_entry_line("2025-11-12T09:06:00Z", "worker", "ValueError: unknown scheduler 'cosine2'", "ERROR", "w-1");
  const Analysis d = test::analyze_text(text, "export.ndjson");
  REQUIRE(d.unexplained.size() == 1);
  CHECK_THAT(d.unexplained.front().template_text, Catch::Contains("unknown scheduler"));
}
