// Where an input's bytes come from: a file or stdin, read in large blocks, optionally through zlib.
// Internal to ingest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "gpudiag/ingest.h"
#include "gpudiag/result.h"
#include "mapping_guard.h"

namespace gpudiag::detail {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  // Reads up to `n` bytes into `out`. Returns the count (0 = end of input) or a diagnostic.
  virtual Result<size_t> read(char* out, size_t n) = 0;
  virtual bool is_gzip() const { return false; }
};

// "the input changed while it was read …", for a file that shrank at `offset`.
std::string input_changed_message(uint64_t offset, std::optional<uint64_t> size_when_opened);

// Whether StreamOptions::interrupt (may be null) has been raised: reading stops there.
inline bool interrupt_raised(const std::atomic<int>* flag) { return flag != nullptr && flag->load() != 0; }

// Opens `path` ("-" = stdin). Detects gzip by its magic bytes and wraps the file in a decompressor.
// A read blocked on a pipe returns what it has once `interrupt` is non-zero (the caller checks it:
// such a short read is not the end of the input).
Result<std::unique_ptr<ByteSource>> open_byte_source(const std::string& path, const ReadLimits& limits,
                                                     const std::atomic<int>* interrupt = nullptr);

}  // namespace gpudiag::detail

namespace gpudiag::detail {

// A regular file mapped into memory: chunks point straight into it (no copy from the page cache),
// and pages behind the last chunk still in use are given back, so resident memory stays bounded
// however large the file.
class MappedFile {
 public:
  // nullptr when the file cannot be mapped (not a regular file, empty, or mmap refused): the
  // caller reads it instead.
  static std::shared_ptr<MappedFile> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const { return data_; }
  size_t size() const { return size_; }
  size_t readable() const { return readable_; }  // size rounded up to whole pages (zero-filled)

  // A chunk over [begin, end) is done with; thread-safe.
  void release(size_t begin, size_t end);

  // The first offset that vanished because the file shrank while mapped (-1: none so far). The
  // pointer stays valid while the MappedFile lives.
  const std::atomic<int64_t>* vanished_at() const { return guard_.vanished_at_flag(); }

 private:
  MappedFile(const char* data, size_t size, size_t readable) : data_(data), size_(size), readable_(readable) {}
  const char* data_;
  size_t size_;
  size_t readable_;
  std::mutex mutex_;
  // See release(); well under a chunk (ReadLimits::chunk_bytes), so that a streamed piece of one
  // oversized entry is dropped whole.
  static constexpr size_t kDropAtOnce = size_t{64} << 10;
  std::map<size_t, size_t> released_;  // begin → end, above the watermark
  size_t watermark_ = 0;               // everything below is released
  size_t dropped_ = 0;                 // pages below this were handed back
  MappingGuard guard_;
};

}  // namespace gpudiag::detail
