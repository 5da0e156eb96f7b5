// Strict UTF-8 (core/include/gpudiag/utf8.h) and everything that escapes text through it: the JSON
// string escaper and every output format's helper replace what is not well-formed UTF-8 with U+FFFD,
// one per maximal ill-formed subpart — overlong forms, surrogates, values past U+10FFFF and
// truncated sequences alike.
#include "gpudiag/utf8.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <catch2/catch.hpp>

#include "gpudiag/formats.h"
#include "gpudiag/json_writer.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

// The code points the walker sees, as "U+XXXX" words.
std::string code_points(std::string_view text) {
  std::string out;
  for_each_utf8_char(
      text, [&](std::string_view, uint32_t cp) { out += (out.empty() ? "" : " ") + fmt::format("U+{:04X}", cp); });
  return out;
}

std::string json_string(std::string_view text) {
  std::string out;
  append_json_string(out, text);
  return out;
}

struct IllFormed {
  std::string_view what;
  std::string bytes;
  size_t replacements;  // U+FFFD written for it
};

// Each followed by "z", so that a truncated sequence is cut by a character rather than the end.
const std::vector<IllFormed> kIllFormed{
    {"overlong '/' (C0 AF)", "\xC0\xAF", 2},
    {"overlong '/' in three bytes (E0 80 AF)", "\xE0\x80\xAF", 3},
    {"surrogate U+D800 (ED A0 80)", "\xED\xA0\x80", 3},
    {"truncated U+20AC (E2 82)", "\xE2\x82", 1},
    {"truncated U+1F600 (F0 9F 98)", "\xF0\x9F\x98", 1},
    {"past U+10FFFF (F4 90 80 80)", "\xF4\x90\x80\x80", 4},
    {"past U+10FFFF (F5 80 80 80)", "\xF5\x80\x80\x80", 4},
    {"a lone continuation byte (80)", "\x80", 1},
};

std::string replacements(size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += kReplacementCharacterUtf8;
  return out;
}

}  // namespace

TEST_CASE("the UTF-8 walker follows the standard's table of well-formed sequences", "[unit][core]") {
  CHECK(code_points("a\u00E9\u20AC\U0001F600") == "U+0061 U+00E9 U+20AC U+1F600");
  CHECK(code_points("\xC2\x80\xDF\xBF\xE0\xA0\x80\xED\x9F\xBF\xEE\x80\x80\xF0\x90\x80\x80\xF4\x8F\xBF\xBF") ==
        "U+0080 U+07FF U+0800 U+D7FF U+E000 U+10000 U+10FFFF");  // the edges of each row
  CHECK(code_points("\xC0\xAF") == "U+FFFD U+FFFD");
  CHECK(code_points("\xED\xA0\x80") == "U+FFFD U+FFFD U+FFFD");
  CHECK(code_points("\xE2\x82z") == "U+FFFD U+007A");
  CHECK(code_points("\xF0\x9F\x98") == "U+FFFD");
  CHECK(code_points("\xF4\x90\x80\x80") == "U+FFFD U+FFFD U+FFFD U+FFFD");
  CHECK(is_valid_utf8("h\u00E9llo \U0001F600"));
  for (const auto& bad : kIllFormed) {
    INFO(bad.what);
    CHECK_FALSE(is_valid_utf8(bad.bytes));
  }
  std::string appended;
  for (uint32_t cp : {0x41u, 0xE9u, 0x20ACu, 0x1F600u}) append_utf8(appended, cp);
  CHECK(appended == "A\u00E9\u20AC\U0001F600");
}

TEST_CASE("the JSON string escaper writes U+FFFD for every ill-formed sequence", "[unit][core]") {
  CHECK(json_string("a\"b\\c\nd\re\tf\x01g\x7F") == R"("a\"b\\c\nd\re\tf\u0001g\u007f")");
  CHECK(json_string("caf\u00E9 \U0001F600") == "\"caf\u00E9 \U0001F600\"");
  simdjson::dom::parser parser;
  for (const auto& bad : kIllFormed) {
    INFO(bad.what);
    std::string expected = "\"x";
    for (size_t i = 0; i < bad.replacements; ++i) expected += "\\ufffd";
    CHECK(json_string("x" + bad.bytes + "z") == expected + "z\"");
    simdjson::dom::element root;
    REQUIRE(parser.parse(json_string("x" + bad.bytes + "z")).get(root) == simdjson::SUCCESS);
    CHECK(std::string_view(root.get_string().value()) == "x" + replacements(bad.replacements) + "z");
  }
}

TEST_CASE("every format's escaper writes U+FFFD for every ill-formed sequence", "[unit][core][reports]") {
  for (const auto& bad : kIllFormed) {
    INFO(bad.what);
    const std::string text = "x" + bad.bytes + "z";
    const std::string shown = "x" + replacements(bad.replacements) + "z";
    CHECK(terminal_safe(text) == shown);
    CHECK(terminal_safe_lines(text) == shown);
    CHECK(html_escape(text) == shown);
    CHECK(xml_escape(text) == shown);
    CHECK(xml_escape(text, true) == shown);
    CHECK(markdown_escape(text) == shown);
    CHECK(markdown_code_span(text) == "`" + shown + "`");
    CHECK(markdown_code_block(text) == "```text\n" + shown + "\n```\n");
    CHECK(workflow_command_escape(text) == shown);
    CHECK(workflow_command_escape(text, true) == shown);
    CHECK(sarif_text(text) == shown);
  }
}

TEST_CASE("a file name that is not UTF-8 reaches every report as U+FFFD", "[unit][core][reports]") {
  // A Latin-1 or damaged file name is the way ill-formed bytes reach the reports: log text itself is
  // validated by ingest.
  std::string name = "export";
  for (const auto& bad : kIllFormed) name += bad.bytes + "-";
  name += ".json";
  const std::string entry =
      R"({"timestamp":"2024-01-01T00:10:00Z","severity":"ERROR","logName":"projects/p/logs/dataflow.googleapis.com%2Fworker",)"
      R"("jsonPayload":{"message":"RuntimeError: CUDA out of memory. Tried to allocate 1.00 GiB"}})"
      "\n";
  const Analysis d = test::analyze_text(entry, name);
  const RankedReport report = rank(d);
  REQUIRE(report.findings.size() == 1);
  const auto& rules = test::builtin_pack().rules();
  const RenderOptions o{.deterministic = true};
  const std::vector<std::pair<std::string, std::string>> outputs{
      {"text", render_text(report, o)},          {"json", render_json(report, o)},
      {"markdown", render_markdown(report, o)},  {"html", render_html(report, o)},
      {"sarif", render_sarif(report, rules, o)}, {"junit", render_junit(report, rules, o)},
      {"github", render_github(report, o)},
  };
  for (const auto& [format, out] : outputs) {
    INFO(format);
    CHECK(is_valid_utf8(out));
    if (format == "sarif") {
      // A SARIF artifact's uri names the file itself: its bytes percent-encoded (RFC 3986).
      CHECK_THAT(out, Catch::Contains("export%C0%AF-%E0%80%AF-%ED%A0%80-%E2%82-"));
    } else {
      CHECK_THAT(out, Catch::Contains(std::string(format == "json" ? "\\ufffd" : kReplacementCharacterUtf8)));
    }
  }
}
