// Token masks, by byte classes rather than regular expressions: one pass over the message, no
// allocation. Each whitespace token is cut at the delimiters Loghub's template correction uses
// (logpai/loghub-2.0, benchmark/evaluation/utils/common.py, correct_single_template), and each
// piece is kept or replaced:
//   - a piece that starts with '/' and holds a digit is a path with ids: /tmp/tmpk2j3/model-00001.bin
//   - an identifier run ([A-Za-z0-9_-]) is a variable when it starts with a digit (numbers, sizes,
//     durations, hex 0x…, dates, Dataflow job ids 2024-01-02_03_04_05-123…), when one of its
//     '-'/'_' parts starts with a digit (blk_-123, worker-3, beamapp-u-0102030405-ab12-harness-x7kq,
//     bundle_17), when it is 6+ hex digits (0245b64c), when letters and digits alternate 3+ times
//     (random ids: i3beln7k, UUIDs), or when it is true, false or null;
//   - everything else stays: words, ValueError, float32, jk2_init, python3, nvidia-tesla-t4.
// Adjacent variables joined by nothing or by '.' are one (<*>.<*>: an IP, a version, a float).
#include "token_masks.h"

#include <array>
#include <cstdint>

#include "gpudiag/patterns.h"

namespace gpudiag {
namespace {

enum : uint8_t { kSpace = 1, kDigit = 2, kAlpha = 4, kJoiner = 8, kPathDelim = 16, kHex = 32 };

constexpr std::array<uint8_t, 256> make_classes() {
  std::array<uint8_t, 256> c{};
  for (char s : std::string_view(" \t\r\n\v\f")) c[static_cast<uint8_t>(s)] |= kSpace;
  for (int d = '0'; d <= '9'; ++d) c[d] |= kDigit | kHex;
  for (int a = 'a'; a <= 'z'; ++a) c[a] |= kAlpha;
  for (int a = 'A'; a <= 'Z'; ++a) c[a] |= kAlpha;
  for (int a = 'a'; a <= 'f'; ++a) c[a] |= kHex;
  for (int a = 'A'; a <= 'F'; ++a) c[a] |= kHex;
  c['_'] |= kJoiner;
  c['-'] |= kJoiner;
  // Loghub's path delimiters (correct_single_template): a path runs between two of them.
  for (char s : std::string_view(",!;:=|\"'[](){}")) c[static_cast<uint8_t>(s)] |= kPathDelim;
  return c;
}
constexpr std::array<uint8_t, 256> kClass = make_classes();

uint8_t cls(char ch) { return kClass[static_cast<uint8_t>(ch)]; }
bool is_ident(char ch) { return (cls(ch) & (kDigit | kAlpha | kJoiner)) != 0; }

constexpr std::string_view kVar = "<*>";

bool ends_with(const std::string& s, std::string_view tail) {
  return s.size() >= tail.size() && std::string_view(s).substr(s.size() - tail.size()) == tail;
}

// Emits <*>, folding it into a variable just before: "<*><*>" and "<*>.<*>" are one.
void emit_variable(std::string& out) {
  if (ends_with(out, kVar)) return;
  if (ends_with(out, "<*>.")) {
    out.pop_back();
    return;
  }
  out.append(kVar);
}

bool equals_lower(std::string_view s, std::string_view lower) {
  if (s.size() != lower.size()) return false;
  for (size_t i = 0; i < s.size(); ++i) {
    char ch = s[i];
    if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
    if (ch != lower[i]) return false;
  }
  return true;
}

bool is_boolean_or_null(std::string_view run) {
  return equals_lower(run, "true") || equals_lower(run, "false") || equals_lower(run, "null");
}

// An identifier run ([A-Za-z0-9_-]+) is a variable, or a word to keep.
bool is_variable_identifier(std::string_view s) {
  bool digit = false;
  bool all_hex = true;
  bool part_starts_with_digit = false;
  bool at_part_start = true;
  int transitions = 0;
  uint8_t last_kind = 0;  // kDigit or kAlpha of the last alphanumeric byte
  for (char ch : s) {
    const uint8_t c = cls(ch);
    if (c & kJoiner) {
      at_part_start = true;
      all_hex = false;
      continue;
    }
    const uint8_t kind = (c & kDigit) ? kDigit : kAlpha;
    if (kind == kDigit) {
      digit = true;
      if (at_part_start) part_starts_with_digit = true;
    }
    if (!(c & kHex)) all_hex = false;
    if (last_kind != 0 && kind != last_kind) ++transitions;
    last_kind = kind;
    at_part_start = false;
  }
  if (!digit) return is_boolean_or_null(s);
  return part_starts_with_digit || (all_hex && s.size() >= 6) || transitions >= 3;
}

bool has_digit(std::string_view s) {
  for (char ch : s)
    if (cls(ch) & kDigit) return true;
  return false;
}

// One piece of a token between path delimiters.
void append_masked_piece(std::string_view piece, std::string& out) {
  if (piece.size() > 1 && piece[0] == '/' && has_digit(piece)) {
    emit_variable(out);
    return;
  }
  size_t i = 0;
  while (i < piece.size()) {
    if (!is_ident(piece[i])) {
      out.push_back(piece[i++]);
      continue;
    }
    size_t end = i;
    while (end < piece.size() && is_ident(piece[end])) ++end;
    const std::string_view run = piece.substr(i, end - i);
    if (is_variable_identifier(run)) {
      emit_variable(out);
    } else {
      out.append(run);
    }
    i = end;
  }
}

// Most tokens are words: no digit, no true/false/null. One pass tells, and they are copied whole.
bool nothing_to_mask(std::string_view token) {
  size_t run = 0;
  for (size_t i = 0; i < token.size(); ++i) {
    const uint8_t c = cls(token[i]);
    if (c & kDigit) return false;
    if (c & (kAlpha | kJoiner)) {
      ++run;
      continue;
    }
    if ((run == 4 || run == 5) && is_boolean_or_null(token.substr(i - run, run))) return false;
    run = 0;
  }
  return !((run == 4 || run == 5) && is_boolean_or_null(token.substr(token.size() - run)));
}

void append_masked_token(std::string_view token, std::string& out) {
  if (nothing_to_mask(token)) {
    out.append(token);
    return;
  }
  size_t start = 0;
  for (size_t i = 0; i <= token.size(); ++i) {
    if (i < token.size() && !(cls(token[i]) & kPathDelim)) continue;
    append_masked_piece(token.substr(start, i - start), out);
    if (i < token.size()) out.push_back(token[i]);
    start = i + 1;
  }
}

}  // namespace

void append_masked(std::string_view message, std::string& out) {
  bool first = true;
  size_t i = 0;
  while (i < message.size()) {
    while (i < message.size() && (cls(message[i]) & kSpace)) ++i;
    if (i == message.size()) break;
    size_t end = i;
    while (end < message.size() && !(cls(message[end]) & kSpace)) ++end;
    if (!first) out.push_back(' ');
    first = false;
    append_masked_token(message.substr(i, end - i), out);
    i = end;
  }
}

std::string mask_message(std::string_view message) {
  std::string out;
  out.reserve(message.size());
  append_masked(message, out);
  return out;
}

}  // namespace gpudiag
