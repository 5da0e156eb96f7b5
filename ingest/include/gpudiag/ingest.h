// ingest: reads Cloud Logging exports into LogRecords, streaming, with bounded memory.
//
// Accepts a `gcloud logging read --format=json` array (pretty-printed or compact), newline-delimited
// JSON (Cloud Storage sink shards, CRLF tolerated), concatenated JSON objects (`jq '.[]'`), and what
// `gcloud logging read` prints without --format=json (YAML documents split by `---` lines, each read
// as the same entry's JSON would be), from a file or stdin ("-"), gzip'd or not. The shape and the
// compression are detected from the bytes, never from the file name; a gcloud error, an HTML page or
// a CSV download saved in an export's place is refused with a diagnostic that says which.
//
// One call reads every input as one ordered stream. Workers parse chunks of whole entries in
// parallel, each into its own RecordSink, which can ask for the entries around the records it
// keeps (from the previous or next chunk too); the merge step then gets the sinks' batches back on
// the calling thread in input order, with absolute lines and duplicates flagged:
//
//   struct Errors : BatchOutput { std::vector<std::pair<size_t, KeptRecord>> kept; };  // entry, record
//   struct ErrorSink : RecordSink {                                     // one per worker thread
//     std::unique_ptr<Errors> out = std::make_unique<Errors>();
//     void record(const LogRecord& r, size_t entry, const LongTextFindings*) override {
//       if (r.severity >= Severity::kError) out->kept.emplace_back(entry, KeptRecord(r));
//     }
//     std::unique_ptr<BatchOutput> end_batch(Neighbours& around) override {
//       for (auto& k : out->kept) show(around.before(k.first, 2, 4096), k.second);  // context
//       return std::exchange(out, std::make_unique<Errors>());
//     }
//   };
//   StreamSummary s = read_exports({"logs.json.gz", "-"}, {.threads = 2},
//       [] { return std::make_unique<ErrorSink>(); },
//       [&](RecordBatch&& b) {                                          // in input order
//         for (auto& k : static_cast<Errors&>(*b.output).kept) if (!b.is_duplicate(k.first)) keep(k.second);
//       });
//   s.inputs[0]->analysed;   // per input: counts and problems, or why it could not be read
//
// keeping_sink() is a ready-made sink that keeps every record.
//
// Bad entries never stop a read: each is reported (with line and byte) in its input's summary and
// skipped.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpudiag/export_shape.h"
#include "gpudiag/job_summary.h"
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

// The summary rows of `gpudiag sql`'s result in an input (docs/sql.md): each is counted as an
// analysed entry, so the counts identity holds; these are what the rows say of the source.
struct SummaryRowCounts {
  uint64_t rows = 0;
  uint64_t source_entries = 0;  // the entries their jobs have in the source table
  uint64_t returned = 0;        // of which the query returned
  uint64_t capped = 0;          // selected, but left out by the query's per-job row cap

  void add(const JobSummary& s) {
    ++rows;
    source_entries += s.entries;
    returned += s.returned;
    capped += s.capped;
  }
  void add(const SummaryRowCounts& o) {
    rows += o.rows;
    source_entries += o.source_entries;
    returned += o.returned;
    capped += o.capped;
  }
};

// What one input contributed. `entries` counts every entry found in it: analysed + skipped +
// duplicates == entries, always.
struct InputSummary {
  std::string path;  // as given ("-" for stdin)
  ExportShape shape = ExportShape::kUnknown;
  bool gzip = false;
  uint64_t bytes = 0;  // bytes read (after decompression)
  uint64_t entries = 0;
  uint64_t analysed = 0;
  uint64_t skipped = 0;
  uint64_t duplicates = 0;
  uint64_t problems_total = 0;  // problems seen; `problems` keeps only the first kMaxKept
  // Set when the input was not read in full, an input error (docs/formats.md, "Input problems"):
  // reading stopped early (a read error, a limit, an interrupt) or the input ends before its end (a
  // gzip stream cut or damaged, an array never closed, a last entry cut). What came before was read.
  std::optional<Diagnostic> not_read_in_full;
  std::vector<InputProblem> problems;
  SummaryRowCounts summary_rows;  // among the analysed entries
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
  // Target chunk size. Up to 2 × threads chunks are in flight, each with its entries' observations
  // (on inputs where every entry matches, more than the input): 1 MiB chunks peaked at 80 MiB with
  // -j2 on 1.5 M workers, 256 KiB at 61 MiB, and no slower (bench/RESULTS-memory.md).
  uint32_t chunk_bytes = 1u << 18;
  bool no_mmap = false;  // read regular files instead of mapping them
};

// Which long text of an oversized entry a window shows.
enum class LongTextField : uint8_t { kMessage, kException };

// What a LongTextObserver made of one oversized entry. Ingest carries it, untouched, to the sink
// that gets the entry's crop (RecordSink::record).
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

