// ChunkWorker: what each thread of the record stream does with a chunk — split it, learn its first
// line, parse it into the thread's RecordSink, and answer the sink's questions about neighbours,
// from the chunks beside it too. Internal to ingest.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "chunk.h"
#include "gpudiag/ingest.h"

namespace gpudiag::detail {

// A chunk with the chunks beside it in its input (null at the input's ends).
struct ChunkTask {
  uint64_t order = 0;  // over the whole stream: the order chunks are read, parsed and merged in
  bool first_of_input = false;
  std::shared_ptr<const Chunk> previous, current, next;
};

// What a worker hands to the merge step: the sink's output and what ingest itself counts.
struct ParsedChunk {
  uint32_t input = 0;
  uint64_t entries = 0;
  uint64_t skipped = 0;
  uint64_t bytes_read = 0;
  std::vector<InputProblem> problems;  // absolute lines
  std::vector<uint64_t> fingerprints;  // per entry (0 = none)
  std::string input_changed;
  std::optional<Diagnostic> input_cut;
  SummaryRowCounts summary_rows;
  std::unique_ptr<BatchOutput> output;
};

// Absolute lines: a chunk's first line is the sum of the newlines of every chunk before it in its
// input, which only the workers that split those chunks know. Each worker tells its chunk's count
// as soon as it has split the chunk (well before parsing it) and waits for the one before.
class LineCounter {
 public:
  // The 1-based line chunk `order` starts on, once chunk `order - 1` has been counted.
  uint64_t first_line(uint64_t order, bool first_of_input, uint64_t newlines_before, uint64_t newlines);

 private:
  std::mutex mutex_;
  std::condition_variable counted_;
  uint64_t next_order_ = 0;
  uint64_t lines_ = 0;  // newlines in the current input up to the end of chunk next_order_ - 1
};

class ChunkWorker {
 public:
  ChunkWorker(LineCounter& lines, std::unique_ptr<RecordSink> sink) : lines_(lines), sink_(std::move(sink)) {}
  ParsedChunk run(ChunkTask&& task);

 private:
  class Around;  // the Neighbours of the current chunk

  LineCounter& lines_;
  std::unique_ptr<RecordSink> sink_;
  ChunkParser parser_;
};

}  // namespace gpudiag::detail
