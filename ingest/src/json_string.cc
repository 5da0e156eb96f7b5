#include "json_string.h"

#include <cstdint>

#include "gpudiag/utf8.h"

namespace gpudiag::detail {
namespace {

// The value of four hex digits at `at`, or -1.
int32_t hex4(std::string_view s, size_t at) {
  if (at + 4 > s.size()) return -1;
  int32_t v = 0;
  for (size_t i = at; i < at + 4; ++i) {
    const char c = s[i];
    const int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

bool high_surrogate(int32_t u) { return u >= 0xD800 && u <= 0xDBFF; }
bool low_surrogate(int32_t u) { return u >= 0xDC00 && u <= 0xDFFF; }

}  // namespace

std::optional<UnescapedString> unescape_json_string(std::string_view raw) {
  if (raw.empty() || raw.front() != '"') return std::nullopt;
  UnescapedString out;
  out.text.reserve(raw.size());
  size_t i = 1;
  while (i < raw.size()) {
    const char c = raw[i];
    if (c == '"') return out;
    if (c != '\\') {                            // raw bytes, control characters included, pass as simdjson passes them
      const Utf8Char ch = decode_utf8(raw, i);  // simdjson validates the same way
      if (!ch.valid) return std::nullopt;
      out.text.append(raw.substr(i, ch.size));
      i += ch.size;
      continue;
    }
    if (i + 1 >= raw.size()) return std::nullopt;
    const char escaped = raw[i + 1];
    i += 2;
    switch (escaped) {
      case '"':
      case '\\':
      case '/':
        out.text += escaped;
        continue;
      case 'b':
        out.text += '\b';
        continue;
      case 'f':
        out.text += '\f';
        continue;
      case 'n':
        out.text += '\n';
        continue;
      case 'r':
        out.text += '\r';
        continue;
      case 't':
        out.text += '\t';
        continue;
      case 'u':
        break;
      default:
        return std::nullopt;
    }
    const int32_t unit = hex4(raw, i);
    if (unit < 0) return std::nullopt;
    i += 4;
    if (!high_surrogate(unit) && !low_surrogate(unit)) {
      append_utf8(out.text, static_cast<uint32_t>(unit));
      continue;
    }
    // A high surrogate pairs with a low one escaped right after it; anything else is left alone for
    // the next round (a second high surrogate may start a pair of its own).
    const bool pair_follows = high_surrogate(unit) && i + 1 < raw.size() && raw[i] == '\\' && raw[i + 1] == 'u';
    const int32_t low = pair_follows ? hex4(raw, i + 2) : -1;
    if (pair_follows && low < 0) return std::nullopt;
    if (low_surrogate(low)) {
      append_utf8(out.text,
                  0x10000 + ((static_cast<uint32_t>(unit) - 0xD800) << 10) + (static_cast<uint32_t>(low) - 0xDC00));
      i += 6;
    } else {
      append_utf8(out.text, kReplacementCharacter);
      ++out.replaced;
    }
  }
  return std::nullopt;  // no closing quote
}

}  // namespace gpudiag::detail
