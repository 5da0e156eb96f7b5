#include "line_formats.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string>

namespace gpudiag::detail {
namespace {

std::string plain_groups(std::string pattern) {
  RE2::GlobalReplace(&pattern, R"(\(\?P<\w+>)", "(");
  return pattern;
}

// The first `c` in RE2 pattern `p` from `from` on at `from`'s nesting level — outside escapes, classes
// and the groups opened after `from` — or npos, also when the group `from` is in closes first (a
// `)` that closes it is found when `c` is `)`).
size_t find_at_level(std::string_view p, size_t from, char c) {
  int depth = 0;
  bool in_class = false;
  for (size_t i = from; i < p.size(); ++i) {
    if (p[i] == '\\') {
      ++i;
    } else if (in_class) {
      in_class = p[i] != ']';
    } else if (p[i] == '[') {
      in_class = true;
      if (i + 1 < p.size() && p[i + 1] == '^') ++i;
      if (i + 1 < p.size() && p[i + 1] == ']') ++i;  // `[]…]`, `[^]…]`: the bracket is a member
    } else if (p[i] == c && depth == 0) {
      return i;
    } else if (p[i] == '(') {
      ++depth;
    } else if (p[i] == ')' && --depth < 0) {
      return std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

// The end of the group whose `(` is at `open` (the index of its `)`), or npos.
size_t group_end(std::string_view p, size_t open) { return find_at_level(p, open + 1, ')'); }

// Whether `p` has a `|` outside every group and class, or sets RE2's `U` flag (`.*` then lazy):
// then the pattern without its trailing `(?P<text>.*)` is not the pattern's prefix.
bool prefix_is_not_plain(std::string_view p) {
  if (p.find("(?U") != std::string_view::npos || p.find("(?sU") != std::string_view::npos) return true;
  return find_at_level(p, 0, '|') != std::string_view::npos;
}

}  // namespace

LineFormats::LineFormats(const std::vector<LineFormat>& formats) {
  constexpr std::string_view kRest = "(?P<text>.*)";
  for (const auto& f : formats) {
    // `.*` takes every character of a one-line text whatever the prefix matched, so the prefix's
    // match is the one the whole pattern's would be (RE2's leftmost-first choice is the same) —
    // unless the suffix binds to one branch of a top-level alternation, or `.*` is lazy. (A byte that
    // is not UTF-8 stops `.*`: the whole pattern then fails where the prefix reads; such a line is
    // read with the rest as its text.)
    const bool rest = std::string_view(f.pattern).ends_with(kRest) &&
                      !prefix_is_not_plain(std::string_view(f.pattern).substr(0, f.pattern.size() - kRest.size()));
    // One compile: the prefix, or the whole pattern (the loader refused one without a group `text`).
    auto re = std::make_unique<const RE2>(rest ? f.pattern.substr(0, f.pattern.size() - kRest.size()) : f.pattern,
                                          RE2::Quiet);
    const auto& named = re->NamedCapturingGroups();
    const auto text = named.find("text");
    if (!re->ok() || (!rest && text == named.end())) continue;
    for (const auto& s : f.starts) {
      if (!s.empty()) starts_by_byte_[static_cast<unsigned char>(s.front())].push_back({s, formats_.size()});
    }
    for (const auto& c : f.contains) {
      if (!c.empty()) contains_.push_back({c, formats_.size()});
    }
    const auto level = named.find("level");
    const auto process = named.find("process");
    formats_.push_back(Compiled{f, std::move(re), rest, text == named.end() ? 0 : text->second,
                                level == named.end() ? -1 : level->second,
                                process == named.end() ? -1 : process->second});
  }
}

std::optional<LineFormats::Read> LineFormats::read(std::string_view line, bool at_error) const {
  if (line.empty()) return std::nullopt;
  // The formats whose `starts` begin the line and (at ERROR) whose `contains` are in its window,
  // merged in the pack's order: the first that reads it wins. A format has one kind of screen, so
  // its entries in either list are adjacent and it is tried once.
  const auto& by_start = starts_by_byte_[static_cast<unsigned char>(line.front())];
  static const std::vector<Start> kNone;
  const auto& by_contents = at_error ? contains_ : kNone;
  const std::string_view window = line.substr(0, kContainsWindow);
  size_t i = 0, j = 0;
  size_t tried = formats_.size();
  while (i < by_start.size() || j < by_contents.size()) {
    const bool from_start =
        j >= by_contents.size() || (i < by_start.size() && by_start[i].format < by_contents[j].format);
    const Start& s = from_start ? by_start[i++] : by_contents[j++];
    if (s.format == tried) continue;
    if (from_start ? !line.starts_with(s.text) : window.find(s.text) == std::string_view::npos) continue;
    tried = s.format;
    if (auto r = read_with(formats_[s.format], line)) return r;
  }
  return std::nullopt;
}

std::optional<LineFormats::Read> LineFormats::read_with(const Compiled& f, std::string_view line) const {
  const int groups = std::max({f.text_group, f.level_group, f.process_group}) + 1;
  re2::StringPiece found[kMaxGroups + 1];
  if (groups > kMaxGroups + 1 || !f.re->Match(line, 0, line.size(), RE2::ANCHOR_START, found, groups))
    return std::nullopt;
  Read r;
  r.text = f.text_is_rest ? line.substr(found[0].size())
                          : std::string_view(found[f.text_group].data(), found[f.text_group].size());
  if (f.process_group >= 0) r.process = std::string_view(found[f.process_group].data(), found[f.process_group].size());
  if (f.level_group >= 0 && !found[f.level_group].empty()) {
    r.level = f.format.level_of(std::string_view(found[f.level_group].data(), found[f.level_group].size()));
  }
  return r;
}

std::optional<std::string> LineFormats::screen_of(const LineFormat& f, bool below_error) {
  constexpr std::string_view kLevelGroup = "(?P<level>";
  const size_t open = f.pattern.find(kLevelGroup);
  if (open == std::string::npos) {
    if (below_error) return std::nullopt;
    return fmt::format("^(?:{})", plain_groups(f.pattern));
  }
  const size_t close = group_end(f.pattern, open);
  if (close == std::string_view::npos) return std::nullopt;
  const RE2 group(f.pattern.substr(open + kLevelGroup.size(), close - open - kLevelGroup.size()), RE2::Quiet);
  std::set<std::string, std::less<>> tokens;
  const auto consider = [&](std::string_view token) {
    const auto level = f.level_of(token);
    if (level && (*level < Severity::kError) == below_error && RE2::FullMatch(token, group)) tokens.emplace(token);
  };
  for (const auto& [token, level] : f.levels) consider(token);
  for (const auto& row : kSeverityNames) consider(row.name);
  for (const auto& row : kSeverityAliases) consider(row.name);
  if (!group.ok() || tokens.empty()) return std::nullopt;
  std::string alternation;
  for (const auto& t : tokens) {
    alternation += fmt::format("{}{}", alternation.empty() ? "" : "|", RE2::QuoteMeta(t));
  }
  return fmt::format("^(?:{}(?:{}){})", plain_groups(f.pattern.substr(0, open)), alternation,
                     plain_groups(f.pattern.substr(close + 1)));
}

}  // namespace gpudiag::detail
