// The hashes behind persisted values (core/include/gpudiag/stable_hash.h): pinned to known values,
// because a change to any of them would make baselines and run histories forget their findings.
#include "gpudiag/stable_hash.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <functional>
#include <random>
#include <string>

using namespace gpudiag;

TEST_CASE("stable_hash is XXH3-64 with seed 0", "[unit][hash]") {
  CHECK(stable_hash("") == 0x2d06800538d394c2ull);  // xxHash's published value for empty input
  CHECK(stable_hash("a") == 0xe6c632b61e964e1full);
  CHECK(stable_hash("gpu-out-of-memory") == 0xa763e1b8aa09b410ull);
  CHECK(stable_hash("hello world!") == 0xe155d613728f4b18ull);
  // Longer inputs take XXH3's other code paths (17–128, 129–240 and over 240 bytes); these values
  // are libxxhash 0.8.1's, pinned so that another xxHash build or version cannot change them unseen.
  const std::string xs(300, 'x');
  CHECK(fmt::format("{:016x}", stable_hash(std::string_view(xs).substr(0, 100))) == "c90984ffdf50ce42");
  CHECK(fmt::format("{:016x}", stable_hash(std::string_view(xs).substr(0, 200))) == "50ef124fb1e4de53");
  CHECK(fmt::format("{:016x}", stable_hash(xs)) == "a5d1b4607dc83554");
}

TEST_CASE("legacy_std_hash reproduces libstdc++'s std::hash<std::string> (fingerprint v1)", "[unit][hash]") {
  CHECK(legacy_std_hash("") == 0x553e93901e462a6eull);
  CHECK(legacy_std_hash("a") == 0x454ddee488c1ed6bull);
  CHECK(legacy_std_hash("gpu-out-of-memory") == 0x1173f46da1e76d3eull);
  CHECK(legacy_std_hash("hello world!") == 0x5b83cb3a55a9669full);
  // On this platform it is the standard library's hash, for every length and byte (the tail of 1–7
  // bytes and bytes ≥ 0x80 are where a re-implementation would go wrong). The only std::hash here.
  std::mt19937_64 random(11);
  for (size_t n = 0; n < 4000; ++n) {
    std::string text(n % 97, '\0');
    for (char& c : text) c = static_cast<char>(random());
    INFO(n);
    REQUIRE(legacy_std_hash(text) == std::hash<std::string>{}(text));
  }
}
