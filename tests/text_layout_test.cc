// The text report's layout (issue 16): --brief on every corpus case fits 15 lines of 100 display
// columns, -q is the verdict line, --min-severity hides and counts, evidence comes before the
// explanation (folded to two lines), times are to the millisecond, paths are relative to the working
// directory, prose is wrapped to the width (log excerpts never), and the legend is printed exactly
// when the report used one of its notations.
#include "text_layout.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <regex>
#include <sstream>

#include "gpudiag/report.h"
#include "test_support.h"
#include "text_brief.h"

using namespace gpudiag;
using detail::display_width;

namespace {

constexpr const char* kOomCase = "corpus/gpu-oom-then-sdk-disconnected-work-item-failed";

// Real log text. apache/beam#22811 (2022-08-22): PyTorch's CUDA OOM inside Beam RunInference, longer
// than an excerpt line, so the report cuts it.
const std::string kLongOom =
    "CUDA out of memory. Tried to allocate 16.00 MiB (GPU 0; 39.59 GiB total capacity; 666.60 MiB already "
    "allocated; 13.19 MiB free; 682.00 MiB reserved in total by PyTorch) If reserved memory is >> allocated memory "
    "try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and "
    "PYTORCH_CUDA_ALLOC_CONF";
// RAPIDS/RMM's out-of-memory error (rapidsai/cudf; ../shared/reference/dataflow-log-signatures.md,
// b2): short enough to be shown whole.
const std::string kShortOom =
    "std::bad_alloc: CUDA error at: ../include/rmm/mr/device/cuda_memory_resource.hpp:70: "
    "cudaErrorMemoryAllocation out of memory";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string render_case(const std::string& dir, RenderOptions o) {
  const Analysis d = test::analyze_case(dir);
  return render_text(rank(d), o);
}

std::string render_export(const std::string& ndjson, RenderOptions o = {.deterministic = true}) {
  const Analysis d = test::analyze_text(ndjson, "export.ndjson");
  return render_text(rank(d), o);
}

std::string legend_of(const std::string& text) {
  const size_t at = text.find("\nlegend: ");
  return at == std::string::npos ? "" : text.substr(at + 1);
}

}  // namespace

TEST_CASE("display columns count wide characters twice and colour codes not at all", "[unit][reports]") {
  CHECK(display_width("plain") == 5);
  CHECK(display_width("…") == 1);
  CHECK(display_width("日本語のログ") == 12);
  CHECK(display_width("실패") == 4);
  CHECK(display_width("e\u0301") == 1);  // a combining accent
  CHECK(display_width("\x1b[1;31mFAILED\x1b[0m") == 6);
  CHECK(detail::crop_columns("日本語のログ", 7) == "日本 …");
  CHECK(detail::crop_columns("short", 7) == "short");
}

TEST_CASE("prose is wrapped and folded to the width with its tail", "[unit][reports]") {
  const std::string text = "one two three four five six seven eight nine ten";
  CHECK(detail::wrap_prose(text, "> ", "  ", 16) == "> one two three\n  four five six\n  seven eight\n  nine ten\n");
  bool cut = false;
  const auto folded = detail::fold_prose(text, "> ", "  ", 16, 2, " …", &cut);
  CHECK(cut);
  CHECK(folded == std::vector<std::string>{"> one two three", "  four five …"});
  cut = false;
  CHECK(detail::fold_prose("one two", "", "", 16, 2, " …", &cut) == std::vector<std::string>{"one two"});
  CHECK_FALSE(cut);
  CHECK(detail::time_ms(1'669'673'127'200'089'000) == "2022-11-28T22:05:27.200Z");
  CHECK(detail::time_ms(1'669'673'127'000'000'000) == "2022-11-28T22:05:27.000Z");
}

