// Reads exports on a background thread into batches of owned records, so that parsing (one core)
// and the SQLite inserts of `gpudiag ingest` (the other) overlap. Duplicates — the same insertId
// and timestamp twice, as overlapping exports give — are dropped and counted here.
#pragma once

#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "gpudiag/ingest.h"

namespace gpudiag::detail {

class BatchReader {
 public:
  struct Batch {
    size_t input = 0;                 // index into the paths
    std::vector<KeptRecord> records;  // absolute lines; `where.input` is `input`
    // Set on the last batch of an input: what reading it found (the error when it could not be read).
    std::optional<Result<InputSummary>> summary;
  };

  BatchReader(std::vector<std::string> paths, ReadLimits limits);
  ~BatchReader();  // stops reading and waits for the thread
  BatchReader(const BatchReader&) = delete;
  BatchReader& operator=(const BatchReader&) = delete;

  // The next batch, in input order; nullopt at the end. Rethrows what the reading thread threw.
  std::optional<Batch> next();

 private:
  void read_all();
  bool push(Batch batch);  // false once the reader is stopping

  static constexpr size_t kBatchRecords = 2048;
  static constexpr size_t kBatchBytes = 2u << 20;  // … or fewer: batches of big entries stay small
  static constexpr size_t kQueuedBatches = 2;

  std::vector<std::string> paths_;
  ReadLimits limits_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<Batch> queue_;
  bool done_ = false;      // the thread has pushed its last batch
  bool stopping_ = false;  // the consumer went away
  std::exception_ptr failure_;
  std::thread thread_;  // last: starts once everything above is ready
};

}  // namespace gpudiag::detail
