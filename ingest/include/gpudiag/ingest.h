// ingest: reads Cloud Logging exports into LogRecords, streaming, with bounded memory.
//
// Accepts a `gcloud logging read --format=json` array (pretty-printed or compact), newline-delimited
// JSON (Cloud Storage sink shards, CRLF tolerated), and concatenated JSON objects (`jq '.[]'`), from a
// file or stdin ("-"), gzip'd or not. The shape and the compression are detected from the bytes, never
// from the file name.
//
// Reading is split in two so that parsing can run on several threads while the order stays fixed:
//
//   auto reader = ExportReader::open("logs.json.gz", /*input=*/0, limits);   // Result<ExportReader>
//   ChunkParser parser;                                                       // one per thread
//   while (auto chunk = reader->next_chunk()) {                               // whole entries only
//     ChunkReport report = parser.parse(*chunk, [&](const LogRecord& r, size_t entry) { … });
//   }
//   reader->summary();   // shape, compression, problems found while splitting
//
// Bad entries never stop a read: each is reported (with line and byte) in the ChunkReport and skipped.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpudiag/export_shape.h"
#include "gpudiag/log_record.h"
#include "gpudiag/result.h"

namespace gpudiag {

// One problem in one input. Skipped entries are problems with `skipped_entry` set; others are notes
// that did not cost an entry (a BOM, a duplicate key, a wrong field type that was tolerated).
struct InputProblem {
  uint64_t line = 0;    // 1-based line where the problem is (0 = whole input)
  int64_t offset = -1;  // byte offset (decompressed)
  bool skipped_entry = false;
  std::string message;
};

// What one input contributed. `entries` counts every entry found in it: analysed + skipped +
// duplicates == entries, always.
struct InputSummary {
  std::string path;  // as given ("-" for stdin)
  ExportShape shape = ExportShape::kUnknown;
  bool gzip = false;
  uint64_t bytes = 0;  // bytes of JSON read (after decompression)
  uint64_t entries = 0;
  uint64_t analysed = 0;
  uint64_t skipped = 0;
  uint64_t duplicates = 0;
  uint64_t problems_total = 0;  // problems seen; `problems` keeps only the first kMaxKept
  std::string aborted;          // non-empty: reading stopped early for this reason (an input error)
  std::vector<InputProblem> problems;
  static constexpr size_t kMaxKept = 100;

  void add_problem(InputProblem p);
};

// Guards against hostile inputs. Exceeding one is a clear error or a note, never a crash or an OOM.
struct ReadLimits {
  // An entry larger than this is not parsed whole: it is read as it streams past, its message and
  // exception are matched over their whole length (LongTextObserver) and only a crop of them is
  // kept; the crop is listed in the input's problems (`--max-entry-bytes`).
  uint64_t max_entry_bytes = 4ull << 20;
  uint64_t max_gzip_ratio = 1000;                 // decompressed / compressed, after the first 64 MiB
  uint64_t max_decompressed_bytes = 64ull << 30;  // per input
  uint32_t chunk_bytes = 1u << 20;                // target chunk size
  bool no_mmap = false;                           // read regular files instead of mapping them
};

// Which long text of an oversized entry a window shows.
enum class LongTextField : uint8_t { kMessage, kException };

// What a LongTextObserver made of one oversized entry. Ingest carries it, untouched, to the chunk
// that holds the entry's crop (Chunk::long_text).
struct LongTextFindings {
  virtual ~LongTextFindings() = default;
};

// Sees the whole message and exception of an entry larger than ReadLimits::max_entry_bytes while
// it streams past, in windows of unescaped text, so that matching is not limited to the crop that
// is kept. Consecutive windows overlap (by 1/16 of a window, from a line start when there is one),
// so a line that straddles two windows is seen whole in one of them. Called on the reading thread.
class LongTextObserver {
 public:
  virtual ~LongTextObserver() = default;
  virtual void start_entry() = 0;
  virtual void window(LongTextField field, std::string_view text) = 0;
  virtual std::shared_ptr<const LongTextFindings> finish_entry() = 0;
};

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

struct ChunkProblem {
  size_t entry_index;        // index of the entry in the chunk (for "skipped" ones)
  uint64_t newlines_before;  // newlines in the chunk before the problem
  uint64_t offset_in_chunk;
  bool skipped_entry;
  std::string message;
};

// The problem as the run reports it: `base_line` is the line the chunk starts on (0 when the
// caller has already made lines absolute); the offset becomes absolute in the input.
InputProblem to_input_problem(ChunkProblem problem, const Chunk& chunk, uint64_t base_line);

// What parsing one chunk found. Lines are relative (newlines before an entry within the chunk),
// because the chunk does not know its first line until earlier chunks are counted.
struct ChunkReport {
  uint64_t entries = 0;   // entries found (parsed + skipped)
  uint64_t newlines = 0;  // newlines in the chunk
  std::vector<ChunkProblem> problems;
  std::vector<uint64_t> fingerprints;  // per entry: hash of (insertId, timestamp); 0 = none
  std::string input_changed;           // non-empty: the input shrank while it was read (why, with the byte)
};

// Parses chunks into LogRecords. Not thread-safe: use one per thread. Reuses its buffers.
class ChunkParser {
 public:
  ChunkParser();
  ~ChunkParser();
  ChunkParser(ChunkParser&&) noexcept;
  ChunkParser& operator=(ChunkParser&&) noexcept;

