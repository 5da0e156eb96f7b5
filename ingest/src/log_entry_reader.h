// Reads one Cloud Logging LogEntry object (simdjson On Demand) into a LogRecord. Internal to ingest.
#pragma once

#include <simdjson.h>

#include <array>
#include <deque>
#include <string>
#include <vector>

#include "gpudiag/entry_labels.h"
#include "gpudiag/log_record.h"

namespace gpudiag::detail {

enum class EntryStatus {
  kOk,
  kNotALogEntry,  // valid JSON, but nothing of a LogEntry in it ({} for example)
  kMalformed,     // the JSON itself is broken
  // A row of `gpudiag sql`'s result whose gpudiag_summary column is not null: no LogEntry but a
  // job's aggregates (docs/formats.md, "BigQuery results"). This reader does not read them: the
  // caller skips the row with that reason, and summary() holds the column's JSON for a reader that does.
  kSummaryRow,
};

class LogEntryReader {
 public:
  // Fills record() from `entry`. The record's strings point into simdjson's buffers (or this
  // reader's, for repaired strings): valid until the parser moves on. On kMalformed, `error` says why.
  EntryStatus read(simdjson::ondemand::object entry, std::string& error);

  LogRecord& record() { return record_; }
  // entry_fingerprint() of the last entry, for de-duplication.
  uint64_t fingerprint() const { return fingerprint_; }
  // Tolerated oddities of the last entry (a wrong field type, an unparsable timestamp).
  std::vector<std::string>& notes() { return notes_; }
  // The gpudiag_summary column of the last entry as JSON text (a JSON string, or an object), if it
  // was not null; valid while record() is.
  std::string_view summary() const { return summary_; }

 private:
  // A JSON column BigQuery printed as a JSON-encoded string ("{\"message\": …}"): json_payload,
  // labels and resource.labels of the Log Analytics view. The string is parsed again as the object it
  // holds; each column has its own parser, so the strings read from it live until the next entry.
  enum EmbeddedColumn { kEmbeddedPayload, kEmbeddedLabels, kEmbeddedResourceLabels, kEmbeddedColumns };
  struct EmbeddedJson {
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    std::string text;  // the unescaped string, with simdjson's padding after it
  };
  // Whether `value` is a JSON string whose text starts with '{' (only then is it parsed again).
  static bool holds_embedded_object(simdjson::ondemand::value& value);
  // Reads the string `value` into `text` and parses it as an object of `column` into `out`; false
  // (with a note) when it holds none: then `text` is what the string said.
  bool embedded_object(EmbeddedColumn column, simdjson::ondemand::value& value, simdjson::ondemand::object& out,
                       std::string_view& text, const char* name);

  simdjson::error_code read_resource(simdjson::ondemand::object resource);
  simdjson::error_code read_resource_labels(simdjson::ondemand::object labels);
  simdjson::error_code read_labels(simdjson::ondemand::object labels);
  simdjson::error_code read_json_payload(simdjson::ondemand::object payload);
  simdjson::error_code read_proto_payload(simdjson::ondemand::object payload);
  simdjson::error_code read_severity(simdjson::ondemand::value value);
  // severity_number (Log Analytics): the LogSeverity number, as a number or an INT64 string.
  simdjson::error_code read_severity_number(simdjson::ondemand::value value);
  simdjson::error_code read_timestamp(simdjson::ondemand::value value, Timestamp& out, const char* name);
  // `unescaped`: set to `out` when it was a JSON string without escapes (LogRecord::unescaped_message).
  simdjson::error_code read_message_value(simdjson::ondemand::value value, std::string_view& out,
                                          std::string_view& unescaped, const char* field);
  // value.get_string(); a string simdjson refuses only for lone surrogate escapes is read with
  // U+FFFD in their place (and a note) rather than failing the whole entry.
  simdjson::error_code read_string(simdjson::ondemand::value& value, std::string_view& out, const char* field);
  simdjson::error_code repair_string(simdjson::ondemand::value& value, std::string_view& out, const char* field);

  LogRecord record_;
  uint64_t fingerprint_ = 0;
  bool has_payload_ = false;
  bool severity_named_ = false;  // `severity` gave a name: severity_number does not override it
  std::string_view summary_;
  std::array<EmbeddedJson, kEmbeddedColumns> embedded_;
  std::vector<std::string> notes_;
  std::deque<std::string> repaired_;  // the text of repaired strings, until the next entry
};

}  // namespace gpudiag::detail
