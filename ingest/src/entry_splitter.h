// Finding where entries begin and end, without parsing them. Internal to ingest.
//
// Four ways, cheapest first:
//   * YAML (gcloud's default output): one entry per document, documents split by `---` lines.
//   * NDJSON: one entry per line.
//   * Pretty-printed (gcloud's arrays, `jq '.[]'` streams): an entry ends at a line holding only its
//     closing brace at the indentation of its opening one. JSON strings cannot hold a raw newline,
//     so such a line is always structure — no need to look inside strings at all.
//   * Anything else (compact arrays): a structural scanner that tracks strings, escapes and depth.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "chunk.h"

namespace gpudiag::detail {

struct EntrySpan {
  size_t begin;   // first byte of the entry ('{' for objects)
  size_t end;     // one past its last byte
  uint64_t line;  // newlines in the chunk before `begin`
};

// Tracks JSON structure across calls, so a stream can be fed in pieces.
class StructuralScanner {
 public:
  // `element_depth`: 1 for the elements of a top-level array, 0 for a stream of values.
  // `start_depth`: the depth at the first byte fed (1 inside an array that has already opened).
  explicit StructuralScanner(int element_depth, int start_depth = 0)
      : element_depth_(element_depth), depth_(start_depth) {}

  // Scans [data, data+len). Calls on_end(pos) with the offset one past each element that ends in
  // this piece. For arrays the ',' or ']' that follows an element is its end marker, at offset pos.
  template <typename Fn>
  void scan(const char* data, size_t len, Fn&& on_end);

  int depth() const { return depth_; }
  bool in_string() const { return in_string_; }
  bool in_value() const { return in_value_; }

 private:
  int element_depth_;
  int depth_;
  bool in_string_ = false;
  bool escaped_ = false;
  bool in_value_ = false;  // inside an element that has started but not ended
};

// Does [line, line+len) hold only a closing brace at `indent` (then optionally ',' and blanks)?
bool is_close_line(const char* line, size_t len, uint32_t indent);

// Is the line [line, line+len) (without its '\n') a YAML document marker: `---` alone, or followed
// by blanks, a comment or the document's first node (`--- |`), a byte-order mark allowed before it?
bool is_document_separator(const char* line, size_t len);
// The marker's length (3, or 6 after a byte-order mark); 0 when the line is none.
size_t document_marker_length(const char* line, size_t len);

// Finds the entries of a chunk, leaving out what separates them (array brackets and commas; a YAML
// document's marker line, and the blank and comment lines before its first node). The
// chunk is not modified. Problems found on the way (text between entries) are appended with
// `skipped_entry` set where an entry was lost. `spans` is cleared first. Returns the number of
// newlines in the chunk.
uint64_t split_entries(const char* data, size_t size, const Chunk& chunk, std::vector<EntrySpan>& spans,
                       std::vector<ChunkProblem>& problems);

// Where the reader may cut `data` so the chunk holds whole entries: one past the end of the last
// complete entry, or 0 when there is none. `scanner` carries state for the structural mode and has
// already seen [0, scanned) — it continues from there. YAML: the start of the last document marker
// line after the first byte (the next chunk starts with it); `scanned` spares looking at the same
// bytes again.
size_t find_cut(const char* data, size_t size, const Chunk& shape, StructuralScanner& scanner, size_t& scanned);

// The first entry boundary in `data` (used to resynchronise after an oversized entry): one past
// it, or 0 when there is none yet. `scanner` continues across calls as in find_cut. Not for YAML,
// whose reader drops an oversized document line by line (export_reader.cc).
size_t find_first_boundary(const char* data, size_t size, const Chunk& shape, StructuralScanner& scanner);

// --- implementation of the template ----------------------------------------------------------

template <typename Fn>
void StructuralScanner::scan(const char* data, size_t len, Fn&& on_end) {
  for (size_t i = 0; i < len; ++i) {
    const char c = data[i];
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string_ = true;
        if (depth_ == element_depth_) in_value_ = true;
        break;
      case '{':
      case '[':
        if (depth_ == element_depth_) in_value_ = true;
        ++depth_;
        break;
      case '}':
      case ']':
        if (depth_ == 0) break;  // stray closer: the parser will report the entry
        --depth_;
        if (element_depth_ == 0 && depth_ == 0) {
          in_value_ = false;
          on_end(i + 1);
        } else if (element_depth_ == 1 && depth_ == 0) {
          in_value_ = false;
          on_end(i);  // the array's ']' ends its last element
        }
        break;
      case ',':
        if (depth_ == element_depth_ && element_depth_ == 1) {
          in_value_ = false;
          on_end(i);
        }
        break;
      case ' ':
      case '\t':
      case '\n':
      case '\r':
        break;
      default:
        if (depth_ == element_depth_) in_value_ = true;  // a scalar element
        break;
    }
  }
}

}  // namespace gpudiag::detail
