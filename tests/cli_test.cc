// The command line: exit codes are a contract (0 ok, 1 gate tripped, 2 usage/input/rule error).
#include <fmt/format.h>

#include <array>
#include <catch2/catch.hpp>
#include <filesystem>

#include "test_support.h"

using namespace gpudiag;
using test::run_gpudiag;

TEST_CASE("analyze on a healthy export exits 0 even with --fail-on", "[cli]") {
  const auto r = run_gpudiag({"analyze", "--fail-on", "warning", "corpus/healthy-gpu-t4-tensorflow/export.json"});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("verdict: OK"));
}

TEST_CASE("the fail-on gate trips with exit 1, without it findings exit 0", "[cli]") {
  const std::string input = "corpus/gpu-oom-pytorch-runinference/export.json";
  CHECK(run_gpudiag({"analyze", input}).exit_code == 0);
  CHECK(run_gpudiag({"analyze", "--fail-on", "error", input}).exit_code == 1);
  CHECK(run_gpudiag({"analyze", "--fail-on", "critical", input}).exit_code == 0);
  CHECK(run_gpudiag({"analyze", "--format", "json", "--fail-on", "error", input}).exit_code == 1);
}

TEST_CASE("input errors exit 2 and name the file", "[cli]") {
  const auto missing = run_gpudiag({"analyze", "no/such/file.json"});
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("no/such/file.json"));

  const std::string dir = test::temp_dir();
  test::write_file(dir + "/notes.txt", "these are not logs\n");
  const auto not_json = run_gpudiag({"analyze", dir + "/notes.txt"});
  CHECK(not_json.exit_code == 2);
  CHECK_THAT(not_json.err, Catch::Contains("notes.txt:1"));
}

TEST_CASE("usage errors exit 2", "[cli]") {
  CHECK(run_gpudiag({}).exit_code == 2);
  CHECK(run_gpudiag({"analyze"}).exit_code == 2);
  CHECK(run_gpudiag({"analyze", "--format", "yaml", "x.json"}).exit_code == 2);
  CHECK(run_gpudiag({"frobnicate"}).exit_code == 2);
}

TEST_CASE("stdin is read with -", "[cli]") {
  const auto r = run_gpudiag({"analyze", "--deterministic", "--format", "json", "-"},
                             test::source_dir() + "/corpus/gpu-oom-pytorch-runinference/export.json");
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("\"rule_id\": \"gpu-out-of-memory\""));
}

TEST_CASE("the CLI prints what the golden files hold", "[cli]") {
  const std::string dir = "corpus/zone-pool-exhausted-t4-retrying";
  const auto r = run_gpudiag({"analyze", "--deterministic", "--format", "json", dir + "/export.json"});
  CHECK(r.exit_code == 0);
  CHECK(r.out == test::read_file(test::source_dir() + "/" + dir + "/expected.json"));
}

TEST_CASE("rules test and lint pass, a broken rules directory exits 2", "[cli]") {
  // Under the sanitizers the [rules] tests prove every example in-process; `rules test` over the
  // whole pack there took 108 s (beside other work), RE2's many-match DFA states being 212 KB
  // blocks that ASan maps and unmaps one by one (docs/performance.md, sixth stop).
  if (!test::kSanitized) CHECK(run_gpudiag({"rules", "test"}).exit_code == 0);
  CHECK(run_gpudiag({"rules", "lint"}).exit_code == 0);
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/bad.yaml", "id: Bad Id\n");
  const auto bad = run_gpudiag({"rules", "lint", "--rules", dir});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.out, Catch::Contains("bad.yaml:1"));
  CHECK(run_gpudiag({"analyze", "--rules", dir, "corpus/empty-export/export.json"}).exit_code == 2);
}

TEST_CASE("version and explain print and exit 0", "[cli]") {
  const auto v = run_gpudiag({"--version"});
  CHECK(v.exit_code == 0);
  CHECK_THAT(v.out, Catch::StartsWith("gpudiag "));
  const auto e = run_gpudiag({"explain", "gpu-out-of-memory"});
  CHECK(e.exit_code == 0);
  CHECK_THAT(e.out, Catch::Contains("https://cloud.google.com/dataflow/docs/"));
  CHECK(run_gpudiag({"explain", "no-such-rule"}).exit_code == 2);
}

