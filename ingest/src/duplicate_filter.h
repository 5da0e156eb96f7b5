// De-duplication of the record stream: the same entry twice, as overlapping exports and sinks
// produce, is recognised by its fingerprint. Both are defined here only. Internal to ingest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "gpudiag/log_record.h"

namespace gpudiag::detail {

// An entry's identity: (insertId, timestamp) hashed with stable_hash, never 0; 0 when the entry has
// no insertId (it cannot be told apart from others, so it is never a duplicate).
uint64_t entry_fingerprint(std::string_view insert_id, Timestamp timestamp);

// Remembers fingerprints in a fixed memory budget. Fingerprints live in two generations, each an
// open-addressing table of budget / 2 bytes filled to at most ¾ (so 8 MiB hold 786,432 of them):
// while the current one has room, every fingerprint since the start is remembered exactly; when it
// is full, the older generation is forgotten and its memory reused for the new current one. So the
// first 2 × (budget / 2 / 8 × ¾) entries are de-duplicated exactly (1,572,864 with the default
// 16 MiB), later ones against at least the most recent half of that — and windowed() says so.
// Memory: a table grows by doubling up to its size while the first generation fills (the old and
// the new table are both held for that moment, under the budget); after that it never allocates.
class DuplicateFilter {
 public:
  static constexpr size_t kDefaultBudget = size_t{16} << 20;
  explicit DuplicateFilter(size_t budget_bytes = kDefaultBudget);

  // True when `fingerprint` was seen before (and is non-zero). Records it otherwise.
  bool seen(uint64_t fingerprint);
  // A hint that seen(fingerprint) comes soon: its slots are fetched into the cache meanwhile (the
  // tables are megabytes; a lookup is two cache misses otherwise).
  void prefetch(uint64_t fingerprint) const;
  // Some fingerprints were forgotten: a duplicate further apart than the window may be missed.
  bool windowed() const { return windowed_; }
  // Bytes the tables hold now.
  size_t memory_bytes() const { return (current_.slots.size() + previous_.slots.size()) * sizeof(uint64_t); }

 private:
  // An open-addressing set of non-zero 64-bit fingerprints, a power of two of slots.
  struct Table {
    std::vector<uint64_t> slots;
    size_t count = 0;
    bool contains(uint64_t f) const;
    void insert(uint64_t f);  // there is room (count < capacity of slots)
    void grow(size_t slot_count);
  };
  static size_t room(const Table& t) { return t.slots.size() / 4 * 3; }

  Table current_;
  Table previous_;           // the generation before, forgotten whole when current_ is full
  size_t generation_slots_;  // the slots a generation grows to
  bool windowed_ = false;
};

}  // namespace gpudiag::detail
