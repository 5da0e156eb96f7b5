// Reports: the JSON contract, and log text that cannot break out of its format.
#include "gpudiag/report.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <catch2/catch.hpp>

#include "test_support.h"

using namespace gpudiag;

namespace {

const char* kHostile =
    R"({"timestamp":"2024-01-01T00:10:00Z","severity":"ERROR","logName":"projects/p/logs/dataflow.googleapis.com%2Fworker",)"
    R"("jsonPayload":{"message":"RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB \u001b[31mRED\u001b[0m <script>alert(1)</script> ]]> ::error::x | pipe \u0007 \"quoted\""}})"
    "\n";

}  // namespace

TEST_CASE("the JSON report is valid JSON with the documented schema name", "[unit][reports]") {
  const Analysis d = test::analyze_text(kHostile);
  const RankedReport r = rank(d);
  const std::string json = render_json(r, RenderOptions{.deterministic = true});
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  REQUIRE(parser.parse(json).get(root) == simdjson::SUCCESS);
  CHECK(std::string_view(root["schema"]) == "gpudiag.report/v1");
  simdjson::dom::array findings = root["findings"];
  REQUIRE(findings.size() == 1);
  simdjson::dom::element f = findings.at(0);
  CHECK(std::string_view(f["rule_id"]) == "gpu-out-of-memory");
  CHECK(std::string_view(f["severity"]) == "error");
  simdjson::dom::element e = f["evidence"].at(0);
  CHECK(int64_t(e["line"]) == 1);
  CHECK_THAT(std::string(std::string_view(e["message"])), Catch::Contains("\x1b[31mRED"));  // kept, but escaped in JSON
  CHECK(json.find('\x1b') == std::string::npos);
  CHECK(std::string_view(root["verdict"]) == "failed");
  simdjson::dom::array fixes = root["fixes"];
  CHECK(fixes.size() >= 1);
  CHECK(int64_t(fixes.at(0)["rank"]) == 1);
}

TEST_CASE("the text report never passes control characters from logs to the terminal", "[unit][reports]") {
  const Analysis d = test::analyze_text(kHostile);
  const std::string text = render_text(rank(d), RenderOptions{.color = false, .deterministic = true});
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find('\x07') == std::string::npos);
  CHECK_THAT(text, Catch::Contains("\\x1b[31mRED"));
}

TEST_CASE("terminal_safe and crop_middle", "[unit][reports]") {
  CHECK(terminal_safe("a\x1b[2Jb\rc") == "a\\x1b[2Jb\\x0dc");
  CHECK(terminal_safe("\xc2\x9b"
                      "31m") == "\\u009b31m");  // C1 CSI
  CHECK(terminal_safe("héllo ✓") == "héllo ✓");
  CHECK(terminal_safe("x\x1b]0;title\x07\x1b[2J.json") == "x\\x1b]0;title\\x07\\x1b[2J.json");
  CHECK(terminal_safe("a\u202Eevil\u202C \u2066i\u2069 z\u200Bw \uFEFF\u061C") ==
        "a<U+202E>evil<U+202C> <U+2066>i<U+2069> z<U+200B>w <U+FEFF><U+061C>");
  CHECK(terminal_safe("bad \xff byte, cut \xe2\x82") == "bad \uFFFD byte, cut \uFFFD");  // one per ill-formed subpart
  CHECK(terminal_safe("a\tb\nc") == "a  b\\x0ac");
  CHECK(terminal_safe_lines("error: x\x1b[2J\n --> a\u202E.json\n") == "error: x\\x1b[2J\n --> a<U+202E>.json\n");
  const std::string cropped = crop_middle(std::string(50, 'a') + "é" + std::string(50, 'b'), 51);
  CHECK_THAT(cropped, Catch::Contains("bytes cut"));
  CHECK(crop_middle("short", 10) == "short");
}

TEST_CASE("a healthy export gives an OK verdict", "[unit][reports]") {
  const Analysis d = test::analyze_text(
      R"({"timestamp":"2024-01-01T00:00:00Z","logName":"projects/p/logs/dataflow.googleapis.com%2Fjob-message","textPayload":"Workers have started successfully."})"
      "\n");
  const RankedReport r = rank(d);
  CHECK(r.verdict == Verdict::kOk);
  CHECK_THAT(r.verdict_line, Catch::StartsWith("OK"));
}

// A streaming job never succeeds: its "succeeded" is the teardown after a drain or a cancel, and the
// verdict line must not say that the job reported success (hs13-05).
TEST_CASE("a stopped streaming job's verdict says it was stopped, a batch job's that it succeeded", "[unit]") {
  const auto export_of = [](bool streaming) {
    return test::log_entry_line(
               "2025-10-07T11:00:00Z", "worker",
               fmt::format("Pipeline_options: {{'runner': 'DataflowRunner', 'streaming': {}, 'project': 'p'}}",
                           streaming ? "True" : "False")) +
           test::log_entry_line("2025-10-07T11:20:00Z", "worker",
                                "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB", "ERROR", "w-1") +
           test::log_entry_line("2025-10-07T12:05:00Z", "job-message", "Worker pool stopped.");
  };
  const Analysis stream = test::analyze_text(export_of(true), "export.ndjson");
  REQUIRE(stream.job.outcome == JobOutcome::kSucceeded);
  CHECK_THAT(rank(stream).verdict_line, Catch::StartsWith("FAILED — the streaming job was stopped, but: "));
  const Analysis batch = test::analyze_text(export_of(false), "export.ndjson");
  REQUIRE(batch.job.outcome == JobOutcome::kSucceeded);
  CHECK_THAT(rank(batch).verdict_line, Catch::StartsWith("WARNING — the job succeeded, but: "));
}
