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
// Quantities: a unit symbol after a variable is part of it ("1.50 GiB", "<1 sec" are <*>, as
// "1.50GiB" is), and a parenthesised restatement of a quantity in other units after it is left out
// ("1190 bytes (1.16 KB) sent" and "0 bytes sent" are both "<*> bytes sent"). Unit words stay:
// "30 seconds" is "<*> seconds", as Loghub's templates keep them.
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

// Unit symbols of sizes and durations, written apart from their number ("1.50 GiB", "200 ms").
// Words ("bytes", "seconds") are not here: they stay in the template.
constexpr std::string_view kUnitSymbols[] = {"B",   "kB",  "KB", "MB",  "GB",   "TB",  "PB",   "KiB", "MiB", "GiB",
                                             "TiB", "PiB", "kb", "Kb",  "mb",   "Mb",  "gb",   "Gb",  "ns",  "us",
                                             "µs",  "ms",  "s",  "sec", "secs", "min", "mins", "h",   "hr",  "hrs"};

bool closing(char ch) { return std::string_view("),.;:]}").find(ch) != std::string_view::npos; }

// The length of the unit symbol `token` starts with when the rest is closing punctuation ("KB)",
// "ms,"), else 0.
size_t unit_symbol_length(std::string_view token) {
  if (token.size() > 8) return 0;  // the longest symbol and some punctuation: most tokens stop here
  size_t end = token.size();
  while (end > 0 && closing(token[end - 1])) --end;
  if (end == 0) return 0;
  const std::string_view unit = token.substr(0, end);
  for (std::string_view symbol : kUnitSymbols)
    if (unit == symbol) return end;
  return 0;
}

// A parenthesised quantity with a unit at `start` of `message`: "(1.16 KB)", "(1.16KB)". Returns
// the index just past its ')', or 0 when there is none.
size_t quantity_aside_end(std::string_view message, size_t start) {
  size_t i = start + 1;
  const size_t digits = i;
  while (i < message.size() && ((cls(message[i]) & kDigit) || message[i] == '.')) ++i;
  if (i == digits || !(cls(message[digits]) & kDigit)) return 0;
  while (i < message.size() && message[i] == ' ') ++i;
  size_t close = i;
  while (close < message.size() && close - i < 5 && message[close] != ')') ++close;
  if (close == message.size() || message[close] != ')') return 0;
  const std::string_view unit = message.substr(i, close - i);
  for (std::string_view symbol : kUnitSymbols)
    if (unit == symbol) return close + 1;
  return 0;
}

// Where the whitespace token holding `at` ends when all of it from `at` on is closing punctuation,
// else 0.
size_t closing_run_end(std::string_view message, size_t at) {
  size_t end = at;
  while (end < message.size() && closing(message[end])) ++end;
  return end == message.size() || (cls(message[end]) & kSpace) ? end : 0;
}

bool is_word(std::string_view token) {
  for (char ch : token)
    if (!(cls(ch) & kAlpha)) return false;
  return !token.empty();
}

}  // namespace

void append_masked(std::string_view message, std::string& out) {
  bool first = true;
  // What came just before, for quantities: the last token ended with a variable ("1190", "<1"),
  // or it was a word right after one ("1190 bytes").
  bool after_variable = false;
  bool after_unit_word = false;
  size_t i = 0;
  while (i < message.size()) {
    while (i < message.size() && (cls(message[i]) & kSpace)) ++i;
    if (i == message.size()) break;
    size_t end = i;
    while (end < message.size() && !(cls(message[end]) & kSpace)) ++end;
    std::string_view token = message.substr(i, end - i);
    if (after_variable) {
      if (const size_t unit = unit_symbol_length(token); unit != 0) {
        out.append(token.substr(unit));  // "1.16 KB)" is "<*>)": the unit belongs to the variable
        after_variable = ends_with(out, kVar);
        after_unit_word = false;
        i = end;
        continue;
      }
    }
    if ((after_variable || after_unit_word) && token[0] == '(') {
      const size_t aside = quantity_aside_end(message, i);
      if (const size_t rest = aside == 0 ? 0 : closing_run_end(message, aside); rest != 0) {
        // "(1.16 KB)" restates the quantity before it: left out, the punctuation after it kept.
        out.append(message.substr(aside, rest - aside));
        after_variable = ends_with(out, kVar);
        after_unit_word = false;
        i = rest;
        continue;
      }
    }
    if (!first) out.push_back(' ');
    first = false;
    append_masked_token(token, out);
    after_unit_word = after_variable && is_word(token);
    after_variable = ends_with(out, kVar);
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
