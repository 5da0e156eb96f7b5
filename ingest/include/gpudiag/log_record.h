// LogRecord: the one normalized form of a Cloud Logging LogEntry that flows from ingest through the
// engine to the reports.
//
// A LogRecord's strings are views. While ingest hands records to a callback they point into the
// parser's buffers and are valid only during the call; KeptRecord (below) owns a copy, which is what
// findings keep as evidence.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "gpudiag/severity.h"

namespace gpudiag {

// Nanoseconds since the Unix epoch, UTC. kNoTime when the entry had no usable timestamp.
using Timestamp = int64_t;
inline constexpr Timestamp kNoTime = INT64_MIN;

// Parses RFC 3339 ("2022-10-28T20:08:29.567718Z", 0–9 fractional digits, Z or ±hh:mm offset).
std::optional<Timestamp> parse_rfc3339(std::string_view text);
// Parses a TIMESTAMP in the forms BigQuery's tools print it (docs/formats.md, "BigQuery results"):
// "2022-10-28 20:08:29" with no zone, which is UTC ("bq query --format=json" prints whole seconds),
// with 1–9 fractional digits, or with " UTC", "+00", "+hh:mm" or "Z" after it (the console,
// CAST(ts AS STRING)); or seconds since the epoch as the REST API sends them ("1.666988909567718E9",
// "1666988909.5"), or whole microseconds (15–17 digits, formatOptions.useInt64Timestamp). RFC 3339
// is parse_rfc3339's; this is its fallback, so the ordinary export never pays for it.
std::optional<Timestamp> parse_bigquery_timestamp(std::string_view text);
// Formats as RFC 3339 UTC with exactly as many fractional digits as needed (0, 3, 6 or 9).
std::string format_rfc3339(Timestamp t);

// Where an entry came from: which input, the 1-based line its JSON starts on, the byte offset.
struct SourceLocation {
  uint32_t input = 0;   // index into the analysis' inputs
  uint64_t line = 0;    // 1-based
  uint64_t offset = 0;  // byte offset of the entry's first byte (in the decompressed stream)
};

struct Label {
  std::string_view key;
  std::string_view value;
};

struct LogRecord {
  static constexpr size_t kMaxLabels = 12;

  Timestamp timestamp = kNoTime;
  Severity severity = Severity::kDefault;
  std::string_view log;         // short log name: "job-message", "worker", "docker" …
  std::string_view message;     // textPayload | jsonPayload.message | protoPayload.status.message
  std::string_view exception;   // jsonPayload.exception
  std::string_view worker;      // worker VM: compute.googleapis.com/resource_name | jsonPayload.worker
  std::string_view logger;      // jsonPayload.logger
  std::string_view thread;      // jsonPayload.thread
  std::string_view step;        // jsonPayload.step | resource.labels.step_id
  std::string_view sdk_worker;  // jsonPayload.portability_worker_id ("sdk-0-0" …)
  std::string_view insert_id;
  std::string_view job_id;  // resource.labels.job_id | jsonPayload.job
  std::string_view job_name;
  std::string_view project;  // resource.labels.project_id (may be a project number)
  std::string_view region;
  std::string_view resource_type;  // "dataflow_step" …
  std::array<Label, kMaxLabels> labels{};
  uint8_t label_count = 0;
  SourceLocation where;
  // The reader's note of the `message` and `exception` it read from JSON strings without an escape
  // sequence: such a text holds no line break (JSON writes one as \n). A view that is not its note
  // (set or copied since) tells nothing. Spares every entry a search for a traceback's lines.
  std::string_view unescaped_message;
  std::string_view unescaped_exception;

  std::string_view label(std::string_view key) const;
  // Whether `text` is the view `note` (above): then it holds no '\n'.
  static bool known_unescaped(std::string_view text, std::string_view note) {
    return text.data() == note.data() && text.size() == note.size();
  }
};

// A LogRecord that owns its strings. Copyable; its views always point into its own storage.
// Built with a `max_text_bytes`, it keeps at most that much of each string (the head and the tail,
// with a note of what was cut between them), so evidence of a huge entry costs its crop only.
class KeptRecord {
 public:
  static constexpr size_t kWhole = SIZE_MAX;

  KeptRecord() = default;
  explicit KeptRecord(const LogRecord& r, size_t max_text_bytes = kWhole);
  KeptRecord(const KeptRecord& other) : KeptRecord(other.record_) { cropped_bytes_ = other.cropped_bytes_; }
  KeptRecord& operator=(const KeptRecord& other);
  KeptRecord(KeptRecord&&) noexcept;
  KeptRecord& operator=(KeptRecord&&) noexcept;
  ~KeptRecord() = default;

  const LogRecord& record() const { return record_; }
  const LogRecord* operator->() const { return &record_; }
  // Bytes left out of the copy, over all its strings (0: the copy is whole).
  uint64_t cropped_bytes() const { return cropped_bytes_; }

 private:
  uint64_t cropped_bytes_ = 0;
  std::unique_ptr<char[]> storage_;  // every view's bytes, one block (log_record.cc: deep_copy)
  LogRecord record_;
};

// "projects/p/logs/dataflow.googleapis.com%2Fjob-message" → "job-message"
std::string_view short_log_name(std::string_view log_name);

// `text` when it is at most `max_bytes`; otherwise its head (¾) and tail (¼) around a note of how many
// bytes were left out, cut on UTF-8 character boundaries. The result is a little over `max_bytes`.
std::string crop_text(std::string_view text, size_t max_bytes);

}  // namespace gpudiag