TEST_CASE("a coloured phrase wrapped over lines is reset before each newline and opened again", "[unit][reports]") {
  const std::string dim = "\x1b[2m", reset = "\x1b[0m";
  const std::string text = dim + "rank: proposed for host-out-of-memory and for gpu-out-of-memory" + reset + " done";
  const std::string out = detail::wrap_prose(text, "     ", "     ", 30);
  // Each line the phrase reaches ends with a reset; the next opens the colour again after its indent.
  CHECK(out == "     " + dim + "rank: proposed for" + reset + "\n" +          //
                   "     " + dim + "host-out-of-memory and" + reset + "\n" +  //
                   "     " + dim + "for gpu-out-of-memory" + reset + "\n" +   //
                   "     done\n");
  // Plain prose gains no colour codes.
  CHECK(detail::wrap_prose("a b c d e f g h i j k l m n o p", "", "", 6).find('\x1b') == std::string::npos);
}

TEST_CASE("the brief report fits 15 lines of 100 columns on every corpus case", "[unit][reports]") {
  for (const auto& dir : test::corpus_cases()) {
    const Analysis d = test::analyze_case(dir);
    const RankedReport report = rank(d);
    for (const size_t width : {size_t{80}, size_t{200}}) {
      RenderOptions o{.deterministic = true};
      o.text_detail = TextDetail::kBrief;
      o.width = width;
      const std::string brief = render_text(report, o);
      INFO(dir << " at width " << width << ":\n" << brief);
      const auto lines = lines_of(brief);
      CHECK(lines.size() <= detail::kBriefLines);
      CHECK(lines.size() >= 2);
      for (const auto& line : lines) CHECK(display_width(line) <= std::min<size_t>(width, detail::kBriefColumns));
      // The verdict follows the header; the first fix of a cause is there when there is one.
      CHECK(lines[1].rfind(report.verdict_line.substr(0, 6), 0) == 0);
      bool cause_fix = false;
      for (const auto& rf : report.findings) cause_fix = cause_fix || (rf.depth == 0 && !rf.fixes.empty());
      if (cause_fix) CHECK(brief.find("\nfix: ") != std::string::npos);
      // A cause's rule id is never cut: the title gives way (users search and baseline by the id).
      for (const auto& rf : report.findings) {
        if (rf.depth > 0 || rf.caused_by_unexplained) continue;
        if (brief.find(fmt::format("\n{}. [", rf.rank)) == std::string::npos) continue;
        CHECK_THAT(brief, Catch::Contains(fmt::format("({}),", rf.finding->rule_id)));
      }
    }
  }
}

TEST_CASE("a brief cause too long for its line wraps and its title gives way before its rule id", "[unit][reports]") {
  // corpus/hostile-log-text: the malformed accelerator's title quotes the whole option value.
  const Analysis d = test::analyze_case("corpus/hostile-log-text");
  const RankedReport report = rank(d);  // it points into d
  RenderOptions o{.deterministic = true};
  o.text_detail = TextDetail::kBrief;
  o.width = 60;
  const std::string brief = render_text(report, o);
  INFO(brief);
  CHECK_THAT(brief, Catch::Contains(" (accelerator-option-malformed), from the job's"));
  CHECK_THAT(brief, Catch::Contains("\n1. [ERROR] worker_accelerator value is not in the expected\n  form: … ("));
  for (const auto& line : lines_of(brief)) CHECK(display_width(line) <= 60);
}

TEST_CASE("the brief report with several jobs lists the failed ones and counts the healthy", "[unit][reports]") {
  RenderOptions o{.deterministic = true};
  o.text_detail = TextDetail::kBrief;
  const std::string brief = render_case("corpus/multi-job-stockout-beside-healthy", o);
  CHECK_THAT(brief, Catch::Contains("\n  FAILED thumbnail-embeddings-t4: No capacity in zone us-central1-b: the GPU"));
  CHECK_THAT(brief, Catch::Contains("\n  1 healthy\n"));
  CHECK(brief.find("wordcount-logs-hourly") == std::string::npos);  // the healthy job is only counted
}

