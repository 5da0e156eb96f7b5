// ExportReader: detects an input's shape from its first bytes and cuts it into chunks of whole
// entries (YAML: of whole documents). It never parses entries; ChunkParser does, possibly on other
// threads.
#include "export_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "byte_source.h"
#include "entry_splitter.h"
#include "gpudiag/diagnostic_codes.h"
#include "input_kind.h"
#include "oversize_entry.h"

namespace gpudiag {
namespace {

constexpr size_t kPadding = 64;  // simdjson::SIMDJSON_PADDING, without its header here
constexpr size_t kDetectLimit = 16u << 20;
constexpr size_t kSniffBytes = 64u << 10;  // what an input that is not JSON is known by
// A YAML document is read whole (yaml-cpp's parser keeps some 50 bytes per node it has seen): one
// larger than this, or than --max-entry-bytes, is skipped. A LogEntry is at most 256 KB
// (cloud.google.com/logging/quotas), and gcloud's YAML of one is about its JSON's size.
constexpr uint64_t kMaxYamlDocumentBytes = 1u << 20;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

std::string_view describe_first_char(char c) {
  if (c == '"') return "a string";
  if ((c >= '0' && c <= '9') || c == '-') return "a number";
  if (c == 't' || c == 'f') return "a boolean";
  if (c == 'n') return "null";
  return "not JSON";
}

}  // namespace

void InputSummary::add_problem(InputProblem p) {
  ++problems_total;
  if (problems.size() < kMaxKept) problems.push_back(std::move(p));
}

// A growable byte buffer with simdjson's padding after its end; chunks take it over whole.
struct Buffer {
  std::shared_ptr<char[]> data;
  size_t size = 0;
  size_t capacity = 0;  // excluding the padding

  explicit Buffer(size_t cap = 0) { reserve(cap); }
  void reserve(size_t cap) {
    if (cap <= capacity && data) return;
    std::shared_ptr<char[]> bigger(new char[cap + kPadding]);
    if (size > 0) std::memcpy(bigger.get(), data.get(), size);
    data = std::move(bigger);
    capacity = cap;
  }
  char* begin() const { return data.get(); }
  char* end() const { return data.get() + size; }
};

struct ExportReader::Impl {
  std::unique_ptr<detail::ByteSource> source;  // read mode: a file, stdin or gzip
  std::shared_ptr<detail::MappedFile> mapped;  // mapped mode: a regular file, zero-copy
  ReadLimits limits;
  InputSummary summary;
  Chunk shape;                    // the fields every chunk of this input shares
  Buffer buf;                     // bytes read and not yet handed out in a chunk (mapped: only size)
  uint64_t buf_offset = 0;        // absolute offset of the first byte not yet in a chunk
  uint64_t pending_newlines = 0;  // dropped newlines to report on the next chunk
  uint64_t sequence = 0;
  bool eof = false;
  bool finished = false;
  detail::StructuralScanner scanner{0};
  size_t scanned = 0;  // bytes of buf the structural scanner has already seen
  LongTextObserver* long_text_observer = nullptr;
  const std::atomic<int>* interrupt = nullptr;
  bool interrupted = false;  // stopped by `interrupt`: nothing after buf_offset is handed out

  // The bytes not yet handed out: the read buffer, or the mapped file from buf_offset on.
  const char* window() const { return mapped ? mapped->data() + buf_offset : buf.begin(); }

