// Errors no rule explains (issue 15, "Outputs"), format by format: the SARIF result of the reserved
// rule `unexplained-error` with its partialFingerprint, the JUnit testcase that fails only when the
// group counts for the gate, the GitHub annotation at the group's level, the Markdown and HTML
// sections before the findings when the group is the likely cause. The log text is the corpus
// cases' (user-dofn-valueerror-python: sklearn's check_array message; unexplained-beside-rule-finding:
// a UnicodeDecodeError next to a rule finding — their labels.yaml cite the sources).
#include <fmt/format.h>
#include <simdjson.h>

#include <catch2/catch.hpp>

#include "gpudiag/formats.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

constexpr const char* kValueError = "corpus/user-dofn-valueerror-python";      // the group is at error
constexpr const char* kBesideRule = "corpus/unexplained-beside-rule-finding";  // a rule finding leads; info

const Analysis& value_error() {
  static const Analysis d = test::analyze_case(kValueError);
  return d;
}

const Analysis& beside_rule() {
  static const Analysis d = test::analyze_case(kBesideRule);
  return d;
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The JUnit <testcase> element of classname `unexplained`, whole.
std::string group_testcase(const std::string& xml) {
  const size_t at = xml.find(R"(classname="unexplained")");
  REQUIRE(at != std::string::npos);
  const size_t start = xml.rfind("<testcase ", at);
  const size_t self_closed = xml.find("/>\n", at);
  const size_t closed = xml.find("</testcase>", at);
  const size_t end = std::min(self_closed == std::string::npos ? closed : self_closed + 2,
                              closed == std::string::npos ? std::string::npos : closed + 11);
  return xml.substr(start, end - start);
}

Baseline accepting(const std::string& fingerprint) {
  auto b = parse_baseline(fmt::format("version: 1\nsuppress:\n  - rule: unexplained-error\n    fingerprint: {}\n"
                                      "    reason: the NaN rows are fixed upstream in DATA-7\n",
                                      fingerprint),
                          "gpudiag-baseline.yaml");
  REQUIRE(b.ok());
  return *b;
}

}  // namespace

TEST_CASE("SARIF: a result of the reserved rule per unexplained group with its group fingerprint",
          "[unit][reports][unexplained]") {
  const auto& rules = test::builtin_pack().rules();
  const RankedReport report = rank(value_error());
  REQUIRE(report.unexplained.size() == 1);
  const std::string sarif = render_sarif(report, rules, RenderOptions{.deterministic = true});
  simdjson::dom::parser parser;
  simdjson::dom::element run = parser.parse(sarif)["runs"].at(0);
  simdjson::dom::array descriptors = run["tool"]["driver"]["rules"];
  CHECK(descriptors.size() == rules.size() + 1);  // the pack's rules, then the reserved one
  // The group is the likely cause: its result comes first, as in the text report.
  simdjson::dom::element result = run["results"].at(0);
  CHECK(std::string_view(result["ruleId"]) == "unexplained-error");
  const uint64_t index = result["ruleIndex"];
  CHECK(std::string_view(run["tool"]["driver"]["rules"].at(index)["id"]) == "unexplained-error");
  CHECK(std::string_view(result["level"]) == "error");
  // A persisted value (code scanning matches alerts across runs on it): it must never change.
  CHECK(std::string_view(result["partialFingerprints"]["gpudiagGroup/v1"]) == "unexplained-error/11319136665179f3");
  simdjson::dom::element location = result["locations"].at(0)["physicalLocation"];
  CHECK(std::string_view(location["artifactLocation"]["uri"]) == "corpus/user-dofn-valueerror-python/export.json");
  CHECK(uint64_t(location["region"]["startLine"]) == 392);
  CHECK_THAT(std::string(std::string_view(result["message"]["text"])),
             Catch::Contains("(pipeline.py:88 in process, step 'Embed')") &&
                 Catch::Contains("Input contains NaN, infinity or a value too large for dtype('float32')"));
  CHECK(std::string_view(result["properties"]["userFrame"]["file"]) == "/app/pipeline.py");
  // The finding it explains points back at it.
  simdjson::dom::element symptom = run["results"].at(1);
  CHECK(std::string_view(symptom["ruleId"]) == "work-item-failed");
  CHECK(std::string_view(symptom["properties"]["causedByUnexplained"]) == "unexplained-error/11319136665179f3");

  // A group at info (a rule finding explains the job) is a note; without a group, no reserved rule.
  const std::string beside = render_sarif(rank(beside_rule()), rules, RenderOptions{.deterministic = true});
  simdjson::dom::parser parser2;
  bool found = false;
  for (simdjson::dom::element r : simdjson::dom::array(parser2.parse(beside)["runs"].at(0)["results"])) {
    if (std::string_view(r["ruleId"]) != "unexplained-error") continue;
    found = true;
    CHECK(std::string_view(r["level"]) == "note");
  }
  CHECK(found);
  const Analysis oom = test::analyze_case("corpus/gpu-oom-then-sdk-disconnected-work-item-failed");
  REQUIRE(oom.unexplained.empty());
  const std::string plain = render_sarif(rank(oom), rules, RenderOptions{.deterministic = true});
  CHECK(plain.find("unexplained-error") == std::string::npos);
}

