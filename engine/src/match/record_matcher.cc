#include "record_matcher.h"

#include <algorithm>

#include "pack/pack.h"

namespace gpudiag::detail {

std::string_view field_value(const LogRecord& r, Field f, std::string_view label_key) {
  switch (f) {
    case Field::kMessage:
      return r.message;
    case Field::kException:
      return r.exception;
    case Field::kLog:
      return r.log;
    case Field::kSeverity:
      return severity_name(r.severity);
    case Field::kWorker:
      return r.worker;
    case Field::kLogger:
      return r.logger;
    case Field::kThread:
      return r.thread;
    case Field::kStep:
      return r.step;
    case Field::kSdkWorker:
      return r.sdk_worker;
    case Field::kJobId:
      return r.job_id;
    case Field::kJobName:
      return r.job_name;
    case Field::kRegion:
      return r.region;
    case Field::kResourceType:
      return r.resource_type;
    case Field::kLabel:
      return r.label(label_key);
    case Field::kText:
      return r.message;
  }
  return {};
}

namespace {

// The line of `text` that holds the match [at, at + length), at most 2000 bytes of it: from the
// line's start, or from a little before the match when the match lies further in (a single-line
// message of kilobytes), so the match is in what is kept.
MatchedLine line_at(std::string_view text, size_t at, size_t length) {
  constexpr size_t kMaxLine = 2000;
  const size_t begin = text.rfind('\n', at);
  size_t from = begin == std::string_view::npos ? 0 : begin + 1;
  const size_t end = text.find('\n', at);
  if (at - from + std::min<size_t>(length, 200) > kMaxLine) from = at - std::min<size_t>(at - from, 200);
  while (from > 0 && from < text.size() && (static_cast<unsigned char>(text[from]) & 0xC0) == 0x80) ++from;
  const std::string_view line = text.substr(from, end == std::string_view::npos ? std::string_view::npos : end - from);
  MatchedLine out;
  out.line = std::string(line.substr(0, kMaxLine));
  out.at = at - from;
  out.length = std::min(length, out.line.size() - std::min(out.at, out.line.size()));
  if (out.at >= out.line.size()) out.at = std::string::npos;
  return out;
}

}  // namespace

const LongTextMatches::PatternHit* LongTextMatches::find(int pattern) const {
  for (const auto& h : hits) {
    if (h.pattern == pattern) return &h;
  }
  return nullptr;
}

void LongTextMatcher::start_entry() {
  current_ = std::make_shared<LongTextMatches>();
  seen_.assign(pack_.patterns.size(), 0);
}

void LongTextMatcher::window(LongTextField which, std::string_view text) {
  if (!current_ || !pack_.text_set) return;
  const Field field = which == LongTextField::kMessage ? Field::kMessage : Field::kException;
  set_hits_.clear();
  RE2::Set::ErrorInfo error{};
  if (!pack_.text_set->Match(text, &set_hits_, &error)) {
    set_hits_.clear();
    if (error.kind == RE2::Set::kNoError) return;
    for (size_t i = 0; i < pack_.set_patterns.size(); ++i) {  // the DFA ran out of memory: one by one
      if (RE2::PartialMatch(text, *pack_.patterns[pack_.set_patterns[i]].re)) set_hits_.push_back(static_cast<int>(i));
    }
  }
  for (int i : set_hits_) {
    const int p = pack_.set_patterns[i];
    const Pattern& pattern = pack_.patterns[p];
    if ((pattern.field != Field::kText && pattern.field != field) || seen_[p]) continue;
    seen_[p] = 1;
    LongTextMatches::PatternHit hit;
    hit.pattern = p;
    const int groups = pattern.re->NumberOfCapturingGroups();
    std::vector<re2::StringPiece> sub(static_cast<size_t>(groups) + 1);
    if (pattern.re->Match(text, 0, text.size(), RE2::UNANCHORED, sub.data(), groups + 1)) {
      hit.matched_line = line_at(text, static_cast<size_t>(sub[0].data() - text.data()), sub[0].size());
      for (const auto& [name, index] : pattern.re->NamedCapturingGroups()) {
        if (sub[index].data() != nullptr && !sub[index].empty()) {
          hit.captures.emplace_back(name,
                                    crop_text(std::string_view(sub[index].data(), sub[index].size()), kCaptureBytes));
        }
      }
    }
    current_->hits.push_back(std::move(hit));
  }
}

std::shared_ptr<const LongTextFindings> LongTextMatcher::finish_entry() { return std::move(current_); }

RecordMatcher::RecordMatcher(const CompiledRulePack& pack)
    : pack_(pack),
      pattern_stamp_(pack.patterns.size(), 0),
      lazy_stamp_(pack.patterns.size(), 0),
      lazy_value_(pack.patterns.size(), 0),
      signal_stamp_(pack.signals.size(), 0) {
  set_hits_.reserve(pack.patterns.size());
}

void RecordMatcher::run_set(std::string_view text, Field field) {
  set_hits_.clear();
  RE2::Set::ErrorInfo error{};
  // Most short messages match nothing: asking only "any match?" first skips the per-call
  // allocation of the match list. Long texts (tracebacks) usually match something, and a second
  // scan would cost more than the allocation saves.
  constexpr size_t kPrecheckBelow = 256;
  if (text.size() < kPrecheckBelow && !pack_.text_set->Match(text, nullptr, &error) &&
      error.kind == RE2::Set::kNoError) {
    return;
  }
  const auto stamp = [&](int p) {
    const Field f = pack_.patterns[p].field;
    if (f == Field::kText || f == field) pattern_stamp_[p] = stamp_;
  };
  if (pack_.text_set->Match(text, &set_hits_, &error)) {
    for (int i : set_hits_) stamp(pack_.set_patterns[i]);
    return;
  }
  if (error.kind == RE2::Set::kNoError) return;  // no pattern matched
  // The set's DFA ran out of memory on this text: try each pattern on its own. Slow but exact.
  set_hits_.clear();
  for (size_t i = 0; i < pack_.set_patterns.size(); ++i) {
    if (RE2::PartialMatch(text, *pack_.patterns[pack_.set_patterns[i]].re)) {
      set_hits_.push_back(static_cast<int>(i));
      stamp(pack_.set_patterns[i]);
    }
  }
}

bool RecordMatcher::pattern_matches(int pattern, const LogRecord& r) {
  const Pattern& p = pack_.patterns[pattern];
  if (p.in_set) return pattern_stamp_[pattern] == stamp_;  // the sets already answered
  if (lazy_stamp_[pattern] != stamp_) {
    lazy_stamp_[pattern] = stamp_;
    bool matched = false;
    if (p.field == Field::kText) {
      matched = RE2::PartialMatch(r.message, *p.re) || (!r.exception.empty() && RE2::PartialMatch(r.exception, *p.re));
    } else {
      matched = RE2::PartialMatch(field_value(r, p.field, p.label_key), *p.re);
    }
    lazy_value_[pattern] = matched ? 1 : 0;
  }
  return lazy_value_[pattern] != 0;
}

bool RecordMatcher::eval(const CompiledCondition& c, int node, const LogRecord& r) {
  const auto& n = c.nodes[node];
  switch (n.kind) {
    case ConditionSpec::Kind::kRegex:
      return pattern_matches(n.pattern, r);
    case ConditionSpec::Kind::kOneOf: {
      const std::string_view v = field_value(r, n.field, n.label_key);
      return std::find(n.names.begin(), n.names.end(), v) != n.names.end();
    }
    case ConditionSpec::Kind::kSeverityAtLeast:
      return r.severity >= n.min_severity;
    case ConditionSpec::Kind::kAll:
      for (int child : n.children) {
        if (!eval(c, child, r)) return false;
      }
      return true;
    case ConditionSpec::Kind::kAny:
      for (int child : n.children) {
        if (eval(c, child, r)) return true;
      }
      return false;
    case ConditionSpec::Kind::kNot:
      for (int child : n.children) {
        if (eval(c, child, r)) return false;
      }
      return true;
    case ConditionSpec::Kind::kCaptureTest: {
      // The groups the condition's own regexes captured on this record, compared as written.
      Captures captured;
      for (const auto& other : c.nodes) {
        if (other.pattern >= 0 && pack_.patterns[other.pattern].has_captures) capture(other.pattern, r, captured);
      }
      const ValueLookup lookup = [&](const std::string& name) -> std::optional<std::string> {
        for (const auto& [k, v] : captured) {
          if (k == name) return v;
        }
        return std::nullopt;
      };
      return run_all(n.capture_tests, lookup) == Tri::kTrue;
    }
  }
  return false;
}

void RecordMatcher::take_captures(const Signal& s, const LogRecord& r, Captures& out) {
  for (int pi : s.capture_patterns) capture(pi, r, out);
}

std::string RecordMatcher::decode_text(const Signal& s, const LogRecord& r, std::string_view group) {
  // The value starts where the group does and runs to its own end (a dict's closing brace, a JSON
  // object's): the decoder gets the text from there, so the pattern needs no `.*` to reach it —
  // which would cost every entry in the set, and a slow submatch on every hit.
  for (int pi : s.capture_patterns) {
    const Pattern& p = pack_.patterns[pi];
    const auto& names = p.re->NamedCapturingGroups();  // RE2 keeps the map: no copy per hit
    const auto it = names.find(std::string(group));
    if (it == names.end()) continue;
    std::vector<re2::StringPiece> sub(static_cast<size_t>(it->second) + 1);
    for (std::string_view text : {r.message, r.exception}) {
      if (text.empty() || (p.field == Field::kMessage && text.data() != r.message.data()) ||
          (p.field == Field::kException && text.data() != r.exception.data())) {
        continue;
      }
      if (!p.re->Match(text, 0, text.size(), RE2::UNANCHORED, sub.data(), static_cast<int>(sub.size()))) continue;
      if (sub.back().data() == nullptr) continue;
      const size_t from = static_cast<size_t>(sub.back().data() - text.data());
      return std::string(text.substr(from, kObservedTextBytes));
    }
  }
  return {};
}

void RecordMatcher::capture(int pi, const LogRecord& r, Captures& out, size_t limit) {
  if (!pattern_matches(pi, r)) return;
  if (long_text_ != nullptr) {
    if (const auto* hit = long_text_->find(pi)) {  // the whole text matched, not only the crop
      out.insert(out.end(), hit->captures.begin(), hit->captures.end());
      return;
    }
  }
  const Pattern& p = pack_.patterns[pi];
  const int groups = p.re->NumberOfCapturingGroups();
  std::vector<re2::StringPiece> sub(static_cast<size_t>(groups) + 1);
  const auto try_text = [&](std::string_view text) {
    return !text.empty() && p.re->Match(text, 0, text.size(), RE2::UNANCHORED, sub.data(), groups + 1);
  };
  const bool found = p.field == Field::kException ? try_text(r.exception)
                     : p.field == Field::kMessage ? try_text(r.message)
                     : p.field == Field::kText    ? (try_text(r.message) || try_text(r.exception))
                                                  : try_text(field_value(r, p.field, p.label_key));
  if (!found) return;
  for (const auto& [name, index] : p.re->NamedCapturingGroups()) {
    if (sub[index].data() != nullptr && !sub[index].empty()) {
      out.emplace_back(name, crop_text(std::string_view(sub[index].data(), sub[index].size()), limit));
    }
  }
}

MatchedLine RecordMatcher::matched_line(const Signal& s, const LogRecord& r) {
  // The first regex of the condition that matched the message or exception, and the line it is on.
  for (const auto& n : s.condition.nodes) {
    if (n.pattern < 0 || !pattern_matches(n.pattern, r)) continue;
    if (long_text_ != nullptr) {
      if (const auto* hit = long_text_->find(n.pattern)) return hit->matched_line;
    }
    const Pattern& p = pack_.patterns[n.pattern];
    for (std::string_view text : {r.message, r.exception}) {
      if (text.empty() || (p.field == Field::kMessage && text.data() != r.message.data()) ||
          (p.field == Field::kException && text.data() != r.exception.data())) {
        continue;
      }
      re2::StringPiece match;
      if (!p.re->Match(text, 0, text.size(), RE2::UNANCHORED, &match, 1)) continue;
      return line_at(text, static_cast<size_t>(match.data() - text.data()), match.size());
    }
  }
  return {};
}

bool RecordMatcher::wanted(int si, const Signal& s, const LogRecord& r, JobSeen& job, ChunkObservations& out) {
  if (s.role == SignalRole::kObserver) {
    const FactExtractorSpec& x = pack_.extractors[s.extractor];
    if (!x.phase.empty() || !x.worker_count.empty()) return true;  // each is a point on the timeline
    // Facts keep the strongest, then the first value, and list their first sources: a chunk keeps
    // the first few hits and counts the others.
    int64_t& kept = first_hit_.try_emplace(uint64_t{job.ordinal} << 32 | static_cast<uint32_t>(si), 0).first->second;
    if (static_cast<size_t>(kept) < kFactSightings) {
      ++kept;
      return true;
    }
    ++job.extractor_overflow[si];
    return false;
  }
  if (s.role != SignalRole::kAbsentStart) return true;
  // An absence starts at its earliest entry, so a chunk needs one hit of its start: the earliest.
  int64_t& kept = first_hit_.try_emplace(uint64_t{job.ordinal} << 32 | static_cast<uint32_t>(si), -1).first->second;
  if (kept < 0) {
    kept = static_cast<int64_t>(out.hits.size());
    return true;
  }
  Hit& old = out.hits[static_cast<size_t>(kept)];
  if (r.timestamp == kNoTime || (old.at != kNoTime && old.at <= r.timestamp)) return false;
  old.signal = -1;  // superseded: dropped when the chunk is merged
  kept = static_cast<int64_t>(out.hits.size());
  return true;
}

uint32_t RecordMatcher::quiet_shapes(const LogRecord& r) {
  if (quiet_stamp_ == stamp_) return quiet_;
  quiet_stamp_ = stamp_;
  quiet_ = 0;
  const auto& shapes = pack_.policy.quiet;
  for (size_t q = 0; q < shapes.size(); ++q) {
    const auto& sev = shapes[q].severities;
    if (!sev.empty() && std::find(sev.begin(), sev.end(), r.severity) == sev.end()) continue;
    const int p = pack_.quiet_patterns[q];
    if (p >= 0 && !pattern_matches(p, r)) continue;
    quiet_ |= uint32_t{1} << q;
  }
  return quiet_;
}

void RecordMatcher::match(const LogRecord& r, size_t entry_index, JobSeen& job, ChunkObservations& out) {
  if (++stamp_ == 0) {  // wrapped: reset the stamps
    quiet_stamp_ = 0;
    std::fill(pattern_stamp_.begin(), pattern_stamp_.end(), 0);
    std::fill(lazy_stamp_.begin(), lazy_stamp_.end(), 0);
    std::fill(signal_stamp_.begin(), signal_stamp_.end(), 0);
    stamp_ = 1;
  }
  candidates_.clear();
  const auto collect = [&] {
    for (int i : set_hits_) {
      const int p = pack_.set_patterns[i];
      if (pattern_stamp_[p] != stamp_) continue;  // a hit in the other field's text
      for (int s : pack_.signals_by_pattern[p]) {
        if (signal_stamp_[s] != stamp_) {
          signal_stamp_[s] = stamp_;
          candidates_.push_back(s);
        }
      }
    }
  };
  if (!r.message.empty()) {
    run_set(r.message, Field::kMessage);
    collect();
  }
  if (!r.exception.empty()) {
    run_set(r.exception, Field::kException);
    collect();
  }
  if (long_text_ != nullptr) {  // an oversized entry: what its whole text matched
    set_hits_.clear();
    for (const auto& hit : long_text_->hits) {
      pattern_stamp_[hit.pattern] = stamp_;
      for (int s : pack_.signals_by_pattern[hit.pattern]) {
        if (signal_stamp_[s] != stamp_) {
          signal_stamp_[s] = stamp_;
          candidates_.push_back(s);
        }
      }
    }
  }
  for (int s : pack_.always_signals) {
    if (signal_stamp_[s] != stamp_) {
      signal_stamp_[s] = stamp_;
      candidates_.push_back(s);
    }
  }
  claimed_by_.clear();
  std::sort(candidates_.begin(), candidates_.end());  // hits in signal order: deterministic
  for (int si : candidates_) {
    const Signal& s = pack_.signals[si];
    if (!eval(s.condition, 0, r)) continue;
    // A quiet entry (DEBUG chatter, help text …) quotes failure text; it is never evidence. It still
    // counts as an `after` anchor, an absence marker and for facts.
    if (s.role == SignalRole::kEvidence && (quiet_shapes(r) & ~pack_.quiet_exempt[s.rule]) != 0) continue;
    // Kept or not, a rule took this entry as evidence.
    if (s.role == SignalRole::kEvidence && (claimed_by_.empty() || claimed_by_.back() != s.rule)) {
      claimed_by_.push_back(s.rule);
    }
    if (!wanted(si, s, r, job, out)) continue;
    Hit hit;
    hit.signal = si;
    hit.entry_index = entry_index;
    hit.at = r.timestamp;
    hit.job = job.ordinal;
    hit.worker = std::string(r.worker);
    hit.sdk_worker = std::string(r.sdk_worker);
    hit.where = r.where;
    if (s.role == SignalRole::kEvidence || s.role == SignalRole::kObserver) take_captures(s, r, hit.captures);
    if (s.role == SignalRole::kEvidence || s.role == SignalRole::kAbsentStart) {
      hit.record = std::make_unique<KeptRecord>(r, kEvidenceTextBytes);
    }
    if (s.role == SignalRole::kObserver) {
      const FactExtractorSpec& x = pack_.extractors[s.extractor];
      hit.log = std::string(r.log);
      if (!x.phase.empty()) hit.text = std::string(r.message.substr(0, 300));
      if (x.decoder != Decoder::kNone) hit.text = decode_text(s, r, x.decode_group);
    }
    if (s.role == SignalRole::kEvidence) {
      hit.evidence = true;
      hit.logged_as_handled = r.log == "worker" && r.severity != Severity::kDefault && r.severity <= Severity::kWarning;
      MatchedLine line = matched_line(s, r);
      hit.matched_line = std::move(line.line);
      hit.match_at = line.at;
      hit.match_length = line.length;
    }
    out.hits.push_back(std::move(hit));
  }
}

}  // namespace gpudiag::detail
