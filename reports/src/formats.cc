// The table of output formats, and one entry point that renders any of them.
#include "gpudiag/formats.h"

namespace gpudiag {

const OutputFormatInfo& format_info(OutputFormat f) { return kOutputFormats[static_cast<size_t>(f)]; }

std::optional<OutputFormat> parse_output_format(std::string_view name) {
  for (const auto& info : kOutputFormats) {
    if (info.name == name) return info.format;
  }
  return std::nullopt;
}

std::optional<OutputFormat> output_format_for_path(std::string_view path) {
  std::optional<OutputFormat> best;
  size_t best_length = 0;
  for (const auto& info : kOutputFormats) {
    std::string_view rest = info.extensions;
    while (!rest.empty()) {
      const size_t space = rest.find(' ');
      const std::string_view ext = rest.substr(0, space);
      rest = space == std::string_view::npos ? std::string_view{} : rest.substr(space + 1);
      const bool matches = path.size() > ext.size() && path.substr(path.size() - ext.size()) == ext;
      if (matches && ext.size() > best_length) {
        best = info.format;
        best_length = ext.size();
      }
    }
  }
  return best;
}

std::string render(OutputFormat format, const RankedReport& report, const std::vector<RuleInfo>& rules,
                   const RenderOptions& options) {
  switch (format) {
    case OutputFormat::kText:
      return render_text(report, options);
    case OutputFormat::kJson:
      return render_json(report, options);
    case OutputFormat::kMarkdown:
      return render_markdown(report, options);
    case OutputFormat::kHtml:
      return render_html(report, options);
    case OutputFormat::kJunit:
      return render_junit(report, rules, options);
    case OutputFormat::kSarif:
      return render_sarif(report, rules, options);
    case OutputFormat::kGithub:
      return render_github(report, options);
  }
  return {};
}

}  // namespace gpudiag