TEST_CASE("JUnit: a testcase per unexplained group that fails only when it counts for the gate",
          "[unit][reports][unexplained]") {
  const auto& rules = test::builtin_pack().rules();
  const RankedReport report = rank(value_error());
  const std::string at_error = render_junit(report, rules, RenderOptions{.deterministic = true});
  CHECK_THAT(at_error, Catch::Contains(fmt::format("tests=\"{}\"", rules.size() + 2)));  // + input, + the group
  const std::string failing = group_testcase(at_error);
  CHECK_THAT(
      failing,
      Catch::Contains(
          R"x(name="U1 ValueError: Input contains NaN, infinity or a value too large for dtype(&apos;float32&apos;). (pipeline.py:88 in process, step &apos;Embed&apos;)")x"));
  CHECK_THAT(failing, Catch::Contains(R"(<failure message="ValueError: Input contains NaN)") &&
                          Catch::Contains(R"(type="error")") && Catch::Contains("unexplained-error/11319136665179f3") &&
                          Catch::Contains("File &quot;/app/pipeline.py&quot;, line 88, in process"));
  // Above the group's severity it passes, like a finding.
  const std::string critical =
      group_testcase(render_junit(report, rules, RenderOptions{.deterministic = true, .fail_on = Impact::kCritical}));
  CHECK(critical.find("<failure") == std::string::npos);
  CHECK_THAT(critical, Catch::EndsWith("/>"));
  // A group at info passes even at the lowest threshold a gate takes above info.
  const std::string info = group_testcase(
      render_junit(rank(beside_rule()), rules, RenderOptions{.deterministic = true, .fail_on = Impact::kWarning}));
  CHECK(info.find("<failure") == std::string::npos);
  CHECK_THAT(info, Catch::Contains("UnicodeDecodeError"));
  // Accepted by a baseline (rule unexplained-error + its fingerprint): skipped, not failed.
  const RankedReport accepted =
      apply_baseline(rank(value_error()), accepting("unexplained-error/11319136665179f3"), "2026-01-01");
  const std::string skipped = group_testcase(render_junit(accepted, rules, RenderOptions{.deterministic = true}));
  CHECK_THAT(skipped, Catch::Contains("<skipped message=\"accepted in the baseline (gpudiag-baseline.yaml:3)"));
  CHECK(skipped.find("<failure") == std::string::npos);
}

