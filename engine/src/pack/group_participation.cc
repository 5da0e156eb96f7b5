#include "group_participation.h"

#include <cctype>

namespace gpudiag::detail {
namespace {

// A recursive descent over the pattern: each level answers "does every match of this part have a
// wanted group taking part?". Only the structure is read (groups, alternations, quantifiers);
// atoms, classes and escapes are skipped over.
class Reader {
 public:
  Reader(std::string_view p, const std::set<std::string, std::less<>>& groups) : p_(p), groups_(groups) {}

  bool whole() {
    const bool always = alternation();
    return ok_ && at_ == p_.size() && always;
  }

 private:
  bool alternation() {
    bool always = sequence();
    while (ok_ && at_ < p_.size() && p_[at_] == '|') {
      ++at_;
      always = sequence() && always;
    }
    return always;
  }

  bool sequence() {
    bool always = false;
    while (ok_ && at_ < p_.size() && p_[at_] != '|' && p_[at_] != ')') {
      const bool item_always = item();
      const bool optional = quantifier();
      always = always || (item_always && !optional);
    }
    return always;
  }

  bool item() {
    const char c = p_[at_++];
    if (c == '\\') {
      if (at_ < p_.size()) ++at_;
      return false;
    }
    if (c == '[') {
      skip_class();
      return false;
    }
    if (c != '(') return false;
    bool wanted = false;
    if (at_ < p_.size() && p_[at_] == '?') {
      ++at_;
      if (starts("P<") || starts("<")) {
        at_ += p_[at_] == 'P' ? 2 : 1;
        const size_t end = p_.find('>', at_);
        if (end == std::string_view::npos) return fail();
        wanted = groups_.count(p_.substr(at_, end - at_)) > 0;
        at_ = end + 1;
      } else {
        while (at_ < p_.size() && (std::isalpha(static_cast<unsigned char>(p_[at_])) || p_[at_] == '-')) ++at_;
        if (at_ < p_.size() && p_[at_] == ')') {  // (?i): flags for what follows, no content
          ++at_;
          return false;
        }
        if (at_ >= p_.size() || p_[at_] != ':') return fail();
        ++at_;
      }
    }
    const bool inner = alternation();
    if (at_ >= p_.size() || p_[at_] != ')') return fail();
    ++at_;
    return wanted || inner;
  }

  // Reads a quantifier if one follows; true when it allows zero repetitions.
  bool quantifier() {
    if (at_ >= p_.size()) return false;
    bool zero = false;
    const char c = p_[at_];
    if (c == '?' || c == '*') {
      zero = true;
      ++at_;
    } else if (c == '+') {
      ++at_;
    } else if (c == '{') {
      size_t i = at_ + 1;
      const size_t digits = i;
      while (i < p_.size() && std::isdigit(static_cast<unsigned char>(p_[i]))) ++i;
      if (i == digits) return false;  // a literal brace
      const bool min_zero = p_.substr(digits, i - digits).find_first_not_of('0') == std::string_view::npos;
      if (i < p_.size() && p_[i] == ',') {
        ++i;
        while (i < p_.size() && std::isdigit(static_cast<unsigned char>(p_[i]))) ++i;
      }
      if (i >= p_.size() || p_[i] != '}') return false;  // a literal brace
      at_ = i + 1;
      zero = min_zero;
    } else {
      return false;
    }
    if (at_ < p_.size() && p_[at_] == '?') ++at_;  // non-greedy
    return zero;
  }

  void skip_class() {
    if (at_ < p_.size() && p_[at_] == '^') ++at_;
    if (at_ < p_.size() && p_[at_] == ']') ++at_;  // a leading ']' is a member
    while (at_ < p_.size() && p_[at_] != ']') {
      if (p_[at_] == '\\') ++at_;
      if (at_ + 1 < p_.size() && p_[at_] == '[' && p_[at_ + 1] == ':') {  // [:alpha:]
        const size_t end = p_.find(":]", at_ + 2);
        if (end != std::string_view::npos) at_ = end + 1;
      }
      ++at_;
    }
    if (at_ >= p_.size()) {
      fail();
      return;
    }
    ++at_;
  }

  bool starts(std::string_view s) const { return p_.substr(at_, s.size()) == s; }
  bool fail() {
    ok_ = false;
    return false;
  }

  std::string_view p_;
  const std::set<std::string, std::less<>>& groups_;
  size_t at_ = 0;
  bool ok_ = true;
};

}  // namespace

bool some_group_takes_part(std::string_view pattern, const std::set<std::string, std::less<>>& groups) {
  if (groups.empty()) return false;
  return Reader(pattern, groups).whole();
}

}  // namespace gpudiag::detail
