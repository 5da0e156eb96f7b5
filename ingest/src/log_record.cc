#include "gpudiag/log_record.h"

#include <array>
#include <cstring>

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

// Copies every view of `src` into `storage` and points `dst`'s views there.
void deep_copy(const LogRecord& src, std::string& storage, LogRecord& dst) {
  dst = src;
  size_t total = 0;
  for_each_view(dst, [&](std::string_view& v) { total += v.size(); });
  storage.resize(total);  // one allocation; then every view is copied in and repointed
  size_t at = 0;
  for_each_view(dst, [&](std::string_view& v) {
    if (!v.empty()) std::memcpy(storage.data() + at, v.data(), v.size());
    v = std::string_view(storage.data() + at, v.size());
    at += v.size();
  });
}

}  // namespace

std::string_view LogRecord::label(std::string_view key) const {
  for (size_t i = 0; i < label_count; ++i) {
    if (labels[i].key == key) return labels[i].value;
  }
  return {};
}

KeptRecord::KeptRecord(const LogRecord& r) { deep_copy(r, storage_, record_); }

KeptRecord& KeptRecord::operator=(const KeptRecord& other) {
  if (this != &other) deep_copy(other.record_, storage_, record_);
  return *this;
}

// A moved std::string may change its data pointer (small-string buffer), so views are rebased.
KeptRecord::KeptRecord(KeptRecord&& other) noexcept { *this = std::move(other); }

KeptRecord& KeptRecord::operator=(KeptRecord&& other) noexcept {
  if (this == &other) return *this;
  const char* old_base = other.storage_.data();
  record_ = other.record_;
  storage_ = std::move(other.storage_);
  const char* new_base = storage_.data();
  for_each_view(record_, [&](std::string_view& v) {
    if (v.data() != nullptr && !v.empty()) v = std::string_view(new_base + (v.data() - old_base), v.size());
  });
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
