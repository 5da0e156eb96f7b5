// ChunkParser: turns the entries of a chunk into LogRecords with simdjson's On Demand API.
//
// Each entry is parsed on its own (the splitter already knows where entries begin and end), so a
// malformed entry costs only itself. Measured on this project's benchmark this is also faster than
// iterate_many over the whole chunk (bench/RESULTS.md): a ~1 KiB entry's structural index stays in
// L1, and nothing in the chunk has to be rewritten to separate entries.
#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cstring>

#include "byte_source.h"
#include "chunk.h"
#include "entry_splitter.h"
#include "gpudiag/diagnostic_codes.h"
#include "input_kind.h"
#include "log_entry_reader.h"
#include "yaml_entry.h"

namespace gpudiag {

namespace od = simdjson::ondemand;

struct ChunkParser::Impl {
  od::parser entry_parser;
  std::vector<detail::EntrySpan> spans;
  std::vector<detail::EntrySpan> side_spans;  // of a neighbouring chunk (split_side)
  detail::LogEntryReader entry_reader;
  std::string yaml_json;  // a YAML document's entry as JSON (yaml_entry.h), with simdjson's padding

  ChunkReport split(const Chunk& chunk);
  ChunkReport split_side(const Chunk& chunk);
  void parse(const Chunk& chunk, uint64_t base_line, const RecordFn& on_record, const SummaryFn& on_summary,
             ChunkReport& report);
  std::optional<KeptRecord> reparse(const Chunk& chunk, uint64_t base_line, const std::vector<detail::EntrySpan>& from,
                                    size_t index, size_t max_text_bytes);

