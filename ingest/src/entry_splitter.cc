#include "entry_splitter.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace gpudiag::detail {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

size_t skip_blanks(const char* data, size_t pos, size_t end) {
  while (pos < end && is_blank(data[pos])) ++pos;
  return pos;
}

size_t trim_end(const char* data, size_t begin, size_t end) {
  while (end > begin && is_blank(data[end - 1])) --end;
  return end;
}

size_t line_end(const char* data, size_t pos, size_t size) {
  const void* nl = std::memchr(data + pos, '\n', size - pos);
  return nl ? static_cast<size_t>(static_cast<const char*>(nl) - data) : size;
}

uint64_t count_newlines(const char* data, size_t begin, size_t end) {
  return static_cast<uint64_t>(std::count(data + begin, data + end, '\n'));
}

class SpanCollector {
 public:
  SpanCollector(const char* data, std::vector<EntrySpan>& spans, std::vector<ChunkProblem>& problems)
      : data_(data), spans_(spans), problems_(problems) {}

  void entry(size_t begin, size_t end, uint64_t line) { spans_.push_back({begin, end, line}); }
  // For the structural scanner, which does not walk lines: counts them.
  void entry_counting(size_t begin, size_t end) {
    counted_lines_ += count_newlines(data_, counted_to_, begin);
    counted_to_ = begin;
    spans_.push_back({begin, end, counted_lines_});
  }

  // Text that is neither an entry nor a separator: report it, and count it as a lost entry so the
  // totals stay honest.
  void garbage(size_t begin, size_t end, std::string_view what) {
    const size_t shown = std::min<size_t>(end - begin, 40);
    problems_.push_back(ChunkProblem{
        .entry_index = spans_.size(),
        .newlines_before = count_newlines(data_, 0, begin),
        .offset_in_chunk = begin,
        .skipped_entry = true,
        .message =
            fmt::format("{}: `{}{}`", what, std::string_view(data_ + begin, shown), end - begin > shown ? "…" : ""),
    });
    const uint64_t line = count_newlines(data_, 0, begin);
    spans_.push_back({begin, begin, line});  // an empty span: the entry that was lost
  }

  void note(size_t at, std::string message) {
    problems_.push_back(ChunkProblem{.entry_index = spans_.size(),
                                     .newlines_before = count_newlines(data_, 0, at),
                                     .offset_in_chunk = at,
                                     .skipped_entry = false,
                                     .message = std::move(message)});
  }

 private:
  const char* data_;
  std::vector<EntrySpan>& spans_;
  std::vector<ChunkProblem>& problems_;
  uint64_t counted_lines_ = 0;
  size_t counted_to_ = 0;
};

// Blank, a comment, a directive (`%YAML 1.2`) or a document end marker (`...`): no node.
bool is_yaml_filler(const char* line, size_t len) {
  const size_t first = skip_blanks(line, 0, len);
  if (first == len || line[first] == '#' || (first == 0 && line[0] == '%')) return true;
  return first == 0 && len >= 3 && line[0] == '.' && line[1] == '.' && line[2] == '.' &&
         skip_blanks(line, 3, len) == len;
}

// Documents between marker lines; a document that holds no node (blank lines and comments only) is
// no entry. A document's span starts at its first node's line and runs to the next marker, its
// trailing line breaks included (a `|+` block keeps them). What gcloud printed on stderr into the
// file (`2>&1`) is no document: a `WARNING: …` line, and an `ERROR: …` line with the lines after it
// up to the next marker (the ChunkParser reports the error).
uint64_t split_yaml(const char* data, size_t size, SpanCollector& out) {
  size_t pos = 0;
  uint64_t line = 0;
  size_t first = SIZE_MAX;  // the document's first line with a node
  uint64_t first_line = 0;
  bool gcloud_error = false;
  const auto finish = [&](size_t end) {
    if (first != SIZE_MAX) out.entry(first, end, first_line);
    first = SIZE_MAX;
  };
  const auto starts = [&](size_t at, size_t end, std::string_view prefix) {
    return end - at >= prefix.size() && std::memcmp(data + at, prefix.data(), prefix.size()) == 0;
  };
  while (pos < size) {
    const size_t end = line_end(data, pos, size);
    const size_t marker = document_marker_length(data + pos, end - pos);
    if (marker == 0 && (gcloud_error || starts(pos, end, "ERROR: ") || starts(pos, end, "WARNING: "))) {
      finish(pos);
      if (!gcloud_error && starts(pos, end, "WARNING: ")) {
        const size_t shown = std::min<size_t>(trim_end(data, pos, end) - pos, 200);
        out.note(pos,
                 fmt::format("a line gcloud wrote on stderr was skipped: {}", std::string_view(data + pos, shown)));
      }
      gcloud_error = gcloud_error || starts(pos, end, "ERROR: ");
    } else if (marker > 0) {
      finish(pos);
      gcloud_error = false;
      // `--- |` or `--- {…}`: the document's first node is on the marker line, which it keeps.
      const size_t after = skip_blanks(data, pos + marker, end);
      if (after < end && data[after] != '#') {
        first = pos;
        first_line = line;
      }
    } else if (first == SIZE_MAX && !is_yaml_filler(data + pos, end - pos)) {
      first = pos;
      first_line = line;
    }
    if (end < size) ++line;
    pos = end + 1;
  }
  finish(size);
  return line;
}

