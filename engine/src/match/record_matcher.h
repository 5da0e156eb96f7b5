// Matches one record against every signal of a RulePack: one RE2::Set pass per text field, then only
// the candidate signals are evaluated. It only matches: the job tallies (job_tally.h) and the
// unexplained-errors screen are stages of their own that the pipeline calls beside it
// (record_pipeline.h). One RecordMatcher per thread. Internal to engine.
#pragma once

#include <unordered_map>
#include <vector>

#include "gpudiag/ingest.h"
#include "observations.h"
#include "pack/pack.h"

namespace gpudiag::detail {

// What the whole text of an oversized entry matched (its record holds only a crop): per pattern
// of the message/exception set, the line it matched on and its named groups.
// The line a regex matched on, and where on it the match is.
struct MatchedLine {
  std::string line;
  size_t at = std::string::npos;  // npos: unknown
  size_t length = 0;
};

struct LongTextMatches : LongTextFindings {
  struct PatternHit {
    int pattern = -1;
    MatchedLine matched_line;
    Captures captures;
  };
  std::vector<PatternHit> hits;  // the first window each pattern matched in

  const PatternHit* find(int pattern) const;
};

// Shown an oversized entry's message and exception window by window as ingest streams it
// (LongTextObserver): runs the pack's set over each window. One per reading thread.
class LongTextMatcher : public LongTextObserver {
 public:
  explicit LongTextMatcher(const CompiledRulePack& pack) : pack_(pack) {}
  void start_entry() override;
  void window(LongTextField field, std::string_view text) override;
  std::shared_ptr<const LongTextFindings> finish_entry() override;

 private:
  const CompiledRulePack& pack_;
  std::shared_ptr<LongTextMatches> current_;
  std::vector<uint8_t> seen_;  // per pattern: already matched in an earlier window
  std::vector<int> set_hits_;
};

class RecordMatcher {
 public:
  explicit RecordMatcher(const CompiledRulePack& pack);

  // What the whole text of the chunk's oversized entry matched (nullptr: none); set per chunk.
  void set_long_text(const LongTextMatches* matches) { long_text_ = matches; }

  // Call before the first record of each chunk (with a fresh or cleared ChunkObservations).
  void start_chunk() { first_hit_.clear(); }

  // Appends to `out` a Hit per signal the record satisfies; `job` is the record's (JobTally::note).
  void match(const LogRecord& record, size_t entry_index, JobSeen& job, ChunkObservations& out);

  // Of the record match() was given last: the rules that took it as evidence (kept or not) …
  const std::vector<int>& claimed_by() const { return claimed_by_; }
  // … and the policy's quiet shapes it has, one bit each (computed once per record).
  uint32_t quiet_shapes(const LogRecord& r);

 private:
  // Runs the set over one field's text, stamping the patterns written for that field (or for text).
  void run_set(std::string_view text, Field field);
  bool eval(const CompiledCondition& c, int node, const LogRecord& r);
  bool pattern_matches(int pattern, const LogRecord& r);
  void take_captures(const Signal& s, const LogRecord& r, Captures& out);
  // Its named groups, if it matched, each cropped to `limit` bytes.
  void capture(int pattern, const LogRecord& r, Captures& out, size_t limit = kCaptureBytes);
  // The text an extractor's decoder reads: from the start of its `decode` group to the end of the
  // field, up to kObservedTextBytes ("" when the group did not take part).
  std::string decode_text(const Signal& s, const LogRecord& r, std::string_view group);
  MatchedLine matched_line(const Signal& s, const LogRecord& r);
  // Whether a hit of signal `si` is worth keeping, given the hits already kept in this chunk.
  bool wanted(int si, const Signal& s, const LogRecord& r, JobSeen& job, ChunkObservations& out);

  const CompiledRulePack& pack_;
  const LongTextMatches* long_text_ = nullptr;
  std::vector<int> set_hits_;
  std::vector<uint32_t> pattern_stamp_;  // == stamp_: matched by a set for this record
  std::vector<uint32_t> lazy_stamp_;     // == stamp_: lazily evaluated for this record …
  std::vector<uint8_t> lazy_value_;      // … with this result
  std::vector<uint32_t> signal_stamp_;
  std::vector<int> candidates_;
  std::vector<int> claimed_by_;  // the current record's: rules that took it as evidence
  // Per (job in the chunk, signal): index in out.hits of the chunk's kept hit; for fact extractors,
  // how many of the chunk's hits were kept. Keyed `ordinal << 32 | signal`; looked up on hits only.
  std::unordered_map<uint64_t, int64_t> first_hit_;
  uint32_t stamp_ = 0;
  uint32_t quiet_stamp_ = 0;  // == stamp_: quiet_ is this record's
  uint32_t quiet_ = 0;
};

// The field a condition tests, as text ("" when the record has none).
std::string_view field_value(const LogRecord& r, Field f, std::string_view label_key);

}  // namespace gpudiag::detail
