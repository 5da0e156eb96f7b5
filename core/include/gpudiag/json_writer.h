// JSON output: a small streaming writer, pretty-printed with two-space indents and keys in the order
// written, for the reports and the history's JSON; and the one JSON string escaper everything that
// writes JSON uses. Strings are escaped so the output is always valid JSON whatever the logs held:
// " and \ backslashed, \n \r \t, other C0 controls and DEL as \u00XX, and what is not well-formed
// UTF-8 (utf8.h: overlong forms, surrogates, values past U+10FFFF, truncated sequences) as \ufffd.
//
//   JsonWriter w;
//   w.begin_object().field("schema", "gpudiag.report/v1").array_field("rules", ids).end_object();
//   std::string json = w.take();
//   append_json_string(out, text);   // "text", quoted and escaped
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpudiag {

// Appends `s` to `out` as a quoted, escaped JSON string.
void append_json_string(std::string& out, std::string_view s);

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(const std::string& s) { return value(std::string_view(s)); }
  JsonWriter& value(int64_t n);
  JsonWriter& value(uint64_t n);
  JsonWriter& value(int n) { return value(static_cast<int64_t>(n)); }
  JsonWriter& value(unsigned n) { return value(static_cast<uint64_t>(n)); }
  JsonWriter& value(double d);
  JsonWriter& value(bool b);
  JsonWriter& null();

  // Shorthands for "key": value.
  template <typename T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }

  // "key": [values…], for a range of anything value() takes.
  template <typename Range>
  JsonWriter& array_field(std::string_view k, const Range& values) {
    key(k).begin_array();
    for (const auto& v : values) value(v);
    return end_array();
  }

  std::string take() { return std::move(out_) + "\n"; }
  // Room for `bytes` of output up front. A string that doubles holds its old and its new copy at
  // once (8 + 8 MiB when a report passes 8 MiB); pages reserved and not written cost no memory.
  void reserve(size_t bytes) { out_.reserve(bytes); }

 private:
  void before_value();
  void newline();
  std::string out_;
  struct Level {
    bool first = true;
    bool is_object = false;
  };
  std::vector<Level> stack_;
  bool after_key_ = false;
};

}  // namespace gpudiag