uint64_t split_ndjson(const char* data, size_t size, SpanCollector& out) {
  size_t pos = 0;
  uint64_t line = 0;
  while (pos < size) {
    const size_t end = line_end(data, pos, size);
    const size_t begin = skip_blanks(data, pos, end);
    if (begin < end) out.entry(begin, trim_end(data, begin, end), line);
    if (end < size) ++line;
    pos = end + 1;
  }
  return line;
}

// Is the line only the array punctuation a pretty-printed stream shows between entries (`[`, `]`,
// `],`, `,`)? Notes a `]` followed later by `[`: exports concatenated by hand.
bool is_punctuation(const char* line, size_t len, bool& closed_array, bool& reopened) {
  for (size_t i = 0; i < len; ++i) {
    const char c = line[i];
    if (!is_blank(c) && c != '[' && c != ']' && c != ',') return false;
  }
  for (size_t i = 0; i < len; ++i) {
    if (line[i] == ']') closed_array = true;
    if (line[i] == '[' && closed_array) reopened = true;
  }
  return true;
}

uint64_t split_pretty(const char* data, size_t size, const Chunk& chunk, SpanCollector& out) {
  size_t pos = 0;
  uint64_t line = 0;
  uint64_t entry_line = 0;
  bool in_entry = false;
  size_t entry_begin = 0;
  bool closed_array = false;
  bool reopened = false;
  while (pos < size) {
    const size_t end = line_end(data, pos, size);
    const size_t first = skip_blanks(data, pos, end);
    if (!in_entry) {
      if (first == end) {
        // blank line
      } else if (data[first] == '{') {
        // An entry may also sit on one line (`{"a": 1},`): check the line itself first.
        StructuralScanner line_scan(0);
        size_t single_end = 0;
        line_scan.scan(data + first, end - first, [&](size_t e) {
          if (single_end == 0) single_end = first + e;
        });
        if (single_end != 0) {
          out.entry(first, single_end, line);
        } else {
          in_entry = true;
          entry_begin = first;
          entry_line = line;
        }
      } else if (!is_punctuation(data + first, end - first, closed_array, reopened)) {
        out.garbage(first, trim_end(data, first, end), "text between entries is not JSON");
      }
    } else if (is_close_line(data + pos, end - pos, chunk.close_indent)) {
      const size_t brace = pos + chunk.close_indent;
      out.entry(entry_begin, brace + 1, entry_line);
      in_entry = false;
    }
    if (end < size) ++line;
    pos = end + 1;
  }
  if (in_entry) out.entry(entry_begin, trim_end(data, entry_begin, size), entry_line);  // truncated: parser reports
  if (reopened) out.note(0, "several JSON arrays follow each other (concatenated exports); all were read");
  return line;
}

uint64_t split_structural(const char* data, size_t size, const Chunk& chunk, SpanCollector& out) {
  const bool array = chunk.shape == ExportShape::kArray;
  size_t pos = 0;
  int start_depth = 0;
  if (array) {
    if (chunk.sequence == 0) {
      pos = skip_blanks(data, 0, size);
      if (pos < size && data[pos] == '[') ++pos;
    }
    start_depth = 1;
  }
  StructuralScanner scanner(array ? 1 : 0, start_depth);
  size_t next_begin = pos;
  bool array_closed = false;
  scanner.scan(data + pos, size - pos, [&](size_t e) {
    const size_t end_marker = pos + e;  // array: offset of ',' or ']'; stream: one past '}'
    const size_t begin = skip_blanks(data, next_begin, end_marker);
    const size_t end = trim_end(data, begin, end_marker);
    if (begin < end) out.entry_counting(begin, end);
    if (array) {
      if (data[end_marker] == ']') array_closed = true;
      next_begin = end_marker + 1;
    } else {
      next_begin = end_marker;
    }
  });
  size_t rest = skip_blanks(data, next_begin, size);
  // After the closing bracket: only blanks — or another array, when exports were concatenated.
  while (array && array_closed && rest < size && (data[rest] == '[' || data[rest] == ']' || data[rest] == ',')) {
    rest = skip_blanks(data, rest + 1, size);
  }
  if (rest < size) out.entry_counting(rest, trim_end(data, rest, size));  // unfinished: parser reports it
  return count_newlines(data, 0, size);
}

}  // namespace

