// The post-mortem and CI formats: Markdown (a PR comment or a GitHub step summary), a self-contained
// HTML post-mortem with a timeline, JUnit XML, SARIF 2.1.0 and GitHub workflow commands — next to the
// text and JSON reports of report.h, all from one RankedReport.
//
//   RankedReport report = rank(analysis);
//   std::string html = render(OutputFormat::kHtml, report, pack.rules(), {.deterministic = true});
//   std::string sarif = render_sarif(report, pack.rules(), {});
//
// JUnit and SARIF list every rule of the pack (a testcase each; tool.driver.rules), so they take the
// rule catalog. Everything taken from logs is escaped for its format by the helpers below, which
// tests call directly.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/report.h"
#include "gpudiag/rule_pack.h"

namespace gpudiag {

enum class OutputFormat : uint8_t { kText, kJson, kMarkdown, kHtml, kJunit, kSarif, kGithub };

struct OutputFormatInfo {
  OutputFormat format;
  std::string_view name;        // as given to --format
  std::string_view extensions;  // file name endings that select it, space-separated
  std::string_view what;
};

inline constexpr std::array<OutputFormatInfo, 7> kOutputFormats{{
    {OutputFormat::kText, "text", ".txt", "the terminal report"},
    {OutputFormat::kJson, "json", ".json", "the JSON report, schema gpudiag.report/v1"},
    {OutputFormat::kMarkdown, "md", ".md .markdown", "Markdown for a PR comment or $GITHUB_STEP_SUMMARY"},
    {OutputFormat::kHtml, "html", ".html .htm", "a self-contained HTML post-mortem with a timeline"},
    {OutputFormat::kJunit, "junit", ".xml", "JUnit XML: one testcase per rule"},
    {OutputFormat::kSarif, "sarif", ".sarif .sarif.json", "SARIF 2.1.0"},
    {OutputFormat::kGithub, "github", "", "GitHub Actions workflow commands (annotations)"},
}};
static_assert(
    [] {
      for (size_t i = 0; i < kOutputFormats.size(); ++i) {
        if (static_cast<size_t>(kOutputFormats[i].format) != i) return false;
      }
      return true;
    }(),
    "kOutputFormats is indexed by OutputFormat");

const OutputFormatInfo& format_info(OutputFormat f);
std::optional<OutputFormat> parse_output_format(std::string_view name);
// The format a file name asks for by its ending (the longest matching one), if any.
std::optional<OutputFormat> output_format_for_path(std::string_view path);

// Any format. `rules` is the pack's catalog (RulePack::rules()); only JUnit and SARIF read it.
std::string render(OutputFormat format, const RankedReport& report, const std::vector<RuleInfo>& rules,
                   const RenderOptions& options);

std::string render_markdown(const RankedReport& report, const RenderOptions& options);
std::string render_html(const RankedReport& report, const RenderOptions& options);
std::string render_junit(const RankedReport& report, const std::vector<RuleInfo>& rules, const RenderOptions& options);
std::string render_sarif(const RankedReport& report, const std::vector<RuleInfo>& rules, const RenderOptions& options);
std::string render_github(const RankedReport& report, const RenderOptions& options);

// What gpudiag puts in each machine format is versioned like the JSON report (docs/formats.md): the
// JUnit property gpudiag.format and the SARIF run property gpudiag.format carry these names.
inline constexpr std::string_view kJunitFormat = "gpudiag.junit/v1";
inline constexpr std::string_view kSarifFormat = "gpudiag.sarif/v1";
inline constexpr std::string_view kSarifVersion = "2.1.0";
// The partialFingerprints keys: v3 carries Finding::fingerprint (identity captures, masked), v2 the
// value before `identity:` and masks (Finding::fingerprint_v2), v1 the value gpudiag 0.1 wrote
// (Finding::legacy_fingerprint), so that code scanning keeps matching results across the upgrades.
inline constexpr std::string_view kSarifFingerprintKey = "gpudiagFingerprint/v3";
inline constexpr std::string_view kSarifV2FingerprintKey = "gpudiagFingerprint/v2";
inline constexpr std::string_view kSarifLegacyFingerprintKey = "gpudiagFingerprint/v1";
// The partialFingerprints key of an error no rule explains (a result of rule `unexplained-error`):
// UnexplainedGroup::fingerprint, whose grouping key is versioned itself (docs/unexplained.md).
inline constexpr std::string_view kSarifGroupFingerprintKey = "gpudiagGroup/v1";

// Escaping, one helper per format. All of them turn invalid UTF-8 into U+FFFD and show control
// characters as text ("\x1b"), so nothing from a log reaches a terminal or a parser raw, and show
// bidi controls and zero-width characters as "<U+202E>", so no log line can disguise itself.
// HTML text and attribute values: & < > " ' as character references.
std::string html_escape(std::string_view text);
// XML 1.0 text (keeps newlines and tabs) or attribute values (`attribute`: encodes them as &#10; …).
std::string xml_escape(std::string_view text, bool attribute = false);
// Markdown inline text: markup characters backslash-escaped, newlines as spaces, mentions defused.
std::string markdown_escape(std::string_view text);
// A Markdown fenced code block holding `text` literally (the fence outgrows any backtick run in it).
std::string markdown_code_block(std::string_view text, std::string_view info = "text");
// A Markdown code span on one line.
std::string markdown_code_span(std::string_view text);
// Markdown prose: as markdown_escape, but what a reader copies rather than reads — flags
// (`--experiments=…`), identifiers with `_` or `=`, paths and image references, resource names
// (`n1-standard-4`, `us-central1-a`) — goes in code spans, so that copying the raw text keeps it.
std::string markdown_prose(std::string_view text);
// A GitHub workflow command's message (% \r \n as %25 %0D %0A) or property value (also : and ,).
std::string workflow_command_escape(std::string_view text, bool property = false);
// SARIF message text: controls shown as above (newlines and tabs kept), and \ [ ] backslash-escaped
// so no embedded link can be formed.
std::string sarif_text(std::string_view text);

}  // namespace gpudiag
