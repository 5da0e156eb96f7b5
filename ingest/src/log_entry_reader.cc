#include "log_entry_reader.h"

#include <fmt/format.h>

#include <cstring>

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
  if (type == od::json_type::null) {
    out = {};
    return simdjson::SUCCESS;
  }
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
        return simdjson::SUCCESS;
      }
    }
    notes_.push_back("severity is a number that is not a LogSeverity; read as DEFAULT");
    return simdjson::SUCCESS;
  }
  notes_.push_back(fmt::format("severity is {}, not a name; read as DEFAULT", type_name(type)));
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
    } else {
      notes_.push_back(fmt::format("{} \"{}\" is not RFC 3339; ignored", name, text.substr(0, 40)));
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
        if (v.get_int64().get(nanos)) nanos = 0;
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
      od::object labels;
      if (field.value().get_object().get(labels)) continue;
      for (auto label : labels) {
        od::raw_json_string name;
        if (auto err = label.key().get(name)) return err;
        std::string_view* target = key_is(name, "job_id")       ? &record_.job_id
                                   : key_is(name, "job_name")   ? &record_.job_name
                                   : key_is(name, "project_id") ? &record_.project
                                   : key_is(name, "region")     ? &record_.region
                                   : key_is(name, "step_id")    ? &record_.step
                                                                : nullptr;
        if (target == nullptr) continue;
        od::value value;
        if (auto err = label.value().get(value)) return err;
        std::string_view text;
        if (auto err = read_string(value, text, "a resource label")) {
          if (err != simdjson::INCORRECT_TYPE) return err;
          continue;
        }
        *target = text;
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
    if (key == "compute.googleapis.com/resource_name") record_.worker = value;
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
        notes_.push_back("logName is not a string; ignored");
        continue;
      }
      record_.log = short_log_name(name);
      has_log_name = true;
    } else if (key_is(key, "textPayload", "text_payload")) {
      if ((err = read_message_value(value, record_.message, record_.unescaped_message, "textPayload"))) break;
      has_payload_ = true;
    } else if (key_is(key, "jsonPayload", "json_payload")) {
      od::object payload;
      if (value.get_object().get(payload) == simdjson::SUCCESS) {
        if ((err = read_json_payload(payload))) break;
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
      if (value.get_object().get(labels) == simdjson::SUCCESS) {
        if ((err = read_labels(labels))) break;
      }
    }
  }
  if (err) {
    error = simdjson::error_message(err);
    return EntryStatus::kMalformed;
  }
  if (record_.timestamp == kNoTime) record_.timestamp = receive;
  // Entry labels fill what the resource did not say.
  if (record_.job_id.empty()) record_.job_id = record_.label("dataflow.googleapis.com/job_id");
  if (record_.job_name.empty()) record_.job_name = record_.label("dataflow.googleapis.com/job_name");
  if (record_.region.empty()) record_.region = record_.label("dataflow.googleapis.com/region");
  fingerprint_ = entry_fingerprint(record_.insert_id, record_.timestamp);
  if (!has_payload_ && !has_log_name && record_.timestamp == kNoTime) return EntryStatus::kNotALogEntry;
  return EntryStatus::kOk;
}

}  // namespace gpudiag::detail
