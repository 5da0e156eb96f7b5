// A small cache in front of a std::map keyed by name, for lookups of names that recur out of order.
// Internal to engine.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace gpudiag::detail {

// Entries interleave many workers (and logs) whose names share long prefixes
// ("…-harness-612e", "…-harness-7204"), so a map lookup compares those prefixes several times per
// entry. A direct-mapped cache of recent names answers most lookups with one comparison. The map's
// entries must outlive the cache's use (clear() when the map is replaced); std::map keeps them in
// place as it grows.
template <typename Map>
class NameLookupCache {
 public:
  using Value = typename Map::mapped_type;

  void clear() { slots_.fill(Slot{}); }

  // The map's value for `key`, added as `initial` when missing.
  Value& get(Map& map, std::string_view key, const Value& initial = Value{}) {
    Slot& slot = slots_[index(key)];
    if (slot.value != nullptr && slot.key == key) return *slot.value;
    auto it = map.find(key);
    if (it == map.end()) it = map.emplace(std::string(key), initial).first;
    slot = Slot{it->first, &it->second};
    return it->second;
  }

 private:
  struct Slot {
    std::string_view key;  // the map's own copy
    Value* value = nullptr;
  };
  static constexpr int kBits = 6;

  // Names differ mostly at their ends: the last 8 bytes and the length pick the slot.
  static size_t index(std::string_view key) {
    uint64_t tail = 0;
    const size_t n = key.size() < 8 ? key.size() : 8;
    if (n > 0) std::memcpy(&tail, key.data() + key.size() - n, n);
    return static_cast<size_t>(((tail ^ key.size()) * 0x9E3779B97F4A7C15ull) >> (64 - kBits));
  }

  std::array<Slot, size_t{1} << kBits> slots_{};
};

}  // namespace gpudiag::detail