  // Makes `want` bytes available (or all that is left). A read error ends the input.
  void fill(size_t want) {
    if (detail::interrupt_raised(interrupt)) {  // no read past the interrupt: a blocked pipe would block again
      interrupted = eof = true;
      return;
    }
    if (mapped) {  // the window only grows, as a read buffer would
      buf.size = std::max<size_t>(buf.size, std::min<size_t>(want, mapped->size() - buf_offset));
      eof = buf_offset + buf.size >= mapped->size();
      summary.bytes = std::max<uint64_t>(summary.bytes, buf_offset + buf.size);
      return;
    }
    buf.reserve(want);
    while (!eof && buf.size < want) {
      auto got = source->read(buf.end(), want - buf.size);
      if (!got) {
        eof = true;
        const Diagnostic& d = got.error();
        const std::string message = d.message + (d.help.empty() ? "" : "; " + d.help);
        summary.add_problem(InputProblem{.line = 0, .offset = d.byte, .skipped_entry = false, .message = message});
        // Data after the end of a whole gzip stream is only noted: every entry of the stream was
        // read. Anything else — a read error, a gzip stream cut or damaged, a bomb — means the input
        // was not read in full, though the entries before it were (and are analysed).
        if (d.code != code_name(DiagnosticCode::kGzipTrailingData)) {
          summary.not_read_in_full = d;
          if (d.code == code_name(DiagnosticCode::kGzipTruncated) ||
              d.code == code_name(DiagnosticCode::kGzipCorrupt)) {
            summary.not_read_in_full->help = std::string(detail::kCutExportHelp);
          } else {
            summary.not_read_in_full->code = code_name(DiagnosticCode::kInputAborted);
            summary.not_read_in_full->message = message;
            summary.not_read_in_full->help = "the entries read before this point were analysed";
          }
        }
        return;
      }
      buf.size += *got;
      summary.bytes += *got;
      if (detail::interrupt_raised(interrupt)) {  // a short read, not the end
        interrupted = eof = true;
        return;
      }
      if (*got == 0) eof = true;
    }
  }

  // Drops the first `n` bytes of the window.
  void consume(size_t n) {
    if (mapped) {
      if (n > 0) mapped->release(buf_offset, buf_offset + n);
    } else {
      std::memmove(buf.begin(), buf.begin() + n, buf.size - n);
    }
    buf.size -= n;
    buf_offset += n;
    scanned = scanned > n ? scanned - n : 0;
  }

  // Mapped mode: the chunk points into the mapping (the last one, too close to the end of the
  // mapped pages for simdjson's padding, is copied), and gives its pages back when released.
  void hand_out_mapped(Chunk& chunk, size_t cut) {
    const size_t begin = buf_offset, end = buf_offset + cut;
    if (cut + kPadding <= mapped->readable() - begin) {
      chunk.buffer = std::shared_ptr<const char[]>(mapped->data() + begin,
                                                   [m = mapped, begin, end](const char*) { m->release(begin, end); });
      chunk.capacity = mapped->readable() - begin;
    } else {
      std::shared_ptr<char[]> copy(new char[cut + kPadding]);
      std::memcpy(copy.get(), mapped->data() + begin, cut);
      std::memset(copy.get() + cut, ' ', kPadding);
      mapped->release(begin, end);
      chunk.buffer = std::move(copy);
      chunk.capacity = cut + kPadding;
    }
    buf.size -= cut;
  }

