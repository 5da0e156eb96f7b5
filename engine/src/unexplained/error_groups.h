// ErrorGroups: one job's error candidates grouped in input order — exceptions by their key
// (unexplained_key.h), plain lines by the template miner, docker-split tracebacks reassembled
// first. Bounded: kMaxGroups groups and kMaxFragments pending traceback lines a job. Single-threaded.
// Internal to engine.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "error_text.h"
#include "evidence/evidence.h"
#include "gpudiag/analysis.h"
#include "gpudiag/patterns.h"
#include "match/match.h"

namespace gpudiag::detail {

// What every job's error groups hold at once, in bytes of kept text: one budget for the export,
// so that many jobs with many errors stay inside the memory cap (docs/performance.md, "Memory caps").
struct ErrorBudget {
  static constexpr uint64_t kBytes = 16u << 20;
  uint64_t limit = kBytes;
  uint64_t held = 0;
  bool take(uint64_t bytes) {
    if (held + bytes > limit) return false;
    held += bytes;
    return true;
  }
  void give_back(uint64_t bytes) { held -= std::min(held, bytes); }
};

class ErrorGroups {
 public:
  static constexpr size_t kMaxGroups = 200;
  static constexpr size_t kMaxFragments = 2048;
  // Lines of one (worker, log) at most this far apart belong to one traceback.
  static constexpr Timestamp kFragmentGap = 1'000'000'000;
  // How long before a generic error its worker's errors may be its prelude (find_preludes).
  static constexpr Timestamp kPreludeWindow = 120'000'000'000;

  // The export's budget (none: unbounded, for tests of one job).
  void set_budget(ErrorBudget* budget) { budget_ = budget; }

  void add(ErrorCandidate&& c);
  // Everything `other` (the export's unattributed entries) holds, as if its entries were this job's.
  void absorb(ErrorGroups&& other);
  // The groups in first-seen order, those a fired rule explains left out (`fired`: whether the
  // pack's rule of that index fired for this job); call once after the last batch. A fired
  // `symptom` rule explains a group only when it took every entry of it: the job message that
  // relays a worker's error ("… failed 4 times … Root cause: …") is the symptom's evidence, and the
  // worker's copies of the error it quotes are still unexplained.
  std::vector<UnexplainedGroup> finish(const ReadingRules& rules, const std::function<bool(int rule)>& fired,
                                       const std::function<bool(int rule)>& symptom = {});
  // Entries of groups past kMaxGroups (counted, not grouped), and whether a cap was reached.
  uint64_t entries_past_cap() const { return entries_past_cap_; }
  bool capped() const { return capped_; }

 private:
  struct Group {
    UnexplainedGroup shown;
    std::set<std::string> workers;
    // The SDK processes that logged it: worker, '\x1f', portability_worker_id (the same failure in
    // every SDK process of a worker is one group, counted so: "× 4 SDK processes").
    std::set<std::string> processes;
    std::map<std::string, std::pair<Timestamp, SourceLocation>> logs;  // log → its earliest copy
    std::set<int> claimed_by;                                          // rules that took one of its entries as evidence
    uint64_t unclaimed = 0;                                            // its entries no rule took
    std::string first_template;                                        // a plain line's masked text when first seen
    bool has_exemplar = false;
    uint32_t exemplar_input = 0;
    uint64_t exemplar_offset = 0;  // where its entry starts (earlier() compares offsets)
  };
  struct Fragment {
    Timestamp at = kNoTime;
    SourceLocation where;
    std::string sdk_worker;
    std::string text;
    std::vector<int> claimed_by;
    std::unique_ptr<KeptRecord> record;
  };
  void add_parsed(ErrorCandidate&& c);
  Group* group_for(const std::string& key, const std::string& message_template);
  Group* past_cap();
  void reassemble(const ReadingRules& rules);
  static void find_preludes(std::vector<UnexplainedGroup>& groups, const CauseLines& causes);

  std::vector<Group> groups_;
  std::map<std::string, size_t, std::less<>> by_key_;  // exception and cut keys → group
  std::map<size_t, size_t> by_template_;               // miner group → group
  std::unique_ptr<TemplateMiner> miner_;
  // (worker, log, logged below ERROR) → lines. Lines below ERROR are reassembled apart: they make a
  // candidate only as a whole traceback of their own, and never change how the ERROR lines of the
  // same log reassemble.
  // Per worker, log, below ERROR or not, and relaying process (CandidateReading::process, then
  // '\x1f' and the SDK process).
  std::map<std::tuple<std::string, std::string, bool, std::string>, std::vector<Fragment>> fragments_;
  size_t fragment_count_ = 0;
  ErrorBudget* budget_ = nullptr;
  uint64_t bytes_held_ = 0;  // of the budget
  // Takes `bytes` of the budget for kept text; false (and capped_) when the export's budget is spent.
  bool hold(uint64_t bytes);
  uint64_t entries_past_cap_ = 0;
  bool capped_ = false;
};

}  // namespace gpudiag::detail
