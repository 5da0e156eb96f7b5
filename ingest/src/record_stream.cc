// read_exports(): the record stream. The calling thread reads chunks (one ahead, so that each goes
// out with its neighbours) and merges; the pool's workers parse. De-duplication and the counts
// happen at the merge, in input order, so they do not depend on the thread count.
#include <fmt/format.h>

#include <algorithm>
#include <csignal>
#include <optional>

#include "chunk_worker.h"
#include "duplicate_filter.h"
#include "export_reader.h"
#include "gpudiag/diagnostic_codes.h"
#include "ordered_pool.h"

namespace gpudiag {
namespace {

using detail::ChunkTask;
using detail::ParsedChunk;

std::string signal_name(const StreamOptions& options) {
  const int signal = options.interrupt != nullptr ? options.interrupt->load() : 0;
  return signal == SIGINT ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : fmt::format("signal {}", signal);
}

// What splitting the input found (the reader's summary) joins what parsing found.
void merge_reader_summary(const InputSummary& from, InputSummary& into) {
  into.shape = from.shape;
  into.gzip = from.gzip;
  into.bytes = from.bytes;
  into.entries += from.entries;  // oversized entries the reader dropped
  into.skipped += from.skipped;
  for (const auto& p : from.problems) into.add_problem(p);
  into.problems_total += from.problems_total - from.problems.size();
  // Why the reader stopped (a read error, a cut gzip stream) comes before what parsing found at
  // the end of what it was given (a cut last entry, an array never closed).
  if (from.not_read_in_full) into.not_read_in_full = from.not_read_in_full;
  std::stable_sort(into.problems.begin(), into.problems.end(), [](const InputProblem& a, const InputProblem& b) {
    if (a.line != b.line) return a.line < b.line;
    return a.offset < b.offset;
  });
}

// The merge step's side of the stream: duplicates and counts, then the caller's merge.
class Merger {
 public:
  Merger(size_t inputs, const MergeFn& merge) : parsed_(inputs), merge_(merge) {}

  void operator()(ParsedChunk&& chunk) {
    InputSummary& summary = parsed_[chunk.input];
    RecordBatch batch{.input = chunk.input,
                      .entries = chunk.entries,
                      .bytes_read = chunk.bytes_read,
                      .duplicates = {},
                      .output = std::move(chunk.output)};
    uint64_t duplicates = 0;
    constexpr size_t kAhead = 16;  // lookups in flight: enough to hide the tables' cache misses
    const auto& fingerprints = chunk.fingerprints;
    for (size_t i = 0; i < fingerprints.size(); ++i) {
      if (i + kAhead < fingerprints.size()) dedup_.prefetch(fingerprints[i + kAhead]);
      if (!dedup_.seen(fingerprints[i])) continue;
      if (batch.duplicates.empty()) batch.duplicates.assign(fingerprints.size(), 0);
      batch.duplicates[i] = 1;
      ++duplicates;
    }
    for (auto& p : chunk.problems) summary.add_problem(std::move(p));
    if (!chunk.input_changed.empty() && !summary.not_read_in_full) {
      summary.not_read_in_full = Diagnostic{.code = code_name(DiagnosticCode::kInputAborted),
                                            .message = std::move(chunk.input_changed),
                                            .help = "the entries read before this point were analysed"};
    }
    if (chunk.input_cut && !summary.not_read_in_full) summary.not_read_in_full = std::move(chunk.input_cut);
    summary.entries += chunk.entries;
    summary.skipped += chunk.skipped;
    summary.duplicates += duplicates;
    summary.analysed += chunk.entries - chunk.skipped - duplicates;
    summary.summary_rows.add(chunk.summary_rows);
    merge_(std::move(batch));
  }

  InputSummary& parsed(size_t input) { return parsed_[input]; }
  bool windowed() const { return dedup_.windowed(); }

 private:
  std::vector<InputSummary> parsed_;  // per input: what merging its chunks found
  detail::DuplicateFilter dedup_;     // over the whole stream: overlapping exports repeat entries
  const MergeFn& merge_;
};

}  // namespace

StreamSummary read_exports(const std::vector<std::string>& paths, const StreamOptions& options,
                           const SinkFactory& make_sink, const MergeFn& merge) {
  detail::LineCounter lines;
  Merger merger(paths.size(), merge);
  std::vector<std::optional<Result<InputSummary>>> read(paths.size());  // what splitting each found
  using Pool = detail::OrderedPool<ChunkTask, ParsedChunk>;
  Pool pool(std::max(1u, options.threads), [&]() -> Pool::Work {
    auto worker = std::make_shared<detail::ChunkWorker>(lines, make_sink());
    return [worker](ChunkTask&& task) { return worker->run(std::move(task)); };
  });
  const auto take = [&](ParsedChunk&& chunk) { merger(std::move(chunk)); };

  uint64_t order = 0;
  std::optional<uint32_t> interrupted;  // the input reading stopped in
  uint64_t interrupted_at = 0;          // its bytes handed out before the stop
  for (uint32_t i = 0; i < paths.size(); ++i) {
    if (interrupted) {
      read[i] = Diagnostic{.code = code_name(DiagnosticCode::kInputInterrupted),
                           .message = fmt::format("not read: {} came before this input", signal_name(options)),
                           .file = paths[i]};
      continue;
    }
    auto reader = ExportReader::open(paths[i], i, options.limits, options.interrupt);
    if (!reader) {
      read[i] = reader.error();
      continue;
    }
    if (options.long_text != nullptr) reader->set_long_text_observer(options.long_text);
    // A chunk goes out once the next one is read, so that it can take its neighbours along.
    std::shared_ptr<const Chunk> previous, current;
    bool first = true;
    const auto send = [&](std::shared_ptr<const Chunk> next) {
      pool.submit(
          ChunkTask{.order = order++, .first_of_input = first, .previous = previous, .current = current, .next = next},
          take);
      first = false;
      previous = std::move(current);
      current = std::move(next);
    };
    while (auto chunk = reader->next_chunk()) {
      auto next = std::make_shared<const Chunk>(std::move(*chunk));
      if (current) {
        send(std::move(next));
      } else {
        current = std::move(next);
      }
    }
    if (current) send(nullptr);
    if (reader->interrupted()) {
      interrupted = i;
      interrupted_at = reader->bytes_handed_out();
    }
    read[i] = reader->summary();
  }
  pool.finish(take);

  StreamSummary out;
  out.duplicates_windowed = merger.windowed();
  for (uint32_t i = 0; i < paths.size(); ++i) {
    if (!read[i]->ok()) {
      out.inputs.emplace_back(read[i]->error());
      continue;
    }
    InputSummary summary = std::move(merger.parsed(i));
    summary.path = paths[i];
    merge_reader_summary(read[i]->value(), summary);
    if (interrupted == i) {  // said over whatever the cut-short reading left behind
      summary.not_read_in_full =
          Diagnostic{.code = code_name(DiagnosticCode::kInputInterrupted),
                     .message = fmt::format("interrupted by {} at entry {}, byte {}", signal_name(options),
                                            summary.entries + 1, interrupted_at),
                     .byte = static_cast<int64_t>(interrupted_at),
                     .help = "the entries before the interrupt were analysed; run it again to read the rest"};
    }
    if (summary.not_read_in_full && summary.not_read_in_full->file.empty()) summary.not_read_in_full->file = paths[i];
    out.inputs.emplace_back(std::move(summary));
  }
  return out;
}

}  // namespace gpudiag