TEST_CASE("the quiet report prints the verdict line alone", "[unit][reports]") {
  RenderOptions o{.deterministic = true};
  o.text_detail = TextDetail::kVerdict;
  CHECK(render_case(kOomCase, o) == "FAILED — most likely cause: GPU ran out of memory\n");
  for (const auto& dir : test::corpus_cases()) {
    INFO(dir);
    const std::string verdict = render_case(dir, o);
    CHECK(std::count(verdict.begin(), verdict.end(), '\n') == 1);
  }
}

TEST_CASE("a minimum severity hides the findings below it and says how many", "[unit][reports]") {
  RenderOptions o{.deterministic = true};
  o.min_severity = Impact::kError;
  const std::string text = render_case(kOomCase, o);
  CHECK_THAT(text, Catch::Contains("2 findings below error not shown (--min-severity error"));
  CHECK_THAT(text, Catch::Contains("Findings (3), most likely cause first"));
  CHECK(text.find("(sdk-harness-disconnected)") == std::string::npos);  // a warning
  CHECK(text.find("(worker-lost-contact)") == std::string::npos);
  CHECK_THAT(text, Catch::Contains("(work-item-failed)"));  // an error
  o.text_detail = TextDetail::kBrief;
  o.min_severity = Impact::kCritical;
  const std::string brief = render_case(kOomCase, o);
  CHECK_THAT(brief, Catch::Contains("5 below critical hidden (--min-severity)"));
  CHECK(brief.find("(gpu-out-of-memory)") == std::string::npos);
  CHECK(brief.find("\nfix: ") == std::string::npos);  // the fixes of hidden causes go with them
  // Without it nothing is hidden, and nothing says so.
  CHECK(render_case(kOomCase, {.deterministic = true}).find("not shown (--min-severity") == std::string::npos);
}

TEST_CASE("the default report shows a cause's evidence before its explanation folded to two lines", "[unit][reports]") {
  const std::string text = render_case(kOomCase, {.deterministic = true});
  const size_t evidence = text.find("RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB");
  const size_t explanation = text.find("   Code on a worker asked the GPU for more memory than was free");
  REQUIRE(evidence != std::string::npos);
  REQUIRE(explanation != std::string::npos);
  CHECK(evidence < explanation);
  const auto lines = lines_of(text.substr(explanation));
  CHECK_THAT(lines[1], Catch::EndsWith("… (gpudiag explain gpu-out-of-memory for the rest)"));
  CHECK_THAT(lines[2], Catch::StartsWith("   fix: "));
  CHECK(text.find("the Java libraries (DJL") == std::string::npos);  // the rest of the explanation
}

TEST_CASE("the text report gives times to the millisecond", "[unit][reports]") {
  const std::string text = render_case(kOomCase, {.deterministic = true});
  CHECK_THAT(text, Catch::Contains("time span: 2022-11-28T22:05:41.200Z … 2022-11-28T22:24:25.700Z (18m44s)"));
  CHECK_THAT(text, Catch::Contains("1 entry, 2022-11-28T22:22:47.200Z\n"));  // logged as …47.200575250Z
  CHECK_FALSE(std::regex_search(text, std::regex(R"(T\d\d:\d\d:\d\d(\.\d{1,2}|\.\d{4,})?Z)")));
}

