// Placeholder syntax and filters (placeholders.h).
#include "placeholders.h"

#include <re2/re2.h>

#include <algorithm>

namespace gpudiag::detail {
namespace {

bool name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }

bool is_name(std::string_view s) { return !s.empty() && std::all_of(s.begin(), s.end(), name_char); }

// Machine families that have a highmem shape of each standard/highcpu size (Compute Engine's
// general-purpose and compute-optimized series; the GPU series A2, A3, G2 have fixed shapes).
std::optional<std::string> highmem(std::string_view machine_type) {
  static const RE2 kShape("(n1|n2|n2d|n4|e2|c2d|c3|c3d|c4)-(?:standard|highcpu)-([0-9]+)");
  std::string family, vcpus;
  if (!RE2::FullMatch(machine_type, kShape, &family, &vcpus)) return std::nullopt;
  return family + "-highmem-" + vcpus;
}

}  // namespace

std::vector<Placeholder> placeholders_in(std::string_view text) {
  std::vector<Placeholder> out;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t open = text.find('{', pos);
    if (open == std::string_view::npos) break;
    const size_t close = text.find('}', open);
    if (close == std::string_view::npos) break;
    const std::string_view inside = text.substr(open + 1, close - open - 1);
    const size_t bar = inside.find('|');
    const std::string_view name = inside.substr(0, bar);
    const std::string_view filter = bar == std::string_view::npos ? std::string_view() : inside.substr(bar + 1);
    if (is_name(name) && (bar == std::string_view::npos || is_name(filter))) {
      out.push_back({name, filter, open, close + 1});
      pos = close + 1;
    } else {
      pos = open + 1;
    }
  }
  return out;
}

bool known_filter(std::string_view filter) {
  return std::any_of(kPlaceholderFilters.begin(), kPlaceholderFilters.end(),
                     [&](const PlaceholderFilter& f) { return f.name == filter; });
}

std::optional<std::string> apply_filter(std::string_view filter, std::string_view value) {
  if (filter.empty()) return std::string(value);
  if (filter == "highmem") return highmem(value);
  if (filter == "several") {
    const bool number =
        !value.empty() && std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
    const std::string_view digits = number ? value.substr(std::min(value.find_first_not_of('0'), value.size())) : "";
    if (digits.size() > 1 || (digits.size() == 1 && digits[0] >= '2')) return std::string(value);
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace gpudiag::detail
