#include "line_formats.h"

#include <algorithm>

namespace gpudiag::detail {

LineFormats::LineFormats(const std::vector<LineFormat>& formats) {
  for (const auto& f : formats) {
    auto re = std::make_unique<const RE2>(f.pattern, RE2::Quiet);
    const auto& named = re->NamedCapturingGroups();
    const auto text = named.find("text");
    if (!re->ok() || text == named.end()) continue;  // the loader refused it already
    for (const auto& s : f.starts) {
      if (!s.empty()) starts_by_byte_[static_cast<unsigned char>(s.front())].push_back({s, formats_.size()});
    }
    const auto level = named.find("level");
    const auto process = named.find("process");
    formats_.push_back(Compiled{f, std::move(re), text->second, level == named.end() ? -1 : level->second,
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
    r.text = std::string_view(found[f.text_group].data(), found[f.text_group].size());
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
