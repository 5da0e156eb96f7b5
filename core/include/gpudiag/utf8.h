// UTF-8, strictly as the Unicode standard defines it (chapter 3, table 3-7 "Well-Formed UTF-8 Byte
// Sequences"): no overlong forms (C0 AF), no surrogates (ED A0 80), nothing past U+10FFFF (F4 90 …,
// F5 …), no truncated sequences. Every place gpudiag reads or writes text as UTF-8 walks it with
// decode_utf8; what it cannot decode becomes U+FFFD, one per maximal ill-formed subpart (the
// standard's recommended practice, also the WHATWG encoding standard's and Python's "replace").
//
//   for_each_utf8_char(text, [&](std::string_view bytes, uint32_t cp) { … });  // bytes: U+FFFD's when invalid
//   Utf8Char c = decode_utf8(text, pos);   // c.valid, c.code_point, c.size (≥ 1)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace gpudiag {

inline constexpr uint32_t kReplacementCharacter = 0xFFFD;
inline constexpr std::string_view kReplacementCharacterUtf8 = "\xEF\xBF\xBD";

struct Utf8Char {
  uint32_t code_point = kReplacementCharacter;  // kReplacementCharacter when not valid
  uint8_t size = 1;  // bytes taken: the sequence, or the ill-formed subpart to replace (≥ 1)
  bool valid = false;
};

// The character starting at byte `pos` (< text.size()).
Utf8Char decode_utf8(std::string_view text, size_t pos);

// Calls fn(bytes, code_point) for each character of `text`; an ill-formed subpart comes as the
// replacement character (bytes = kReplacementCharacterUtf8, code_point = U+FFFD).
template <typename Fn>
void for_each_utf8_char(std::string_view text, Fn&& fn) {
  for (size_t i = 0; i < text.size();) {
    const Utf8Char c = decode_utf8(text, i);
    fn(c.valid ? text.substr(i, c.size) : kReplacementCharacterUtf8, c.code_point);
    i += c.size;
  }
}

bool is_valid_utf8(std::string_view text);

// Appends code point `cp` (≤ U+10FFFF, not a surrogate) to `out` as UTF-8.
void append_utf8(std::string& out, uint32_t cp);

// For text already well-formed (what ingest and the escapers hand on), where only character
// boundaries matter: cropping on a boundary, counting columns.
constexpr bool is_utf8_continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }
// The characters in well-formed `text` (its bytes that start one).
size_t utf8_length(std::string_view text);

}  // namespace gpudiag
