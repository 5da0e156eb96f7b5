#include "chunk_worker.h"

namespace gpudiag::detail {

uint64_t LineCounter::first_line(uint64_t order, bool first_of_input, uint64_t newlines_before, uint64_t newlines) {
  std::unique_lock lock(mutex_);
  counted_.wait(lock, [&] { return next_order_ == order; });
  const uint64_t before = (first_of_input ? 0 : lines_) + newlines_before;
  lines_ = before + newlines;
  ++next_order_;
  lock.unlock();
  counted_.notify_all();
  return before + 1;
}

// Neighbours are parsed again by the worker's parser, which still holds the chunk's entries; for
// those in the previous or next chunk it splits that chunk first, beside them (only when a
// neighbour there is asked for: records near an edge that a sink keeps).
class ChunkWorker::Around final : public Neighbours {
 public:
  Around(ChunkWorker& worker, const ChunkTask& task, uint64_t first_line, const ChunkReport& report)
      : worker_(worker), task_(task), first_line_(first_line), report_(report) {}

  std::vector<KeptRecord> before(size_t entry, size_t count, size_t max_text_bytes) override {
    std::vector<KeptRecord> out;
    for (size_t k = count; k >= 1; --k) {
      std::optional<KeptRecord> r;
      if (entry >= k) {
        r = worker_.parser_.reparse(*task_.current, first_line_, entry - k, max_text_bytes);
      } else if (task_.previous) {
        load(Side::kPrevious);
        const size_t back = k - entry;  // 1: the previous chunk's last entry
        if (back <= side_entries_) {
          r = worker_.parser_.reparse_side(*task_.previous, side_first_line_, side_entries_ - back, max_text_bytes);
        }
      }
      if (r) out.push_back(std::move(*r));
    }
    return out;
  }

  std::vector<KeptRecord> after(size_t entry, size_t count, size_t max_text_bytes) override {
    std::vector<KeptRecord> out;
    for (size_t k = 1; k <= count; ++k) {
      std::optional<KeptRecord> r;
      if (entry + k < report_.entries) {
        r = worker_.parser_.reparse(*task_.current, first_line_, entry + k, max_text_bytes);
      } else if (task_.next) {
        load(Side::kNext);
        r = worker_.parser_.reparse_side(*task_.next, side_first_line_, entry + k - report_.entries, max_text_bytes);
      }
      if (r) out.push_back(std::move(*r));
    }
    return out;
  }

 private:
  enum class Side { kNone, kPrevious, kNext };

  // Splits the chunk on `which` side into the side parser (unless it holds it already).
  void load(Side which) {
    if (split_ == which) return;
    const Chunk& chunk = which == Side::kPrevious ? *task_.previous : *task_.next;
    const ChunkReport side = worker_.parser_.split_side(chunk);
    side_entries_ = side.entries;
    side_first_line_ = which == Side::kPrevious ? first_line_ - task_.current->newlines_before - side.newlines
                                                : first_line_ + report_.newlines + chunk.newlines_before;
    split_ = which;
  }

  ChunkWorker& worker_;
  const ChunkTask& task_;
  uint64_t first_line_;
  const ChunkReport& report_;
  Side split_ = Side::kNone;
  size_t side_entries_ = 0;
  uint64_t side_first_line_ = 0;
};

ParsedChunk ChunkWorker::run(ChunkTask&& task) {
  const Chunk& chunk = *task.current;
  ChunkReport report = parser_.split(chunk);
  const uint64_t first_line =
      lines_.first_line(task.order, task.first_of_input, chunk.newlines_before, report.newlines);
  const LongTextFindings* long_text = chunk.long_text.get();
  parser_.parse(
      chunk, first_line, [&](const LogRecord& r, size_t entry) { sink_->record(r, entry, long_text); },
      [&](const JobSummary& s, size_t entry) { sink_->summary(s, entry); }, report);
  Around around(*this, task, first_line, report);
  ParsedChunk out;
  out.output = sink_->end_batch(around);
  out.input = chunk.input;
  out.entries = report.entries;
  out.bytes_read = chunk.base_offset + chunk.size;
  out.problems.reserve(report.problems.size());
  for (auto& p : report.problems) {
    if (p.skipped_entry) ++out.skipped;
    out.problems.push_back(to_input_problem(std::move(p), chunk, first_line));
  }
  out.fingerprints = std::move(report.fingerprints);
  out.input_changed = std::move(report.input_changed);
  out.input_cut = std::move(report.input_cut);
  out.summary_rows = report.summary_rows;
  return out;  // the task, and with it the chunks' bytes, goes now
}

}  // namespace gpudiag::detail
