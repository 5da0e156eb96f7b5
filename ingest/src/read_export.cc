#include "gpudiag/ingest.h"

namespace gpudiag {

Result<InputSummary> read_export(const std::string& path, const std::function<void(const LogRecord&)>& on_record,
                                 const ReadLimits& limits) {
  auto reader = ExportReader::open(path, 0, limits);
  if (!reader) return reader.error();
  ChunkParser parser;
  uint64_t lines = 0;
  uint64_t analysed = 0;
  uint64_t skipped = 0;
  uint64_t entries = 0;
  std::vector<InputProblem> problems;
  std::string changed;
  while (auto chunk = reader->next_chunk()) {
    lines += chunk->newlines_before;
    const uint64_t base_line = lines + 1;
    ChunkReport report = parser.parse(*chunk, [&](const LogRecord& r, size_t) {
      LogRecord absolute = r;
      absolute.where.line = base_line + r.where.line;
      ++analysed;
      on_record(absolute);
    });
    entries += report.entries;
    for (auto& p : report.problems) {
      if (p.skipped_entry) ++skipped;
      problems.push_back(to_input_problem(std::move(p), *chunk, base_line));
    }
    lines += report.newlines;
    if (!report.input_changed.empty()) changed = report.input_changed;
  }
  InputSummary summary = reader->summary();
  if (!changed.empty() && summary.aborted.empty()) summary.aborted = changed;
  summary.entries += entries;
  summary.analysed += analysed;
  summary.skipped += skipped;
  for (auto& p : problems) summary.add_problem(std::move(p));
  return summary;
}

}  // namespace gpudiag
