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

size_t DuplicateFilter::memory_bytes() const {
  size_t slots = current_.slots.size() + parked_.slots.size();
  for (const Table& t : previous_) slots += t.slots.size();
  return slots * sizeof(uint64_t);
}

void DuplicateFilter::prefetch(uint64_t fingerprint) const {
  const auto fetch = [&](const Table& t) {
    if (!t.slots.empty()) __builtin_prefetch(&t.slots[mix(fingerprint) & (t.slots.size() - 1)]);
  };
  fetch(current_);
  fetch(parked_);
  for (const Table& t : previous_) fetch(t);
}

void DuplicateFilter::make_room() {
  const size_t half = generation_slots_ / 2;  // a power of two, at least 8: room(half) × 2 == room(generation)
  const size_t full = halves_ ? half : generation_slots_;
  if (current_.slots.size() < full) {
    current_.grow(std::min(full, std::max(std::min(kMinSlots, full), current_.slots.size() * 2)));
    return;
  }
  if (halves_ && parked_.slots.empty()) {  // the first half is full: the second is made at full size
    parked_ = std::move(current_);
    current_ = Table{};
    current_.slots.assign(half, 0);
    return;
  }
  // The generation is full: the one before is forgotten (its memory freed first), this one kept.
  if (!previous_.empty()) windowed_ = true;
  previous_.clear();
  if (!parked_.slots.empty()) previous_.push_back(std::move(parked_));
  previous_.push_back(std::move(current_));
  parked_ = Table{};
  current_ = Table{};
  halves_ = true;
  current_.grow(std::min(kMinSlots, half));
}

bool DuplicateFilter::seen(uint64_t fingerprint) {
  if (fingerprint == 0) return false;
  if (current_.contains(fingerprint) || parked_.contains(fingerprint)) return true;
  for (const Table& t : previous_) {
    if (t.contains(fingerprint)) return true;
  }
  if (current_.slots.empty() || current_.count >= room(current_)) make_room();
  current_.insert(fingerprint);
  return false;
}

}  // namespace gpudiag::detail
