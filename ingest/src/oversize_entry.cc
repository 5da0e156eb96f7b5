#include "oversize_entry.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <string_view>

#include "gpudiag/utf8.h"
#include "json_string.h"

namespace gpudiag::detail {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_scalar_char(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.';
}

// Deeper nesting fails the entry: each level keeps a frame (and a path), so the depth must not grow
// with the input. A LogEntry nests a few levels; simdjson refuses depths past 1024 as well.
constexpr size_t kMaxDepth = 256;
constexpr size_t kMaxKeyBytes = 256;  // longer keys are none a LogRecord reads: their members are left out

void append_escaped(std::string& out, std::string_view text) {
  for (char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (u < 0x20) {
      out += fmt::format("\\u{:04x}", u);
    } else {
      out += c;
    }
  }
}

bool key_in(std::string_view key, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), key) != names.end();
}

}  // namespace

OversizeCaps OversizeCaps::for_limit(uint64_t max_entry_bytes) {
  const size_t limit = static_cast<size_t>(std::max<uint64_t>(max_entry_bytes, 4096));
  OversizeCaps caps{};
  caps.kept_string_bytes = std::min<size_t>(64u << 10, limit / 8);
  caps.compact_bytes = limit / 2;
  caps.window_bytes = std::min<size_t>(1u << 20, std::max(limit / 4, 2 * caps.kept_string_bytes));
  caps.window_overlap = caps.window_bytes / 16;
  return caps;
}

OversizeEntry::OversizeEntry(const OversizeCaps& caps, LongTextObserver* observer) : caps_(caps), observer_(observer) {}

size_t OversizeEntry::feed(const char* data, size_t size) {
  size_t i = 0;
  while (i < size && !done() && !failed()) {
    // Long runs inside a string go in bulk: up to the next quote or backslash.
    if (state_ == State::kString && escape_ == 0 && !string_is_key_) {
      const char* begin = data + i;
      const char* end = data + size;
      const char* stop = begin;
      // In blocks of 64 bytes (memchr is vectorised; a short block keeps a text dense with escapes
      // from being searched far ahead for its next quote at each of them).
      while (stop < end) {
        const size_t block = std::min<size_t>(static_cast<size_t>(end - stop), 64);
        const auto* quote = static_cast<const char*>(std::memchr(stop, '"', block));
        const char* limit = quote != nullptr ? quote : stop + block;
        const auto* slash = static_cast<const char*>(std::memchr(stop, '\\', static_cast<size_t>(limit - stop)));
        if (slash != nullptr || quote != nullptr) {
          stop = slash != nullptr ? slash : quote;
          break;
        }
        stop = limit;
      }
      const size_t n = static_cast<size_t>(stop - begin);
      if (n > 0) {
        newlines_ += static_cast<uint64_t>(std::count(begin, stop, '\n'));
        if (string_keep_) {
          if (high_surrogate_ != 0) text_code_point(0xFFFD);
          high_surrogate_ = 0;
          text_bytes(begin, n);
        }
        bytes_ += n;
        i += n;
        continue;
      }
    }
    const char c = data[i++];
    ++bytes_;
    if (c == '\n') ++newlines_;
    step(c);
  }
  return i;
}

void OversizeEntry::emit_separator(Frame& parent) {
  if (!parent.first) compact_ += ',';
  parent.first = false;
}

void OversizeEntry::member_role(Frame& parent, Role& role, int& long_text) const {
  const std::string_view key = parent.key;
  const int message = static_cast<int>(LongTextField::kMessage);
  const int exception = static_cast<int>(LongTextField::kException);
  role = Role::kSkip;
  long_text = -1;
  if (key.size() > kMaxKeyBytes) return;
  switch (parent.role) {
    case Role::kTop:
      if (key_in(key, {"logName", "log_name", "severity", "severity_number", "timestamp", "receiveTimestamp",
                       "receive_timestamp", "insertId", "insert_id", "resource", "labels", "gpudiag_summary"})) {
        role = Role::kKeepAll;
      } else if (key_in(key, {"textPayload", "text_payload"})) {
        role = Role::kKeepAll;
        long_text = message;
      } else if (key_in(key, {"jsonPayload", "json_payload"})) {
        role = Role::kJsonPayload;
        long_text = message;  // a payload that is a string is the message
      } else if (key_in(key, {"protoPayload", "proto_payload"})) {
        role = Role::kProtoPayload;
      }
      return;
    case Role::kJsonPayload:
      if (key == "message") {
        role = Role::kKeepAll;
        long_text = message;
      } else if (key == "exception") {
        role = Role::kKeepAll;
        long_text = exception;
      } else if (key_in(key, {"logger", "thread", "step", "portability_worker_id", "worker", "job"})) {
        role = Role::kKeepAll;
      }
      return;
    case Role::kProtoPayload:
      if (key == "status") role = Role::kProtoStatus;
      return;
    case Role::kProtoStatus:
      if (key == "message") {
        role = Role::kKeepAll;
        long_text = message;
      }
      return;
    case Role::kKeepAll:
      role = Role::kKeepAll;
      return;
    case Role::kSkip:
      return;
  }
}

