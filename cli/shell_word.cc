#include "shell_word.h"

#include <regex>

namespace gpudiag::cli {

std::string shell_word(const std::string& s) {
  static const std::regex kSafe(R"([A-Za-z0-9_@%+=:,./-]+)");
  if (std::regex_match(s, kSafe)) return s;
  std::string out = "'";
  for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace gpudiag::cli
