// The post-mortem and CI formats: each format's escaping helper, the hostile corpus case rendered
// inertly in every format, and the size and count limits (Markdown under its budget, ten GitHub
// annotations per level, one JUnit testcase per rule).
#include <fmt/format.h>
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <regex>
#include <sstream>

#include "gpudiag/formats.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

const Analysis& hostile() {
  static const Analysis d = test::analyze_case("corpus/hostile-log-text");
  return d;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// A diagnosis with `n` error findings of distinct rules, for the limits.
Analysis many_findings(size_t n) {
  Analysis d;
  d.job.id = "2024-01-01_00_00_00-1";
  d.start = 1'700'000'000'000'000'000;
  d.end = d.start + 3'600'000'000'000;
  for (size_t i = 0; i < n; ++i) {
    Finding f;
    f.rule_id = fmt::format("rule-{:02}", i);
    f.title = fmt::format("Problem number {}", i);
    f.family = "runtime";
    f.severity = Impact::kError;
    f.confidence = 0.9;
    f.description = std::string(300, 'd');
    f.via = "match";
    f.count = 1;
    f.first_seen = d.start + static_cast<int64_t>(i) * 1'000'000'000;
    f.last_seen = f.first_seen;
    f.fingerprint = f.rule_id + "/0";
    d.findings.push_back(std::move(f));
  }
  return d;
}

}  // namespace

