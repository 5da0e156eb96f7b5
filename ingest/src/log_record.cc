#include "gpudiag/log_record.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <vector>

#include "gpudiag/utf8.h"

namespace gpudiag {
namespace {

// Every string view of a LogRecord, so copying and rebasing never misses a field.
constexpr std::array kViewFields = {
    &LogRecord::log,      &LogRecord::message, &LogRecord::exception,  &LogRecord::worker,        &LogRecord::logger,
    &LogRecord::thread,   &LogRecord::step,    &LogRecord::sdk_worker, &LogRecord::insert_id,     &LogRecord::job_id,
    &LogRecord::job_name, &LogRecord::project, &LogRecord::region,     &LogRecord::resource_type,
};

template <typename Fn>
void for_each_view(LogRecord& r, Fn&& fn) {
  for (auto field : kViewFields) fn(r.*field);
  for (size_t i = 0; i < r.label_count; ++i) {
    fn(r.labels[i].key);
    fn(r.labels[i].value);
  }
}

// Where the head and the tail of a crop end and start: on character boundaries.
size_t head_end(std::string_view text, size_t want) {
  size_t end = std::min(want, text.size());
  while (end > 0 && end < text.size() && is_utf8_continuation(text[end])) --end;
  return end;
}
size_t tail_begin(std::string_view text, size_t want) {
  size_t begin = text.size() - std::min(want, text.size());
  while (begin < text.size() && is_utf8_continuation(text[begin])) ++begin;
  return begin;
}

// Copies every view of `src` into one new block, `storage`, and points `dst`'s views there; a view
// longer than `max_text` keeps its head and tail. Returns the bytes left out. The block is never
// zero-filled (the copy fills it) and never moves, so a moved KeptRecord keeps its views as they are.
uint64_t deep_copy(const LogRecord& src, std::unique_ptr<char[]>& storage, LogRecord& dst, size_t max_text) {
  dst = src;
  dst.unescaped_message = {};  // the reader's notes name its buffers, not the copy
  dst.unescaped_exception = {};
  size_t total = 0;
  bool crops = false;
  for_each_view(dst, [&](std::string_view& v) {
    total += v.size();
    crops = crops || v.size() > max_text;
  });
  std::vector<std::string> crops_made;  // rare: a view over max_text, cropped first
  uint64_t cropped = 0;
  if (crops) {
    crops_made.reserve(kViewFields.size() + 2 * LogRecord::kMaxLabels);  // views into them stay put
    total = 0;
    for_each_view(dst, [&](std::string_view& v) {
      if (v.size() > max_text) {
        crops_made.push_back(crop_text(v, max_text));
        cropped += v.size() - std::min(v.size(), crops_made.back().size());
        v = crops_made.back();
      }
      total += v.size();
    });
  }
  storage = std::make_unique_for_overwrite<char[]>(std::max<size_t>(total, 1));
  char* at = storage.get();
  for_each_view(dst, [&](std::string_view& v) {
    if (!v.empty()) std::memcpy(at, v.data(), v.size());
    v = std::string_view(at, v.size());
    at += v.size();
  });
  return cropped;
}

}  // namespace

std::string_view LogRecord::label(std::string_view key) const {
  for (size_t i = 0; i < label_count; ++i) {
    if (labels[i].key == key) return labels[i].value;
  }
  return {};
}

std::string crop_text(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  const size_t head = head_end(text, max_bytes - max_bytes / 4);
  const size_t tail = tail_begin(text, max_bytes / 4);
  std::string out(text.substr(0, head));
  out += fmt::format("\n[… {} bytes cropped …]\n", tail - head);
  out.append(text.substr(tail));
  return out;
}

KeptRecord::KeptRecord(const LogRecord& r, size_t max_text_bytes) {
  cropped_bytes_ = deep_copy(r, storage_, record_, max_text_bytes);
}

KeptRecord& KeptRecord::operator=(const KeptRecord& other) {
  if (this != &other) {
    deep_copy(other.record_, storage_, record_, kWhole);
    cropped_bytes_ = other.cropped_bytes_;
  }
  return *this;
}

// The block does not move with its owner: the views stay valid as they are.
KeptRecord::KeptRecord(KeptRecord&& other) noexcept
    : cropped_bytes_(other.cropped_bytes_), storage_(std::move(other.storage_)), record_(other.record_) {
  other.record_ = LogRecord{};
}

KeptRecord& KeptRecord::operator=(KeptRecord&& other) noexcept {
  if (this == &other) return *this;
  storage_ = std::move(other.storage_);  // our old block is freed here
  record_ = other.record_;
  cropped_bytes_ = other.cropped_bytes_;
  other.record_ = LogRecord{};
  return *this;
}

std::string_view short_log_name(std::string_view log_name) {
  // One backward scan for the last '/' or URL-encoded "%2F" (hot: every entry has a logName).
  for (size_t i = log_name.size(); i-- > 0;) {
    const char c = log_name[i];
    if (c == '/') return log_name.substr(i + 1);
    if ((c == 'F' || c == 'f') && i >= 2 && log_name[i - 1] == '2' && log_name[i - 2] == '%') {
      return log_name.substr(i + 1);
    }
  }
  return log_name;
}

}  // namespace gpudiag
