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

// Remembers fingerprints in a fixed memory budget. Fingerprints live in two generations, each
// holding at most as many as an open-addressing table of budget / 2 bytes filled to ¾ (so 8 MiB
// hold 786,432 of them): while the current one has room, every fingerprint since the start is
// remembered exactly; when it is full, the older generation is forgotten. So the first
// 2 × (budget / 2 / 8 × ¾) entries are de-duplicated exactly (1,572,864 with the default 16 MiB),
// later ones against at least the most recent half of that — and windowed() says so.
// Memory: the first generation is one table that grows by doubling up to budget / 2 (the old and
// the new table both held for that moment, under the budget). Each later generation is two tables
// of budget / 4: the first grows by doubling too, while the generation before is held whole (so an
// export a little past the first generation does not pay a second table of budget / 2 up front:
// 6 MiB of the 1 GiB 5,000-job export's peak), the second is made at full size when the first is
// full. The tables of the forgotten generation are freed before the next one's are made.
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
  size_t memory_bytes() const;

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
  // Makes room in current_ for one more fingerprint: grows it, parks it, or starts a generation.
  void make_room();

  Table current_;
  Table parked_;                 // a later generation's first half table, full, while current_ fills the second
  std::vector<Table> previous_;  // the generation before (one or two tables), forgotten whole
  size_t generation_slots_;      // the slots of the first generation's table
  bool halves_ = false;          // current_ belongs to a generation of two half tables
  bool windowed_ = false;
};

}  // namespace gpudiag::detail