TEST_CASE("prose is wrapped to the width and log excerpts are not", "[unit][reports]") {
  RenderOptions o{.deterministic = true};
  o.width = 60;
  const std::string text = render_case(kOomCase, o);
  const std::string excerpt =
      "RuntimeError: CUDA out of memory. Tried to allocate 602.00 MiB (GPU 0; 5.70 GiB total capacity; 2.97 GiB "
      "already allocated; 340.50 MiB free; 3.57 GiB reserved in total by PyTorch)";
  CHECK_THAT(text, Catch::Contains("\n       " + excerpt));  // one line, over 60 columns
  for (const auto& line : lines_of(text)) {
    // Prose: the explanation, the fixes and their reasons.
    if (line.rfind("   Code on a worker", 0) == 0 || line.rfind("     why: ", 0) == 0 || line.rfind("  1. ", 0) == 0) {
      INFO(line);
      CHECK(display_width(line) <= 60);
    }
  }
  o.width = 200;
  CHECK_THAT(render_case(kOomCase, o),
             Catch::Contains("   Code on a worker asked the GPU for more memory than was free, and the framework gave "
                             "up: PyTorch raises \"CUDA out of memory\", TensorFlow \"OOM when allocating tensor\", "
                             "JAX/XLA"));
}

TEST_CASE("inputs under the working directory are shown relative to it", "[unit][reports]") {
  const std::string dir = test::temp_dir();
  test::write_file(dir + "/logs.ndjson",
                   test::log_entry_line("2024-01-01T00:10:00.123456789Z", "worker", kShortOom, "ERROR", "w-1"));
  const Analysis d = analyze(test::builtin_pack(), {dir + "/logs.ndjson"}, {}).value();
  const RankedReport report = rank(d);
  RenderOptions o;
  o.working_directory = dir;
  CHECK_THAT(render_text(report, o), Catch::Contains(" logs.ndjson:1\n"));
  o.working_directory = dir + "/elsewhere";  // not under it: as given, or its name when deterministic
  CHECK_THAT(render_text(report, o), Catch::Contains(" " + dir + "/logs.ndjson:1\n"));
  o.deterministic = true;
  CHECK_THAT(render_text(report, o), Catch::Contains(" logs.ndjson:1\n"));
  CHECK(display_path(dir + "/sub/../logs.ndjson", RenderOptions{.working_directory = dir}) == "logs.ndjson");
}

TEST_CASE("the legend is printed exactly when the report uses a notation it explains", "[unit][reports]") {
  const auto entry = [](const std::string& message) {
    return test::log_entry_line("2024-01-01T00:10:00Z", "worker", message, "ERROR", "w-1");
  };
  // Shown whole: no notation, no legend.
  const std::string whole = render_export(entry(kShortOom));
  REQUIRE_THAT(whole, Catch::Contains(kShortOom));
  CHECK(legend_of(whole).empty());
  // Cut: the "…" entry, and only that one.
  const std::string cut = render_export(entry(kLongOom));
  CHECK_THAT(cut, Catch::Contains("reserved in total by PyTorch) If reserved memory is >> allocated memory try …"));
  CHECK(legend_of(cut) == "legend: … text left out (--format json has it whole)\n");
  // A colour code as a colouring logger writes it (ANSI escapes reach shipped logs:
  // whamcloud/integrated-manager-for-lustre#1736): shown as \x1b, and explained.
  const std::string control = render_export(entry("\x1b[31m" + kShortOom + "\x1b[0m"));
  CHECK_THAT(control, Catch::Contains("\\x1b[31mstd::bad_alloc"));
  CHECK(legend_of(control) == "legend: \\x1b a control character\n");
  // A bidi override (Trojan Source, CVE-2021-42574) after the message.
  const std::string invisible = render_export(entry(kShortOom + " \u202E"));
  CHECK(legend_of(invisible) == "legend: <U+202E> an invisible character\n");
  // Bytes that are not UTF-8.
  const std::string bad = render_export(entry(kShortOom + " \xff"));
  CHECK(legend_of(bad) == "legend: \uFFFD bytes that are not UTF-8\n");
  // Every corpus case: the legend's "…" entry exactly when an excerpt line was cut or folded.
  for (const auto& dir : test::corpus_cases()) {
    const std::string text = render_case(dir, {.deterministic = true});
    INFO(dir);
    bool excerpt_cut = false, in_excerpt = false;
    static const std::regex evidence_header(R"(^ {5,6}\d{4}-\d\d-\d\dT)");  // a cause's or a group's evidence
    for (const auto& line : lines_of(text)) {
      if (std::regex_search(line, evidence_header)) {
        in_excerpt = true;
        continue;
      }
      in_excerpt = in_excerpt && line.rfind("       ", 0) == 0;
      excerpt_cut = excerpt_cut || (in_excerpt && line.find("…") != std::string::npos);
    }
    if (excerpt_cut) CHECK(legend_of(text).find("… text left out") != std::string::npos);
  }
}

