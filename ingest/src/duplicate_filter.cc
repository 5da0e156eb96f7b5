#include <algorithm>

#include "gpudiag/ingest.h"

namespace gpudiag {
namespace {

size_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return static_cast<size_t>(h);
}

}  // namespace

bool DuplicateFilter::Table::contains(uint64_t f) const {
  if (slots.empty()) return false;
  const size_t mask = slots.size() - 1;
  for (size_t i = mix(f) & mask; slots[i] != 0; i = (i + 1) & mask) {
    if (slots[i] == f) return true;
  }
  return false;
}

void DuplicateFilter::Table::insert(uint64_t f) {
  if ((count + 1) * 2 > slots.size()) {  // keep the load at most one half
    std::vector<uint64_t> old = std::move(slots);
    slots.assign(std::max<size_t>(64, old.size() * 2), 0);
    count = 0;
    for (uint64_t g : old) {
      if (g != 0) insert(g);
    }
  }
  const size_t mask = slots.size() - 1;
  size_t i = mix(f) & mask;
  while (slots[i] != 0) i = (i + 1) & mask;
  slots[i] = f;
  ++count;
}

DuplicateFilter::DuplicateFilter(size_t capacity) : generation_size_(std::max<size_t>(capacity / 2, 16)) {}

void DuplicateFilter::prefetch(uint64_t fingerprint) const {
  for (const Table* t : {&current_, &previous_}) {
    if (!t->slots.empty()) __builtin_prefetch(&t->slots[mix(fingerprint) & (t->slots.size() - 1)]);
  }
}

bool DuplicateFilter::seen(uint64_t fingerprint) {
  if (fingerprint == 0) return false;
  if (current_.contains(fingerprint) || previous_.contains(fingerprint)) return true;
  if (current_.count >= generation_size_) {
    if (previous_.count > 0) windowed_ = true;  // the oldest generation is forgotten now
    previous_ = std::move(current_);
    current_ = Table{};
  }
  current_.insert(fingerprint);
  return false;
}

}  // namespace gpudiag
