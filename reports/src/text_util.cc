#include <fmt/format.h>

#include <filesystem>

#include "gpudiag/report.h"
#include "render_util.h"

namespace gpudiag {
namespace {

// Moves `pos` back to the start of the UTF-8 character it falls in.
size_t char_start(std::string_view s, size_t pos) {
  while (pos > 0 && pos < s.size() && (static_cast<unsigned char>(s[pos]) & 0xC0) == 0x80) --pos;
  return pos;
}

}  // namespace

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for_each_utf8_char(text, [&](std::string_view ch, uint32_t cp) {
    if (cp == '\t') {
      out += "  ";
      return;
    }
    // ESC, CR, BEL, CSI … never reach the terminal raw, nor do bidi overrides or invalid UTF-8.
    const std::string shown = detail::visible_control(cp);
    out += shown.empty() ? ch : std::string_view(shown);
  });
  return out;
}

std::string terminal_safe_lines(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t start = 0; start < text.size();) {
    const size_t nl = text.find('\n', start);
    const size_t end = nl == std::string_view::npos ? text.size() : nl;
    out += terminal_safe(text.substr(start, end - start));
    if (nl != std::string_view::npos) out += '\n';
    start = end + 1;
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
