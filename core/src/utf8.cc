#include "gpudiag/utf8.h"

#include <array>

namespace gpudiag {
namespace {

// Table 3-7 of the Unicode standard: for each range of lead bytes, the sequence's length and the
// range its second byte must fall in (the range that rules out overlong forms, surrogates and values
// past U+10FFFF); every later byte is 80..BF.
struct LeadBytes {
  uint8_t first, last;
  uint8_t size;
  uint8_t second_min, second_max;
};

constexpr std::array<LeadBytes, 8> kWellFormed{{
    {0xC2, 0xDF, 2, 0x80, 0xBF},
    {0xE0, 0xE0, 3, 0xA0, 0xBF},  // E0 80..9F would be overlong
    {0xE1, 0xEC, 3, 0x80, 0xBF},
    {0xED, 0xED, 3, 0x80, 0x9F},  // ED A0..BF would be a surrogate
    {0xEE, 0xEF, 3, 0x80, 0xBF},
    {0xF0, 0xF0, 4, 0x90, 0xBF},  // F0 80..8F would be overlong
    {0xF1, 0xF3, 4, 0x80, 0xBF},
    {0xF4, 0xF4, 4, 0x80, 0x8F},  // F4 90.. would be past U+10FFFF
}};

const LeadBytes* lead_bytes(uint8_t b) {
  for (const LeadBytes& row : kWellFormed) {
    if (b >= row.first && b <= row.last) return &row;
  }
  return nullptr;  // 80..C1, F5..FF: never the start of a character
}

}  // namespace

Utf8Char decode_utf8(std::string_view text, size_t pos) {
  const auto lead = static_cast<uint8_t>(text[pos]);
  if (lead < 0x80) return {lead, 1, true};
  const LeadBytes* row = lead_bytes(lead);
  if (row == nullptr) return {};
  uint32_t cp = lead & (0xFF >> (row->size + 1));
  for (uint8_t k = 1; k < row->size; ++k) {
    // A byte that cannot continue the sequence ends the ill-formed subpart before it.
    if (pos + k >= text.size()) return {kReplacementCharacter, k, false};
    const auto b = static_cast<uint8_t>(text[pos + k]);
    const uint8_t min = k == 1 ? row->second_min : 0x80;
    const uint8_t max = k == 1 ? row->second_max : 0xBF;
    if (b < min || b > max) return {kReplacementCharacter, k, false};
    cp = (cp << 6) | (b & 0x3F);
  }
  return {cp, row->size, true};
}

bool is_valid_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const Utf8Char c = decode_utf8(text, i);
    if (!c.valid) return false;
    i += c.size;
  }
  return true;
}

size_t utf8_length(std::string_view text) {
  size_t n = 0;
  for (char c : text) n += is_utf8_continuation(c) ? 0 : 1;
  return n;
}

void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace gpudiag
