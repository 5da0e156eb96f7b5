#include "group_key.h"

#include <array>

namespace gpudiag::detail {
namespace {

// Each kind's word in a key, by Kind.
constexpr std::array<std::string_view, 3> kKindWords{"exc", "cut", "line"};

}  // namespace

std::string GroupKey::str() const {
  const std::string_view word = kKindWords[static_cast<size_t>(kind)];
  std::string out;
  out.reserve(kVersion.size() + word.size() + type.size() + frame.size() + text.size() + 4);
  out.append(kVersion).append("|").append(word).append("|");
  switch (kind) {
    case Kind::kException:
      out.append(type).append("|").append(frame).append("|").append(text);
      break;
    case Kind::kCut:
      out.append(frame);
      break;
    case Kind::kLine:
      out.append(text);
      break;
  }
  return out;
}

std::optional<GroupKey> GroupKey::parse(std::string_view key) {
  if (key.substr(0, kVersion.size()) != kVersion || key.substr(kVersion.size(), 1) != "|") return std::nullopt;
  key.remove_prefix(kVersion.size() + 1);
  const size_t bar = key.find('|');
  if (bar == std::string_view::npos) return std::nullopt;
  GroupKey out;
  const std::string_view word = key.substr(0, bar), rest = key.substr(bar + 1);
  if (word == kKindWords[static_cast<size_t>(Kind::kCut)]) {
    out.kind = Kind::kCut;
    out.frame = rest;
  } else if (word == kKindWords[static_cast<size_t>(Kind::kLine)]) {
    out.kind = Kind::kLine;
    out.text = rest;
  } else if (word == kKindWords[static_cast<size_t>(Kind::kException)]) {
    out.kind = Kind::kException;
    const size_t type_end = rest.find('|');
    if (type_end == std::string_view::npos) return std::nullopt;
    out.type = rest.substr(0, type_end);
    const std::string_view frame_and_text = rest.substr(type_end + 1);
    // FRAME is "-" or holds a ':' (basename ":" function): it ends at the first '|' after that.
    const size_t colon = frame_and_text.substr(0, 2) == "-|" ? 0 : frame_and_text.find(':');
    const size_t frame_end = colon == std::string_view::npos ? colon : frame_and_text.find('|', colon);
    if (frame_end == std::string_view::npos) return std::nullopt;
    out.frame = frame_and_text.substr(0, frame_end);
    out.text = frame_and_text.substr(frame_end + 1);
  } else {
    return std::nullopt;
  }
  return out;
}

}  // namespace gpudiag::detail
