// ExportReader: cuts one input into chunks of whole entries, sequentially (cheap compared with
// parsing them). Internal to ingest: the stream (record_stream.cc) drives it.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "chunk.h"
#include "gpudiag/ingest.h"

namespace gpudiag {

class ExportReader {
 public:
  // Fails (exit code 2 material) when the input cannot be opened or is not an export at all (neither
  // JSON nor gcloud's YAML: a gcloud error, an HTML page, a CSV download, anything else).
  // Reading stops, as if the input ended there, once `interrupt` is non-zero (StreamOptions).
  static Result<ExportReader> open(const std::string& path, uint32_t input_index, const ReadLimits& limits = {},
                                   const std::atomic<int>* interrupt = nullptr);
  ExportReader(ExportReader&&) noexcept;
  ExportReader& operator=(ExportReader&&) noexcept;
  ~ExportReader();

  // The next chunk, or nullopt at the end. Problems found while splitting (a truncated tail, a
  // read error, a gzip error) are added to summary() and end the input early.
  std::optional<Chunk> next_chunk();

  // Stopped by the interrupt, before the end of the input: the bytes handed out in chunks.
  bool interrupted() const;
  uint64_t bytes_handed_out() const;

  const InputSummary& summary() const;
  InputSummary& summary();

  // Shown the whole text of every oversized entry (not owned; must outlive the reader).
  void set_long_text_observer(LongTextObserver* observer);

 private:
  struct Impl;
  explicit ExportReader(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace gpudiag