 private:
  bool deliver(od::object object, const Chunk& chunk, uint64_t base_line, size_t index, const RecordFn& on_record,
               const SummaryFn& on_summary, ChunkReport& report, std::string& error);
  void parse_json(const Chunk& chunk, uint64_t base_line, const RecordFn& on_record, const SummaryFn& on_summary,
                  ChunkReport& report);
  void parse_yaml(const Chunk& chunk, uint64_t base_line, const RecordFn& on_record, const SummaryFn& on_summary,
                  ChunkReport& report);
  // The YAML document `span` as its entry's JSON in yaml_json, padded, and simdjson's document of it.
  std::optional<detail::YamlDocumentError> yaml_entry(const Chunk& chunk, const detail::EntrySpan& span,
                                                      od::document& doc, simdjson::error_code& err);
};

namespace {

std::string excerpt(const char* data, size_t begin, size_t end) {
  const size_t n = std::min<size_t>(end - begin, 60);
  std::string s(data + begin, n);
  for (char& c : s) {
    if (static_cast<unsigned char>(c) < 0x20) c = ' ';
  }
  return s;
}

// Does the last chunk of an array export close the array after its last entry (which ends at
// `from`)? Whatever else follows the bracket is the splitter's to report.
bool closes_array(const Chunk& chunk, size_t from) {
  return from < chunk.size && std::memchr(chunk.data() + from, ']', chunk.size - from) != nullptr;
}

}  // namespace

namespace detail {

Diagnostic last_entry_cut(uint64_t offset) {
  return Diagnostic{
      .code = code_name(DiagnosticCode::kInputTruncated),
      .message = fmt::format("the input ends inside its last entry (byte {}): the export was cut", offset),
      .byte = static_cast<int64_t>(offset),
      .help = std::string(kCutExportHelp)};
}

}  // namespace detail

bool ChunkParser::Impl::deliver(od::object object, const Chunk& chunk, uint64_t base_line, size_t index,
                                const RecordFn& on_record, const SummaryFn& on_summary, ChunkReport& report,
                                std::string& error) {
  LogRecord& record = entry_reader.record();
  auto status = entry_reader.read(object, error);
  if (status == detail::EntryStatus::kMalformed) return false;
  record.where.input = chunk.input;
  record.where.line = base_line + spans[index].line;
  record.where.offset = chunk.base_offset + spans[index].begin;
  for (auto& note : entry_reader.notes()) {
    report.problems.push_back(ChunkProblem{.entry_index = index,
                                           .newlines_before = spans[index].line,
                                           .offset_in_chunk = spans[index].begin,
                                           .skipped_entry = false,
                                           .message = std::move(note)});
  }
  const auto problem = [&](std::string message, bool skipped) {
    report.problems.push_back(ChunkProblem{.entry_index = index,
                                           .newlines_before = spans[index].line,
                                           .offset_in_chunk = spans[index].begin,
                                           .skipped_entry = skipped,
                                           .message = std::move(message)});
  };
  if (status == detail::EntryStatus::kSummaryRow) {
    // A job's aggregates from `gpudiag sql` (docs/sql.md): never a duplicate, it keeps no fingerprint.
    std::vector<std::string> notes;
    auto summary = parse_job_summary(entry_reader.summary(), notes);
    for (auto& note : notes) problem(std::move(note), false);
    if (!summary) {
      problem(summary.error().message + "; skipped", true);
      return true;
    }
    summary->where = record.where;
    report.summary_rows.add(*summary);
    on_summary(*summary, index);
    return true;
  }
  if (status == detail::EntryStatus::kNotALogEntry) {
    problem("not a LogEntry: no payload, logName or timestamp", true);
    return true;  // skipped, so never a duplicate: it keeps no fingerprint
  }
  report.fingerprints[index] = entry_reader.fingerprint();
  on_record(record, index);
  return true;
}

std::optional<detail::YamlDocumentError> ChunkParser::Impl::yaml_entry(const Chunk& chunk,
                                                                       const detail::EntrySpan& span, od::document& doc,
                                                                       simdjson::error_code& err) {
  auto problem =
      detail::yaml_document_to_json(std::string_view(chunk.data() + span.begin, span.end - span.begin), yaml_json);
  if (problem) return problem;
  const size_t size = yaml_json.size();
  yaml_json.resize(size + simdjson::SIMDJSON_PADDING, ' ');
  err = entry_parser.iterate(simdjson::padded_string_view(yaml_json.data(), size, yaml_json.size())).get(doc);
  return std::nullopt;
}

// A YAML export: each document becomes its entry's JSON, read as any JSON entry is (deliver); a
// document that does not convert is skipped with yaml-cpp's reason and its line and column.
void ChunkParser::Impl::parse_yaml(const Chunk& chunk, uint64_t base_line, const RecordFn& on_record,
                                   const SummaryFn& on_summary, ChunkReport& report) {
  // gcloud ends every line with a line break: a last line without one is where the export was cut.
  const std::string_view text(chunk.data(), chunk.size);
  const size_t last_line = text.rfind('\n') == std::string_view::npos ? 0 : text.rfind('\n') + 1;
  const bool cut_mid_line = chunk.ends_input && text.find_first_not_of(" \t\r", last_line) != std::string_view::npos;
  for (size_t i = 0; i < spans.size(); ++i) {
    const auto& span = spans[i];
    const bool last = chunk.ends_input && i + 1 == spans.size();
    const auto skip = [&](uint64_t newlines_before, std::string message, size_t offset_in_chunk) {
      report.problems.push_back(ChunkProblem{.entry_index = i,
                                             .newlines_before = newlines_before,
                                             .offset_in_chunk = offset_in_chunk,
                                             .skipped_entry = true,
                                             .message = std::move(message)});
    };
    if (last && cut_mid_line && span.end == chunk.size) {
      skip(span.line, "the input ends inside this YAML document, in the middle of a line (a truncated export?)",
           span.begin);
      report.input_cut = detail::last_entry_cut(chunk.base_offset + span.begin);
      continue;
    }
    od::document doc;
    simdjson::error_code err = simdjson::SUCCESS;
    if (auto problem = yaml_entry(chunk, span, doc, err)) {
      // The problem's line (yaml-cpp's mark) and the byte it starts at, in the chunk.
      const std::string_view document(chunk.data() + span.begin, span.end - span.begin);
      size_t at = 0;
      for (uint64_t l = 1; l < problem->line; ++l) {
        const size_t newline = document.find('\n', at);
        if (newline == std::string_view::npos) break;
        at = newline + 1;
      }
      const uint64_t line = span.line + (problem->line > 0 ? problem->line - 1 : 0);
      std::string where = problem->column > 0 ? fmt::format("column {}; ", problem->column) : "";
      where += fmt::format("the document starts on line {}", base_line + span.line);
      if (last) {
        // As for JSON: a last document that does not read is where the export was cut.
        skip(line,
             fmt::format("the input ends inside this YAML document (a truncated export?): {} ({})", problem->message,
                         where),
             span.begin + at);
        report.input_cut = detail::last_entry_cut(chunk.base_offset + span.begin);
      } else {
        skip(line, fmt::format("malformed YAML document skipped: {} ({})", problem->message, where), span.begin + at);
      }
      continue;
    }
    std::string error;
    od::object object;
    if (!err) err = doc.get_object().get(object);
    if (err || !deliver(object, chunk, base_line, i, on_record, on_summary, report, error)) {
      skip(span.line, fmt::format("malformed entry skipped: {}", error.empty() ? simdjson::error_message(err) : error),
           span.begin);
    }
  }
  // gcloud's own error in the file says why it stopped writing, better than where the text ends.
  if (auto stopped = detail::gcloud_error_inside(text, base_line, chunk.base_offset)) report.input_cut = *stopped;
}

void ChunkParser::Impl::parse(const Chunk& chunk, uint64_t base_line, const RecordFn& on_record,
                              const SummaryFn& on_summary, ChunkReport& report) {
  if (chunk.shape == ExportShape::kYaml) {
    parse_yaml(chunk, base_line, on_record, on_summary, report);
  } else {
    parse_json(chunk, base_line, on_record, on_summary, report);
  }
  // Checked after parsing: a page that vanished under this chunk read as zeros meanwhile.
  if (chunk.vanished_at && chunk.vanished_at->load() >= 0) {
    report.input_changed = detail::input_changed_message(static_cast<uint64_t>(chunk.vanished_at->load()), {});
  }
}

void ChunkParser::Impl::parse_json(const Chunk& chunk, uint64_t base_line, const RecordFn& on_record,
                                   const SummaryFn& on_summary, ChunkReport& report) {
  for (size_t i = 0; i < spans.size(); ++i) {
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
        error =
            fmt::format("the entry is a JSON {}, not a LogEntry object", type == od::json_type::array     ? "array"
                                                                         : type == od::json_type::string  ? "string"
                                                                         : type == od::json_type::number  ? "number"
                                                                         : type == od::json_type::boolean ? "boolean"
                                                                                                          : "null");
      } else if (!err) {
        ok = deliver(object, chunk, base_line, i, on_record, on_summary, report, error);
      }
    }
    if (!ok) {
      if (error.empty()) error = simdjson::error_message(err);
      // The last entry of an input that does not parse is where the input was cut: an export that
      // stops mid-entry (a full disk, a killed gcloud) is not an input read in full. A malformed
      // entry before it is only skipped (docs/formats.md, "Input problems").
      const bool truncated = chunk.ends_input && i + 1 == spans.size() && err != simdjson::INCORRECT_TYPE;
      const uint64_t offset = chunk.base_offset + span.begin;
      report.problems.push_back(ChunkProblem{
          .entry_index = i,
          .newlines_before = spans[i].line,
          .offset_in_chunk = span.begin,
          .skipped_entry = true,
          .message = truncated ? fmt::format("the input ends inside this entry (a truncated export?): {}", error)
                               : fmt::format("malformed entry skipped: {} (starts `{}`)", error,
                                             excerpt(chunk.data(), span.begin, span.end))});
      if (truncated) {
        report.input_cut = detail::last_entry_cut(offset);
      }
    }
  }
  if (chunk.ends_input && chunk.shape == ExportShape::kArray && !report.input_cut &&
      !closes_array(chunk, spans.empty() ? 0 : spans.back().end)) {
    const uint64_t end = chunk.base_offset + chunk.size;
    report.input_cut =
        Diagnostic{.code = code_name(DiagnosticCode::kInputTruncated),
                   .message = fmt::format("the JSON array is never closed: the input ends at byte {} without its `]`, "
                                          "so entries after it may be missing",
                                          end),
                   .byte = static_cast<int64_t>(end),
                   .help = std::string(detail::kCutExportHelp)};
  }
}

