#include "log_entry_reader.h"

#include <fmt/format.h>

#include <cstring>
#include <utility>

#include "duplicate_filter.h"
#include "json_string.h"

namespace gpudiag::detail {

namespace od = simdjson::ondemand;
using simdjson::error_code;

namespace {

// Compares a raw key with an escape-free name without unescaping it. Keys are hot: with the name's
// length known at compile time the comparison is inlined, and the first byte rejects most of them.
template <size_t N>
inline bool key_is(od::raw_json_string key, const char (&name)[N]) {
  const char* k = key.raw();
  return k[0] == name[0] && std::memcmp(k, name, N - 1) == 0 && k[N - 1] == '"';
}

// Two spellings of each top-level field: the API's camelCase and Log Analytics' snake_case.
template <size_t N, size_t M>
inline bool key_is(od::raw_json_string key, const char (&camel)[N], const char (&snake)[M]) {
  return key_is(key, camel) || key_is(key, snake);
}

// The rows of the constexpr label tables, compared as key_is above: each row's length is a
// template argument, so every comparison is a fixed-length one the compiler inlines (every label
// of every entry is looked up; a call to memcmp per row would cost more than the lookup did).
template <size_t N>
inline bool raw_key_is(od::raw_json_string key, const char* name) {
  const char* k = key.raw();
  return k[0] == name[0] && __builtin_memcmp(k, name, N) == 0 && k[N] == '"';
}

template <size_t... I>
inline std::string_view LogRecord::*resource_label_target(od::raw_json_string key, std::index_sequence<I...>) {
  std::string_view LogRecord::*target = nullptr;
  (void)((raw_key_is<kResourceLabelFields[I].key.size()>(key, kResourceLabelFields[I].key.data())
              ? (target = kResourceLabelFields[I].field, true)
              : false) ||
         ...);
  return target;
}

// The index of the first kept label named `name` (N bytes), or -1. The length is a template
// argument so that the comparison is a fixed-length one the compiler inlines.
template <size_t N>
inline int find_label(const LogRecord& r, const char* name) {
  for (int i = 0; i < r.label_count; ++i) {
    const std::string_view key = r.labels[i].key;
    if (key.size() == N && __builtin_memcmp(key.data(), name, N) == 0) return i;
  }
  return -1;
}

// Fills the LogRecord field `f` names from the entry's labels, found under the API's key or else a
// sink's (which is then renamed to the API's, so LogRecord::label finds it). A field the resource
// labels or the payload already gave is not looked up unless the label wins over it.
template <size_t I>
inline void fill_from_label(LogRecord& r) {
  constexpr const EntryLabelField& f = kEntryLabelFields[I];
  std::string_view& field = r.*(f.field);
  if (!f.overrides && !field.empty()) return;
  int at = find_label<f.key.size()>(r, f.key.data());
  if (at < 0) {
    at = find_label<f.sink_key.size()>(r, f.sink_key.data());
    if (at < 0) return;
    r.labels[at].key = f.key;
  }
  field = r.labels[at].value;
}

template <size_t... I>
inline void fill_from_labels(LogRecord& r, std::index_sequence<I...>) {
  (fill_from_label<I>(r), ...);
}

// A severity number printed as a string ("500": BigQuery prints INT64 so).
std::optional<int64_t> small_number(std::string_view s) {
  if (s.empty() || s.size() > 4) return std::nullopt;
  int64_t n = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + (c - '0');
  }
  return n;
}

std::string_view type_name(od::json_type t) {
  switch (t) {
    case od::json_type::array:
      return "an array";
    case od::json_type::object:
      return "an object";
    case od::json_type::number:
      return "a number";
    case od::json_type::string:
      return "a string";
    case od::json_type::boolean:
      return "a boolean";
    case od::json_type::null:
      return "null";
  }
  return "unknown";
}

}  // namespace

// Inlined into every field reader: this is the path of every string of every entry.
[[gnu::always_inline]] inline error_code LogEntryReader::read_string(od::value& value, std::string_view& out,
                                                                     const char* field) {
  const error_code err = value.get_string().get(out);
  return err == simdjson::STRING_ERROR ? repair_string(value, out, field) : err;
}

