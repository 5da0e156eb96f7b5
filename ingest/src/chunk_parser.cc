// ChunkParser: turns the entries of a chunk into LogRecords with simdjson's On Demand API.
//
// The fast path hands the whole chunk to iterate_many (one structural pass for many entries). If any
// entry in it is malformed, the rest of the chunk is parsed entry by entry, so exactly the bad
// entries are reported and skipped.
#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cstring>

#include "entry_splitter.h"
#include "gpudiag/ingest.h"
#include "log_entry_reader.h"

namespace gpudiag {

namespace od = simdjson::ondemand;

struct ChunkParser::Impl {
  od::parser stream_parser;   // for iterate_many over whole chunks
  od::parser entry_parser;    // for single entries on the slow path
  std::vector<detail::EntrySpan> spans;
  std::vector<uint64_t> lines;  // relative line of each span
  detail::LogEntryReader entry_reader;

  ChunkReport parse(const Chunk& chunk, const RecordFn& on_record);
  std::optional<KeptRecord> reparse(const Chunk& chunk, size_t index);

 private:
  // Parses spans[first..] one by one. Returns nothing; fills report.
  void parse_one_by_one(const Chunk& chunk, size_t first, const RecordFn& on_record, ChunkReport& report,
                        const std::vector<uint64_t>& lines);
  bool deliver(od::object object, const Chunk& chunk, size_t index, const RecordFn& on_record,
               ChunkReport& report, const std::vector<uint64_t>& lines, std::string& error);
};

namespace {

// Relative line (newlines before) of every span start, in one pass over the chunk.
void line_of_spans(const char* data, const std::vector<detail::EntrySpan>& spans, std::vector<uint64_t>& out) {
  out.resize(spans.size());
  uint64_t lines = 0;
  size_t pos = 0;
  for (size_t i = 0; i < spans.size(); ++i) {
    const size_t at = std::max(spans[i].begin, pos);
    lines += static_cast<uint64_t>(std::count(data + pos, data + at, '\n'));
    pos = at;
    out[i] = lines;
  }
}

std::string excerpt(const char* data, size_t begin, size_t end) {
  const size_t n = std::min<size_t>(end - begin, 60);
  std::string s(data + begin, n);
  for (char& c : s) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return s;
}

}  // namespace

bool ChunkParser::Impl::deliver(od::object object, const Chunk& chunk, size_t index, const RecordFn& on_record,
                                ChunkReport& report, const std::vector<uint64_t>& lines, std::string& error) {
  LogRecord& record = entry_reader.record();
  auto status = entry_reader.read(object, error);
  if (status == detail::EntryStatus::kMalformed) return false;
  record.where.input = chunk.input;
  record.where.line = lines[index];
  record.where.offset = chunk.base_offset + spans[index].begin;
  report.fingerprints[index] = entry_reader.fingerprint();
  for (auto& note : entry_reader.notes()) {
    report.problems.push_back(ChunkProblem{.entry_index = index, .newlines_before = lines[index],
                                           .offset_in_chunk = spans[index].begin, .skipped_entry = false,
                                           .message = std::move(note)});
  }
  if (status == detail::EntryStatus::kNotALogEntry) {
    report.problems.push_back(ChunkProblem{.entry_index = index, .newlines_before = lines[index],
                                           .offset_in_chunk = spans[index].begin, .skipped_entry = true,
                                           .message = "not a LogEntry: no payload, logName or timestamp"});
    return true;
  }
  on_record(record, index);
  return true;
}

void ChunkParser::Impl::parse_one_by_one(const Chunk& chunk, size_t first, const RecordFn& on_record,
                                         ChunkReport& report, const std::vector<uint64_t>& lines) {
  for (size_t i = first; i < spans.size(); ++i) {
    const auto& span = spans[i];
    if (span.begin == span.end) continue;  // lost between entries; already reported
    std::string error;
    od::document doc;
    auto err = entry_parser
                   .iterate(simdjson::padded_string_view(chunk.data() + span.begin, span.end - span.begin,
                                                         chunk.capacity - span.begin))
                   .get(doc);
    bool ok = false;
    if (!err) {
      od::object object;
      err = doc.get_object().get(object);
      if (err == simdjson::INCORRECT_TYPE) {
        od::json_type type;
        (void)doc.type().get(type);
        error = fmt::format("the entry is a JSON {}, not a LogEntry object",
                            type == od::json_type::array    ? "array"
                            : type == od::json_type::string ? "string"
                            : type == od::json_type::number ? "number"
                            : type == od::json_type::boolean ? "boolean" : "null");
      } else if (!err) {
        ok = deliver(object, chunk, i, on_record, report, lines, error);
      }
    }
    if (!ok) {
      if (error.empty()) error = simdjson::error_message(err);
      const bool truncated = chunk.ends_input && i + 1 == spans.size();
      report.problems.push_back(ChunkProblem{
          .entry_index = i, .newlines_before = lines[i], .offset_in_chunk = span.begin, .skipped_entry = true,
          .message = truncated ? fmt::format("the input ends inside this entry (a truncated export?): {}", error)
                               : fmt::format("malformed entry skipped: {} (starts `{}`)", error,
                                             excerpt(chunk.data(), span.begin, span.end))});
    }
  }
}

ChunkReport ChunkParser::Impl::parse(const Chunk& chunk, const RecordFn& on_record) {
  ChunkReport report;
  detail::split_entries(chunk.data(), chunk.size, chunk, spans, report.problems);
  report.entries = spans.size();
  report.newlines = static_cast<uint64_t>(std::count(chunk.data(), chunk.data() + chunk.size, '\n'));
  report.fingerprints.assign(spans.size(), 0);
  line_of_spans(chunk.data(), spans, lines);
  if (spans.empty()) return report;

  // Fast path: one iterate_many over the chunk. Stops at the first surprise.
  size_t next = 0;
  size_t batch = std::max<size_t>(chunk.size, 1 << 16);
  od::document_stream stream;
  if (!stream_parser.iterate_many(chunk.data(), chunk.size, batch).get(stream)) {
    for (auto it = stream.begin(); it != stream.end() && next < spans.size(); ++it) {
      while (next < spans.size() && spans[next].begin == spans[next].end) ++next;  // lost ones
      if (next == spans.size()) break;
      if (it.current_index() != spans[next].begin) break;
      od::document_reference doc;
      if ((*it).get(doc)) break;
      od::object object;
      if (doc.get_object().get(object)) break;
      std::string error;
      if (!deliver(object, chunk, next, on_record, report, lines, error)) break;
      ++next;
    }
  }
  while (next < spans.size() && spans[next].begin == spans[next].end) ++next;
  if (next < spans.size()) parse_one_by_one(chunk, next, on_record, report, lines);
  return report;
}

std::optional<KeptRecord> ChunkParser::Impl::reparse(const Chunk& chunk, size_t index) {
  if (index >= spans.size() || spans[index].begin == spans[index].end) return std::nullopt;
  const auto& span = spans[index];
  od::document doc;
  od::object object;
  if (entry_parser
          .iterate(simdjson::padded_string_view(chunk.data() + span.begin, span.end - span.begin,
                                                chunk.capacity - span.begin))
          .get(doc) ||
      doc.get_object().get(object)) {
    return std::nullopt;
  }
  std::string error;
  if (entry_reader.read(object, error) != detail::EntryStatus::kOk) return std::nullopt;
  LogRecord& record = entry_reader.record();
  record.where.input = chunk.input;
  record.where.line = lines[index];
  record.where.offset = chunk.base_offset + span.begin;
  return KeptRecord(record);
}

std::optional<KeptRecord> ChunkParser::reparse(const Chunk& chunk, size_t entry_index) {
  return impl_->reparse(chunk, entry_index);
}

ChunkParser::ChunkParser() : impl_(std::make_unique<Impl>()) {}
ChunkParser::~ChunkParser() = default;
ChunkParser::ChunkParser(ChunkParser&&) noexcept = default;
ChunkParser& ChunkParser::operator=(ChunkParser&&) noexcept = default;

ChunkReport ChunkParser::parse(const Chunk& chunk, const RecordFn& on_record) {
  return impl_->parse(chunk, on_record);
}

}  // namespace gpudiag
