// Escaping, one helper per output format (formats.h, and terminal_safe of report.h). Each walks the
// text as UTF-8 (utf8.h: what is not well-formed becomes U+FFFD), shows control characters and
// invisible formatting as text (visible_control), then applies its format's own rules.
#include <fmt/format.h>

#include <algorithm>

#include "gpudiag/formats.h"
#include "gpudiag/report.h"
#include "gpudiag/utf8.h"

namespace gpudiag {
namespace {

struct CodeRange {
  uint32_t first, last;
};

// Characters that change how the text around them reads without showing themselves: the Trojan
// Source set (CVE-2021-42574) and the zero-width characters.
constexpr CodeRange kInvisibleFormatting[] = {
    {0x061C, 0x061C},  // arabic letter mark
    {0x200B, 0x200F},  // zero-width space, non-joiner, joiner; left-to-right and right-to-left marks
    {0x202A, 0x202E},  // bidi embeddings, pop, overrides
    {0x2060, 0x2064},  // word joiner, invisible operators
    {0x2066, 0x2069},  // bidi isolates
    {0xFEFF, 0xFEFF},  // zero-width no-break space (a byte order mark anywhere but a file's start)
};

bool invisible_formatting(uint32_t cp) {
  for (const CodeRange& r : kInvisibleFormatting) {
    if (cp >= r.first && cp <= r.last) return true;
  }
  return false;
}

// A character no report shows as it is, written as text instead: C0 controls and DEL as "\x1b", C1
// controls as "\u009b", and the invisible characters that reorder or hide text (bidi controls,
// zero-width characters, U+FEFF) as "<U+202E>", so a log line cannot disguise itself. Empty for
// every other character. Every escaper (terminal_safe included) goes through this one function and
// then escapes the shown form by its own format's rules.

std::string visible_control(uint32_t cp) {
  if (cp < 0x20 || cp == 0x7F) return fmt::format("\\x{:02x}", cp);
  if (cp >= 0x80 && cp <= 0x9F) return fmt::format("\\u{:04x}", cp);
  if (cp >= 0x061C && invisible_formatting(cp)) return fmt::format("<U+{:04X}>", cp);
  return "";
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
    const std::string shown = visible_control(cp);
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

namespace {

enum class Markup { kHtml, kXmlText, kXmlAttribute };

// HTML and XML differ only in the apostrophe, in newlines and tabs inside attribute values, and in
// the two non-characters XML forbids.
std::string escape_markup(std::string_view text, Markup markup) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  const bool attribute = markup == Markup::kXmlAttribute;
  for_each_utf8_char(text, [&](std::string_view ch, uint32_t cp) {
    switch (cp) {
      case '&':
        out += "&amp;";
        return;
      case '<':
        out += "&lt;";
        return;
      case '>':
        out += "&gt;";
        return;  // also keeps "]]>" out of XML text
      case '"':
        out += "&quot;";
        return;
      case '\'':
        out += markup == Markup::kHtml ? "&#39;" : "&apos;";
        return;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        return;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        return;
      case 0xFFFE:
      case 0xFFFF:
        out += markup == Markup::kHtml ? std::string(ch) : "\xEF\xBF\xBD";
        return;
      default:
        break;
    }
    const std::string shown = visible_control(cp);  // XML 1.0 has no way to write C0 controls at all
    out += shown.empty() ? std::string(ch) : escape_markup(shown, markup);
  });
  return out;
}

}  // namespace

std::string html_escape(std::string_view text) { return escape_markup(text, Markup::kHtml); }

std::string xml_escape(std::string_view text, bool attribute) {
  return escape_markup(text, attribute ? Markup::kXmlAttribute : Markup::kXmlText);
}

std::string markdown_escape(std::string_view text) {
  // Inline markup, HTML, entities, tables and math anywhere; block markers where a line could start.
  static constexpr std::string_view kInline = "\\`*_[]<>|~&$";
  static constexpr std::string_view kLineStart = "#+-=>";
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for_each_utf8_char(text, [&](std::string_view ch, uint32_t cp) {
    const bool ascii = cp < 0x80;
    if (cp == '\n' || cp == '\r' || cp == '\t') {
      out += ' ';
    } else if (cp == '@') {
      out += "@\u2060";  // a word joiner: no @mention
    } else if (ascii && (kInline.find(static_cast<char>(cp)) != std::string_view::npos ||
                         (out.empty() && kLineStart.find(static_cast<char>(cp)) != std::string_view::npos))) {
      out += '\\';
      out += ch;
    } else {
      const std::string shown = visible_control(cp);
      out += shown.empty() ? std::string(ch) : markdown_escape(shown);  // "\<U+202E\>"
    }
  });
  return out;
}

namespace {

// The text with controls shown (keeping newlines and, unless `one_line`, tabs), and the longest
// run of backticks in it.
std::pair<std::string, size_t> code_text(std::string_view text, bool one_line) {
  std::string out;
  size_t run = 0, longest = 0;
  for_each_utf8_char(text, [&](std::string_view ch, uint32_t cp) {
    run = cp == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (cp == '\n' || cp == '\t') {
      out += one_line ? std::string_view(" ") : ch;
      return;
    }
    const std::string shown = visible_control(cp);
    out += shown.empty() ? std::string(ch) : shown;
  });
  return {std::move(out), longest};
}

}  // namespace

std::string markdown_code_block(std::string_view text, std::string_view info) {
  auto [body, longest] = code_text(text, false);
  const std::string fence(std::max<size_t>(3, longest + 1), '`');
  if (!body.empty() && body.back() != '\n') body += '\n';
  return fence + std::string(info) + "\n" + body + fence + "\n";
}

std::string markdown_code_span(std::string_view text) {
  auto [body, longest] = code_text(text, true);
  const std::string ticks(longest + 1, '`');
  const bool pad = body.empty() || body.front() == '`' || body.back() == '`' || body.front() == ' ';
  return pad ? ticks + " " + body + " " + ticks : ticks + body + ticks;
}

std::string workflow_command_escape(std::string_view text, bool property) {
  std::string out;
  out.reserve(text.size() + 16);
  for_each_utf8_char(text, [&](std::string_view ch, uint32_t cp) {
    switch (cp) {
      case '%':
        out += "%25";
        return;
      case '\r':
        out += "%0D";
        return;
      case '\n':
        out += "%0A";
        return;
      case ':':
        out += property ? "%3A" : ":";
        return;
      case ',':
        out += property ? "%2C" : ",";
        return;
      default:
        break;
    }
    const std::string shown = visible_control(cp);
    out += shown.empty() ? std::string(ch) : shown;
  });
  return out;
}

std::string sarif_text(std::string_view text) {
  std::string out;
  out.reserve(text.size() + 8);
  for_each_utf8_char(text, [&](std::string_view ch, uint32_t cp) {
    const std::string shown = cp == '\n' || cp == '\t' ? "" : visible_control(cp);
    for (char c : shown.empty() ? ch : std::string_view(shown)) {
      if (c == '\\' || c == '[' || c == ']') out += '\\';
      out += c;
    }
  });
  return out;
}

}  // namespace gpudiag
