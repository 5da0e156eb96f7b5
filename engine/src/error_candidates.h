// Error candidates: the entries no rule claimed that may still say why a job failed — an entry at
// ERROR or above (read through glog/absl and Python logging prefixes, which stderr carries at ERROR
// whatever their level), a Python traceback or a Java `Caused by:` chain at any severity, a
// job-message error. Taken on the matching thread, after the record's signals, and parsed there
// (error_text.h) so that grouping in input order is cheap. Internal to engine.
#pragma once

#include <re2/re2.h>

#include <memory>
#include <string_view>
#include <vector>

#include "compiled_rule_pack.h"
#include "evidence_excerpt.h"
#include "gpudiag/log_record.h"
#include "observations.h"

namespace gpudiag::detail {

// The severity that picks candidates: the entry's own, except that a line of stderr logged at ERROR
// says its real level in its prefix ("I0512 10:01:02.345 …", "2024-05-12 10:01:02.345: W tensorflow/…",
// "WARNING:absl:…"). Used only here: rules' severity filters read the entry's own severity.
Severity effective_severity(const LogRecord& r);

// Whether one line, logged alone, is a piece of a traceback (its header, a frame, a source line
// under a frame, a chaining line, an exception line, a Java `at`/`Caused by:`/`... N more` line).
bool is_traceback_fragment(std::string_view line);

class ErrorCandidates {
 public:
  explicit ErrorCandidates(const CompiledRulePack& pack);

  // Whether the record may be a candidate (cheap: its severity and whether it holds a traceback).
  static bool may_be_candidate(const LogRecord& r);
  // Whether its first line is one the pack's benign_errors name (never a candidate). Asked before the
  // matcher's quiet shapes: most ERROR chatter of green runs is benign, and one RE2 is the cheaper test.
  bool is_benign(const LogRecord& r) const;
  // Takes a record that may be, after its signals were evaluated (`claimed_by`: the rules that took
  // it as evidence) and known to be neither benign nor quiet (help text, DEBUG chatter … are never
  // candidates).
  void take(const LogRecord& r, std::string_view job, size_t entry_index, const std::vector<int>& claimed_by,
            ChunkObservations& out) const;

 private:
  const FrameFilter& frameworks_;
  std::unique_ptr<RE2> benign_;  // the pack's benign_errors, one alternation (null: none)
};

}  // namespace gpudiag::detail