  Status detect(const std::string& path);
  // The most bytes one entry may take in a chunk: larger ones are streamed (JSON) or skipped (YAML).
  uint64_t entry_limit() const {
    return shape.shape == ExportShape::kYaml ? std::min(limits.max_entry_bytes, kMaxYamlDocumentBytes)
                                             : limits.max_entry_bytes;
  }
  std::optional<Chunk> next();
  void drop_oversized_yaml_document();
  std::optional<Chunk> stream_oversized_entry();
  Chunk hand_out(size_t cut);  // the first `cut` bytes of the window, a chunk of whole entries
  void drop_oversized_entry();
  void drop_oversized_entry_rest();
};

Status ExportReader::Impl::detect(const std::string& path) {
  fill(limits.chunk_bytes);
  const char* data = window();
  size_t size = buf.size;
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(data[i]); };
  if (size >= 2 && ((byte(0) == 0xFF && byte(1) == 0xFE) || (byte(0) == 0xFE && byte(1) == 0xFF) ||
                    (byte(0) != 0 && byte(1) == 0) || (byte(0) == 0 && byte(1) != 0))) {
    return Diagnostic{.code = code_name(DiagnosticCode::kInputUtf16),
                      .message = "the input is UTF-16 (or starts with NUL bytes), not UTF-8 JSON",
                      .file = path,
                      .byte = 0,
                      .help = "convert it first: iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8.json"};
  }
  if (size >= 3 && byte(0) == 0xEF && byte(1) == 0xBB && byte(2) == 0xBF) {
    consume(3);
    data = window();
    size = buf.size;
    summary.add_problem(
        {.line = 1, .offset = 0, .skipped_entry = false, .message = "a UTF-8 byte-order mark was skipped"});
  }
  size_t pos = 0;
  for (;;) {
    while (pos < size && is_blank(data[pos])) ++pos;
    if (pos < size || eof) break;
    // A window of nothing but whitespace: drop it, counting its lines, and read on. Memory stays
    // one window however much whitespace leads the entries.
    pending_newlines += static_cast<uint64_t>(std::count(data, data + pos, '\n'));
    consume(pos);
    fill(limits.chunk_bytes);
    data = window();
    size = buf.size;
    pos = 0;
  }
  if (pos == size) {
    finished = true;  // empty or blank: no entries, which the summary shows
    summary.add_problem({.line = 0,
                         .offset = 0,
                         .skipped_entry = false,
                         .message = buf_offset + size == 0 ? "the input is empty: no entries"
                                                           : "the input holds only whitespace: no entries"});
    return Ok{};
  }
  const char first = data[pos];
  if (first != '[' && first != '{') {
    // What is not JSON is told by its first lines: the same 64 KiB of them whatever the read window,
    // from the start of the first line that is not blank (its indentation is YAML's).
    const size_t newline = std::string_view(data, pos).rfind('\n');
    const size_t drop = newline == std::string_view::npos ? 0 : newline + 1;  // the blank lines before it
    pending_newlines += static_cast<uint64_t>(std::count(data, data + drop, '\n'));
    consume(drop);
    pos -= drop;
    fill(std::max<size_t>(limits.chunk_bytes, kSniffBytes));
    data = window();
    size = buf.size;
    const uint64_t line = 1 + pending_newlines;
    const std::string_view head(data + pos, std::min<size_t>(size - pos, kSniffBytes));
    if (auto refused = detail::saved_in_place_of_export(head, path, line, static_cast<int64_t>(buf_offset + pos))) {
      return *refused;
    }
    // gcloud logging read without --format=json
    if (detail::starts_like_yaml_export(head)) {
      shape.shape = ExportShape::kYaml;
      return Ok{};
    }
    return Diagnostic{
        .code = code_name(DiagnosticCode::kInputNotJson),
        .message = fmt::format("expected a JSON array or objects of log entries, found {}", describe_first_char(first)),
        .file = path,
        .line = line,
        .byte = static_cast<int64_t>(buf_offset + pos),
        .help =
            "export with `gcloud logging read … --format=json` (or its default YAML), or pass a Cloud Storage "
            "sink shard"};
  }

  // Where does the first entry open, and where does it close?
  size_t open = pos;
  shape.shape = first == '[' ? ExportShape::kArray : ExportShape::kNdjson;
  if (first == '[') {
    open = pos + 1;
    while (open < buf.size && is_blank(window()[open])) ++open;
    if (open == buf.size || window()[open] != '{') {
      scanner = detail::StructuralScanner(1);
      return Ok{};  // empty array, or compact: the structural scanner handles both
    }
  }
  size_t close = 0;
  for (;;) {
    // The first entry is all detection needs; look at a bounded prefix, wider only if it is huge.
    detail::StructuralScanner probe(0);
    const size_t window = std::min<size_t>(buf.size - open, std::max<size_t>(64 << 10, buf.size / 4));
    probe.scan(this->window() + open, window, [&](size_t e) {
      if (close == 0) close = open + e;
    });
    if (close == 0 && window < buf.size - open) {
      probe.scan(this->window() + open + window, buf.size - open - window, [&](size_t e) {
        if (close == 0) close = open + window + e;
      });
    }
    if (close != 0 || eof || buf.size >= kDetectLimit) break;
    fill(buf.size * 2);
  }
  data = window();
  const auto line_start = [&](size_t at) {
    size_t s = at;
    while (s > 0 && data[s - 1] != '\n') --s;
    return s;
  };
  if (first == '{') {
    if (close != 0 && std::find(data + open, data + close, '\n') == data + close) {
      shape.shape = ExportShape::kNdjson;  // the first entry fits on its line
      return Ok{};
    }
    shape.shape = ExportShape::kSequence;
  }
  // Pretty-printed when the opening brace ends its line and the closing brace starts one at the
  // same indentation.
  const size_t open_line = line_start(open);
  const uint32_t indent = static_cast<uint32_t>(open - open_line);
  bool pretty = close != 0 && std::all_of(data + open_line, data + open, [](char c) { return c == ' '; });
  if (pretty) {
    size_t after = open + 1;
    while (after < buf.size && (data[after] == ' ' || data[after] == '\t' || data[after] == '\r')) ++after;
    pretty = after < buf.size && data[after] == '\n';
  }
  if (pretty) {
    const size_t brace = close - 1;
    const size_t close_line = line_start(brace);
    size_t close_end = brace + 1;
    while (close_end < buf.size && data[close_end] != '\n') ++close_end;
    pretty = brace - close_line == indent && detail::is_close_line(data + close_line, close_end - close_line, indent);
  }
  shape.pretty = pretty;
  shape.close_indent = indent;
  scanner = detail::StructuralScanner(shape.shape == ExportShape::kArray ? 1 : 0);
  return Ok{};
}

