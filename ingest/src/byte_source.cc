#include "byte_source.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <vector>

#include "gpudiag/diagnostic_codes.h"

namespace gpudiag::detail {
namespace {

Diagnostic io_error(const std::string& path, std::string message, std::string help = {}) {
  return Diagnostic{.code = code_name(DiagnosticCode::kInputUnreadable),
                    .message = std::move(message),
                    .file = path,
                    .help = std::move(help)};
}

// A file descriptor read in large blocks. Stdin is read the same way.
class FdSource final : public ByteSource {
 public:
  FdSource(int fd, bool owned, std::string path, const std::atomic<int>* interrupt)
      : fd_(fd), owned_(owned), path_(std::move(path)), interrupt_(interrupt) {
    struct stat st {};
    if (::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode)) expected_ = static_cast<uint64_t>(st.st_size);
  }
  ~FdSource() override {
    if (owned_) ::close(fd_);
  }
  FdSource(const FdSource&) = delete;
  FdSource& operator=(const FdSource&) = delete;

  Result<size_t> read(char* out, size_t n) override {
    size_t got = 0;
    while (got < n) {  // big blocks: a pipe delivers in pieces, a file all at once
      const ssize_t r = ::read(fd_, out + got, n - got);
      if (r < 0) {
        if (errno == EINTR && interrupt_raised(interrupt_)) return got;  // the caller stops
        if (errno == EINTR) continue;
        return io_error(path_, fmt::format("read failed: {}", std::strerror(errno)));
      }
      if (r == 0) break;
      got += static_cast<size_t>(r);
    }
    total_ += got;
    if (got == 0 && expected_ && total_ < *expected_) {
      // A regular file that ends before the size it had when opened was cut while being read.
      return Diagnostic{.code = code_name(DiagnosticCode::kInputChanged),
                        .message = input_changed_message(total_, *expected_),
                        .file = path_,
                        .byte = static_cast<int64_t>(total_),
                        .help = "the entries before that point were analysed; read a copy that no one is writing"};
    }
    return got;
  }

 private:
  int fd_;
  bool owned_;
  std::string path_;
  std::optional<uint64_t> expected_;  // a regular file's size when opened
  uint64_t total_ = 0;
  const std::atomic<int>* interrupt_;
};

// gzip (one or more members, as `cat a.gz b.gz` makes) through zlib, with bomb guards.
class GzipSource final : public ByteSource {
 public:
  GzipSource(std::unique_ptr<ByteSource> inner, std::string path, const ReadLimits& limits,
             std::vector<char> already_read, const std::atomic<int>* interrupt)
      : inner_(std::move(inner)), path_(std::move(path)), limits_(limits), in_(1u << 20), interrupt_(interrupt) {
    std::memset(&zs_, 0, sizeof zs_);
    inflateInit2(&zs_, 16 + MAX_WBITS);
    pending_ = std::move(already_read);
  }
  ~GzipSource() override { inflateEnd(&zs_); }
  GzipSource(const GzipSource&) = delete;
  GzipSource& operator=(const GzipSource&) = delete;

  bool is_gzip() const override { return true; }

  Result<size_t> read(char* out, size_t n) override {
    if (error_) return take_error();
    size_t produced = 0;
    while (produced < n && !done_ && !interrupt_raised(interrupt_)) {
      if (auto problem = inflate_some(out + produced, n - produced, produced)) {
        error_ = std::move(problem);
        break;
      }
    }
    // Hand over what was decompressed before a problem; the problem comes with the next call.
    if (produced == 0 && error_) return take_error();
    return produced;
  }

 private:
  Diagnostic make_error(std::string code, std::string message, std::string help = {}) const {
    return Diagnostic{.code = std::move(code),
                      .message = std::move(message),
                      .file = path_,
                      .byte = static_cast<int64_t>(decompressed_),
                      .help = std::move(help)};
  }

  Diagnostic take_error() {
    Diagnostic d = std::move(*error_);
    error_.reset();
    done_ = true;
    return d;
  }