TEST_CASE("in a pipe the text report is as wide as COLUMNS says or else 80 columns", "[cli]") {
  const std::string input = "corpus/hostile-log-text/export.json";
  const auto widest = [](const std::string& text) {
    size_t most = 0;
    for (const auto& line : lines_of(text)) most = std::max(most, display_width(line));
    return most;
  };
  const auto with_columns = [&](const std::string& columns, const std::string& flags) {
    return test::run_shell(fmt::format("{}{} analyze {}{}", columns.empty() ? "" : "COLUMNS=" + columns + " ",
                                       test::shell_quote(GPUDIAG_BINARY), flags, input));
  };
  const auto brief = with_columns("", "--brief ");
  const auto wide_brief = with_columns("90", "--brief ");
  REQUIRE(brief.exit_code == 0);  // analyze without --fail-on
  REQUIRE(wide_brief.exit_code == 0);
  CHECK(widest(brief.out) <= 80);
  CHECK(widest(wide_brief.out) > 80);
  CHECK(widest(wide_brief.out) <= 90);
  CHECK(widest(with_columns("200", "--brief ").out) <= detail::kBriefColumns);  // readable on a wide screen
  // The full report wraps its prose to the same width (evidence lines keep their paths whole).
  const auto full = with_columns("", "");
  const auto wide_full = with_columns("140", "");
  CHECK(full.out != wide_full.out);
  CHECK_THAT(wide_full.out,
             Catch::Contains(fmt::format("\n{}\n", "legend: … text left out (--format json has it whole)")));
}

TEST_CASE("brief and quiet reports and a minimum severity leave the exit code alone", "[cli]") {
  const std::string input = std::string(kOomCase) + "/export.json";
  for (const std::string command : {"analyze", "gate"}) {
    INFO(command);
    const auto full = test::run_gpudiag({command, "--fail-on", "warning", input});
    const auto quiet = test::run_gpudiag({command, "--fail-on", "warning", "-q", input});
    const auto brief = test::run_gpudiag({command, "--fail-on", "warning", "--brief", input});
    const auto errors = test::run_gpudiag({command, "--fail-on", "warning", "--min-severity", "critical", input});
    CHECK(full.exit_code == 1);
    CHECK(quiet.exit_code == 1);
    CHECK(brief.exit_code == 1);
    CHECK(errors.exit_code == 1);  // the gate still sees the findings the report hides
    // With a threshold the line leads with the gate's result (issue 37).
    CHECK(quiet.out == "gate failed — FAILED — most likely cause: GPU ran out of memory\n");
    CHECK(lines_of(brief.out).size() <= detail::kBriefLines);
    CHECK_THAT(errors.out, Catch::Contains("5 findings below critical not shown (--min-severity critical"));
  }
  CHECK(test::run_gpudiag({"analyze", "--min-severity", "severe", input}).exit_code == 2);
  CHECK(test::run_gpudiag({"analyze", "--brief", "-q", input}).exit_code == 2);
}

TEST_CASE("an input given by its absolute path under the working directory is shown relative", "[cli]") {
  // run_gpudiag runs from the repository root.
  const std::string input = test::source_dir() + "/" + kOomCase + "/export.json";
  const auto r = test::run_gpudiag({"analyze", input});
  CHECK_THAT(r.out, Catch::Contains(" " + std::string(kOomCase) + "/export.json:488\n"));
  CHECK(r.out.find(test::source_dir()) == std::string::npos);
}