void ExportReader::Impl::drop_oversized_entry() {
  // The entry at buf[0] is larger than the limit and not an object that can be streamed: report
  // it, then throw bytes away until the next entry boundary.
  summary.add_problem({.line = 0,
                       .offset = static_cast<int64_t>(buf_offset),
                       .skipped_entry = true,
                       .message = fmt::format("an entry larger than {} bytes that is not a JSON object was skipped "
                                              "(byte {})",
                                              limits.max_entry_bytes, buf_offset)});
  ++summary.entries;
  ++summary.skipped;
  drop_oversized_entry_rest();
}

void ExportReader::Impl::drop_oversized_entry_rest() {
  // Bytes are thrown away until the next entry boundary, counting newlines so that later line
  // numbers stay right.
  // The structural scanner has seen all of buf already; line-based modes need a line's tail kept.
  const bool structural = shape.shape != ExportShape::kNdjson && !shape.pretty;
  for (;;) {
    const size_t from = structural ? scanned : 0;
    detail::StructuralScanner& sc = scanner;
    const size_t first = detail::find_first_boundary(window() + from, buf.size - from, shape, sc);
    if (first > 0) {
      const size_t cut = from + first;
      pending_newlines += static_cast<uint64_t>(std::count(window(), window() + cut, '\n'));
      scanned = buf.size;
      consume(cut);
      return;
    }
    if (eof) {
      pending_newlines += static_cast<uint64_t>(std::count(window(), window() + buf.size, '\n'));
      consume(buf.size);
      return;
    }
    // Keep a short tail (a close line may straddle reads); drop the rest.
    const size_t keep = structural ? 0 : std::min<size_t>(buf.size, 256);
    const size_t drop = buf.size - keep;
    pending_newlines += static_cast<uint64_t>(std::count(window(), window() + drop, '\n'));
    scanned = buf.size;
    consume(drop);
    fill(buf.size + limits.chunk_bytes);
  }
}