TEST_CASE("GitHub: one annotation per unexplained group at its level located at its exemplar",
          "[unit][reports][unexplained]") {
  const std::string gh = render_github(rank(value_error()), RenderOptions{.deterministic = true});
  const std::string group =
      "::error file=corpus/user-dofn-valueerror-python/export.json,line=392,title=gpudiag%3A ValueError%3A Input "
      "contains NaN%2C infinity or a value too large for dtype('float32'). (pipeline.py%3A88 in process%2C step "
      "'Embed')::U1 ValueError: Input contains NaN, infinity or a value too large for dtype('float32'). "
      "(pipeline.py:88 in process, step 'Embed') — no rule in the pack knows this error "
      "(unexplained-error/11319136665179f3)";
  CHECK_THAT(gh, Catch::Contains(group));
  CHECK(count(gh, "::U1 ") == 1);
  // The likely cause is annotated before the finding it explains, which says so.
  const size_t symptom = gh.find("title=gpudiag%3A A work item failed 4 times");
  REQUIRE(symptom != std::string::npos);
  CHECK(gh.find(group) < symptom);
  CHECK_THAT(gh, Catch::Contains("(work-item-failed), confidence 90%25; a symptom of U1"));

  // At info the group is a notice, after the rule finding that leads.
  const std::string beside = render_github(rank(beside_rule()), RenderOptions{.deterministic = true});
  const size_t notice = beside.find("::notice file=corpus/unexplained-beside-rule-finding/export.json,line=364,");
  REQUIRE(notice != std::string::npos);
  CHECK(beside.find("::error ") < notice);
  CHECK(beside.find("::error file=corpus/unexplained-beside-rule-finding/export.json,line=364") == std::string::npos);

  // Accepted by a baseline: no annotation, one line says so.
  const RankedReport accepted =
      apply_baseline(rank(value_error()), accepting("unexplained-error/11319136665179f3"), "2026-01-01");
  const std::string quiet = render_github(accepted, RenderOptions{.deterministic = true});
  CHECK(quiet.find("::U1 ") == std::string::npos);
  CHECK_THAT(quiet, Catch::Contains("gpudiag: 1 error group suppressed by the baseline"));
}