[[gnu::cold, gnu::noinline]] error_code LogEntryReader::repair_string(od::value& value, std::string_view& out,
                                                                      const char* field) {
  auto repaired = unescape_json_string(value.raw_json_token());
  if (!repaired || repaired->replaced == 0) return simdjson::STRING_ERROR;  // broken for another reason
  notes_.push_back(fmt::format(
      "{} holds {} escaped surrogate{} without {} pair (as Python's surrogateescape writes); "
      "read as U+FFFD",
      field, repaired->replaced, repaired->replaced == 1 ? "" : "s", repaired->replaced == 1 ? "its" : "their"));
  out = repaired_.emplace_back(std::move(repaired->text));
  return simdjson::SUCCESS;
}

bool LogEntryReader::holds_embedded_object(od::value& value) {
  const std::string_view raw = value.raw_json_token();
  return raw.size() > 2 && raw[0] == '"' && raw[1] == '{';
}

[[gnu::cold]] bool LogEntryReader::embedded_object(EmbeddedColumn column, od::value& value, od::object& out,
                                                   std::string_view& text, const char* name) {
  if (read_string(value, text, name) != simdjson::SUCCESS) return false;
  EmbeddedJson& slot = embedded_[column];
  slot.text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  slot.text.assign(text);
  const auto padded = simdjson::padded_string_view(slot.text.data(), slot.text.size(), slot.text.capacity());
  if (slot.parser.iterate(padded).get(slot.doc) == simdjson::SUCCESS &&
      slot.doc.get_object().get(out) == simdjson::SUCCESS) {
    return true;
  }
  notes_.push_back(fmt::format("{} is a string that starts with {{ but holds no JSON object", name));
  return false;
}

error_code LogEntryReader::read_message_value(od::value value, std::string_view& out, std::string_view& unescaped,
                                              const char* field) {
  unescaped = {};
  od::json_type type;
  if (auto err = value.type().get(type)) return err;
  if (type == od::json_type::string) {
    // The token is the quoted string and any blanks after it; every escape sequence is longer than
    // what it stands for, so a text 2 bytes shorter than its token had none.
    const size_t token = value.raw_json_token().size();
    if (auto err = read_string(value, out, field)) return err;
    if (token == out.size() + 2) unescaped = out;
    return simdjson::SUCCESS;
  }
  if (type == od::json_type::null) return simdjson::SUCCESS;  // a NULL column says nothing
  // A structured message (object or array): search its JSON text.
  if (type == od::json_type::object) {
    od::object obj;
    if (auto err = value.get_object().get(obj)) return err;
    return obj.raw_json().get(out);
  }
  if (type == od::json_type::array) {
    od::array arr;
    if (auto err = value.get_array().get(arr)) return err;
    return arr.raw_json().get(out);
  }
  out = value.raw_json_token();  // a number or boolean
  return simdjson::SUCCESS;
}

error_code LogEntryReader::read_severity(od::value value) {
  od::json_type type;
  if (auto err = value.type().get(type)) return err;
  if (type == od::json_type::string) {
    std::string_view name;
    if (auto err = read_string(value, name, "severity")) return err;
    if (auto s = parse_severity(name)) {
      record_.severity = *s;
      severity_named_ = true;
    } else if (auto n = small_number(name); n && severity_from_number(*n)) {
      record_.severity = *severity_from_number(*n);
      severity_named_ = true;
    } else {
      notes_.push_back(fmt::format("unknown severity \"{}\" read as DEFAULT", name.substr(0, 40)));
    }
    return simdjson::SUCCESS;
  }
  if (type == od::json_type::number) {
    int64_t n = 0;
    if (value.get_int64().get(n) == simdjson::SUCCESS) {
      if (auto s = severity_from_number(n)) {
        record_.severity = *s;
        severity_named_ = true;
        return simdjson::SUCCESS;
      }
    }
    notes_.push_back("severity is a number that is not a LogSeverity; read as DEFAULT");
    return simdjson::SUCCESS;
  }
  if (type == od::json_type::null) return simdjson::SUCCESS;
  notes_.push_back(fmt::format("severity is {}, not a name; read as DEFAULT", type_name(type)));
  return simdjson::SUCCESS;
}

