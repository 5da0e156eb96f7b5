// The loader's second stage: rule files read (in parallel) into RuleSpecs and merged by id, built-in
// files first, then each --rules directory in order: a later rule replaces an earlier one with the
// same id, a bare `id` + `enabled: false` disables one, and `explains`/`corroborated_by` must name
// rules that exist. Fact extractor files (`extractor:`) are merged by id the same way. Pack files (no `id`) define the
// lists and macros rules use; a list or macro that is defined but never used is a problem too. Internal to engine.
//
//   RuleCollector collector;
//   collector.add(builtin_rule_files(), /*builtin=*/true);
//   for (RuleDirectory& dir : read_rule_dirs(sources.dirs)) collector.add(dir);
//   CollectedRules rules = std::move(collector).finish();   // rules.problems: every diagnostic
#pragma once

#include <map>
#include <set>
#include <span>
#include <string>

#include "fact_extractor.h"
#include "rule_source.h"
#include "rule_spec.h"

namespace gpudiag::detail {

// What the compiler stage takes: every rule by id, overrides and disables applied.
struct CollectedRules {
  std::map<std::string, RuleSpec> by_id;
  std::map<std::string, FactExtractorSpec> extractors;      // by id, overrides applied
  FactCatalog catalog;                                      // from the pack files
  PackPolicy policy;                                        // from the pack files
  std::map<std::string, FixState, std::less<>> fix_states;  // by id, from the pack files
  Diagnostics problems;                                     // in file order; the pack loads only when there are none
};

class RuleCollector {
 public:
  // One group of files: ids are unique within it, and it overrides the groups added before.
  void add(std::span<const RuleFile> files, bool builtin);
  void add(const RuleDirectory& dir);
  // Checks the references between rules.
  CollectedRules finish() &&;

 private:
  CollectedRules rules_;
  Fragments fragments_;  // lists and macros, from the pack files added so far
  std::set<std::string, std::less<>> used_;
};

}  // namespace gpudiag::detail
