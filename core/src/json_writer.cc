#include "gpudiag/json_writer.h"

#include <fmt/format.h>

#include <cmath>

#include "gpudiag/utf8.h"

namespace gpudiag {

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (size_t i = 0; i < s.size();) {
    // Printable ASCII that needs no escape (most of a report) is copied a run at a time.
    size_t plain = i;
    while (plain < s.size()) {
      const auto b = static_cast<unsigned char>(s[plain]);
      if (b < 0x20 || b >= 0x7F || b == '"' || b == '\\') break;
      ++plain;
    }
    if (plain > i) {
      out.append(s.substr(i, plain - i));
      i = plain;
      continue;
    }
    const Utf8Char c = decode_utf8(s, i);
    i += c.size;
    switch (c.code_point) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      default:
        break;
    }
    if (!c.valid) {
      out += "\\ufffd";
    } else if (c.code_point < 0x20 || c.code_point == 0x7F) {
      out += fmt::format("\\u{:04x}", c.code_point);
    } else {
      out.append(s.substr(i - c.size, c.size));
    }
  }
  out += '"';
}

void JsonWriter::newline() {
  out_ += '\n';
  out_.append(stack_.size() * 2, ' ');
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!stack_.empty()) {
    if (!stack_.back().first) out_ += ',';
    stack_.back().first = false;
    newline();
  }
}

JsonWriter& JsonWriter::begin_object() {
  before_value();
  out_ += '{';
  stack_.push_back({true, true});
  return *this;
}

JsonWriter& JsonWriter::end_object() {
  const bool empty = stack_.back().first;
  stack_.pop_back();
  if (!empty) newline();
  out_ += '}';
  return *this;
}

JsonWriter& JsonWriter::begin_array() {
  before_value();
  out_ += '[';
  stack_.push_back({true, false});
  return *this;
}

JsonWriter& JsonWriter::end_array() {
  const bool empty = stack_.back().first;
  stack_.pop_back();
  if (!empty) newline();
  out_ += ']';
  return *this;
}

JsonWriter& JsonWriter::key(std::string_view k) {
  before_value();
  append_json_string(out_, k);
  out_ += ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::value(std::string_view s) {
  before_value();
  append_json_string(out_, s);
  return *this;
}

JsonWriter& JsonWriter::value(int64_t n) {
  before_value();
  out_ += std::to_string(n);
  return *this;
}

JsonWriter& JsonWriter::value(uint64_t n) {
  before_value();
  out_ += std::to_string(n);
  return *this;
}

JsonWriter& JsonWriter::value(double d) {
  before_value();
  out_ += std::isfinite(d) ? fmt::format("{:.4g}", d) : "null";
  return *this;
}

JsonWriter& JsonWriter::value(bool b) {
  before_value();
  out_ += b ? "true" : "false";
  return *this;
}

JsonWriter& JsonWriter::null() {
  before_value();
  out_ += "null";
  return *this;
}

}  // namespace gpudiag