ChunkReport ChunkParser::Impl::split(const Chunk& chunk) {
  ChunkReport report;
  report.newlines = detail::split_entries(chunk.data(), chunk.size, chunk, spans, report.problems);
  report.entries = spans.size();
  report.fingerprints.assign(spans.size(), 0);
  for (const auto& note : chunk.notes) {
    report.problems.push_back(ChunkProblem{
        .entry_index = 0, .newlines_before = 0, .offset_in_chunk = 0, .skipped_entry = false, .message = note});
  }
  return report;
}

ChunkReport ChunkParser::Impl::split_side(const Chunk& chunk) {
  ChunkReport report;
  report.newlines = detail::split_entries(chunk.data(), chunk.size, chunk, side_spans, report.problems);
  report.entries = side_spans.size();
  return report;
}

std::optional<KeptRecord> ChunkParser::Impl::reparse(const Chunk& chunk, uint64_t base_line,
                                                     const std::vector<detail::EntrySpan>& from, size_t index,
                                                     size_t max_text_bytes) {
  if (index >= from.size() || from[index].begin == from[index].end) return std::nullopt;
  const auto& span = from[index];
  od::document doc;
  od::object object;
  simdjson::error_code err = simdjson::SUCCESS;
  if (chunk.shape == ExportShape::kYaml) {
    if (yaml_entry(chunk, span, doc, err)) return std::nullopt;
  } else {
    err = entry_parser
              .iterate(simdjson::padded_string_view(chunk.data() + span.begin, span.end - span.begin,
                                                    chunk.capacity - span.begin))
              .get(doc);
  }
  if (err || doc.get_object().get(object)) return std::nullopt;
  std::string error;
  if (entry_reader.read(object, error) != detail::EntryStatus::kOk) return std::nullopt;
  LogRecord& record = entry_reader.record();
  record.where.input = chunk.input;
  record.where.line = base_line + span.line;
  record.where.offset = chunk.base_offset + span.begin;
  return KeptRecord(record, max_text_bytes);
}

