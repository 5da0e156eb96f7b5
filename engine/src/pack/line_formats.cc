#include "line_formats.h"

#include <algorithm>

namespace gpudiag::detail {

LineFormats::LineFormats(const std::vector<LineFormat>& formats) {
  constexpr std::string_view kRest = "(?P<text>.*)";
  for (const auto& f : formats) {
    auto whole = std::make_unique<const RE2>(f.pattern, RE2::Quiet);
    if (!whole->ok() || !whole->NamedCapturingGroups().contains("text")) continue;  // the loader refused it already
    // `.*` takes every byte of a one-line text whatever the prefix matched, so the prefix's match is
    // the one the whole pattern's would be (RE2's leftmost-first choice is the same).
    const bool rest = std::string_view(f.pattern).ends_with(kRest);
    auto re = rest ? std::make_unique<const RE2>(f.pattern.substr(0, f.pattern.size() - kRest.size()), RE2::Quiet)
                   : std::move(whole);
    if (!re->ok()) continue;
    const auto& named = re->NamedCapturingGroups();
    const auto text = named.find("text");
    for (const auto& s : f.starts) {
      if (!s.empty()) starts_by_byte_[static_cast<unsigned char>(s.front())].push_back({s, formats_.size()});
    }
    const auto level = named.find("level");
    const auto process = named.find("process");
    formats_.push_back(Compiled{f, std::move(re), rest, text == named.end() ? 0 : text->second,
                                level == named.end() ? -1 : level->second,
                                process == named.end() ? -1 : process->second});
  }
}

std::optional<LineFormats::Read> LineFormats::read(std::string_view line) const {
  if (line.empty()) return std::nullopt;
  size_t tried = formats_.size();  // the format tried last: one whose several starts begin the line is tried once
  for (const auto& start : starts_by_byte_[static_cast<unsigned char>(line.front())]) {
    if (start.format == tried || !line.starts_with(start.text)) continue;
    tried = start.format;
    const Compiled& f = formats_[start.format];
    const int groups = std::max({f.text_group, f.level_group, f.process_group}) + 1;
    re2::StringPiece found[kMaxGroups + 1];
    if (groups > kMaxGroups + 1 || !f.re->Match(line, 0, line.size(), RE2::ANCHOR_START, found, groups)) continue;
    Read r;
    r.text = f.text_is_rest ? line.substr(found[0].size())
                            : std::string_view(found[f.text_group].data(), found[f.text_group].size());
    if (f.process_group >= 0)
      r.process = std::string_view(found[f.process_group].data(), found[f.process_group].size());
    if (f.level_group >= 0 && !found[f.level_group].empty()) {
      r.level = f.format.level_of(std::string_view(found[f.level_group].data(), found[f.level_group].size()));
    }
    return r;
  }
  return std::nullopt;
}

}  // namespace gpudiag::detail