error_code LogEntryReader::read_severity_number(od::value value) {
  int64_t n = 0;
  od::json_type type;
  if (auto err = value.type().get(type)) return err;
  if (type == od::json_type::null) return simdjson::SUCCESS;
  const bool read = (type == od::json_type::number && value.get_int64().get(n) == simdjson::SUCCESS) ||
                    (type == od::json_type::string && value.get_int64_in_string().get(n) == simdjson::SUCCESS);
  const auto severity = read ? severity_from_number(n) : std::nullopt;
  if (!severity) {
    notes_.push_back("severity_number is not a LogSeverity number; ignored");
  } else if (!severity_named_) {
    record_.severity = *severity;
  }
  return simdjson::SUCCESS;
}

error_code LogEntryReader::read_timestamp(od::value value, Timestamp& out, const char* name) {
  od::json_type type;
  if (auto err = value.type().get(type)) return err;
  if (type == od::json_type::string) {
    std::string_view text;
    if (auto err = read_string(value, text, name)) return err;
    if (auto t = parse_rfc3339(text)) {
      out = *t;
    } else if (auto bq = parse_bigquery_timestamp(text)) {
      out = *bq;
    } else {
      notes_.push_back(
          fmt::format("{} \"{}\" is neither RFC 3339 nor a BigQuery TIMESTAMP; ignored", name, text.substr(0, 40)));
    }
    return simdjson::SUCCESS;
  }
  if (type == od::json_type::number) {  // seconds since the epoch, as the BigQuery API sends them
    std::string_view text = value.raw_json_token();
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t'))
      text.remove_suffix(1);
    if (auto t = parse_bigquery_timestamp(text)) {
      out = *t;
    } else {
      notes_.push_back(
          fmt::format("{} {} is a number, not seconds since the epoch; ignored", name, text.substr(0, 40)));
    }
    return simdjson::SUCCESS;
  }
  if (type == od::json_type::object) {  // {"seconds": …, "nanos": …} as FnAPI records write it
    od::object obj;
    if (auto err = value.get_object().get(obj)) return err;
    int64_t seconds = 0, nanos = 0;
    bool have_seconds = false;
    for (auto field : obj) {
      od::raw_json_string key;
      if (auto err = field.key().get(key)) return err;
      od::value v;
      if (auto err = field.value().get(v)) return err;
      if (key_is(key, "seconds")) {
        have_seconds = v.get_int64_in_string().get(seconds) == simdjson::SUCCESS ||
                       v.get_int64().get(seconds) == simdjson::SUCCESS;
      } else if (key_is(key, "nanos")) {
        if (v.get_int64().get(nanos) && v.get_int64_in_string().get(nanos)) nanos = 0;
      }
    }
    if (have_seconds) out = seconds * 1'000'000'000 + nanos;
    return simdjson::SUCCESS;
  }
  if (type != od::json_type::null) {
    notes_.push_back(fmt::format("{} is {}, not a time; ignored", name, type_name(type)));
  }
  return simdjson::SUCCESS;
}

[[gnu::always_inline]] inline error_code LogEntryReader::read_resource_labels(od::object labels) {
  for (auto label : labels) {
    od::raw_json_string name;
    if (auto err = label.key().get(name)) return err;
    std::string_view LogRecord::*const target =
        resource_label_target(name, std::make_index_sequence<kResourceLabelFields.size()>());
    if (target == nullptr) continue;
    od::value value;
    if (auto err = label.value().get(value)) return err;
    std::string_view text;
    if (auto err = read_string(value, text, "a resource label")) {
      if (err != simdjson::INCORRECT_TYPE) return err;
      continue;
    }
    record_.*target = text;
  }
  return simdjson::SUCCESS;
}