std::optional<KeptRecord> ChunkParser::reparse(const Chunk& chunk, uint64_t base_line, size_t entry_index,
                                               size_t max_text_bytes) {
  return impl_->reparse(chunk, base_line, impl_->spans, entry_index, max_text_bytes);
}

ChunkReport ChunkParser::split_side(const Chunk& chunk) { return impl_->split_side(chunk); }

std::optional<KeptRecord> ChunkParser::reparse_side(const Chunk& chunk, uint64_t base_line, size_t entry_index,
                                                    size_t max_text_bytes) {
  return impl_->reparse(chunk, base_line, impl_->side_spans, entry_index, max_text_bytes);
}

ChunkParser::ChunkParser() : impl_(std::make_unique<Impl>()) {}
ChunkParser::~ChunkParser() = default;
ChunkParser::ChunkParser(ChunkParser&&) noexcept = default;
ChunkParser& ChunkParser::operator=(ChunkParser&&) noexcept = default;

ChunkReport ChunkParser::split(const Chunk& chunk) { return impl_->split(chunk); }

void ChunkParser::parse(const Chunk& chunk, uint64_t base_line, const RecordFn& on_record, const SummaryFn& on_summary,
                        ChunkReport& report) {
  impl_->parse(chunk, base_line, on_record, on_summary, report);
}

InputProblem to_input_problem(ChunkProblem problem, const Chunk& chunk, uint64_t base_line) {
  return InputProblem{.line = base_line + problem.newlines_before,
                      .offset = static_cast<int64_t>(chunk.base_offset + problem.offset_in_chunk),
                      .skipped_entry = problem.skipped_entry,
                      .message = std::move(problem.message)};
}

}  // namespace gpudiag
