// Escaping, one helper per output format (formats.h, and terminal_safe of report.h). Each walks the
// text as UTF-8 (utf8.h: what is not well-formed becomes U+FFFD), shows control characters and
// invisible formatting as text (visible_control), then applies its format's own rules.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

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

namespace {

// markdown_escape; `line_start`: the text starts a line (block markers there are escaped too).
std::string escape_markdown(std::string_view text, bool line_start) {
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
    } else if (ascii &&
               (kInline.find(static_cast<char>(cp)) != std::string_view::npos ||
                (line_start && out.empty() && kLineStart.find(static_cast<char>(cp)) != std::string_view::npos))) {
      out += '\\';
      out += ch;
    } else {
      const std::string shown = visible_control(cp);
      out += shown.empty() ? std::string(ch) : markdown_escape(shown);  // "\<U+202E\>"
    }
  });
  return out;
}

}  // namespace

std::string markdown_escape(std::string_view text) { return escape_markdown(text, true); }

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

namespace {

bool lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// A machine type, zone, region or GPU type: lower-case words and digits joined by dashes, with a
// digit somewhere (n1-standard-4, us-central1-a, nvidia-tesla-t4), not a hyphenated English word.
bool resource_name(std::string_view w) {
  if (w.empty() || w.front() < 'a' || w.front() > 'z' || w.back() == '-') return false;
  bool dash = false, digit = false;
  char prev = 0;
  for (char c : w) {
    if (c == '-') {
      if (prev == '-') return false;
      dash = true;
    } else if (!lower_alnum(c)) {
      return false;
    }
    digit = digit || (c >= '0' && c <= '9');
    prev = c;
  }
  // One dash before digits alone is a version or an encoding (x86-64, utf-8), not a resource.
  const size_t last = w.rfind('-');
  const bool numeric_tail = w.find_first_not_of("0123456789", last + 1) == std::string_view::npos;
  return dash && digit && !(numeric_tail && w.find('-') == last);
}

// What a reader copies rather than reads: a flag, an identifier or option value with `_` or `=`, a
// path or image reference, a resource name.
bool code_like(std::string_view w) {
  // Markup is never code: log text quoted in a title (`</title><script>`) stays escaped prose.
  if (w.size() < 2 || w.find_first_of("<>") != std::string_view::npos) return false;
  if (w.rfind("--", 0) == 0) return w.size() > 2 && std::isalpha(static_cast<unsigned char>(w[2]));
  const bool letter =
      std::any_of(w.begin(), w.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
  if (!letter) return false;
  const size_t underscore = w.find('_');
  if (underscore != std::string_view::npos && w.find_first_not_of('_') != std::string_view::npos) return true;
  const size_t eq = w.find('=');
  if (eq != std::string_view::npos && eq > 0 && eq + 1 < w.size()) return true;
  if (w.find('/') != std::string_view::npos &&
      (w.front() == '/' || w.find('.') != std::string_view::npos || w.find(':') != std::string_view::npos))
    return true;
  return resource_name(w);
}

constexpr std::string_view kOpeners = "(\"'";
constexpr std::string_view kClosers = ")\"',.;:!?";

}  // namespace

std::string markdown_prose(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t start = text.find_first_not_of(" \t\n\r", pos);
    out += escape_markdown(text.substr(pos, std::min(start, text.size()) - pos), out.empty());
    if (start == std::string_view::npos) break;
    size_t end = text.find_first_of(" \t\n\r", start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(start, end - start);
    size_t first = 0, last = word.size();
    while (first < last && kOpeners.find(word[first]) != std::string_view::npos) ++first;
    while (last > first && kClosers.find(word[last - 1]) != std::string_view::npos) --last;
    const std::string_view core = word.substr(first, last - first);
    if (code_like(core)) {
      out += escape_markdown(word.substr(0, first), out.empty());
      out += markdown_code_span(core);
      out += escape_markdown(word.substr(last), false);
    } else {
      out += escape_markdown(word, out.empty());
    }
    pos = end;
  }
  return out;
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