error_code LogEntryReader::read_resource(od::object resource) {
  for (auto field : resource) {
    od::raw_json_string key;
    if (auto err = field.key().get(key)) return err;
    if (key_is(key, "type")) {
      od::value value;
      if (auto err = field.value().get(value)) return err;
      if (auto err = read_string(value, record_.resource_type, "resource.type")) {
        if (err != simdjson::INCORRECT_TYPE) return err;
      }
    } else if (key_is(key, "labels")) {
      od::value value;
      if (auto err = field.value().get(value)) return err;
      od::object labels;
      std::string_view text;
      if (value.get_object().get(labels) == simdjson::SUCCESS ||
          (holds_embedded_object(value) &&
           embedded_object(kEmbeddedResourceLabels, value, labels, text, "resource.labels"))) {
        if (auto err = read_resource_labels(labels)) return err;
      }
    }
  }
  return simdjson::SUCCESS;
}

error_code LogEntryReader::read_labels(od::object labels) {
  for (auto field : labels) {
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return err;
    od::value raw;
    if (auto err = field.value().get(raw)) return err;
    std::string_view value;
    if (auto err = read_string(raw, value, "a label")) {
      if (err != simdjson::INCORRECT_TYPE) return err;
      continue;
    }
    if (record_.label_count < LogRecord::kMaxLabels) {
      record_.labels[record_.label_count++] = Label{key, value};
    }
  }
  return simdjson::SUCCESS;
}

error_code LogEntryReader::read_json_payload(od::object payload) {
  for (auto field : payload) {
    od::raw_json_string key;
    if (auto err = field.key().get(key)) return err;
    od::value value;
    if (auto err = field.value().get(value)) return err;
    std::string_view* target = nullptr;
    if (key_is(key, "message")) {
      if (auto err = read_message_value(value, record_.message, record_.unescaped_message, "jsonPayload.message"))
        return err;
      continue;
    }
    if (key_is(key, "exception")) {
      if (auto err = read_message_value(value, record_.exception, record_.unescaped_exception, "jsonPayload.exception"))
        return err;
      continue;
    }
    if (key_is(key, "logger"))
      target = &record_.logger;
    else if (key_is(key, "thread"))
      target = &record_.thread;
    else if (key_is(key, "step"))
      target = &record_.step;
    else if (key_is(key, "portability_worker_id"))
      target = &record_.sdk_worker;
    else if (key_is(key, "worker") && record_.worker.empty())
      target = &record_.worker;
    else if (key_is(key, "job") && record_.job_id.empty())
      target = &record_.job_id;
    if (target == nullptr) continue;
    std::string_view text;
    if (auto err = read_string(value, text, "a jsonPayload field")) {
      if (err != simdjson::INCORRECT_TYPE) return err;
      continue;
    }
    *target = text;
  }
  return simdjson::SUCCESS;
}

error_code LogEntryReader::read_proto_payload(od::object payload) {
  for (auto field : payload) {
    od::raw_json_string key;
    if (auto err = field.key().get(key)) return err;
    if (!key_is(key, "status")) continue;
    od::object status;
    if (field.value().get_object().get(status)) continue;
    for (auto inner : status) {
      od::raw_json_string name;
      if (auto err = inner.key().get(name)) return err;
      if (!key_is(name, "message")) continue;
      od::value value;
      if (auto err = inner.value().get(value)) return err;
      if (auto err =
              read_message_value(value, record_.message, record_.unescaped_message, "protoPayload.status.message"))
        return err;
    }
  }
  return simdjson::SUCCESS;
}

