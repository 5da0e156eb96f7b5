#include "duplicate_filter.h"

#include <algorithm>
#include <bit>

#include "gpudiag/stable_hash.h"

namespace gpudiag::detail {
namespace {

size_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return static_cast<size_t>(h);
}

constexpr size_t kMinSlots = 16;

}  // namespace

uint64_t entry_fingerprint(std::string_view insert_id, Timestamp timestamp) {
  if (insert_id.empty()) return 0;
  return (stable_hash(insert_id) ^ (static_cast<uint64_t>(timestamp) * 0x9E3779B97F4A7C15ull)) | 1;
}

bool DuplicateFilter::Table::contains(uint64_t f) const {
  if (slots.empty()) return false;
  const size_t mask = slots.size() - 1;
  for (size_t i = mix(f) & mask; slots[i] != 0; i = (i + 1) & mask) {
    if (slots[i] == f) return true;
  }
  return false;
}

void DuplicateFilter::Table::insert(uint64_t f) {
  const size_t mask = slots.size() - 1;
  size_t i = mix(f) & mask;
  while (slots[i] != 0) i = (i + 1) & mask;
  slots[i] = f;
  ++count;
}

void DuplicateFilter::Table::grow(size_t slot_count) {
  std::vector<uint64_t> old = std::move(slots);
  slots.assign(slot_count, 0);
  count = 0;
  for (uint64_t g : old) {
    if (g != 0) insert(g);
  }
}

DuplicateFilter::DuplicateFilter(size_t budget_bytes)
    : generation_slots_(std::max(kMinSlots, std::bit_floor(budget_bytes / 2 / sizeof(uint64_t)))) {}

void DuplicateFilter::prefetch(uint64_t fingerprint) const {
  for (const Table* t : {&current_, &previous_}) {
    if (!t->slots.empty()) __builtin_prefetch(&t->slots[mix(fingerprint) & (t->slots.size() - 1)]);
  }
}

bool DuplicateFilter::seen(uint64_t fingerprint) {
  if (fingerprint == 0) return false;
  if (current_.contains(fingerprint) || previous_.contains(fingerprint)) return true;
  if (current_.count >= room(current_)) {
    if (current_.slots.size() < generation_slots_) {
      current_.grow(std::min(generation_slots_, std::max(kMinSlots, current_.slots.size() * 2)));
    } else {
      // Full: the oldest generation is forgotten, and its table (already at full size) is reused.
      if (previous_.count > 0) windowed_ = true;
      std::swap(previous_, current_);
      if (current_.slots.size() == generation_slots_) {
        std::fill(current_.slots.begin(), current_.slots.end(), 0);
      } else {
        current_.slots.assign(generation_slots_, 0);
      }
      current_.count = 0;
    }
  }
  current_.insert(fingerprint);
  return false;
}

}  // namespace gpudiag::detail
