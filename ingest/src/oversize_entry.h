// Reading an entry too large to parse whole (over ReadLimits::max_entry_bytes), as it streams past.
// Internal to ingest.
//
// simdjson indexes a whole document at once (about four bytes of index per byte of input), so a
// 200 MB message would cost a gigabyte. Instead the entry's bytes are fed here piece by piece: a
// small JSON tokenizer keeps only the fields a LogRecord is made of (log name, payload message and
// exception, severity, times, ids, resource, labels …) in a compact copy of the entry, each long
// string cropped to its head and tail, and shows the whole message and exception to a
// LongTextObserver in overlapping windows. The compact copy is then parsed like any other entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpudiag/ingest.h"

namespace gpudiag::detail {

struct OversizeCaps {
  size_t kept_string_bytes;  // a longer string keeps its head and tail, this much in all
  size_t compact_bytes;      // fields past this size of the compact copy are left out
  size_t window_bytes;       // text shown to the observer at a time
  size_t window_overlap;

  static OversizeCaps for_limit(uint64_t max_entry_bytes);
};

class OversizeEntry {
 public:
  OversizeEntry(const OversizeCaps& caps, LongTextObserver* observer);

  // Feeds the next bytes of the entry, the first starting at its '{'. Returns how many were used:
  // all of them, or those up to and including the closing brace (then done()).
  size_t feed(const char* data, size_t size);

  bool done() const { return state_ == State::kDone; }
  // Not JSON the tokenizer can follow (the entry is lost, as a malformed one would be).
  bool failed() const { return state_ == State::kFailed; }
  uint64_t bytes() const { return bytes_; }
  uint64_t newlines() const { return newlines_; }
  // The entry as compact JSON with only the kept fields (one line: newlines in strings are escaped).
  const std::string& compact() const { return compact_; }
  // What was cropped or left out, for the input's problems ("jsonPayload.message: 200000000 bytes").
  const std::vector<std::string>& crops() const { return crops_; }

 private:
  enum class State : uint8_t { kValue, kKeyOrEnd, kColon, kCommaOrEnd, kString, kScalar, kDone, kFailed };
  // What a value is to a LogRecord, from where it sits.
  enum class Role : uint8_t { kSkip, kTop, kJsonPayload, kProtoPayload, kProtoStatus, kKeepAll };
  struct Frame {
    bool object;
    Role role;
    bool keep;          // emitted to the compact copy
    bool first = true;  // no member emitted yet
    std::string key;    // the current member's key (raw)
    std::string path;   // for crop notes: "jsonPayload"
  };

  void step(char c);
  void start_value(char c);
  void end_value();
  void member_role(Frame& parent, Role& role, int& long_text) const;
  void string_byte(char c);
  void text_byte(char c);                       // one unescaped byte of a value string
  void text_bytes(const char* data, size_t n);  // a run of them
  void text_code_point(uint32_t cp);
  void finish_string();
  void emit_separator(Frame& parent);

  OversizeCaps caps_;
  LongTextObserver* observer_;
  State state_ = State::kValue;
  State after_string_ = State::kCommaOrEnd;
  std::vector<Frame> stack_;
  std::string compact_;
  std::vector<std::string> crops_;
  uint64_t bytes_ = 0;
  uint64_t newlines_ = 0;
  bool left_out_noted_ = false;

  // The value about to start: its role and whether it is kept (set by the key, or the array).
  Role value_role_ = Role::kTop;
  bool value_keep_ = true;
  int value_long_text_ = -1;  // LongTextField of the value, or -1
  std::string value_path_;

  // The string being read.
  bool string_is_key_ = false;
  bool string_keep_ = false;
  int string_long_text_ = -1;
  std::string string_path_;
  int escape_ = 0;  // 0 none, 1 after '\\', 2..5 reading \u hex digits
  uint32_t hex_ = 0;
  uint32_t high_surrogate_ = 0;
  uint64_t text_total_ = 0;  // unescaped bytes of the string so far
  std::string head_;         // its first bytes (up to the kept size) …
  std::string tail_;         // … and its latest (once longer)
  std::string window_;       // text not yet shown to the observer

  // The scalar (number, true, false, null) being read.
  bool scalar_keep_ = false;
};

}  // namespace gpudiag::detail
