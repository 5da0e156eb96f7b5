#include "gpudiag/name_suggestions.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <tuple>

namespace gpudiag {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

std::vector<std::string_view> tokens(std::string_view s) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '-' || s[i] == '_' || s[i] == '.') {
      if (i > start) out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

// Whether `typed`'s tokens match `name`'s in order: each a prefix of one name token, the initials
// of a run of two or more name tokens, or (four letters or more) one edit from a name token. Name
// tokens may be skipped.
bool tokens_match(const std::vector<std::string_view>& typed, const std::vector<std::string_view>& name) {
  // Matches typed[t…] against name[n…]; names have a handful of tokens, so plain recursion will do.
  const auto match = [&](auto& self, size_t t, size_t n) -> bool {
    if (t == typed.size()) return true;
    const std::string_view word = typed[t];
    for (size_t i = n; i < name.size(); ++i) {
      if (name[i].starts_with(word) && self(self, t + 1, i + 1)) return true;
      if (word.size() >= 4 && edit_distance(word, name[i]) <= 1 && self(self, t + 1, i + 1)) return true;
      if (word.size() >= 2 && i + word.size() <= name.size()) {
        bool initials = true;
        for (size_t k = 0; k < word.size() && initials; ++k) initials = name[i + k].front() == word[k];
        if (initials && self(self, t + 1, i + word.size())) return true;
      }
    }
    return false;
  };
  return typed.size() > 0 && match(match, 0, 0);
}

// Lower is closer: (kind, edits). Kinds: 0 the name itself, 1 a prefix, 2 tokens, 3 a few edits.
std::optional<std::tuple<int, size_t>> closeness(const std::string& typed, const std::string& name) {
  const size_t edits = edit_distance(typed, name);
  if (edits == 0) return std::tuple{0, edits};
  if (typed.size() >= 2 && name.starts_with(typed)) return std::tuple{1, edits};
  const auto typed_tokens = tokens(typed);
  if (typed_tokens.size() > 1 || typed.size() >= 2) {
    if (tokens_match(typed_tokens, tokens(name)) && (typed_tokens.size() > 1 || tokens(name).size() > 1))
      return std::tuple{2, edits};
  }
  // A third of the typed word, at least one edit and at most two: `jsn` → json, not `md` → `x`.
  const size_t allowed = std::clamp<size_t>(typed.size() / 3, 1, 2);
  if (edits <= allowed && edits < name.size()) return std::tuple{3, edits};
  return std::nullopt;
}

}  // namespace

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

std::vector<std::string> suggest_names(std::string_view typed, const std::vector<KnownName>& known, size_t limit) {
  const std::string word = lower(typed);
  if (word.empty()) return {};
  struct Candidate {
    std::tuple<int, size_t> rank;
    std::string target;
  };
  std::vector<Candidate> found;
  for (const auto& k : known) {
    if (auto c = closeness(word, lower(k.name))) found.push_back({*c, k.target()});
  }
  std::stable_sort(found.begin(), found.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.rank, a.target) < std::tie(b.rank, b.target);
  });
  std::vector<std::string> out;
  for (const auto& c : found) {
    if (out.size() == limit) break;
    if (std::find(out.begin(), out.end(), c.target) == out.end()) out.push_back(c.target);
  }
  return out;
}

std::vector<std::string> suggest_names(std::string_view typed, const std::vector<std::string>& known, size_t limit) {
  std::vector<KnownName> names(known.begin(), known.end());
  return suggest_names(typed, names, limit);
}

std::string did_you_mean(const std::vector<std::string>& suggestions, std::string_view prefix) {
  if (suggestions.empty()) return "";
  std::string out = "did you mean ";
  for (size_t i = 0; i < suggestions.size(); ++i) {
    if (i > 0) out += i + 1 == suggestions.size() ? " or " : ", ";
    out += fmt::format("`{}{}`", prefix, suggestions[i]);
  }
  return out + "?";
}

std::string did_you_mean(std::string_view typed, const std::vector<std::string>& known, std::string_view prefix) {
  return did_you_mean(suggest_names(typed, known), prefix);
}

}  // namespace gpudiag