TEST_CASE("report writes several formats from one analysis with analyze's exit code", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string oom = "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json";
  const auto r =
      run_gpudiag({"report", "--deterministic", oom, "-o", dir + "/pm.html", "-o", dir + "/pm.md", "-o",
                   dir + "/pm.sarif", "-o", dir + "/junit.xml", "-o", dir + "/pm.json", "-o", dir + "/pm.txt"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.empty());
  CHECK_THAT(test::read_file(dir + "/pm.html"), Catch::StartsWith("<!DOCTYPE html>"));
  CHECK_THAT(test::read_file(dir + "/pm.md"), Catch::StartsWith("## ❌ gpudiag: FAILED"));
  CHECK_THAT(test::read_file(dir + "/pm.sarif"), Catch::Contains("\"version\": \"2.1.0\""));
  CHECK_THAT(test::read_file(dir + "/junit.xml"), Catch::Contains("<testsuite "));
  CHECK_THAT(test::read_file(dir + "/pm.json"), Catch::Contains("gpudiag.report/v1"));
  CHECK_THAT(test::read_file(dir + "/pm.txt"), Catch::Contains("verdict: FAILED"));
  // -o - is stdout, in --format.
  const auto md = run_gpudiag({"report", "--deterministic", oom, "-o", "-", "--format", "md"});
  CHECK(md.exit_code == 0);
  CHECK(md.out == test::read_file(dir + "/pm.md"));
}

TEST_CASE("report and gate exit 0 / 1 / 2 for every format", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string oom = "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json";
  const std::string healthy = "corpus/healthy-gpu-t4-tensorflow/export.json";
  // Under the sanitizers each format takes two of its four runs, in turn, one of them on the failing
  // export: every exit is still checked in two formats or more, and every format renders a failure.
  using Pairs = std::array<std::array<size_t, 2>, 4>;
  constexpr Pairs kReportPairs{{{0, 2}, {1, 3}, {0, 3}, {1, 2}}};  // runs 0 and 1 are on the failing export
  constexpr Pairs kGatePairs{{{0, 1}, {2, 3}, {0, 3}, {2, 1}}};    // runs 0 and 2 are
  size_t turn = 0;
  const auto sampled = [&](size_t run, const Pairs& pairs) {
    const auto& pair = pairs[turn % pairs.size()];
    return !test::kSanitized || run == pair[0] || run == pair[1];
  };
  for (const std::string ext : {"html", "md", "json", "sarif", "xml", "txt"}) {
    INFO(ext);
    ++turn;
    const std::string out = dir + "/out." + ext;
    if (sampled(0, kReportPairs)) CHECK(run_gpudiag({"report", oom, "-o", out}).exit_code == 0);
    if (sampled(1, kReportPairs)) CHECK(run_gpudiag({"report", "--fail-on", "error", oom, "-o", out}).exit_code == 1);
    if (sampled(2, kReportPairs))
      CHECK(run_gpudiag({"report", "--fail-on", "error", healthy, "-o", out}).exit_code == 0);
    if (sampled(3, kReportPairs)) CHECK(run_gpudiag({"report", "no/such/export.json", "-o", out}).exit_code == 2);
  }
  for (const std::string format : {"text", "json", "github", "md", "sarif", "junit", "html"}) {
    INFO(format);
    ++turn;
    if (sampled(0, kGatePairs)) CHECK(run_gpudiag({"gate", "--format", format, oom}).exit_code == 1);
    if (sampled(1, kGatePairs)) CHECK(run_gpudiag({"gate", "--format", format, healthy}).exit_code == 0);
    if (sampled(2, kGatePairs))
      CHECK(run_gpudiag({"gate", "--format", format, "--fail-on", "critical", oom}).exit_code == 0);
    if (sampled(3, kGatePairs)) CHECK(run_gpudiag({"gate", "--format", format, "no/such/export.json"}).exit_code == 2);
  }
  CHECK(run_gpudiag({"report", oom}).exit_code == 2);                              // no -o
  CHECK(run_gpudiag({"report", oom, "-o", dir + "/out.unknown"}).exit_code == 2);  // no format to tell
  CHECK(run_gpudiag({"report", oom, "-o", "-"}).exit_code == 2);
  CHECK(run_gpudiag({"gate", "--format", "yaml", oom}).exit_code == 2);
  CHECK(run_gpudiag({"report", oom, "-o", dir + "/no/such/dir/x.html"}).exit_code == 2);
}

TEST_CASE("gate: annotations on stdout, files besides, and a baseline of accepted findings", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string oom = "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json";
  const auto gh = run_gpudiag({"gate", "--deterministic", "--format", "github", oom, "-o", dir + "/junit.xml"});
  CHECK(gh.exit_code == 1);
  CHECK(gh.out == test::read_file(test::source_dir() +
                                  "/corpus/gpu-oom-then-sdk-disconnected-work-item-failed/expected.github.txt") +
                      "gpudiag: gate tripped: 3 findings at or above error (gpu-out-of-memory, workflow-failed, "
                      "work-item-failed)\n");
  CHECK_THAT(test::read_file(dir + "/junit.xml"), Catch::Contains("failures=\"3\""));

  // Accept the three error findings: the gate passes, and says what it suppressed.
  const auto json = run_gpudiag({"analyze", "--format", "json", oom});
  std::string accepted = "suppress:\n";
  for (const std::string rule : {"gpu-out-of-memory", "workflow-failed", "work-item-failed"}) {
    const size_t at = json.out.find("\"fingerprint\": \"" + rule + "/");
    REQUIRE(at != std::string::npos);
    const size_t start = json.out.find(rule + "/", at);
    accepted += fmt::format("  - rule: {}\n    fingerprint: {}\n    reason: known in staging\n", rule,
                            json.out.substr(start, json.out.find('"', start) - start));
  }
  test::write_file(dir + "/baseline.yaml",
                   accepted + "  - rule: gpu-xid-error\n    fingerprint: gpu-xid-error/1\n    reason: old\n");
  const auto pass = run_gpudiag({"gate", "--baseline", dir + "/baseline.yaml", oom});
  CHECK(pass.exit_code == 0);
  CHECK_THAT(pass.out,
             Catch::Contains("gate: passed: no finding at or above error; 3 findings suppressed by the baseline"));
  CHECK_THAT(pass.out, Catch::Contains("gpu-xid-error unused"));
  // Expired entries no longer suppress.
  test::write_file(dir + "/expired.yaml", accepted + "    expires: 2000-01-01\n");
  CHECK(run_gpudiag({"gate", "--baseline", dir + "/expired.yaml", oom}).exit_code == 1);
  // A broken baseline is an input error with its place.
  test::write_file(dir + "/broken.yaml", "suppress:\n  - rule: gpu-out-of-memory\n    reason: x\n");
  const auto broken = run_gpudiag({"gate", "--baseline", dir + "/broken.yaml", oom});
  CHECK(broken.exit_code == 2);
  CHECK_THAT(broken.err, Catch::Contains("broken.yaml:2:5"));
  CHECK_THAT(broken.err, Catch::Contains("the entry has no `fingerprint`"));
}

TEST_CASE("the CLI writes what the format goldens hold", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string c = "corpus/flex-start-capacity-timeout-jobjson";
  const auto r = run_gpudiag({"report", "--deterministic", "--job", c + "/job.json", c + "/export.ndjson", "-o",
                              dir + "/x.html", "-o", dir + "/x.md", "-o", dir + "/x.sarif", "-o", dir + "/x.xml"});
  CHECK(r.exit_code == 0);
  for (const auto& [mine, golden] : {std::pair{"x.html", "expected.html"},
                                     {"x.md", "expected.md"},
                                     {"x.sarif", "expected.sarif"},
                                     {"x.xml", "expected.junit.xml"}}) {
    INFO(golden);
    CHECK(test::read_file(dir + "/" + mine) == test::read_file(test::source_dir() + "/" + c + "/" + golden));
  }
}

namespace {

// A control byte that would reach the terminal raw: C0 (newlines and tabs aside), DEL, or the
// UTF-8 of a C1 control.
bool has_raw_control(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) return true;
    if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(s[i + 1]) <= 0x9F)
      return true;
  }
  return false;
}

}  // namespace