EntryStatus LogEntryReader::read(od::object entry, std::string& error) {
  record_ = LogRecord{};
  notes_.clear();
  repaired_.clear();
  has_payload_ = false;
  severity_named_ = false;
  summary_ = {};
  fingerprint_ = 0;
  Timestamp receive = kNoTime;
  bool has_log_name = false;
  error_code err = simdjson::SUCCESS;
  for (auto field : entry) {
    od::raw_json_string key;
    if ((err = field.key().get(key))) break;
    od::value value;
    if ((err = field.value().get(value))) break;
    if (key_is(key, "logName", "log_name")) {
      std::string_view name;
      if ((err = read_string(value, name, "logName"))) {
        if (err != simdjson::INCORRECT_TYPE) break;
        err = simdjson::SUCCESS;
        bool null_value = false;
        if (value.is_null().get(null_value) != simdjson::SUCCESS || !null_value) {
          notes_.push_back("logName is not a string; ignored");
        }
        continue;
      }
      record_.log = short_log_name(name);
      has_log_name = true;
    } else if (key_is(key, "textPayload", "text_payload")) {
      if ((err = read_message_value(value, record_.message, record_.unescaped_message, "textPayload"))) break;
      has_payload_ = true;
    } else if (key_is(key, "jsonPayload", "json_payload")) {
      od::object payload;
      std::string_view text;
      if (value.get_object().get(payload) == simdjson::SUCCESS) {
        if ((err = read_json_payload(payload))) break;
      } else if (holds_embedded_object(value)) {
        // A JSON column printed as a string: its object, or else its text is the message.
        if (!embedded_object(kEmbeddedPayload, value, payload, text, "json_payload")) {
          record_.message = text;
        } else if ((err = read_json_payload(payload))) {
          notes_.push_back(
              fmt::format("json_payload holds broken JSON ({}); read as text", simdjson::error_message(err)));
          err = simdjson::SUCCESS;
          record_.message = embedded_[kEmbeddedPayload].text;
        }
      } else if ((err = read_message_value(value, record_.message, record_.unescaped_message, "jsonPayload"))) {
        break;
      }
      has_payload_ = true;
    } else if (key_is(key, "protoPayload", "proto_payload")) {
      od::object payload;
      if (value.get_object().get(payload) == simdjson::SUCCESS) {
        if ((err = read_proto_payload(payload))) break;
      }
      has_payload_ = true;
    } else if (key_is(key, "severity")) {
      if ((err = read_severity(value))) break;
    } else if (key_is(key, "severity_number")) {
      if ((err = read_severity_number(value))) break;
    } else if (key_is(key, "gpudiag_summary")) {
      // The hook for summary rows (docs/formats.md, "BigQuery results"): a non-null column makes the
      // row kSummaryRow, which is skipped with that reason until ingest reads summary rows.
      od::json_type type;
      if ((err = value.type().get(type))) break;
      od::object summary;
      if (type == od::json_type::object) {
        if ((err = value.get_object().get(summary)) || (err = summary.raw_json().get(summary_))) break;
      } else if (type != od::json_type::null) {
        summary_ = value.raw_json_token();
      }
    } else if (key_is(key, "timestamp")) {
      if ((err = read_timestamp(value, record_.timestamp, "timestamp"))) break;
    } else if (key_is(key, "receiveTimestamp", "receive_timestamp")) {
      if ((err = read_timestamp(value, receive, "receiveTimestamp"))) break;
    } else if (key_is(key, "insertId", "insert_id")) {
      if ((err = read_string(value, record_.insert_id, "insertId"))) {
        if (err != simdjson::INCORRECT_TYPE) break;
        err = simdjson::SUCCESS;
      }
    } else if (key_is(key, "resource")) {
      od::object resource;
      if (value.get_object().get(resource) == simdjson::SUCCESS) {
        if ((err = read_resource(resource))) break;
      }
    } else if (key_is(key, "labels")) {
      od::object labels;
      std::string_view text;
      if (value.get_object().get(labels) == simdjson::SUCCESS ||
          (holds_embedded_object(value) && embedded_object(kEmbeddedLabels, value, labels, text, "labels"))) {
        if ((err = read_labels(labels))) break;
      }
    }
  }
  if (err) {
    error = simdjson::error_message(err);
    return EntryStatus::kMalformed;
  }
  if (record_.timestamp == kNoTime) record_.timestamp = receive;
  // Entry labels fill what the resource and the payload did not say (the worker's wins over the payload's).
  fill_from_labels(record_, std::make_index_sequence<kEntryLabelFields.size()>());
  if (!summary_.empty()) return EntryStatus::kSummaryRow;
  fingerprint_ = entry_fingerprint(record_.insert_id, record_.timestamp);
  if (!has_payload_ && !has_log_name && record_.timestamp == kNoTime) return EntryStatus::kNotALogEntry;
  return EntryStatus::kOk;
}

}  // namespace gpudiag::detail