std::optional<Chunk> ExportReader::Impl::stream_oversized_entry() {
  // What may come before an entry where the last chunk was cut: blanks, a separator, the array's
  // opening bracket.
  const char* data = window();
  size_t pos = 0;
  uint64_t lead_newlines = 0;
  while (pos < buf.size &&
         (is_blank(data[pos]) || data[pos] == ',' || (data[pos] == '[' && shape.shape == ExportShape::kArray))) {
    if (data[pos] == '\n') ++lead_newlines;
    ++pos;
  }
  if (pos == buf.size || data[pos] != '{') {
    drop_oversized_entry();
    return std::nullopt;
  }
  const uint64_t entry_offset = buf_offset + pos;
  consume(pos);
  pending_newlines += lead_newlines;
  detail::OversizeEntry entry(detail::OversizeCaps::for_limit(limits.max_entry_bytes), long_text_observer);
  if (long_text_observer != nullptr) long_text_observer->start_entry();
  for (;;) {
    consume(entry.feed(window(), buf.size));
    if (entry.done() || entry.failed() || eof) break;
    fill(limits.chunk_bytes);
  }
  std::shared_ptr<const LongTextFindings> found;
  if (long_text_observer != nullptr) found = long_text_observer->finish_entry();
  if (!entry.done()) {
    // Cut off by the end of the input, or not JSON the tokenizer can follow: lost, and said so.
    pending_newlines += entry.newlines();
    summary.add_problem(
        {.line = 0,
         .offset = static_cast<int64_t>(entry_offset),
         .skipped_entry = true,
         .message = entry.failed()
                        ? fmt::format("an entry larger than {} bytes is not valid JSON; skipped (byte {})",
                                      limits.max_entry_bytes, entry_offset)
                        : fmt::format("the input ends inside an entry larger than {} bytes (a truncated export?); "
                                      "skipped (byte {})",
                                      limits.max_entry_bytes, entry_offset)});
    ++summary.entries;
    ++summary.skipped;
    if (!entry.failed() && !summary.not_read_in_full) {
      summary.not_read_in_full = detail::last_entry_cut(entry_offset);
    }
    if (entry.failed() && !eof) drop_oversized_entry_rest();
    return std::nullopt;
  }
  // The structure after the entry is read afresh.
  const bool array = shape.shape == ExportShape::kArray;
  scanner = detail::StructuralScanner(array ? 1 : 0, array ? 1 : 0);
  scanned = 0;
  Chunk chunk = shape;
  chunk.shape = ExportShape::kNdjson;  // the crop is one line
  chunk.pretty = false;
  chunk.sequence = sequence++;
  chunk.base_offset = entry_offset;
  chunk.newlines_before = pending_newlines;
  pending_newlines = entry.newlines();
  const std::string& compact = entry.compact();
  std::shared_ptr<char[]> copy(new char[compact.size() + kPadding]);
  std::memcpy(copy.get(), compact.data(), compact.size());
  std::memset(copy.get() + compact.size(), ' ', kPadding);
  chunk.buffer = std::move(copy);
  chunk.size = compact.size();
  chunk.capacity = compact.size() + kPadding;
  chunk.long_text = std::move(found);
  chunk.notes.push_back(fmt::format(
      "an entry of {} bytes (over --max-entry-bytes {}) was matched over its whole length and kept cropped: {}",
      entry.bytes(), limits.max_entry_bytes,
      entry.crops().empty() ? std::string("no long text") : fmt::format("{}", fmt::join(entry.crops(), "; "))));
  chunk.ends_input = eof && buf.size == 0 && !interrupted;
  if (eof && buf.size == 0) finished = true;
  return chunk;
}

std::optional<Chunk> ExportReader::Impl::next() {
  size_t target = limits.chunk_bytes;
  for (;;) {
    if (finished) return std::nullopt;
    fill(target);
    if (interrupted) {  // the whole entries read go out; the rest is left unread, as the stream says
      finished = true;
      const size_t cut = detail::find_cut(window(), buf.size, shape, scanner, scanned);
      if (cut == 0) return std::nullopt;
      return hand_out(cut);
    }
    if (buf.size == 0 && eof) {
      finished = true;
      return std::nullopt;
    }
    // A chunk holds at most entry_limit() bytes, so no entry larger than that is parsed whole: one
    // that does not end within them is streamed (a YAML document: skipped).
    const uint64_t limit = entry_limit();
    const size_t scan = std::max(scanned, std::min<size_t>(buf.size, limit));
    size_t cut = eof && buf.size <= limit ? buf.size : detail::find_cut(window(), scan, shape, scanner, scanned);
    if (cut == 0) {
      if (buf.size >= limit) {
        if (shape.shape == ExportShape::kYaml) {
          drop_oversized_yaml_document();
          target = limits.chunk_bytes;
          continue;
        }
        if (auto crop = stream_oversized_entry()) return crop;
        target = limits.chunk_bytes;
        continue;
      }
      target = std::max<size_t>(target * 2, buf.size + limits.chunk_bytes);  // one big entry
      continue;
    }
    return hand_out(cut);
  }
}