  // Fills the input buffer if needed and inflates once. Returns a problem, or nullopt.
  std::optional<Diagnostic> inflate_some(char* out, size_t room, size_t& produced) {
    if (zs_.avail_in == 0) {
      if (!pending_.empty()) {
        std::memcpy(in_.data(), pending_.data(), pending_.size());
        zs_.avail_in = static_cast<uInt>(pending_.size());
        pending_.clear();
      } else {
        auto got = inner_->read(in_.data(), in_.size());
        if (!got) return got.error();
        if (*got == 0 && interrupt_raised(interrupt_)) return std::nullopt;  // not the end: the caller stops
        if (*got == 0) {
          done_ = true;
          if (stream_ended_) return std::nullopt;
          return make_error(code_name(DiagnosticCode::kGzipTruncated),
                            fmt::format("gzip stream ends early after {} compressed bytes", compressed_),
                            "the file was cut off; the entries before the cut were analysed");
        }
        zs_.avail_in = static_cast<uInt>(*got);
      }
      zs_.next_in = reinterpret_cast<Bytef*>(in_.data());
      compressed_ += zs_.avail_in;
      if (stream_ended_) {
        // Another gzip member follows (concatenated .gz files) — or trailing garbage.
        if (zs_.avail_in >= 2 && static_cast<unsigned char>(in_[0]) == 0x1f &&
            static_cast<unsigned char>(in_[1]) == 0x8b) {
          inflateReset(&zs_);
          stream_ended_ = false;
        } else {
          return make_error(code_name(DiagnosticCode::kGzipTrailingData),
                            "data after the end of the gzip stream was ignored");
        }
      }
    }
    zs_.next_out = reinterpret_cast<Bytef*>(out);
    zs_.avail_out = static_cast<uInt>(room);
    const int rc = inflate(&zs_, Z_NO_FLUSH);
    const size_t made = room - zs_.avail_out;
    produced += made;
    decompressed_ += made;
    if (rc == Z_STREAM_END) {
      stream_ended_ = true;
      // Bytes left in the input buffer belong to the next member (or are garbage).
      if (zs_.avail_in > 0) {
        pending_.assign(reinterpret_cast<char*>(zs_.next_in), reinterpret_cast<char*>(zs_.next_in) + zs_.avail_in);
        compressed_ -= zs_.avail_in;
        zs_.avail_in = 0;
      }
    } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
      return make_error(code_name(DiagnosticCode::kGzipCorrupt),
                        fmt::format("gzip data is corrupt ({})", zs_.msg ? zs_.msg : "inflate error"),
                        "the entries before the damage were analysed");
    }
    if (decompressed_ > limits_.max_decompressed_bytes) {
      return make_error(code_name(DiagnosticCode::kGzipTooLarge),
                        fmt::format("gzip input expands beyond {} bytes", limits_.max_decompressed_bytes),
                        "a gzip bomb, or an export too large for one run: split it");
    }
    if (decompressed_ > (64ull << 20) && decompressed_ / std::max<uint64_t>(compressed_, 1) > limits_.max_gzip_ratio) {
      return make_error(code_name(DiagnosticCode::kGzipBomb),
                        fmt::format("gzip input expands more than {}:1 ({} bytes from {})", limits_.max_gzip_ratio,
                                    decompressed_, compressed_),
                        "real log exports compress about 10:1; this looks like a gzip bomb");
    }
    return std::nullopt;
  }

  std::unique_ptr<ByteSource> inner_;
  std::string path_;
  ReadLimits limits_;
  std::vector<char> in_;
  std::vector<char> pending_;
  z_stream zs_;
  uint64_t compressed_ = 0;
  uint64_t decompressed_ = 0;
  bool stream_ended_ = false;
  bool done_ = false;
  std::optional<Diagnostic> error_;
  const std::atomic<int>* interrupt_;
};

}  // namespace

std::string input_changed_message(uint64_t offset, std::optional<uint64_t> size_when_opened) {
  const std::string of = size_when_opened ? fmt::format(", of the {} it had when opened", *size_when_opened) : "";
  return fmt::format("the input changed while it was read: its bytes from {} on were gone{} (truncated or rewritten)",
                     offset, of);
}