// ---- The record stream ---------------------------------------------------------------------

// The entries around the records of one batch, parsed again when a sink asks for them (as
// ripgrep's searcher hands its sink context lines): across the batch's edges too, from the
// neighbouring chunk of the same input. Records are owned, their strings cropped to
// `max_text_bytes`, their lines absolute; entries that do not parse are left out. Valid only
// during RecordSink::end_batch.
class Neighbours {
 public:
  // Of the `count` entries just before entry `entry` of the batch, those that parse, in file order.
  virtual std::vector<KeptRecord> before(size_t entry, size_t count, size_t max_text_bytes) = 0;
  // Of the `count` entries just after it, those that parse, in file order.
  virtual std::vector<KeptRecord> after(size_t entry, size_t count, size_t max_text_bytes) = 0;

 protected:
  ~Neighbours() = default;
};

// What a sink made of one batch; the merge step gets it back (and casts it to the sink's own type).
struct BatchOutput {
  virtual ~BatchOutput() = default;
};

// Receives the records of batch after batch on one worker thread (one sink per thread).
class RecordSink {
 public:
  virtual ~RecordSink() = default;
  // A record that parsed: `where` is absolute (input, 1-based line, byte). `entry` is its index in
  // the batch. `long_text` is non-null for the crop of an entry over max_entry_bytes: what the
  // LongTextObserver found over its whole text. The record's strings live until the call returns.
  virtual void record(const LogRecord& record, size_t entry, const LongTextFindings* long_text) = 0;
  // A summary row of `gpudiag sql`'s result (a job's aggregates; no LogEntry): `entry` is its index.
  virtual void summary(const JobSummary& summary, size_t entry) = 0;
  // The batch's last record was given. Ask `neighbours` now for the context of the records kept.
  // Duplicates are not known yet (they are told apart in input order, when batches are merged).
  virtual std::unique_ptr<BatchOutput> end_batch(Neighbours& neighbours) = 0;
};

// One batch (the entries of one chunk of an input) as the merge step receives it, in input order.
struct RecordBatch {
  uint32_t input = 0;
  uint64_t entries = 0;                 // entries in the batch: parsed, skipped and duplicates
  uint64_t bytes_read = 0;              // bytes of its input up to the batch's end (decompressed), for progress
  std::vector<uint8_t> duplicates;      // per entry: 1 = the same entry was seen before in the stream
  std::unique_ptr<BatchOutput> output;  // what the worker's sink made of it

  bool is_duplicate(size_t entry) const { return entry < duplicates.size() && duplicates[entry] != 0; }
};

struct StreamOptions {
  unsigned threads = 1;  // worker threads parsing chunks (1: all on the calling thread)
  ReadLimits limits;
  LongTextObserver* long_text = nullptr;  // shown every oversized entry, on the calling thread
  // Non-zero (a signal's number, set by a handler): stop reading. What was handed out is parsed and
  // merged; the input being read is "not read in full" (input-interrupted), later ones not read.
  const std::atomic<int>* interrupt = nullptr;
};

struct StreamSummary {
  // Per path: the counts and problems (entries == analysed + skipped + duplicates), or why it could
  // not be read at all.
  std::vector<Result<InputSummary>> inputs;
  bool duplicates_windowed = false;  // so many entries that duplicates were looked for in a window only
};

// The records of a batch, owned, each with its index in the batch: what keeping_sink() makes.
struct KeptBatch : BatchOutput {
  std::vector<std::pair<size_t, KeptRecord>> records;
  std::vector<JobSummary> summaries;  // the batch's summary rows
};
// A sink that keeps every record whole (and asks for no neighbours), for callers that want owned
// records in input order: the merge step gets KeptBatch outputs.
std::unique_ptr<RecordSink> keeping_sink();

using SinkFactory = std::function<std::unique_ptr<RecordSink>()>;
using MergeFn = std::function<void(RecordBatch&&)>;

// Reads `paths` in order as one stream: chunks are parsed on options.threads workers, each feeding
// its own sink from `make_sink`; `merge` runs on the calling thread and gets the batches strictly
// in input order, so what it builds does not depend on the thread count. An entry seen before in
// the stream (same insertId and timestamp) is a duplicate: counted, and flagged in its batch. An
// exception thrown by `merge` stops the read and is rethrown once the workers have stopped.
StreamSummary read_exports(const std::vector<std::string>& paths, const StreamOptions& options,
                           const SinkFactory& make_sink, const MergeFn& merge);

// Reads one input on the calling thread, through the same stream; a convenience for tests and
// small tools. Duplicates are counted (and not passed to `on_record`).
Result<InputSummary> read_export(const std::string& path, const std::function<void(const LogRecord&)>& on_record,
                                 const ReadLimits& limits = {});

}  // namespace gpudiag