void OversizeEntry::step(char c) {
  if (state_ == State::kString) {
    string_byte(c);
    return;
  }
  if (state_ == State::kScalar) {
    if (is_scalar_char(c)) {
      if (scalar_keep_) compact_ += c;
      return;
    }
    end_value();
  }
  if (is_blank(c)) return;
  switch (state_) {
    case State::kValue:
      if (c == ']' && !stack_.empty() && !stack_.back().object && stack_.back().first) {  // "[]"
        const bool keep = stack_.back().keep;
        stack_.pop_back();
        if (keep) compact_ += ']';
        end_value();
        return;
      }
      start_value(c);
      return;
    case State::kKeyOrEnd:
      if (c == '"') {
        stack_.back().key.clear();
        string_is_key_ = true;
        escape_ = 0;
        state_ = State::kString;
      } else if (c == '}') {
        const bool keep = stack_.back().keep;
        stack_.pop_back();
        if (keep) compact_ += '}';
        end_value();
      } else {
        state_ = State::kFailed;
      }
      return;
    case State::kColon: {
      if (c != ':') {
        state_ = State::kFailed;
        return;
      }
      Frame& parent = stack_.back();
      member_role(parent, value_role_, value_long_text_);
      value_keep_ = parent.keep && value_role_ != Role::kSkip;
      value_path_ = parent.path.empty() ? parent.key : parent.path + "." + parent.key;
      if (value_keep_ && compact_.size() >= caps_.compact_bytes) {
        value_keep_ = false;
        if (!left_out_noted_) {
          crops_.push_back(fmt::format("fields after the first {} KiB left out", caps_.compact_bytes >> 10));
          left_out_noted_ = true;
        }
      }
      if (value_keep_) {
        emit_separator(parent);
        compact_ += '"';
        compact_ += parent.key;
        compact_ += "\":";
      }
      state_ = State::kValue;
      return;
    }
    case State::kCommaOrEnd: {
      Frame& top = stack_.back();
      if (c == ',') {
        if (top.object) {
          state_ = State::kKeyOrEnd;
        } else {
          value_role_ = top.role == Role::kSkip ? Role::kSkip : Role::kKeepAll;
          value_keep_ = top.keep && compact_.size() < caps_.compact_bytes;
          value_long_text_ = -1;
          value_path_ = top.path;
          state_ = State::kValue;
        }
      } else if ((c == '}' && top.object) || (c == ']' && !top.object)) {
        const bool keep = top.keep;
        stack_.pop_back();
        if (keep) compact_ += c;
        end_value();
      } else {
        state_ = State::kFailed;
      }
      return;
    }
    default:
      return;
  }
}

void OversizeEntry::start_value(char c) {
  if (stack_.empty() && c != '{') {
    state_ = State::kFailed;  // an entry is an object
    return;
  }
  if (!stack_.empty() && !stack_.back().object && value_keep_) emit_separator(stack_.back());
  if (c == '{' || c == '[') {
    if (stack_.size() >= kMaxDepth) {
      state_ = State::kFailed;
      return;
    }
    stack_.push_back(Frame{.object = c == '{', .role = value_role_, .keep = value_keep_, .path = value_path_});
    if (value_keep_) compact_ += c;
    if (c == '{') {
      state_ = State::kKeyOrEnd;
    } else {
      value_role_ = value_role_ == Role::kSkip ? Role::kSkip : Role::kKeepAll;
      value_long_text_ = -1;
      state_ = State::kValue;
    }
    return;
  }
  if (c == '"') {
    string_is_key_ = false;
    string_keep_ = value_keep_;
    string_long_text_ = value_keep_ ? value_long_text_ : -1;
    string_path_ = value_path_;
    escape_ = 0;
    high_surrogate_ = 0;
    text_total_ = 0;
    head_.clear();
    tail_.clear();
    window_.clear();
    state_ = State::kString;
    return;
  }
  if (is_scalar_char(c)) {
    scalar_keep_ = value_keep_;
    if (scalar_keep_) compact_ += c;
    state_ = State::kScalar;
    return;
  }
  state_ = State::kFailed;
}

void OversizeEntry::end_value() { state_ = stack_.empty() ? State::kDone : State::kCommaOrEnd; }

