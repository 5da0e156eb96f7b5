// Where an input's bytes come from: a file or stdin, read in large blocks, optionally through zlib.
// Internal to ingest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "gpudiag/ingest.h"
#include "gpudiag/result.h"

namespace gpudiag::detail {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to `n` bytes into `out`. Returns the count (0 = end of input) or a diagnostic.
  virtual Result<size_t> read(char* out, size_t n) = 0;
  virtual bool is_gzip() const { return false; }
};

// Opens `path` ("-" = stdin). Detects gzip by its magic bytes and wraps the file in a decompressor.
Result<std::unique_ptr<ByteSource>> open_byte_source(const std::string& path, const ReadLimits& limits);

}  // namespace gpudiag::detail
