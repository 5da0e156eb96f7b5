#include "text_layout.h"

#include <fmt/format.h>

#include <algorithm>

#include "gpudiag/utf8.h"
#include "wording.h"

namespace gpudiag::detail {
namespace {

struct CodeRange {
  uint32_t first, last;
};

// Characters a terminal draws two columns wide: Unicode's East Asian Wide and Fullwidth blocks
// (UAX #11) and the emoji blocks, as wcwidth implementations group them.
constexpr CodeRange kWide[] = {
    {0x1100, 0x115F},   {0x231A, 0x231B},   {0x2329, 0x232A},   {0x23E9, 0x23EC},   {0x23F0, 0x23F0},
    {0x23F3, 0x23F3},   {0x25FD, 0x25FE},   {0x2614, 0x2615},   {0x2648, 0x2653},   {0x267F, 0x267F},
    {0x2693, 0x2693},   {0x26A1, 0x26A1},   {0x26AA, 0x26AB},   {0x26BD, 0x26BE},   {0x26C4, 0x26C5},
    {0x26CE, 0x26CE},   {0x26D4, 0x26D4},   {0x26EA, 0x26EA},   {0x26F2, 0x26F5},   {0x26FA, 0x26FA},
    {0x26FD, 0x26FD},   {0x2705, 0x2705},   {0x270A, 0x270B},   {0x2728, 0x2728},   {0x274C, 0x274C},
    {0x2753, 0x2755},   {0x2757, 0x2757},   {0x2795, 0x2797},   {0x27B0, 0x27B0},   {0x27BF, 0x27BF},
    {0x2B1B, 0x2B1C},   {0x2B50, 0x2B50},   {0x2B55, 0x2B55},   {0x2E80, 0x303E},   {0x3041, 0x33FF},
    {0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},   {0xA960, 0xA97F},   {0xAC00, 0xD7A3},
    {0xF900, 0xFAFF},   {0xFE10, 0xFE19},   {0xFE30, 0xFE6F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},
    {0x16FE0, 0x18AFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E},
    {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F64F}, {0x1F680, 0x1F6FF}, {0x1F7E0, 0x1F7EB},
    {0x1F900, 0x1F9FF}, {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};

// Characters drawn over the one before them, or not at all: combining marks, variation selectors,
// zero-width characters.
constexpr CodeRange kZeroWidth[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x05BF, 0x05BF},   {0x05C1, 0x05C2}, {0x05C4, 0x05C5},
    {0x05C7, 0x05C7}, {0x0610, 0x061A}, {0x064B, 0x065F}, {0x0670, 0x0670},   {0x06D6, 0x06DC}, {0x06DF, 0x06E4},
    {0x06E7, 0x06E8}, {0x06EA, 0x06ED}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A},   {0x0E47, 0x0E4E}, {0x1AB0, 0x1AFF},
    {0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x20D0, 0x20FF}, {0x2060, 0x2064},   {0x302A, 0x302D}, {0x3099, 0x309A},
    {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF}, {0xE0100, 0xE01EF},
};

template <size_t N>
bool in(const CodeRange (&ranges)[N], uint32_t cp) {
  return std::any_of(std::begin(ranges), std::end(ranges),
                     [cp](const CodeRange& r) { return cp >= r.first && cp <= r.last; });
}

size_t char_width(uint32_t cp) {
  if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) return 0;  // controls (terminal_safe never lets one through)
  if (cp < 0x300) return 1;
  if (in(kZeroWidth, cp)) return 0;
  return in(kWide, cp) ? 2 : 1;
}

// Where the SGR sequence at `pos` (ESC [ … m) ends, or `pos` when there is none.
size_t skip_sgr(std::string_view text, size_t pos) {
  if (pos + 1 >= text.size() || text[pos] != '\x1b' || text[pos + 1] != '[') return pos;
  size_t end = pos + 2;
  while (end < text.size() && ((text[end] >= '0' && text[end] <= '9') || text[end] == ';')) ++end;
  return end < text.size() && text[end] == 'm' ? end + 1 : pos;
}

// A coloured phrase may span a line break: end each line with a reset and open the colour again
// after the next line's indent, so a colour never bleeds into what follows the report's line.
void carry_colour(std::vector<std::string>& lines, size_t first_lead, size_t lead) {
  std::string open;  // the SGR sequences in force at the end of the line so far
  for (size_t n = 0; n < lines.size(); ++n) {
    std::string& line = lines[n];
    const size_t at = std::min(n == 0 ? first_lead : lead, line.size());
    if (!open.empty()) line.insert(at, open);
    for (size_t i = at + open.size(); i < line.size(); ++i) {
      if (line[i] != '\x1b') continue;
      const size_t end = skip_sgr(line, i);
      if (end == i) continue;
      const std::string_view seq = std::string_view(line).substr(i, end - i);
      open = (seq == "\x1b[0m" || seq == "\x1b[m") ? "" : open + std::string(seq);
      i = end - 1;
    }
    if (!open.empty() && n + 1 < lines.size()) line += "\x1b[0m";
  }
}

std::vector<std::string_view> words_of(std::string_view text) {
  std::vector<std::string_view> words;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t space = text.find(' ', pos);
    const size_t end = space == std::string_view::npos ? text.size() : space;
    if (end > pos) words.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return words;
}

