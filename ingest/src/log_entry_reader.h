// Reads one Cloud Logging LogEntry object (simdjson On Demand) into a LogRecord. Internal to ingest.
#pragma once

#include <simdjson.h>

#include <deque>
#include <string>
#include <vector>

#include "gpudiag/log_record.h"

namespace gpudiag::detail {

enum class EntryStatus {
  kOk,
  kNotALogEntry,  // valid JSON, but nothing of a LogEntry in it ({} for example)
  kMalformed,     // the JSON itself is broken
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

 private:
  simdjson::error_code read_resource(simdjson::ondemand::object resource);
  simdjson::error_code read_labels(simdjson::ondemand::object labels);
  simdjson::error_code read_json_payload(simdjson::ondemand::object payload);
  simdjson::error_code read_proto_payload(simdjson::ondemand::object payload);
  simdjson::error_code read_severity(simdjson::ondemand::value value);
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
  std::vector<std::string> notes_;
  std::deque<std::string> repaired_;  // the text of repaired strings, until the next entry
};

}  // namespace gpudiag::detail