TEST_CASE("each format's escaping helper", "[unit][reports]") {
  CHECK(html_escape(R"(<a href="x">'&'</a>)") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  CHECK(html_escape("a\x1b[31mb\x07\nc\xff") == "a\\x1b[31mb\\x07\nc\xEF\xBF\xBD");
  CHECK(xml_escape("]]> <x a='1'> & \"") == "]]&gt; &lt;x a=&apos;1&apos;&gt; &amp; &quot;");
  CHECK(xml_escape("a\nb\tc", true) == "a&#10;b&#9;c");
  CHECK(xml_escape("a\nb\x01", false) == "a\nb\\x01");
  CHECK(xml_escape("\xEF\xBF\xBF") == "\xEF\xBF\xBD");  // U+FFFF is no XML character
  CHECK(markdown_escape("*a* _b_ [c](d) <e> | `f` ~g~ & $h$") ==
        "\\*a\\* \\_b\\_ \\[c\\](d) \\<e\\> \\| \\`f\\` \\~g\\~ \\& \\$h\\$");
  CHECK(markdown_escape("# not a heading\nnext") == "\\# not a heading next");
  CHECK(markdown_escape("@team") == "@\u2060team");
  CHECK(markdown_code_span("a`b") == "``a`b``");
  CHECK(markdown_code_span("`x`") == "`` `x` ``");
  CHECK(markdown_code_block("x\n```\ny") == "````text\nx\n```\ny\n````\n");
  CHECK(workflow_command_escape("100% done\r\n::error::x") == "100%25 done%0D%0A::error::x");
  CHECK(workflow_command_escape("a:b,c%", true) == "a%3Ab%2Cc%25");
  CHECK(workflow_command_escape("\x1b[31m") == "\\x1b[31m");
  CHECK(sarif_text(R"([link](http://x) \n)") == R"(\[link\](http://x) \\n)");
}

TEST_CASE("each escaping helper shows bidi controls and zero-width characters", "[unit][reports]") {
  const std::string spoof = "a\u202Eb\u200Bc";
  CHECK(html_escape(spoof) == "a&lt;U+202E&gt;b&lt;U+200B&gt;c");
  CHECK(xml_escape(spoof) == "a&lt;U+202E&gt;b&lt;U+200B&gt;c");
  CHECK(xml_escape(spoof, true) == "a&lt;U+202E&gt;b&lt;U+200B&gt;c");
  CHECK(markdown_escape(spoof) == "a\\<U+202E\\>b\\<U+200B\\>c");
  CHECK(markdown_code_span(spoof) == "`a<U+202E>b<U+200B>c`");
  CHECK(markdown_code_block(spoof) == "```text\na<U+202E>b<U+200B>c\n```\n");
  CHECK(workflow_command_escape(spoof) == "a<U+202E>b<U+200B>c");
  CHECK(workflow_command_escape(spoof, true) == "a<U+202E>b<U+200B>c");
  CHECK(sarif_text(spoof + "\x1b[1m\n") == "a<U+202E>b<U+200B>c\\\\x1b\\[1m\n");
  CHECK(markdown_escape("@team") == "@\u2060team");  // our own word joiner stays one
}

TEST_CASE("bidi controls and zero-width characters from logs are shown in every format", "[unit][reports]") {
  // Trojan Source in a log line, a worker name and a file name: each would reorder or hide text.
  const std::string entry =
      R"({"timestamp":"2024-01-01T00:10:00Z","severity":"ERROR","logName":"projects/p/logs/dataflow.googleapis.com%2Fworker",)"
      R"("labels":{"compute.googleapis.com/resource_name":"worker-\u2066a\u2069"},)"
      R"("jsonPayload":{"message":"RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB \u202Eevil\u202C z\u200Bw \ufeff \u061c \u2060"}})"
      "\n";
  const Analysis d = test::analyze_text(entry, "ex\u202Eport.json");
  const RankedReport report = rank(d);
  REQUIRE(report.findings.size() == 1);
  const auto& rules = test::builtin_pack().rules();
  const RenderOptions o{.deterministic = true};
  std::vector<std::pair<std::string, std::string>> outputs{
      {"text", render_text(report, o)},          {"markdown", render_markdown(report, o)},
      {"html", render_html(report, o)},          {"sarif", render_sarif(report, rules, o)},
      {"junit", render_junit(report, rules, o)}, {"github", render_github(report, o)},
  };
  // SARIF's property bags are data, as the JSON report is (docs/formats.md): its message texts count.
  outputs[3].second = std::regex_replace(outputs[3].second, std::regex(R"("workers": \[[^\]]*\])"), "");
  for (const auto& [format, out] : outputs) {
    INFO(format);
    for (const char* raw : {"\u202E", "\u202C", "\u2066", "\u2069", "\u200B", "\uFEFF", "\u061C"})
      CHECK(out.find(raw) == std::string::npos);
    CHECK_THAT(out, Catch::Contains("U+202E"));
    // Markdown puts its own word joiner after an `@` (no @mention), in the Markdown report and in
    // SARIF's help.markdown of rules whose text holds one (`@tf.function`); the log's must not remain.
    std::string without_ours = out;
    for (size_t at = 0; (at = without_ours.find("@\u2060", at)) != std::string::npos;) without_ours.erase(at + 1, 3);
    CHECK(without_ours.find("\u2060") == std::string::npos);
  }
  CHECK_THAT(render_text(report, o), Catch::Contains("worker-<U+2066>a<U+2069>"));
  CHECK_THAT(render_text(report, o), Catch::Contains("ex<U+202E>port.json:1"));
  // JSON is data: the value as the log holds it, for programs to read (docs/formats.md).
  CHECK_THAT(render_json(report, o), Catch::Contains("\u202Eevil\u202C"));
}

TEST_CASE("the format table: names and file extensions", "[unit][reports]") {
  CHECK(output_format_for_path("post-mortem.html") == OutputFormat::kHtml);
  CHECK(output_format_for_path("summary.md") == OutputFormat::kMarkdown);
  CHECK(output_format_for_path("results.sarif.json") == OutputFormat::kSarif);
  CHECK(output_format_for_path("results.json") == OutputFormat::kJson);
  CHECK(output_format_for_path("junit.xml") == OutputFormat::kJunit);
  CHECK(output_format_for_path("report") == std::nullopt);
  CHECK(parse_output_format("github") == OutputFormat::kGithub);
  CHECK(parse_output_format("markdown") == std::nullopt);
  for (const auto& info : kOutputFormats) CHECK(parse_output_format(info.name) == info.format);
}

TEST_CASE("hostile log text renders inertly in every format", "[unit][reports]") {
  const RankedReport report = rank(hostile());
  REQUIRE(report.findings.size() == 2);
  const auto& rules = test::builtin_pack().rules();
  const RenderOptions o{.deterministic = true};

  SECTION("HTML: no element, attribute or comment from the logs") {
    const std::string html = render_html(report, o);
    CHECK(html.find("<script") == std::string::npos);
    CHECK(html.find("<img") == std::string::npos);
    CHECK(count(html, "<style") == 1);
    CHECK(count(html, "<svg") == 1);
    CHECK(count(html, "</svg>") == 1);
    CHECK(html.find("<!--") == std::string::npos);
    // The report's own <details> (an evidence entry's whole text) are the only ones.
    CHECK(count(html, "<details") == count(html, R"(<details class="small"><summary>The whole entry</summary>)"));
    CHECK(html.find("<summary>forged") == std::string::npos);
    CHECK(html.find('\x1b') == std::string::npos);
    CHECK_THAT(html, Catch::Contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    CHECK_THAT(html, Catch::Contains("&lt;/title&gt;&lt;script&gt;alert(5)"));  // a title from a fact
    CHECK_THAT(html, Catch::Contains("\\x1b[31mRED"));
  }
  SECTION("Markdown: no HTML, link, fence break or mention from the logs") {
    const std::string md = render_markdown(report, o);
    CHECK(md.find('\x1b') == std::string::npos);
    CHECK(md.find('\r') == std::string::npos);
    CHECK(count(md, "<details>") == count(md, "</details>"));
    // Log text is either inside a code block whose fence the log's ``` cannot close, or escaped:
    // outside code, with code spans and backslash escapes removed, no markup is left.
    std::string fence, outside;
    for (const auto& line : lines_of(md)) {
      const std::string ticks = line.substr(0, std::min(line.find_first_not_of('`'), line.size()));
      if (ticks.size() >= 3 && (fence.empty() || (ticks == fence && ticks.size() == line.size()))) {
        fence = fence.empty() ? ticks : "";
        continue;
      }
      if (fence.empty()) outside += line + "\n";
    }
    CHECK(fence.empty());
    outside = std::regex_replace(outside, std::regex(R"((`+)[^`]*?\1)"), "");
    outside = std::regex_replace(outside, std::regex(R"(\\.)"), "");
    for (const std::string markup : {"<script", "</title>", "<img", "](javascript", "@everyone"}) {
      INFO(markup);
      CHECK(outside.find(markup) == std::string::npos);
    }
    CHECK_THAT(md, Catch::Contains("````text"));
  }
  SECTION("GitHub: every line is one command or a plain gpudiag line") {
    const std::string gh = render_github(report, o);
    CHECK(gh.find('\r') == std::string::npos);
    CHECK(gh.find('\x1b') == std::string::npos);
    const std::regex command(R"(^::(error|warning|notice) ([a-z]+=[^,:]*)(,[a-z]+=[^,:]*)*::.*$)");
    for (const auto& line : lines_of(gh)) {
      INFO(line);
      CHECK((std::regex_match(line, command) || line.rfind("gpudiag: ", 0) == 0));
    }
    CHECK_THAT(gh, Catch::Contains("%250A::error file=x.py"));  // the log's own %0A stays text
    CHECK_THAT(gh, Catch::Contains("bell%0Dcarriage"));
    CHECK(gh.find("\n::warning::") == std::string::npos);  // the neighbour's command never starts a line
  }
  SECTION("JUnit: one document, no markup from the logs") {
    const std::string xml = render_junit(report, rules, o);
    CHECK(count(xml, "<?xml") == 1);
    CHECK(xml.find("<script") == std::string::npos);
    CHECK(xml.find("]]>") == std::string::npos);
    CHECK(xml.find("<![CDATA[") == std::string::npos);
    CHECK(xml.find('\x1b') == std::string::npos);
    CHECK(xml.find('\x07') == std::string::npos);
  }
  SECTION("SARIF: valid JSON, no embedded link, no raw control character") {
    const std::string sarif = render_sarif(report, rules, o);
    simdjson::dom::parser parser;
    simdjson::dom::element root;
    REQUIRE(parser.parse(sarif).get(root) == simdjson::SUCCESS);
    CHECK(sarif.find('\x1b') == std::string::npos);
    CHECK(std::regex_replace(sarif, std::regex(R"(\\\\[\[\]])"), "").find("](javascript") == std::string::npos);
    CHECK_THAT(sarif, Catch::Contains("\\\\[link\\\\](javascript:alert(2))"));
  }
  SECTION("text and JSON") {
    CHECK(render_text(report, o).find('\x1b') == std::string::npos);
    CHECK(render_json(report, o).find('\x1b') == std::string::npos);
  }
}

TEST_CASE("Markdown stays under its budget and says what it cut", "[unit][reports]") {
  const Analysis d = test::analyze_case("corpus/gpu-oom-then-sdk-disconnected-work-item-failed");
  const RankedReport report = rank(d);
  RenderOptions o{.deterministic = true};
  const std::string whole = render_markdown(report, o);
  CHECK(whole.find("cut") == std::string::npos);
  CHECK_THAT(whole, Catch::Contains("<details><summary>Evidence"));
  o.markdown_max_bytes = 9000;
  const std::string small = render_markdown(report, o);
  CHECK(small.size() <= 9000);
  CHECK_THAT(small, Catch::Contains("Evidence was cut"));
  CHECK_THAT(small, Catch::StartsWith("## ❌ gpudiag: FAILED"));
  CHECK_THAT(small, Catch::Contains("### Fixes, best first"));

  const Analysis many = many_findings(40);
  o.markdown_max_bytes = 8000;
  const std::string cut = render_markdown(rank(many), o);
  CHECK(cut.size() <= 8000);
  CHECK_THAT(cut, Catch::Contains("The rest was cut"));
  CHECK_THAT(cut, Catch::EndsWith("</sub>\n"));
}

TEST_CASE("GitHub shows ten annotations per level, highest ranked first, and names the rest", "[unit][reports]") {
  const Analysis d = many_findings(13);
  const std::string gh = render_github(rank(d), RenderOptions{.deterministic = true});
  CHECK(count(gh, "\n::error ") == 10);
  CHECK_THAT(gh, Catch::Contains("title=gpudiag%3A Problem number 0::#1 "));
  CHECK(gh.find("Problem number 10") == std::string::npos);
  CHECK_THAT(gh, Catch::Contains("3 more not annotated (GitHub shows 10 per level): rule-10, rule-11, rule-12"));
  CHECK_THAT(gh, Catch::Contains("GITHUB_STEP_SUMMARY"));
}

TEST_CASE("JUnit: a testcase per rule, failures at the threshold", "[unit][reports]") {
  const Analysis d = test::analyze_case("corpus/gpu-oom-then-sdk-disconnected-work-item-failed");
  const RankedReport report = rank(d);
  const auto& rules = test::builtin_pack().rules();
  const std::string errors = render_junit(report, rules, RenderOptions{.deterministic = true});
  CHECK(count(errors, "<testcase ") == rules.size() + 1);  // and the input's own testcase, first
  CHECK_THAT(errors, Catch::Contains(fmt::format("tests=\"{}\" failures=\"3\"", rules.size() + 1)));
  CHECK_THAT(errors, Catch::Contains("<properties>") &&
                         Catch::Contains(R"(<testcase name="input" classname="input" time="0"/>)"));
  CHECK_THAT(errors, Catch::Contains(R"(<testcase name="gpu-out-of-memory" classname="runtime" time="0">)"));
  CHECK_THAT(errors, Catch::Contains("Fix: Lower the batch size or the number of model copies"));
  const std::string warnings =
      render_junit(report, rules, RenderOptions{.deterministic = true, .fail_on = Impact::kWarning});
  CHECK_THAT(warnings, Catch::Contains("failures=\"5\""));
}

TEST_CASE("SARIF: rules from the pack, results located, fingerprints stable across a job family", "[unit][reports]") {
  const auto& rules = test::builtin_pack().rules();
  const RenderOptions o{.deterministic = true};
  const auto first_result = [&](const std::string& dir) {
    const Analysis d = test::analyze_case(dir);
    const std::string sarif = render_sarif(rank(d), rules, o);
    simdjson::dom::parser parser;
    simdjson::dom::element root = parser.parse(sarif);
    simdjson::dom::element run = root["runs"].at(0);
    CHECK(simdjson::dom::array(run["tool"]["driver"]["rules"]).size() == rules.size());
    simdjson::dom::element result = run["results"].at(0);
    const std::string rule{std::string_view(result["ruleId"])};
    const uint64_t index = result["ruleIndex"];
    CHECK(rules[index].id == rule);
    CHECK(std::string_view(run["tool"]["driver"]["rules"].at(index)["helpUri"]).rfind("https://cloud.google.com/", 0) ==
          0);
    simdjson::dom::element location = result["locations"].at(0)["physicalLocation"];
    // v3 (identity captures, masked) beside the v2 value and the v1 value gpudiag 0.1 wrote, so
    // code scanning keeps its alerts.
    CHECK(std::string_view(result["partialFingerprints"][kSarifLegacyFingerprintKey]).rfind(rule + "/", 0) == 0);
    CHECK(std::string_view(result["partialFingerprints"][kSarifV2FingerprintKey]).rfind(rule + "/", 0) == 0);
    return std::tuple{rule, std::string(std::string_view(result["partialFingerprints"][kSarifFingerprintKey])),
                      std::string(std::string_view(location["artifactLocation"]["uri"])),
                      uint64_t(location["region"]["startLine"])};
  };
  const auto [rule, fingerprint, uri, line] = first_result("corpus/gpu-oom-then-sdk-disconnected-work-item-failed");
  CHECK(rule == "gpu-out-of-memory");
  CHECK(fingerprint == "gpu-out-of-memory/a763e1b8aa09b410");  // a persisted value: it must never change
  CHECK(uri == "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json");
  CHECK(line == 488);
  // Another run of the same failure (other job, other sizes): the same fingerprint.
  const auto [rule2, fingerprint2, uri2, line2] = first_result("corpus/gpu-oom-pytorch-runinference");
  CHECK(rule2 == rule);
  CHECK(fingerprint2 == fingerprint);
  CHECK(line2 != line);
}