void OversizeEntry::string_byte(char c) {
  if (string_is_key_) {
    if (escape_ == 0 && c == '"') {
      state_ = State::kColon;
      return;
    }
    escape_ = escape_ == 0 && c == '\\' ? 1 : 0;
    std::string& key = stack_.back().key;
    if (key.size() <= kMaxKeyBytes) key += c;
    return;
  }
  if (escape_ == 0) {
    if (c == '\\') {
      escape_ = 1;
    } else if (c == '"') {
      finish_string();
    } else if (string_keep_) {
      if (high_surrogate_ != 0) text_code_point(0xFFFD);
      high_surrogate_ = 0;
      text_byte(c);
    }
    return;
  }
  if (escape_ == 1) {
    escape_ = 0;
    if (c == 'u') {
      escape_ = 2;
      hex_ = 0;
      return;
    }
    if (!string_keep_) return;
    if (high_surrogate_ != 0) text_code_point(0xFFFD);
    high_surrogate_ = 0;
    switch (c) {
      case 'n':
        text_byte('\n');
        break;
      case 't':
        text_byte('\t');
        break;
      case 'r':
        text_byte('\r');
        break;
      case 'b':
        text_byte('\b');
        break;
      case 'f':
        text_byte('\f');
        break;
      default:
        text_byte(c);  // '"', '\\', '/' (and, leniently, anything else)
        break;
    }
    return;
  }
  // \uXXXX: escape_ counts the hex digits read (2 → none yet).
  const int digit = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
  if (digit < 0) {
    state_ = State::kFailed;
    return;
  }
  hex_ = hex_ * 16 + static_cast<uint32_t>(digit);
  if (++escape_ < 6) return;
  escape_ = 0;
  if (!string_keep_) return;
  if (hex_ >= 0xDC00 && hex_ <= 0xDFFF && high_surrogate_ != 0) {
    text_code_point(0x10000 + ((high_surrogate_ - 0xD800) << 10) + (hex_ - 0xDC00));
    high_surrogate_ = 0;
    return;
  }
  if (high_surrogate_ != 0) text_code_point(0xFFFD);
  high_surrogate_ = 0;
  if (hex_ >= 0xD800 && hex_ <= 0xDBFF) {
    high_surrogate_ = hex_;
  } else {
    text_code_point(hex_ >= 0xDC00 && hex_ <= 0xDFFF ? 0xFFFD : hex_);
  }
}

void OversizeEntry::text_code_point(uint32_t cp) {
  std::string bytes;
  append_utf8(bytes, cp);
  for (char b : bytes) text_byte(b);
}

void OversizeEntry::text_byte(char c) { text_bytes(&c, 1); }

void OversizeEntry::text_bytes(const char* data, size_t n) {
  // As n calls of one byte each would do, in runs: the head fills first, the tail keeps between
  // `kept` and 2 * `kept` of the latest bytes, and the observer sees each full window.
  const size_t kept = caps_.kept_string_bytes;
  text_total_ += n;
  const size_t to_head = std::min(n, kept - std::min(kept, head_.size()));
  head_.append(data, to_head);
  if (to_head < n) {
    const char* rest = data + to_head;
    const size_t rest_n = n - to_head;
    if (rest_n >= kept) {
      tail_.assign(rest + rest_n - kept, kept);  // what byte-wise trimming would leave, or more
    } else {
      tail_.append(rest, rest_n);
      if (tail_.size() > 2 * kept) tail_.erase(0, tail_.size() - kept);
    }
  }
  if (string_long_text_ < 0 || observer_ == nullptr) return;
  while (n > 0) {
    const size_t take = std::min(n, caps_.window_bytes - window_.size());
    window_.append(data, take);
    data += take;
    n -= take;
    if (window_.size() < caps_.window_bytes) return;
    observer_->window(static_cast<LongTextField>(string_long_text_), window_);
    size_t from = window_.size() - caps_.window_overlap;
    const size_t nl = window_.find('\n', from);
    if (nl != std::string::npos && nl + 1 < window_.size()) from = nl + 1;
    window_.erase(0, from);
  }
}

void OversizeEntry::finish_string() {
  state_ = State::kCommaOrEnd;
  if (stack_.empty()) {
    state_ = State::kFailed;
    return;
  }
  if (!string_keep_) return;
  if (high_surrogate_ != 0) text_code_point(0xFFFD);
  high_surrogate_ = 0;
  const size_t kept = caps_.kept_string_bytes;
  const bool cropped = text_total_ > kept;
  compact_ += '"';
  if (!cropped) {
    append_escaped(compact_, head_);
  } else {
    // Head: three quarters of the kept size; tail: the last quarter of the text. Both are cut on
    // character boundaries.
    const size_t tail_want = kept / 4;
    size_t head_len = kept - tail_want;
    while (head_len > 0 && is_utf8_continuation(head_[head_len])) --head_len;
    std::string tail = tail_.size() >= tail_want ? tail_.substr(tail_.size() - tail_want)
                                                 : head_.substr(head_.size() - (tail_want - tail_.size())) + tail_;
    size_t skip = 0;
    while (skip < tail.size() && is_utf8_continuation(tail[skip])) ++skip;
    tail.erase(0, skip);
    append_escaped(compact_, std::string_view(head_).substr(0, head_len));
    append_escaped(compact_, fmt::format("\n[… {} bytes cropped …]\n", text_total_ - head_len - tail.size()));
    append_escaped(compact_, tail);
    crops_.push_back(fmt::format("{} ({} bytes) kept as its first and last bytes, {} in all", string_path_, text_total_,
                                 head_len + tail.size()));
    // The observer sees what the last window left.
    if (string_long_text_ >= 0 && observer_ != nullptr && !window_.empty()) {
      observer_->window(static_cast<LongTextField>(string_long_text_), window_);
    }
  }
  compact_ += '"';
  head_.clear();
  tail_.clear();
  window_.clear();
}

}  // namespace gpudiag::detail
