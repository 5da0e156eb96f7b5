#include "gpudiag/stable_hash.h"

#include <xxhash.h>

namespace gpudiag {
namespace {

uint64_t load_le(const char* p, size_t n) {  // n ≤ 8 bytes, the first one lowest
  uint64_t v = 0;
  for (size_t i = n; i-- > 0;) v = (v << 8) | static_cast<unsigned char>(p[i]);
  return v;
}

uint64_t shift_mix(uint64_t v) { return v ^ (v >> 47); }

}  // namespace

uint64_t stable_hash(std::string_view bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

uint64_t legacy_std_hash(std::string_view bytes) {
  constexpr uint64_t kMul = 0xc6a4a7935bd1e995ull;
  constexpr uint64_t kSeed = 0xc70f6907ull;  // libstdc++'s seed for std::hash<std::string>
  const char* p = bytes.data();
  const size_t len = bytes.size();
  const char* const end = p + (len & ~size_t{7});
  uint64_t hash = kSeed ^ (len * kMul);
  for (; p != end; p += 8) {
    hash ^= shift_mix(load_le(p, 8) * kMul) * kMul;
    hash *= kMul;
  }
  if ((len & 7) != 0) {
    hash ^= load_le(end, len & 7);
    hash *= kMul;
  }
  hash = shift_mix(hash) * kMul;
  return shift_mix(hash);
}

}  // namespace gpudiag