TEST_CASE("Markdown and HTML: the unexplained section leads when the group is the likely cause",
          "[unit][reports][unexplained]") {
  const RenderOptions o{.deterministic = true};
  const std::string md = render_markdown(rank(value_error()), o);
  const size_t section = md.find("### Errors no rule explains (1)");
  const size_t findings = md.find("### Rule findings, most likely first");
  REQUIRE(section != std::string::npos);
  REQUIRE(findings != std::string::npos);
  CHECK(section < findings);
  CHECK(section > md.find("## ❌ gpudiag: FAILED"));
  CHECK_THAT(md, Catch::Contains("#### U1. 🔴 ERROR — ValueError: Input contains NaN, infinity or a value too large for "
                                 "dtype('float32'). (pipeline.py:88 in process, step 'Embed')"));
  // The exemplar raw (not masked), in a code block.
  CHECK_THAT(md, Catch::Contains("```text\nValueError: Input contains NaN, infinity or a value too large for "
                                 "dtype('float32').\nFile \"/app/pipeline.py\", line 88, in process\n"));
  CHECK_THAT(md, Catch::Contains("Explains:\n\n- 1. 🔴 A work item failed 4 times"));
  CHECK_THAT(md, Catch::Contains("↳ A symptom of **U1**"));

  // A rule finding leads: the groups follow the root causes; the fixes come right after the verdict.
  const std::string beside = render_markdown(rank(beside_rule()), o);
  const size_t roots = beside.find("### Root causes, most likely first");
  const size_t groups = beside.find("### Errors no rule explains (1)");
  const size_t fixes = beside.find("### Fixes, best first");
  REQUIRE(roots != std::string::npos);
  REQUIRE(groups != std::string::npos);
  CHECK(roots < groups);
  CHECK(fixes < roots);
  CHECK_THAT(beside, Catch::Contains("#### U1. 🔵 INFO — UnicodeDecodeError"));

  const std::string html = render_html(rank(value_error()), o);
  const size_t html_section = html.find(R"(<section id="unexplained"><h2>Errors no rule explains (1)</h2>)");
  REQUIRE(html_section != std::string::npos);
  CHECK(html_section < html.find(R"(<section id="findings">)"));
  CHECK_THAT(html, Catch::Contains(R"(<article class="finding unexplained sev-error" id="u-1">)"));
  // On the timeline: a pin at the group's first entry, linking to its article, and in the story.
  const std::string svg = html.substr(html.find("<svg"), html.find("</svg>") - html.find("<svg"));
  CHECK_THAT(svg, Catch::Contains(R"(<a href="#u-1" class="sev-error unexplained">)") && Catch::Contains(">U1</text>"));
  CHECK_THAT(
      html,
      Catch::Contains(
          R"x(<a href="#u-1">U1 ValueError: Input contains NaN, infinity or a value too large for dtype(&#39;float32&#39;). (pipeline.py:88 in process, step &#39;Embed&#39;)</a> first seen)x"));
}

TEST_CASE("the gate line names the unexplained groups that trip it", "[unit][reports][unexplained]") {
  const RankedReport report = rank(value_error());
  const RenderOptions o{.deterministic = true, .fail_on = Impact::kError};
  CHECK_THAT(render_github(report, o),
             Catch::Contains("gate tripped: 3 findings at or above error (work-item-failed, workflow-failed, "
                             "unexplained-error U1)"));
}

TEST_CASE("several jobs: the failed job's unexplained group in its own run suite and annotation",
          "[unit][reports][unexplained][jobs]") {
  // Both corpus exports are JSON arrays: one array of both jobs' entries (a project-wide export).
  std::string failed = test::read_file(test::source_dir() + "/" + kValueError + "/export.json");
  std::string healthy = test::read_file(test::source_dir() + "/corpus/healthy-cpu-batch/export.json");
  failed.erase(failed.find_last_of(']'));
  healthy.erase(0, healthy.find('[') + 1);
  const Analysis d = test::analyze_text(failed + ",\n" + healthy, "two-jobs.json");
  const RankedReport report = rank(d);
  REQUIRE(report.jobs.size() == 2);
  REQUIRE(report.jobs.front().unexplained.size() == 1);
  const RenderOptions o{.deterministic = true};
  const std::string who = "job feature-embed-nightly (2024-05-13_20_10_12-17096802295837905429): ";

  const std::string gh = render_github(report, o);
  CHECK_THAT(gh, Catch::Contains("(pipeline.py%3A88 in process%2C step 'Embed')::" + who +
                                 "U1 ValueError: Input contains NaN"));
  CHECK(count(gh, "::U1 ") + count(gh, "): U1 ") == 1);

  const auto& rules = test::builtin_pack().rules();
  simdjson::dom::parser parser;
  simdjson::dom::array runs = parser.parse(render_sarif(report, rules, o))["runs"];
  REQUIRE(runs.size() == 1);  // the healthy job has no run of its own
  simdjson::dom::element result = runs.at(0)["results"].at(0);
  CHECK(std::string_view(result["ruleId"]) == "unexplained-error");
  CHECK_THAT(std::string(std::string_view(result["message"]["text"])), Catch::StartsWith(who + "U1 "));

  const std::string junit = render_junit(report, rules, o);
  CHECK(count(junit, R"(classname="unexplained")") == 1);
  CHECK_THAT(group_testcase(junit), Catch::Contains("<failure "));

  // The jobs table names the group as the failed job's top cause.
  CHECK_THAT(render_markdown(report, o),
             Catch::Contains("| failed | ❌ failed | ValueError: Input contains NaN, infinity or a value too large for "
                             "dtype('float32'). (pipeline.py:88 in process, step 'Embed') |"));
}
