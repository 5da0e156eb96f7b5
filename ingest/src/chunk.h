// Chunks: runs of whole entries that the reader cuts an input into and the stream's workers parse,
// and the parser that turns one into LogRecords. Internal to ingest (the stream, record_stream.cc,
// is their only user).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/ingest.h"

namespace gpudiag {

// A run of whole entries from one input, in a padded buffer ready for simdjson.
struct Chunk {
  uint32_t input = 0;
  uint64_t sequence = 0;     // 0, 1, 2 … within the input
  uint64_t base_offset = 0;  // byte offset of data() in the decompressed input
  ExportShape shape = ExportShape::kUnknown;
  uint32_t close_indent = 0;             // pretty-printed shapes: indent of an entry's closing brace
  bool pretty = false;                   // entries are delimited by their closing-brace lines
  bool ends_input = false;               // the last chunk of its input
  uint64_t newlines_before = 0;          // newlines in bytes the reader dropped just before this chunk
  std::shared_ptr<const char[]> buffer;  // holds size bytes, then at least simdjson's padding
  size_t size = 0;
  size_t capacity = 0;  // bytes readable from data() (≥ size + padding)
  // Mapped inputs: the first offset that vanished because the file shrank while it was read (-1:
  // none). Keeps the mapping alive.
  std::shared_ptr<const std::atomic<int64_t>> vanished_at;
  // An entry over max_entry_bytes comes alone, as a crop (compact NDJSON): what the observer found
  // over its whole text, and the notes that say what was cropped (problems of entry 0).
  std::shared_ptr<const LongTextFindings> long_text;
  std::vector<std::string> notes;

  const char* data() const { return buffer.get(); }
};

// A problem found in a chunk, placed relative to it (the splitter does not know the first line).
struct ChunkProblem {
  size_t entry_index;        // index of the entry in the chunk (for "skipped" ones)
  uint64_t newlines_before;  // newlines in the chunk before the problem
  uint64_t offset_in_chunk;
  bool skipped_entry;
  std::string message;
};

// The problem as the run reports it: `base_line` is the line the chunk starts on; the offset
// becomes absolute in the input.
InputProblem to_input_problem(ChunkProblem problem, const Chunk& chunk, uint64_t base_line);

// What splitting and parsing one chunk found.
struct ChunkReport {
  uint64_t entries = 0;   // entries found (parsed + skipped)
  uint64_t newlines = 0;  // newlines in the chunk
  std::vector<ChunkProblem> problems;
  std::vector<uint64_t> fingerprints;   // per entry: entry_fingerprint(); 0 = none
  std::string input_changed;            // non-empty: the input shrank while it was read (why, with the byte)
  std::optional<Diagnostic> input_cut;  // the chunk ends the input, and the input ends before its end
  SummaryRowCounts summary_rows;        // the summary rows among the entries (parsed, not skipped)
};

namespace detail {
// What to do about an export that was cut (docs/formats.md, "Input problems").
inline constexpr std::string_view kCutExportHelp =
    "export it again (a full disk, a killed gcloud or an interrupted copy cuts a file); the entries before the cut "
    "were analysed";
// The input error of an input whose last entry, starting at `offset`, was cut by its end.
Diagnostic last_entry_cut(uint64_t offset);
}  // namespace detail

// Parses chunks into LogRecords in two steps, so that the stream can learn a chunk's first line
// (which needs the newlines of every chunk before it) between them. Not thread-safe: one per
// thread. Reuses its buffers.
class ChunkParser {
 public:
  ChunkParser();
  ~ChunkParser();
  ChunkParser(ChunkParser&&) noexcept;
  ChunkParser& operator=(ChunkParser&&) noexcept;

  // Finds the entries of `chunk` (report.entries, report.newlines, problems of the splitter).
  ChunkReport split(const Chunk& chunk);

  // Parses the entries split() found, calling `on_record(record, entry_index)` for each that parses;
  // `record.where.line` is `base_line` plus the newlines before the entry in the chunk.
  // A summary row of `gpudiag sql`'s result goes to `on_summary` instead (counted in the report).
  using RecordFn = std::function<void(const LogRecord&, size_t entry_index)>;
  using SummaryFn = std::function<void(const JobSummary&, size_t entry_index)>;
  void parse(const Chunk& chunk, uint64_t base_line, const RecordFn& on_record, const SummaryFn& on_summary,
             ChunkReport& report);

  // Entry `entry_index` of the chunk last split, parsed again as an owned record, its strings
  // cropped to `max_text_bytes`; nullopt when there is no such entry or it is broken.
  std::optional<KeptRecord> reparse(const Chunk& chunk, uint64_t base_line, size_t entry_index, size_t max_text_bytes);

  // The same for a neighbouring chunk, split into a second set of entries so that the chunk last
  // split keeps its own: one simdjson parser (and its buffers, the size of the largest entry)
  // serves both.
  ChunkReport split_side(const Chunk& chunk);
  std::optional<KeptRecord> reparse_side(const Chunk& chunk, uint64_t base_line, size_t entry_index,
                                         size_t max_text_bytes);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpudiag
