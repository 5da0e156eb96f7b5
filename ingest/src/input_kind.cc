// Recognising inputs that are not JSON exports: gcloud's YAML.
#include "input_kind.h"

#include <cctype>
#include <vector>

namespace gpudiag::detail {
namespace {

// The complete lines of `head` (the last one too when it has no line break), without their '\n'.
std::vector<std::string_view> lines_of(std::string_view head, size_t max_lines) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos < head.size() && lines.size() < max_lines) {
    const size_t nl = head.find('\n', pos);
    lines.push_back(head.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  return lines;
}

// A plain mapping key at the start of `line`, then ':' and a blank or the line's end.
bool opens_with_key(std::string_view line) {
  size_t i = 0;
  if (!line.empty() && (line[0] == '\'' || line[0] == '"')) {
    const size_t close = line.find(line[0], 1);
    if (close == std::string_view::npos) return false;
    i = close + 1;
  } else {
    const auto key_char = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' || c == '-' || c == '@';
    };
    if (line.empty() || !(std::isalpha(static_cast<unsigned char>(line[0])) || line[0] == '_')) return false;
    while (i < line.size() && key_char(line[i])) ++i;
  }
  while (i < line.size() && line[i] == ' ') ++i;
  return i < line.size() && line[i] == ':' &&
         (i + 1 == line.size() || line[i + 1] == ' ' || line[i + 1] == '\t' || line[i + 1] == '\r');
}

}  // namespace

bool starts_like_yaml_export(std::string_view head) {
  for (std::string_view line : lines_of(head, 1000)) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos || line[first] == '#' || line.starts_with("%")) continue;
    if (line.starts_with("---") && (line.size() == 3 || line[3] == ' ' || line[3] == '\t')) return true;
    return opens_with_key(line.substr(first));
  }
  return false;
}

}  // namespace gpudiag::detail
