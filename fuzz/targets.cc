#include "targets.h"

#include <simdjson.h>
#include <sys/mman.h>
#include <unistd.h>

#include <string>
#include <string_view>
#include <utility>

#include "facts/job_facts.h"
#include "gpudiag/analyzer.h"
#include "gpudiag/ingest.h"
#include "gpudiag/json_writer.h"
#include "gpudiag/report.h"
#include "gpudiag/rule_pack.h"
#include "gpudiag/utf8.h"
#include "json_string.h"
#include "pack/compiled_rule_pack.h"

namespace gpudiag::fuzz {
namespace {

// Decodes `text` as UTF-8, calling `on_char` with each code point; false at the first invalid
// sequence (overlong forms, surrogates and values past U+10FFFF included). Written here rather than
// taken from the code under test, so the check does not share its bugs.
template <typename Fn>
bool decode_utf8(std::string_view text, Fn&& on_char) {
  for (size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    size_t n = 1;
    uint32_t cp = c;
    if (c >= 0xF0 && c <= 0xF4) {
      n = 4, cp = c & 0x07;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 3, cp = c & 0x0F;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 2, cp = c & 0x1F;
    } else if (c >= 0x80) {
      return false;
    }
    if (i + n > text.size()) return false;
    for (size_t k = 1; k < n; ++k) {
      const auto b = static_cast<unsigned char>(text[i + k]);
      if ((b & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (b & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
      return false;
    on_char(cp);
    i += n;
  }
  return true;
}

}  // namespace

// The export reader and chunk parser on arbitrary bytes — arrays, NDJSON, concatenated objects,
// gzip — through both the mapped and the read path. The first byte picks the path and the chunk
// size, so chunk boundaries fall everywhere.
namespace {

Result<InputSummary> read_bytes(std::string_view bytes, const ReadLimits& limits) {
  const int fd = memfd_create("export", 0);
  if (fd < 0) return Diagnostic{.message = "memfd_create"};
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  auto summary = read_export(
      "/proc/self/fd/" + std::to_string(fd), [](const LogRecord&) {}, limits);
  close(fd);
  return summary;
}

// Where a cut of `bytes` can never read as whole (issue 37): inside a gzip stream's 8-byte trailer,
// before an array's only `]`, before the `}` that ends the last entry. npos: no such place.
size_t certain_cut(std::string_view bytes, uint8_t mode) {
  if (bytes.size() > 18 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
      static_cast<unsigned char>(bytes[1]) == 0x8b) {
    return bytes.size() - 1 - ((mode >> 1) & 7);
  }
  const size_t last = bytes.find_last_not_of(" \t\r\n");
  if (last == std::string_view::npos) return std::string_view::npos;
  if (bytes[last] == '}') return last;
  if (bytes[last] == ']' && bytes.find(']') == last) return last;
  return std::string_view::npos;
}

}  // namespace

int export_reader(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  const std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);
  ReadLimits limits;
  limits.no_mmap = (mode & 1) != 0;
  limits.chunk_bytes = 64u << (mode >> 5);  // 64 B … 8 KiB
  limits.max_entry_bytes = 1u << 16;
  limits.max_decompressed_bytes = 8u << 20;  // keep gzip bombs cheap
  auto whole = read_bytes(bytes, limits);
  if (whole.ok() && whole->analysed + whole->skipped > whole->entries) __builtin_trap();  // nothing invented
  // Fail closed: an input read in full and cleanly, cut where no export can end, reads as cut.
  if (!whole.ok() || whole->not_read_in_full || whole->problems_total > 0 || whole->entries == 0 ||
      whole->bytes >= limits.max_entry_bytes / 2) {
    return 0;
  }
  const size_t cut = certain_cut(bytes, mode);
  if (cut == std::string_view::npos) return 0;
  auto part = read_bytes(bytes.substr(0, cut), limits);
  if (part.ok() && !part->not_read_in_full) __builtin_trap();
  return 0;
}

// The RFC 3339 parser; what it parses must format and parse back to the same instant.
int timestamp(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto t = parse_rfc3339(text)) {
    const auto again = parse_rfc3339(format_rfc3339(*t));
    if (!again || *again != *t) __builtin_trap();
  }
  parse_severity(text);
  short_log_name(text);
  return 0;
}

// The parser of the Python dict the SDK harness echoes its options in, and the facts from it.
int pipeline_options(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const auto pack = RulePack::load({.builtin = builtin_rule_files()});  // the real option names
  if (!pack) __builtin_trap();
  detail::JobFacts facts;
  detail::apply_options(detail::parse_python_dict(text), detail::compiled(*pack).catalog, facts,
                        detail::FactSource{"fuzz"}, detail::kOptionsPriority);
  detail::apply_options(detail::parse_json_options(text), detail::compiled(*pack).catalog, facts,
                        detail::FactSource{"fuzz"}, detail::kOptionsPriority);
  detail::apply_accelerator(text, facts, detail::FactSource{"fuzz"}, detail::kOptionsPriority);
  return 0;
}

// A rule file of arbitrary text through the loader and, when it loads, the compiler and examples.
int rule_loader(const uint8_t* data, size_t size) {
  // The fuzzed file beside the built-in fact catalog, so that the facts it tests can be known.
  std::vector<RuleFile> files;
  for (const auto& f : builtin_rule_files()) {
    if (f.path.find("rules/facts/catalog.yaml") != std::string::npos) files.push_back(f);
  }
  files.push_back(RuleFile{"fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size), {}});
  const RuleSources sources{files, {}};
  RulePack::lint(sources);
  if (auto pack = RulePack::load(sources)) test_rule_examples(*pack);
  return 0;
}

namespace {

struct ReadOutcome {
  bool ok = false;
  std::string error_code;
  ExportShape shape = ExportShape::kUnknown;
  uint64_t entries = 0, analysed = 0, skipped = 0;
};

ReadOutcome read_bytes(const std::string& bytes, uint32_t chunk_bytes) {
  const int fd = memfd_create("export", 0);
  if (fd < 0) return {};
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  ReadLimits limits;
  limits.chunk_bytes = chunk_bytes;
  limits.max_entry_bytes = 1u << 16;
  limits.max_decompressed_bytes = 8u << 20;
  auto summary = read_export(
      "/proc/self/fd/" + std::to_string(fd), [](const LogRecord&) {}, limits);
  close(fd);
  ReadOutcome out;
  if (!summary) {
    out.error_code = summary.error().code;
    return out;
  }
  out.ok = true;
  out.shape = summary->shape;
  out.entries = summary->entries;
  out.analysed = summary->analysed;
  out.skipped = summary->skipped;
  return out;
}

}  // namespace

// Shape detection: blanks before the first entry — any amount, across several read windows — and
// a byte-order mark never change what an input is or which entries it holds. The first byte sets
// how many blanks lead, the second which blanks, the BOM and the read window.
int shape_detector(const uint8_t* data, size_t size) {
  if (size < 2) return 0;
  const size_t blanks = static_cast<size_t>(data[0]) * 97;  // up to ~24 KiB: many 64-byte windows
  const uint8_t mode = data[1];
  const std::string body(reinterpret_cast<const char*>(data + 2), size - 2);
  // Bodies whose own first bytes decide (UTF-16 by its NULs, a BOM of its own) are not shifted.
  if (!body.empty() && (body[0] == '\0' || static_cast<unsigned char>(body[0]) >= 0xEF)) return 0;
  if (body.size() >= 2 && body[1] == '\0') return 0;
  if (body.size() >= 2 && static_cast<unsigned char>(body[0]) == 0x1f && static_cast<unsigned char>(body[1]) == 0x8b) {
    return 0;  // gzip is detected from the file's first bytes, before any text
  }
  static constexpr char kBlanks[] = {' ', '\t', '\r', '\n'};
  std::string padded = (mode & 1) ? "\xEF\xBB\xBF" : "";
  for (size_t i = 0; i < blanks; ++i) padded += kBlanks[(i * (mode | 1)) % 4];
  padded += '\n';  // the body's first line keeps its column (pretty-printed detection reads it)
  padded += body;
  const uint32_t window = 64u << ((mode >> 1) & 7);
  const ReadOutcome plain = read_bytes(body, window);
  const ReadOutcome shifted = read_bytes(padded, window);
  if (plain.ok != shifted.ok || plain.error_code != shifted.error_code) __builtin_trap();
  // Where chunks are cut moves with the blanks, and how a malformed run of bytes splits into
  // "entries" may depend on that; well-formed inputs must come out the same.
  if (plain.ok && plain.skipped == 0 &&
      (plain.shape != shifted.shape || plain.entries != shifted.entries || plain.analysed != shifted.analysed ||
       plain.skipped != shifted.skipped)) {
    __builtin_trap();
  }
  return 0;
}

// terminal_safe on arbitrary bytes: what it writes is valid UTF-8 without a C0 or C1 control, a
// bidi control or a zero-width character, so nothing can drive the terminal or reorder the text.
// On the same bytes, core's UTF-8 walker agrees with the decoder above, and the JSON string escaper
// writes a string simdjson reads.
int terminal_safe(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (is_valid_utf8(text) != decode_utf8(text, [](uint32_t) {})) __builtin_trap();
  std::string quoted = "[";
  append_json_string(quoted, text);
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse(quoted + "]").get(root) != simdjson::SUCCESS) __builtin_trap();
  const std::pair<std::string, bool> outputs[] = {{gpudiag::terminal_safe(text), false},
                                                  {terminal_safe_lines(text), true}};  // keeps newlines
  for (const auto& [out, newlines] : outputs) {
    const bool valid = decode_utf8(out, [&, newlines = newlines](uint32_t cp) {
      const bool control = (cp < 0x20 && !(cp == '\n' && newlines)) || (cp >= 0x7F && cp <= 0x9F);
      const bool invisible = cp == 0x061C || (cp >= 0x200B && cp <= 0x200F) || (cp >= 0x202A && cp <= 0x202E) ||
                             (cp >= 0x2060 && cp <= 0x2064) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xFEFF;
      if (control || invisible) __builtin_trap();
    });
    if (!valid) __builtin_trap();
  }
  return 0;
}

// The unescaper for strings simdjson refuses (lone surrogates), on arbitrary string bodies: it
// writes valid UTF-8, and for every string simdjson accepts it gives simdjson's text, replacing
// nothing.
int json_string(const uint8_t* data, size_t size) {
  const std::string raw = "\"" + std::string(reinterpret_cast<const char*>(data), size) + "\"";
  const auto ours = detail::unescape_json_string(raw);
  if (ours && !decode_utf8(ours->text, [](uint32_t) {})) __builtin_trap();
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  if (parser.parse("[" + raw + "]").get(root) != simdjson::SUCCESS) return 0;
  std::string_view theirs;
  if (root.at(0).get_string().get(theirs) != simdjson::SUCCESS) return 0;
  if (!ours || ours->text != theirs || ours->replaced != 0) __builtin_trap();
  return 0;
}

}  // namespace gpudiag::fuzz
