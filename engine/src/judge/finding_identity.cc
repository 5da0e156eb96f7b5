// Finding identities and fingerprints (see finding_identity.h).
#include "finding_identity.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <array>
#include <memory>
#include <set>
#include <vector>

#include "gpudiag/stable_hash.h"

namespace gpudiag::detail {
namespace {

struct Mask {
  const char* pattern;
  const char* replacement;
};

// In the order applied; each replacement is free of digits and of text a later mask matches.
constexpr std::array kMasks{
    Mask{R"([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})", "<uuid>"},
    Mask{R"([0-9]{4}-[0-9]{2}-[0-9]{2}_[0-9]{2}_[0-9]{2}_[0-9]{2}-[0-9]+)", "<job>"},
    Mask{R"([A-Za-z0-9][-A-Za-z0-9]*-harness-[A-Za-z0-9]+)", "<worker>"},
    Mask{R"(\bsdk[-_][0-9]+(?:[-_][0-9]+)*)", "<sdk>"},
    Mask{R"(\b(bundle|instruction|inst)[-_][-_A-Za-z]*[0-9][-_A-Za-z0-9]*)", "\\1_<id>"},
    Mask{R"(\b(?i:pid)\b[\s:=]*[0-9]+)", "pid <pid>"},
};

const std::vector<std::unique_ptr<RE2>>& compiled_masks() {
  static const auto* masks = [] {
    auto* out = new std::vector<std::unique_ptr<RE2>>;
    for (const Mask& m : kMasks) out->push_back(std::make_unique<RE2>(m.pattern));
    return out;
  }();
  return *masks;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Hex runs: `0x` and hex digits, or a word of 6+ hex digits with at least one digit (so that
// words like `facade` stay). RE2 has no look-around: the digit test is done here.
std::string mask_hex(const std::string& s) {
  static const RE2 hex(R"(\b(?:0[xX][0-9A-Fa-f]+|[0-9A-Fa-f]{6,})\b)");
  std::string out;
  const re2::StringPiece text(s);
  re2::StringPiece m;
  size_t done = 0;
  while (done < s.size() && hex.Match(text, done, s.size(), RE2::UNANCHORED, &m, 1)) {
    const size_t start = static_cast<size_t>(m.data() - s.data());
    const std::string_view word(m.data(), m.size());
    const bool prefixed = word.size() > 1 && (word[1] == 'x' || word[1] == 'X');
    out.append(s, done, start - done);
    if (prefixed || std::any_of(word.begin(), word.end(), is_digit))
      out += "<hex>";
    else
      out += word;
    done = start + m.size();
  }
  out.append(s, done, std::string::npos);
  return out;
}

std::string fingerprint_of(std::string_view rule_id, uint64_t hash) { return fmt::format("{}/{:016x}", rule_id, hash); }

}  // namespace

std::string blur_digits(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (is_digit(c)) {
      if (out.empty() || out.back() != '#') out += '#';
    } else {
      out += c;
    }
  }
  return out;
}

std::string mask_identity_value(std::string_view value) {
  std::string s(value);
  const auto& masks = compiled_masks();
  for (size_t i = 0; i < masks.size(); ++i) RE2::GlobalReplace(&s, *masks[i], kMasks[i].replacement);
  return blur_digits(mask_hex(s));
}

FindingIdentity finding_identity(std::string_view rule_id,
                                 const std::map<std::string, std::vector<std::string>>& captures,
                                 const std::optional<std::vector<std::string>>& identity_captures) {
  FindingIdentity id;
  std::string v2(rule_id);
  for (const auto& [name, values] : captures) {
    for (const auto& v : values) v2 += "|" + name + "=" + blur_digits(v);
  }
  id.fingerprint_v2 = fingerprint_of(rule_id, stable_hash(v2));
  id.fingerprint_v1 = fingerprint_of(rule_id, legacy_std_hash(v2));
  id.identity = std::string(rule_id);
  for (const auto& [name, values] : captures) {  // a std::map: names in byte order
    if (identity_captures &&
        std::find(identity_captures->begin(), identity_captures->end(), name) == identity_captures->end()) {
      continue;
    }
    std::set<std::string> masked;
    for (const auto& v : values) masked.insert(mask_identity_value(v));
    for (const auto& v : masked) id.identity += "|" + name + "=" + v;
  }
  id.fingerprint = fingerprint_of(rule_id, stable_hash(id.identity));
  return id;
}

}  // namespace gpudiag::detail
