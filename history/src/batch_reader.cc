#include "batch_reader.h"

#include "gpudiag/stable_hash.h"

namespace gpudiag::detail {
namespace {

// (insertId, timestamp) hashed; 0 when the entry has no insertId (it cannot be told apart).
uint64_t entry_fingerprint(const LogRecord& r) {
  if (r.insert_id.empty()) return 0;
  const uint64_t h = stable_hash(r.insert_id) ^ (static_cast<uint64_t>(r.timestamp) * 0x9E3779B97F4A7C15ull);
  return h == 0 ? 1 : h;
}

}  // namespace

BatchReader::BatchReader(std::vector<std::string> paths, ReadLimits limits)
    : paths_(std::move(paths)), limits_(limits), thread_([this] { read_all(); }) {}

BatchReader::~BatchReader() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

bool BatchReader::push(Batch batch) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return stopping_ || queue_.size() < kQueuedBatches; });
  if (stopping_) return false;
  queue_.push_back(std::move(batch));
  changed_.notify_all();
  return true;
}

std::optional<BatchReader::Batch> BatchReader::next() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return done_ || !queue_.empty(); });
  if (failure_) std::rethrow_exception(failure_);
  if (queue_.empty()) return std::nullopt;
  Batch batch = std::move(queue_.front());
  queue_.pop_front();
  changed_.notify_all();
  return batch;
}

void BatchReader::read_all() {
  try {
    DuplicateFilter seen;
    bool open = true;
    for (size_t i = 0; i < paths_.size() && open; ++i) {
      Batch batch{.input = i, .records = {}, .summary = std::nullopt};
      size_t batch_bytes = 0;
      uint64_t duplicates = 0;
      auto summary = read_export(
          paths_[i],
          [&](const LogRecord& r) {
            if (!open) return;  // the consumer stopped: finish the input quickly
            if (seen.seen(entry_fingerprint(r))) {
              ++duplicates;
              return;
            }
            batch.records.emplace_back(r).set_where(
                SourceLocation{static_cast<uint32_t>(i), r.where.line, r.where.offset});
            batch_bytes += r.message.size() + r.exception.size() + 256;
            if (batch.records.size() == kBatchRecords || batch_bytes >= kBatchBytes) {
              open = push(std::move(batch));
              batch = Batch{.input = i, .records = {}, .summary = std::nullopt};
              batch_bytes = 0;
            }
          },
          limits_);
      if (summary) {
        summary->duplicates = duplicates;
        summary->analysed -= duplicates;
      }
      batch.summary = std::move(summary);
      open = open && push(std::move(batch));
    }
  } catch (...) {
    std::lock_guard lock(mutex_);
    failure_ = std::current_exception();
  }
  std::lock_guard lock(mutex_);
  done_ = true;
  changed_.notify_all();
}

}  // namespace gpudiag::detail
