// A quick hash of a text from its size and a few of its 8-byte words, for in-memory look-up tables
// that then compare whole texts. Internal to engine; never stored (stored hashes use stable_hash).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace gpudiag::detail {

// Hashing all of every text cost more than the look-ups it served (each ERROR entry asks one), so
// a table's caller picks the words where its texts differ. Two
// texts that share those words only share a bucket. Each offset + 8 must be within `s`.
template <size_t N>
uint64_t sampled_words_hash(std::string_view s, const std::array<size_t, N>& offsets) {
  uint64_t h = s.size() * 0x9E3779B97F4A7C15ull;
  for (const size_t at : offsets) {
    uint64_t word;
    std::memcpy(&word, s.data() + at, sizeof word);
    h = (h ^ word) * 0xFF51AFD7ED558CCDull;
    h ^= h >> 32;
  }
  return h;
}

}  // namespace gpudiag::detail
