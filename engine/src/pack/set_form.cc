// Leading elements the pack's RE2::Set can do without (see set_form.h).
#include "set_form.h"

namespace gpudiag::detail {
namespace {

// The end (one past) of the character class that opens at `at` (`[`), or npos when it does not close.
size_t class_end(std::string_view p, size_t at) {
  size_t i = at + 1;
  if (i < p.size() && p[i] == '^') ++i;
  if (i < p.size() && p[i] == ']') ++i;  // a `]` first in the class is a literal
  while (i < p.size()) {
    if (p[i] == '\\') {
      i += 2;
    } else if (p.compare(i, 2, "[:") == 0) {  // [:alpha:] inside a class
      const size_t close = p.find(":]", i + 2);
      if (close == std::string_view::npos) return std::string_view::npos;
      i = close + 2;
    } else if (p[i] == ']') {
      return i + 1;
    } else {
      ++i;
    }
  }
  return std::string_view::npos;
}

// The end (one past) of the group that opens at `at` (`(`), or npos when it does not close.
size_t group_end(std::string_view p, size_t at) {
  int depth = 0;
  size_t i = at;
  while (i < p.size()) {
    const char c = p[i];
    if (c == '\\') {
      i += 2;
      continue;
    }
    if (c == '[') {
      i = class_end(p, i);
      if (i == std::string_view::npos) return i;
      continue;
    }
    if (c == '(') ++depth;
    if (c == ')' && --depth == 0) return i + 1;
    ++i;
  }
  return std::string_view::npos;
}

// The end of the single element (atom) that starts at `at`: a group, a class, an escape or one
// character other than a quantifier, `|` or an anchor; npos when there is none to take.
size_t atom_end(std::string_view p, size_t at) {
  if (at >= p.size()) return std::string_view::npos;
  switch (p[at]) {
    case '(':
      return group_end(p, at);
    case '[':
      return class_end(p, at);
    case '\\':
      // \pL / \p{Greek} and their \P forms are one atom; other escapes are two characters.
      if (at + 2 < p.size() && (p[at + 1] == 'p' || p[at + 1] == 'P')) {
        if (p[at + 2] != '{') return at + 3;
        const size_t close = p.find('}', at + 3);
        return close == std::string_view::npos ? close : close + 1;
      }
      return at + 1 < p.size() ? at + 2 : std::string_view::npos;
    case '|':
    case ')':
    case '^':
    case '$':
    case '?':
    case '*':
    case '+':
    case '{':
      return std::string_view::npos;
    default:
      return at + 1;
  }
}

// A group of flags only (`(?s)`, `(?i-m)`): it sets flags for what follows and matches nothing.
bool is_flag_group(std::string_view p, size_t at, size_t end) {
  if (end - at < 4 || p.compare(at, 2, "(?") != 0) return false;
  for (size_t i = at + 2; i + 1 < end; ++i) {
    const char c = p[i];
    if (!(c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
  }
  return true;
}

}  // namespace

std::string set_form(std::string_view pattern) {
  // \Q…\E quotes what would read as quantifiers; no rule writes it, so it is left alone.
  if (pattern.find("\\Q") != std::string_view::npos) return std::string(pattern);
  std::string out;
  size_t at = 0;
  // Flag groups are kept: they apply to the rest.
  while (at < pattern.size() && pattern[at] == '(') {
    const size_t end = group_end(pattern, at);
    if (end == std::string_view::npos || !is_flag_group(pattern, at, end)) break;
    out.append(pattern.substr(at, end - at));
    at = end;
  }
  for (;;) {
    const size_t end = atom_end(pattern, at);
    if (end == std::string_view::npos || end >= pattern.size()) break;
    const char q = pattern[end];
    size_t after = end + 1;
    if (after < pattern.size() && pattern[after] == '?') ++after;  // the lazy form
    if (q == '?' || q == '*') {
      at = after;  // matches empty anywhere: left out
      continue;
    }
    if (q == '{' && pattern.compare(end, 3, "{0,") == 0) {  // X{0,3}: the same
      const size_t close = pattern.find('}', end);
      if (close == std::string_view::npos) break;
      at = close + 1;
      if (at < pattern.size() && pattern[at] == '?') ++at;
      continue;
    }
    if (q == '+') {
      // X+Y finds a match exactly when XY does (the last repetition starts one).
      out.append(pattern.substr(at, end - at));
      at = after;
    }
    break;
  }
  out.append(pattern.substr(at));
  return out;
}

}  // namespace gpudiag::detail
