// Hashes whose values are a contract: they are persisted (fingerprints in baselines, SARIF and the
// history database, the rule pack hash) or compared across machines, so each is a named algorithm
// over a documented byte string, never std::hash (whose values belong to the standard library).
//
//   uint64_t h = stable_hash("gpu-out-of-memory|kind=CUDA");            // XXH3-64, seed 0
//   std::string fp = fmt::format("{}/{:016x}", rule_id, h);             // fingerprint v2
//
// legacy_std_hash() reproduces what gpudiag used before (libstdc++'s std::hash<std::string> on a
// 64-bit target) so that values written then can still be recognised; nothing new is made with it.
#pragma once

#include <cstdint>
#include <string_view>

namespace gpudiag {

// XXH3-64 (xxHash 0.8) of the bytes, seed 0. The same on every platform and in every release.
uint64_t stable_hash(std::string_view bytes);

// libstdc++'s std::_Hash_bytes(bytes, size, 0xc70f6907), the MurmurHash64A variant behind
// std::hash<std::string> on 64-bit targets, re-implemented (little-endian loads) so that it does not
// depend on the standard library gpudiag is built with. Only for recognising values written by
// gpudiag 0.1 (fingerprint v1).
uint64_t legacy_std_hash(std::string_view bytes);

}  // namespace gpudiag