Result<std::unique_ptr<ByteSource>> open_byte_source(const std::string& path, const ReadLimits& limits,
                                                     const std::atomic<int>* interrupt) {
  int fd = 0;
  bool owned = false;
  if (path != "-") {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
      return io_error(path, fmt::format("cannot open: {}", std::strerror(errno)),
                      errno == ENOENT ? "check the path; use - to read stdin" : "");
    }
    if (S_ISDIR(st.st_mode)) {
      return io_error(path, "is a directory, not an export file", "pass the export files inside it, e.g. DIR/*.json");
    }
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return io_error(path, fmt::format("cannot open: {}", std::strerror(errno)));
    owned = true;
#ifdef POSIX_FADV_SEQUENTIAL
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  }
  auto raw = std::make_unique<FdSource>(fd, owned, path, interrupt);
  // Peek at the magic bytes; whatever was read is handed on so stdin works too.
  std::vector<char> head(2);
  size_t got = 0;
  while (got < 2) {
    auto r = raw->read(head.data() + got, 2 - got);
    if (!r) return r.error();
    if (*r == 0) break;
    got += *r;
  }
  head.resize(got);
  const bool gzip =
      got == 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b;
  if (gzip) {
    return std::unique_ptr<ByteSource>(
        std::make_unique<GzipSource>(std::move(raw), path, limits, std::move(head), interrupt));
  }
  // Not gzip: put the peeked bytes back in front of the descriptor.
  class Prefixed final : public ByteSource {
   public:
    Prefixed(std::unique_ptr<ByteSource> inner, std::vector<char> prefix)
        : inner_(std::move(inner)), prefix_(std::move(prefix)) {}
    Result<size_t> read(char* out, size_t n) override {
      if (pos_ < prefix_.size()) {
        const size_t take = std::min(n, prefix_.size() - pos_);
        std::memcpy(out, prefix_.data() + pos_, take);
        pos_ += take;
        if (take == n) return take;
        auto more = inner_->read(out + take, n - take);
        if (!more) return more.error();
        return take + *more;
      }
      return inner_->read(out, n);
    }

   private:
    std::unique_ptr<ByteSource> inner_;
    std::vector<char> prefix_;
    size_t pos_ = 0;
  };
  return std::unique_ptr<ByteSource>(std::make_unique<Prefixed>(std::move(raw), std::move(head)));
}

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path) {
  if (path == "-") return nullptr;
  // Only a regular file is opened here: opening a FIFO (then closing it) would take its writer's
  // first bytes, or end it with SIGPIPE, before open_byte_source reads it as the stream it is.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return nullptr;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return nullptr;
  void* map = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    map = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  }
  ::close(fd);  // the mapping keeps the file
  if (map == MAP_FAILED) return nullptr;
  const size_t size = static_cast<size_t>(st.st_size);
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  ::madvise(map, size, MADV_SEQUENTIAL);
  std::shared_ptr<MappedFile> file(
      new MappedFile(static_cast<const char*>(map), size, (size + page - 1) / page * page));
  // Unguarded, a file truncated while mapped would crash the run: read it instead.
  if (!file->guard_.watch(file->data_, file->readable_)) return nullptr;
  return file;
}

MappedFile::~MappedFile() {
  guard_.unwatch();
  ::munmap(const_cast<char*>(data_), size_);
}

void MappedFile::release(size_t begin, size_t end) {
  std::lock_guard lock(mutex_);
  released_[begin] = end;
  for (auto it = released_.find(watermark_); it != released_.end(); it = released_.find(watermark_)) {
    watermark_ = it->second;
    released_.erase(it);
  }
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t upto = watermark_ / page * page;
  if (upto > dropped_) {
    ::madvise(const_cast<char*>(data_) + dropped_, upto - dropped_, MADV_DONTNEED);
    dropped_ = upto;
  }
  // A range of whole pages goes at once, whatever is still held before it: the stream keeps the
  // chunk before the one being read (for its neighbours), and the watermark alone would keep an
  // oversized entry streamed past it resident whole. Only pages wholly inside the range: nothing
  // else reads them (and a page dropped too early would only be read again from the file).
  const size_t first = (begin + page - 1) / page * page, last = end / page * page;
  if (first >= dropped_ && last > first && last - first >= kDropAtOnce) {
    ::madvise(const_cast<char*>(data_) + first, last - first, MADV_DONTNEED);
  }
}

}  // namespace gpudiag::detail