// Fills one line from words[next…] within `width` columns (at least one word); returns the line and
// moves `next` on.
std::string fill_line(const std::vector<std::string_view>& words, size_t& next, std::string_view indent, size_t width) {
  std::string line(indent);
  size_t used = display_width(indent);
  bool first = true;
  while (next < words.size()) {
    const size_t w = display_width(words[next]);
    if (!first && used + 1 + w > width) break;
    if (!first) {
      line += ' ';
      ++used;
    }
    line += words[next++];
    used += w;
    first = false;
  }
  return line;
}

size_t width_of(const std::vector<std::string_view>& words, size_t from) {
  size_t w = 0;
  for (size_t i = from; i < words.size(); ++i) w += display_width(words[i]) + (i > from ? 1 : 0);
  return w;
}

}  // namespace

size_t display_width(std::string_view text) {
  size_t columns = 0;
  for (size_t i = 0; i < text.size();) {
    if (const size_t end = skip_sgr(text, i); end != i) {
      i = end;
      continue;
    }
    const Utf8Char c = decode_utf8(text, i);
    columns += char_width(c.code_point);
    i += c.size;
  }
  return columns;
}

std::string wrap_prose(std::string_view text, std::string_view first_indent, std::string_view indent, size_t width) {
  std::string out;
  for (const auto& line : fold_prose(text, first_indent, indent, width, SIZE_MAX)) out += line + "\n";
  return out;
}

std::vector<std::string> fold_prose(std::string_view text, std::string_view first_indent, std::string_view indent,
                                    size_t width, size_t max_lines, std::string_view tail, bool* cut) {
  const std::vector<std::string_view> words = words_of(text);
  std::vector<std::string> lines;
  size_t next = 0;
  while (next < words.size() && lines.size() < max_lines) {
    const std::string_view lead = lines.empty() ? first_indent : indent;
    const bool last = lines.size() + 1 == max_lines;
    if (last && display_width(lead) + width_of(words, next) > width) {
      // The last line allowed and the rest does not fit: keep room for the tail.
      const size_t room = width > display_width(tail) ? width - display_width(tail) : 0;
      std::string line = fill_line(words, next, lead, room);
      lines.push_back(line.append(tail));
      if (cut != nullptr) *cut = true;
      break;
    }
    lines.push_back(fill_line(words, next, lead, width));
  }
  carry_colour(lines, first_indent.size(), indent.size());
  return lines;
}

std::string crop_columns(std::string_view text, size_t columns) {
  if (display_width(text) <= columns) return std::string(text);
  std::string out;
  size_t used = 0;
  const size_t room = columns > 2 ? columns - 2 : 0;
  for (size_t i = 0; i < text.size();) {
    const Utf8Char c = decode_utf8(text, i);
    const size_t w = char_width(c.code_point);
    if (used + w > room) break;
    out.append(text.substr(i, c.size));
    used += w;
    i += c.size;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out + " …";
}

std::string time_ms(Timestamp t) {
  if (t == kNoTime) return "";
  int64_t secs = t / 1'000'000'000, nanos = t % 1'000'000'000;
  if (nanos < 0) nanos += 1'000'000'000, secs -= 1;
  std::string whole = format_rfc3339(secs * 1'000'000'000);  // "…T22:09:27Z"
  whole.pop_back();
  return fmt::format("{}.{:03}Z", whole, nanos / 1'000'000);
}

std::string time_span_ms(Timestamp a, Timestamp b) {
  if (a == kNoTime) return "time unknown";
  if (b == kNoTime || a == b) return time_ms(a);
  return fmt::format("{} … {} ({})", time_ms(a), time_ms(b), duration((b - a) / 1'000'000'000));
}

std::string TextLegend::safe(std::string_view text) {
  std::string shown = terminal_safe(text);
  if (shown == text && text.find(kReplacementCharacterUtf8) == std::string_view::npos) return shown;
  for (size_t i = 0; i < text.size();) {
    const Utf8Char c = decode_utf8(text, i);
    const uint32_t cp = c.code_point;
    if (!c.valid || cp == kReplacementCharacter) {
      replacement_ = true;
    } else if ((cp < 0x20 && cp != '\t') || (cp >= 0x7F && cp <= 0x9F)) {
      control_ = true;
    } else if (cp >= 0x61C && terminal_safe(text.substr(i, c.size)).rfind("<U+", 0) == 0) {
      invisible_ = true;
    }
    i += c.size;
  }
  return shown;
}

void TextLegend::add(const TextLegend& o) {
  cut_ = cut_ || o.cut_;
  control_ = control_ || o.control_;
  invisible_ = invisible_ || o.invisible_;
  replacement_ = replacement_ || o.replacement_;
}

void TextLegend::note_cut(std::string_view shown, std::string_view whole) { cut_ = cut_ || shown != whole; }

std::string TextLegend::line(size_t width) const {
  std::vector<std::string> entries;
  if (cut_) entries.emplace_back("… text left out (--format json has it whole)");
  if (control_) entries.emplace_back("\\x1b a control character");
  if (invisible_) entries.emplace_back("<U+202E> an invisible character");
  if (replacement_) entries.emplace_back("\uFFFD bytes that are not UTF-8");
  if (entries.empty()) return "";
  return wrap_prose(fmt::format("legend: {}", fmt::join(entries, " · ")), "", "  ", width);
}

}  // namespace gpudiag::detail