void ExportReader::Impl::drop_oversized_yaml_document() {
  // The document at the window's start is larger than the limit: throw its lines away up to the
  // next document marker line, counting them so that later lines stay right. The window always
  // starts at a line's start, but for the part of a line longer than the window.
  const uint64_t at = buf_offset;
  summary.add_problem({.line = 0,
                       .offset = static_cast<int64_t>(at),
                       .skipped_entry = true,
                       .message = fmt::format("a YAML document larger than {} bytes was skipped (byte {}); a "
                                              "LogEntry is at most 256 KB, and a JSON export's entries of any size "
                                              "are read (--format=json)",
                                              entry_limit(), at)});
  ++summary.entries;
  ++summary.skipped;
  bool line_start = false;  // the window's first line is the document's own marker or first line
  for (;;) {
    const char* data = window();
    size_t pos = 0;
    for (;;) {
      const void* nl = std::memchr(data + pos, '\n', buf.size - pos);
      if (nl == nullptr) break;
      const size_t end = static_cast<size_t>(static_cast<const char*>(nl) - data);
      if (line_start && detail::is_document_separator(data + pos, end - pos)) {
        consume(pos);
        scanned = 0;
        return;
      }
      line_start = true;
      ++pending_newlines;
      pos = end + 1;
    }
    if (eof) {
      consume(buf.size);
      return;
    }
    if (pos == 0 && buf.size >= limits.chunk_bytes) {  // a line longer than the window: its part goes
      consume(buf.size);
      line_start = false;
    } else {
      consume(pos);
    }
    fill(buf.size + limits.chunk_bytes);
  }
}

Chunk ExportReader::Impl::hand_out(size_t cut) {
  Chunk chunk = shape;
  chunk.sequence = sequence++;
  chunk.base_offset = buf_offset;
  chunk.newlines_before = pending_newlines;
  pending_newlines = 0;
  chunk.size = cut;
  if (mapped) {
    hand_out_mapped(chunk, cut);
  } else {
    chunk.capacity = buf.capacity + kPadding;
    // The chunk takes the buffer; what follows the cut moves to a fresh one.
    Buffer rest(std::max<size_t>(limits.chunk_bytes, buf.size - cut));
    rest.size = buf.size - cut;
    std::memcpy(rest.begin(), buf.begin() + cut, rest.size);
    std::memset(buf.begin() + cut, ' ', kPadding);
    chunk.buffer = std::move(buf.data);
    buf = std::move(rest);
  }
  buf_offset += cut;
  scanned = scanned > cut ? scanned - cut : 0;
  chunk.ends_input = eof && buf.size == 0 && !interrupted;
  if (eof && buf.size == 0) finished = true;
  return chunk;
}

ExportReader::ExportReader(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ExportReader::ExportReader(ExportReader&&) noexcept = default;
ExportReader& ExportReader::operator=(ExportReader&&) noexcept = default;
ExportReader::~ExportReader() = default;

Result<ExportReader> ExportReader::open(const std::string& path, uint32_t input_index, const ReadLimits& limits,
                                        const std::atomic<int>* interrupt) {
  auto impl = std::make_unique<Impl>();
  // A plain regular file is mapped; stdin, pipes and gzip are read.
  auto mapped = detail::MappedFile::open(path);
  const bool gzip = mapped && mapped->size() >= 2 && static_cast<unsigned char>(mapped->data()[0]) == 0x1f &&
                    static_cast<unsigned char>(mapped->data()[1]) == 0x8b;
  if (mapped && !gzip && !limits.no_mmap) {
    impl->shape.vanished_at = std::shared_ptr<const std::atomic<int64_t>>(mapped, mapped->vanished_at());
    impl->mapped = std::move(mapped);
  } else {
    auto source = detail::open_byte_source(path, limits, interrupt);
    if (!source) return source.error();
    impl->source = std::move(*source);
  }
  impl->limits = limits;
  impl->interrupt = interrupt;
  impl->summary.path = path;
  impl->summary.gzip = impl->source && impl->source->is_gzip();
  impl->shape.input = input_index;
  if (auto status = impl->detect(path); !status) return status.error();
  impl->summary.shape = impl->shape.shape;
  return ExportReader(std::move(impl));
}

std::optional<Chunk> ExportReader::next_chunk() {
  auto chunk = impl_->next();
  if (chunk) chunk->input = impl_->shape.input;
  return chunk;
}

const InputSummary& ExportReader::summary() const { return impl_->summary; }
bool ExportReader::interrupted() const { return impl_->interrupted; }
uint64_t ExportReader::bytes_handed_out() const { return impl_->buf_offset; }
void ExportReader::set_long_text_observer(LongTextObserver* observer) { impl_->long_text_observer = observer; }
InputSummary& ExportReader::summary() { return impl_->summary; }

}  // namespace gpudiag
