// One evidence item per failure (see evidence_merge.h).
#include "evidence_merge.h"

#include <re2/re2.h>

#include <algorithm>

namespace gpudiag::detail {
namespace {

// A copy shorter than this must equal the other: "containment" of a few words proves nothing.
constexpr size_t kMinContained = 24;

std::string entry_text_of(const LogRecord& r) {
  std::string text(r.message);
  if (!r.exception.empty()) {
    if (!text.empty()) text += '\n';
    text += r.exception;
  }
  return text;
}

bool texts_match(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  if (a == b) return true;
  const std::string& shorter = a.size() < b.size() ? a : b;
  const std::string& longer = a.size() < b.size() ? b : a;
  return shorter.size() >= kMinContained && longer.find(shorter) != std::string::npos;
}

bool same_source(const LogRecord& a, const LogRecord& b) {
  if (a.log == b.log) return false;  // two entries of one log are two failures (retries)
  if (!a.job_id.empty() && !b.job_id.empty() && a.job_id != b.job_id) return false;
  if (!a.worker.empty() && !b.worker.empty() && a.worker != b.worker) return false;
  if (a.timestamp == kNoTime || b.timestamp == kNoTime) return false;
  const Timestamp apart = a.timestamp > b.timestamp ? a.timestamp - b.timestamp : b.timestamp - a.timestamp;
  return apart <= kCopyWindow;
}

// Which copy to keep: the SDK harness's own (the worker log, with its structured fields), then
// another with a worker (docker), then any over the job-message copy (which may be cut and flattened).
int completeness(const LogRecord& r) {
  if (r.log == "job-message") return 0;
  if (r.worker.empty()) return 1;
  return r.log == "worker" ? 3 : 2;
}

}  // namespace

Wrappers compile_wrappers(const std::vector<std::string>& patterns) {
  Wrappers out;
  for (const auto& p : patterns) {
    auto re = std::make_shared<const RE2>(p, RE2::Quiet);
    if (re->ok()) out.push_back(std::move(re));  // the loader reported the others
  }
  return out;
}

std::string failure_text(std::string_view text, const Wrappers& wrappers) {
  std::string s(text);
  for (const auto& w : wrappers) RE2::GlobalReplace(&s, *w, "");
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') out += c;
  }
  for (std::string_view cut : {"...", "…"}) {
    if (out.size() >= cut.size() && out.compare(out.size() - cut.size(), cut.size(), cut) == 0) {
      out.resize(out.size() - cut.size());
    }
  }
  return out;
}

bool same_failure(const LogRecord& a, const LogRecord& b, const Wrappers& wrappers) {
  return same_source(a, b) &&
         texts_match(failure_text(entry_text_of(a), wrappers), failure_text(entry_text_of(b), wrappers));
}

void merge_copies(std::vector<Evidence>& evidence, const Wrappers& wrappers) {
  if (evidence.size() < 2) return;
  std::vector<std::string> texts;
  texts.reserve(evidence.size());
  for (const auto& e : evidence) texts.push_back(failure_text(entry_text_of(e.entry.record()), wrappers));
  // Groups in time order of their first copy; a copy joins the first group it matches every
  // member of, unless the group already has a copy from its log.
  std::vector<std::vector<size_t>> groups;
  for (size_t i = 0; i < evidence.size(); ++i) {
    const LogRecord& r = evidence[i].entry.record();
    bool placed = false;
    for (auto& g : groups) {
      const bool fits = std::all_of(g.begin(), g.end(), [&](size_t j) {
        return same_source(evidence[j].entry.record(), r) && texts_match(texts[j], texts[i]);
      });
      if (fits) {
        g.push_back(i);
        placed = true;
        break;
      }
    }
    if (!placed) groups.push_back({i});
  }
  if (groups.size() == evidence.size()) return;
  std::vector<Evidence> merged;
  merged.reserve(groups.size());
  for (const auto& g : groups) {
    size_t keep = g.front();
    for (size_t j : g) {
      if (completeness(evidence[j].entry.record()) > completeness(evidence[keep].entry.record())) keep = j;
    }
    Evidence item = std::move(evidence[keep]);
    for (size_t j : g) {
      if (j == keep) continue;
      item.also_at.push_back(evidence[j].entry.record().where);
      item.also_at.insert(item.also_at.end(), evidence[j].also_at.begin(), evidence[j].also_at.end());
      const std::string log(evidence[j].entry.record().log);
      if (std::find(item.also_in.begin(), item.also_in.end(), log) == item.also_in.end()) item.also_in.push_back(log);
      for (const auto& other : evidence[j].also_in) {
        if (std::find(item.also_in.begin(), item.also_in.end(), other) == item.also_in.end())
          item.also_in.push_back(other);
      }
    }
    merged.push_back(std::move(item));
  }
  evidence = std::move(merged);
}

}  // namespace gpudiag::detail
