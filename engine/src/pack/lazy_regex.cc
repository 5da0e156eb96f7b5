// named_groups (lazy_regex.h).
#include "lazy_regex.h"

namespace gpudiag::detail {

std::vector<std::string> named_groups(std::string_view pattern) {
  std::vector<std::string> names;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\') {  // an escaped character, `\(` included, is no group
      ++i;
      continue;
    }
    if (pattern.compare(i, 4, "(?P<") != 0) continue;
    const size_t end = pattern.find('>', i + 4);
    if (end == std::string_view::npos) break;
    names.emplace_back(pattern.substr(i + 4, end - i - 4));
    i = end;
  }
  return names;
}

}  // namespace gpudiag::detail