  // Calls `on_record(record, entry_index)` for every entry that parses. `record.where.line` is the
  // number of newlines before the entry within the chunk (relative); `where.offset` is absolute.
  using RecordFn = std::function<void(const LogRecord&, size_t entry_index)>;
  ChunkReport parse(const Chunk& chunk, const RecordFn& on_record);

  // Parses entry `entry_index` of the chunk last given to parse() again, as an owned record (for
  // the entries around a piece of evidence), its strings cropped to `max_text_bytes`. nullopt when
  // there is no such entry or it is broken.
  std::optional<KeptRecord> reparse(const Chunk& chunk, size_t entry_index, size_t max_text_bytes = KeptRecord::kWhole);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Splits one input into chunks of whole entries. Sequential; cheap compared with parsing.
class ExportReader {
 public:
  // Fails (exit code 2 material) when the input cannot be opened or is not JSON at all.
  static Result<ExportReader> open(const std::string& path, uint32_t input_index, const ReadLimits& limits = {});
  ExportReader(ExportReader&&) noexcept;
  ExportReader& operator=(ExportReader&&) noexcept;
  ~ExportReader();

  // The next chunk, or nullopt at the end. Problems found while splitting (a truncated tail, a
  // read error, a gzip error) are added to summary() and end the input early.
  std::optional<Chunk> next_chunk();

  const InputSummary& summary() const;
  InputSummary& summary();

  // Shown the whole text of every oversized entry (not owned; must outlive the reader).
  void set_long_text_observer(LongTextObserver* observer);

 private:
  struct Impl;
  explicit ExportReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Remembers entry fingerprints (ChunkReport::fingerprints) to recognise duplicates: the same entry
// twice, as overlapping exports and sinks produce. Exact for the first `capacity` entries; beyond
// that it remembers only the most recent ones (at least capacity / 2), so memory stays bounded
// whatever the input size — and says so (windowed()).
class DuplicateFilter {
 public:
  explicit DuplicateFilter(size_t capacity = size_t{1} << 20);
  // True when `fingerprint` was seen before (and is non-zero). Records it otherwise.
  bool seen(uint64_t fingerprint);
  // A hint that seen(fingerprint) comes soon: its slots are fetched into the cache meanwhile (the
  // tables are megabytes; a lookup is two cache misses otherwise).
  void prefetch(uint64_t fingerprint) const;
  bool windowed() const { return windowed_; }

 private:
  // An open-addressing set of non-zero 64-bit fingerprints.
  struct Table {
    std::vector<uint64_t> slots;
    size_t count = 0;
    bool contains(uint64_t f) const;
    void insert(uint64_t f);
  };
  Table current_;
  Table previous_;  // the generation before: dropped whole when current_ fills up
  size_t generation_size_;
  bool windowed_ = false;
};

// Parses the whole input on the calling thread; a convenience for tests and small tools.
// Returns the summary with every count filled in (no de-duplication: that is the engine's job).
Result<InputSummary> read_export(const std::string& path, const std::function<void(const LogRecord&)>& on_record,
                                 const ReadLimits& limits = {});

}  // namespace gpudiag