size_t document_marker_length(const char* line, size_t len) {
  // Exports concatenated with cat(1) may have a byte-order mark before a marker.
  const size_t bom = len >= 3 && std::memcmp(line, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
  if (len < bom + 3 || std::memcmp(line + bom, "---", 3) != 0) return 0;
  const bool ends = len == bom + 3 || line[bom + 3] == ' ' || line[bom + 3] == '\t' || line[bom + 3] == '\r';
  return ends ? bom + 3 : 0;
}

bool is_document_separator(const char* line, size_t len) { return document_marker_length(line, len) > 0; }

bool is_close_line(const char* line, size_t len, uint32_t indent) {
  if (len < indent + 1) return false;
  for (uint32_t i = 0; i < indent; ++i) {
    if (line[i] != ' ') return false;
  }
  if (line[indent] != '}') return false;
  bool comma = false;
  for (size_t i = indent + 1; i < len; ++i) {
    const char c = line[i];
    if (c == ',' && !comma) {
      comma = true;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      return false;
    }
  }
  return true;
}

uint64_t split_entries(const char* data, size_t size, const Chunk& chunk, std::vector<EntrySpan>& spans,
                       std::vector<ChunkProblem>& problems) {
  spans.clear();
  SpanCollector out(data, spans, problems);
  if (chunk.shape == ExportShape::kYaml) return split_yaml(data, size, out);
  if (chunk.shape == ExportShape::kNdjson) return split_ndjson(data, size, out);
  if (chunk.pretty) return split_pretty(data, size, chunk, out);
  return split_structural(data, size, chunk, out);
}

size_t find_cut(const char* data, size_t size, const Chunk& shape, StructuralScanner& scanner, size_t& scanned) {
  if (shape.shape == ExportShape::kYaml) {
    // Backwards, line by line, to the last marker whose line is complete. The lines before
    // `scanned` were seen whole before, without one; the one that starts there was not complete.
    const size_t floor = std::max<size_t>(scanned, 1);  // a marker at 0 opens the chunk's first document
    const void* last_nl = memrchr(data, '\n', size);
    if (!last_nl) return 0;
    size_t end = static_cast<size_t>(static_cast<const char*>(last_nl) - data);  // a complete line's '\n'
    scanned = std::max(scanned, end + 1);
    for (;;) {
      const void* prev = end > 0 ? memrchr(data, '\n', end) : nullptr;
      const size_t start = prev ? static_cast<size_t>(static_cast<const char*>(prev) - data) + 1 : 0;
      if (start < floor) return 0;
      if (is_document_separator(data + start, end - start)) return start;
      end = start - 1;
    }
  }
  if (shape.shape == ExportShape::kNdjson) {
    const void* nl = memrchr(data, '\n', size);
    return nl ? static_cast<size_t>(static_cast<const char*>(nl) - data) + 1 : 0;
  }
  if (shape.pretty) {
    size_t end = size;
    while (end > 0) {
      const void* nl = memrchr(data, '\n', end);
      if (!nl) return 0;
      const size_t nl_pos = static_cast<size_t>(static_cast<const char*>(nl) - data);
      const void* prev = nl_pos > 0 ? memrchr(data, '\n', nl_pos) : nullptr;
      const size_t line_start = prev ? static_cast<size_t>(static_cast<const char*>(prev) - data) + 1 : 0;
      if (is_close_line(data + line_start, nl_pos - line_start, shape.close_indent)) return nl_pos + 1;
      end = nl_pos;
    }
    return 0;
  }
  size_t cut = 0;
  const size_t from = scanned;
  scanner.scan(data + from, size - from, [&](size_t e) {
    // Arrays: cut after the separator, so the next chunk starts clean. Streams: after the '}'.
    cut = from + e + (shape.shape == ExportShape::kArray ? 1 : 0);
  });
  scanned = size;
  return cut;
}

size_t find_first_boundary(const char* data, size_t size, const Chunk& shape, StructuralScanner& scanner) {
  if (shape.shape == ExportShape::kNdjson) {
    const void* nl = std::memchr(data, '\n', size);
    return nl ? static_cast<size_t>(static_cast<const char*>(nl) - data) + 1 : 0;
  }
  if (shape.pretty) {
    size_t pos = 0;
    while (pos < size) {
      const size_t end = line_end(data, pos, size);
      if (end == size) return 0;  // the line is not complete yet
      if (is_close_line(data + pos, end - pos, shape.close_indent)) return end + 1;
      pos = end + 1;
    }
    return 0;
  }
  size_t first = 0;
  scanner.scan(data, size, [&](size_t e) {
    if (first == 0) first = e + (shape.shape == ExportShape::kArray ? 1 : 0);
  });
  return first;
}

}  // namespace gpudiag::detail