TEST_CASE("a file name with escape sequences never reaches the terminal raw", "[cli]") {
  // Sets the window title, then clears the screen, when printed as it is.
  const std::string crafted = "x\x1b]0;pwned\x07\x1b[2J";
  const std::string dir = test::temp_dir();
  const std::string input = dir + "/" + crafted + ".json";
  test::write_file(
      input,
      R"({"timestamp":"2024-01-01T00:10:00Z","severity":"ERROR","logName":"projects/p/logs/dataflow.googleapis.com%2Fworker","jsonPayload":{"message":"RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB"}})"
      "\n{\"broken\": }\n" +  // skipped: a malformed entry before the last one is not a cut export
          test::log_entry_line("2024-01-01T00:10:01Z", "worker", "Processing") +
          "\n");
  const std::string shown = "x\\x1b]0;pwned\\x07\\x1b[2J.json";

  SECTION("analyze: evidence locations and input problems") {
    const auto r = run_gpudiag({"analyze", input});
    CHECK(r.exit_code == 0);
    CHECK_FALSE(has_raw_control(r.out));
    CHECK_FALSE(has_raw_control(r.err));
    CHECK_THAT(r.out, Catch::Contains(shown + ":1"));  // the evidence's location
    CHECK_THAT(r.out, Catch::Contains(shown + ":2"));  // the skipped entry, under "Input problems"
  }
  SECTION("report -o x.md") {
    const auto r = run_gpudiag({"report", input, "-o", dir + "/x.md"});
    CHECK(r.exit_code == 0);
    CHECK_FALSE(has_raw_control(r.out));
    CHECK_FALSE(has_raw_control(r.err));
    CHECK_FALSE(has_raw_control(test::read_file(dir + "/x.md")));
  }
  SECTION("rules show, rules list and explain: a rule directory's path and its text") {
    const std::string rules = dir + "/" + crafted + ".rules";
    std::filesystem::create_directory(rules);
    test::write_file(rules + "/r.yaml", R"(id: crafted-rule
title: "Disk full \e]0;pwned\a"
family: runtime
severity: warning
confidence: 0.5
description: A rule written by a test.
match:
  message: 'disk full'
fixes:
  - id: nothing
    action: Nothing
    why: A test.
    doc: {title: T, section: S, url: 'https://cloud.google.com/dataflow/docs'}
examples:
  match: ['disk full']
  no_match: ['disk ok']
sources: ['tests']
)");
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"rules", "show", "crafted-rule", "--rules", rules},
          std::vector<std::string>{"rules", "list", "--rules", rules},
          std::vector<std::string>{"explain", "crafted-rule", "--rules", rules}}) {
      INFO(args[1]);
      const auto r = run_gpudiag(args);
      INFO(r.err);
      CHECK(r.exit_code == 0);
      CHECK_FALSE(has_raw_control(r.out));
      CHECK_THAT(r.out, Catch::Contains("Disk full \\x1b]0;pwned\\x07"));
    }
    const auto shown_path = run_gpudiag({"rules", "show", "crafted-rule", "--rules", rules});
    CHECK_THAT(shown_path.out, Catch::Contains("defined in " + dir + "/" + shown.substr(0, shown.size() - 5)));
    const auto unknown = run_gpudiag({"explain", crafted});
    CHECK(unknown.exit_code == 2);
    CHECK_FALSE(has_raw_control(unknown.err));
  }
  SECTION("input errors on stderr: a missing file, a directory, a --job that does not exist") {
    std::filesystem::create_directory(dir + "/" + crafted + ".d");
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"analyze", dir + "/" + crafted + ".missing.json"},
          std::vector<std::string>{"analyze", dir + "/" + crafted + ".d"},
          std::vector<std::string>{"report", dir + "/" + crafted + ".missing.json", "-o", dir + "/y.md"},
          std::vector<std::string>{"analyze", "--job", dir + "/" + crafted + ".job.json", input}}) {
      INFO(args.back());
      const auto r = run_gpudiag(args);
      CHECK(r.exit_code == 2);
      CHECK_FALSE(has_raw_control(r.out));
      CHECK_FALSE(has_raw_control(r.err));
      CHECK_THAT(r.err, Catch::Contains("x\\x1b]0;pwned\\x07\\x1b[2J"));
    }
  }
}

#if defined(__x86_64__) && defined(__SSE4_2__) && defined(__PCLMUL__)
// gpudiag is compiled for the build machine's x86-64 level (as this test is): on a CPU without it,
// the binary says so and exits 2 before any of its other code runs (cli/cpu_level.cc). The CPU here
// has every feature; the test names one the check must treat as missing.
TEST_CASE("on a CPU older than the build's x86-64 level gpudiag says so and exits 2", "[cli]") {
  const std::string binary = test::shell_quote(GPUDIAG_BINARY);
  const auto r =
      test::run_shell("GPUDIAG_TEST_CPU_LACKS=pclmul " + binary + " analyze corpus/healthy-cpu-batch/export.json");
  CHECK(r.exit_code == 2);
  CHECK(r.out.empty());
  CHECK_THAT(r.err, Catch::StartsWith("gpudiag: this gpudiag was built for x86-64-v"));
  CHECK_THAT(r.err, Catch::Contains("this CPU lacks pclmul"));
  CHECK_THAT(r.err, Catch::Contains("-DGPUDIAG_MARCH=x86-64-v2"));
  // Without the pretence it runs.
  CHECK(test::run_shell(binary + " --version").exit_code == 0);
}
#endif
