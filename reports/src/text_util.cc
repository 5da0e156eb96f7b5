#include <fmt/format.h>

#include <filesystem>

#include "gpudiag/report.h"

namespace gpudiag {
namespace {

// Length of the UTF-8 sequence starting with byte c (1 for stray continuation bytes).
size_t utf8_length(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c >> 5) == 0x6) return 2;
  if ((c >> 4) == 0xE) return 3;
  if ((c >> 3) == 0x1E) return 4;
  return 1;
}

// Moves `pos` back to the start of the UTF-8 character it falls in.
size_t char_start(std::string_view s, size_t pos) {
  while (pos > 0 && pos < s.size() && (static_cast<unsigned char>(s[pos]) & 0xC0) == 0x80) --pos;
  return pos;
}

}  // namespace

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == '\t') {
      out += "  ";
      ++i;
    } else if (c < 0x20 || c == 0x7F) {
      out += fmt::format("\\x{:02x}", c);  // ESC, CR, BEL … never reach the terminal raw
      ++i;
    } else if (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9F) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(text[i + 1]));  // C1 controls (CSI …)
      i += 2;
    } else {
      const size_t n = std::min(utf8_length(c), text.size() - i);
      out.append(text.substr(i, n));
      i += n;
    }
  }
  return out;
}

std::string crop_middle(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  const size_t half = max_bytes / 2;
  const size_t head_end = char_start(text, half);
  const size_t tail_start = char_start(text, text.size() - half);
  return fmt::format("{} … [{} bytes cut] … {}", text.substr(0, head_end), tail_start - head_end,
                     text.substr(tail_start));
}

std::string display_path(const std::string& path, bool deterministic) {
  if (!deterministic || path.empty() || path.front() != '/') return path;
  return std::filesystem::path(path).filename().string();
}

}  // namespace gpudiag
