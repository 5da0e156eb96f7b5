// Baselines: findings a team has accepted, so that a CI gate trips only on new ones (docs/baseline.md).
//
//   Result<Baseline> baseline = parse_baseline(text, "gpudiag-baseline.yaml");
//   RankedReport report = apply_baseline(rank(analysis), *baseline, "2025-06-30");   // report.h
//   bool tripped = trips_gate(report, Impact::kError);   // suppressed findings never trip it
//
// An entry names a rule id and a finding fingerprint (Finding::fingerprint), says why it is
// accepted, and may expire. Expired entries no longer suppress; they and entries that match nothing
// are stale, and every report shows them so the file is kept tidy. An entry written by an older
// gpudiag names the finding's v2 (Finding::fingerprint_v2) or v1 (Finding::legacy_fingerprint)
// fingerprint: it still matches, and baseline_refresh_note() says how to bring the file up to date.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/result.h"

namespace gpudiag {

struct BaselineEntry {
  std::string rule_id;
  std::string fingerprint;
  std::string reason;
  std::string expires;  // "YYYY-MM-DD" (suppresses through that day), or "" for never
  uint64_t line = 0;    // where the entry starts in its file (1-based)
};

struct Baseline {
  std::string file;  // as given, for messages
  std::vector<BaselineEntry> entries;
};

// Parses a baseline file (YAML, or JSON, which is YAML too). Fails with the first problem; every
// problem has the file, line and column, the offending line and a hint.
Result<Baseline> parse_baseline(std::string_view text, std::string_view file);
// Every problem in the file (empty when it parses).
Diagnostics lint_baseline(std::string_view text, std::string_view file);
// Whether `s` is a date an entry may expire on: YYYY-MM-DD, a day that exists.
bool is_baseline_date(std::string_view s);

// What applying a baseline found, per entry.
enum class BaselineState : uint8_t {
  kSuppressing,  // matched a finding and suppressed it
  kExpired,      // past its date: suppresses nothing (stale)
  kUnused,       // matched no finding (stale)
};
std::string_view baseline_state_name(BaselineState s);  // "suppressing", "expired", "unused"

struct BaselineEntryReview {
  BaselineEntry entry;
  BaselineState state = BaselineState::kUnused;
  std::vector<std::string> matched;  // rule ids of the findings it matched (expired ones too)
  // Set when the entry matched through a finding's v1 fingerprint: the fingerprint to write instead.
  std::string current_fingerprint;
};

struct BaselineReview {
  std::string file;
  std::vector<BaselineEntryReview> entries;  // in file order
  size_t suppressed = 0;                     // findings suppressed
  size_t stale() const;                      // expired + unused entries
};

// A note for people when entries matched only through v1 fingerprints (the baseline predates XXH3
// fingerprints): which lines, and the fingerprints to write there. "" when there are none.
std::string baseline_refresh_note(const BaselineReview& review);

}  // namespace gpudiag
