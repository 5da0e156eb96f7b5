#include "gpudiag/result.h"

#include <fmt/format.h>

namespace gpudiag {

std::string to_string(const Diagnostic& d) {
  std::string where = d.file;
  if (d.line > 0) {
    where += fmt::format(":{}", d.line);
    if (d.column > 0) where += fmt::format(":{}", d.column);
  } else if (d.byte >= 0) {
    where += fmt::format(": byte {}", d.byte);
  }
  if (where.empty()) return d.message;
  return fmt::format("{}: {}", where, d.message);
}

std::string render_with_source(const Diagnostic& d, std::string_view severity_word) {
  std::string out = fmt::format("{}[{}]: {}\n", severity_word, d.code, d.message);
  if (!d.file.empty()) {
    out += fmt::format(" --> {}", d.file);
    if (d.line > 0) out += fmt::format(":{}", d.line);
    if (d.column > 0) out += fmt::format(":{}", d.column);
    out += '\n';
  }
  if (!d.source_line.empty() && d.line > 0) {
    const std::string gutter(fmt::formatted_size("{}", d.line), ' ');
    out += fmt::format("{} |\n{} | {}\n", gutter, d.line, d.source_line);
    if (d.column > 0) {
      out += fmt::format("{} | {}^\n", gutter, std::string(d.column - 1, ' '));
    }
  }
  if (!d.help.empty()) out += fmt::format(" = help: {}\n", d.help);
  return out;
}

}  // namespace gpudiag
