// CompiledRulePack: rules compiled for one-pass matching, what RuleCompiler produces and the record
// matcher, the job accumulator and the dump read. Internal to engine: a RulePack holds one, and
// `compiled(pack)` reaches it.
//
// Every record condition in the pack — a rule's `match`, `weak`, `after.match`, `absent.match`,
// `absent.after`, and each fact extractor's `match` (rules/facts/) — becomes a Signal. Regexes over
// the message and the exception go into one RE2::Set per field; a record only evaluates the signals
// whose trigger patterns the set reported (plus the few with no regex at all).
#pragma once

#include <re2/re2.h>
#include <re2/set.h>

#include <memory>
#include <string>
#include <vector>

#include "benign_errors.h"
#include "evidence/evidence.h"
#include "fact_catalog.h"
#include "fact_extractor.h"
#include "gpudiag/rule_pack.h"
#include "line_formats.h"
#include "rule_spec.h"

namespace gpudiag::detail {

struct Pattern {
  Field field = Field::kText;
  std::string label_key;
  std::string regex;
  LazyRegex re;  // compiled when a match first needs it (lazy_regex.h)
  bool has_captures = false;
  // In the RE2::Set, answered by the one pass over the record's message and exception. Every
  // message, exception or text pattern is, refiners (under `not`, or beside a more selective
  // trigger) included: the set's DFA costs about the same per byte however many patterns it holds,
  // while trying a refiner on its own rescans the text for every candidate record (measured with
  // bench/'s four-times pack: 9 % of the run went to refiners of frequent absence markers). Only a
  // pattern that matches an empty text stays out, tried on its own: the set never runs on an empty
  // message. Patterns on other fields (log, logger, labels) are always tried on their own.
  bool in_set = false;
  bool from_rules = false;  // written in a rule (not only by a fact extractor)
};

// A condition flattened into nodes; node 0 is the root.
struct CompiledCondition {
  struct NodeC {
    ConditionSpec::Kind kind;
    Field field;
    std::string label_key;
    int pattern = -1;                // kRegex
    std::vector<std::string> names;  // kOneOf
    Severity min_severity = Severity::kDefault;
    std::vector<int> children;
    std::vector<FactTest> capture_tests;  // kCaptureTest
  };
  std::vector<NodeC> nodes;
};

enum class SignalRole : uint8_t { kEvidence, kWeak, kAfter, kAbsentMarker, kAbsentStart, kObserver };

struct Signal {
  CompiledCondition condition;
  SignalRole role = SignalRole::kEvidence;
  int rule = -1;                      // index into CompiledRulePack::rules (-1 for extractors)
  int extractor = -1;                 // kObserver: index into CompiledRulePack::extractors
  std::vector<int> capture_patterns;  // patterns with named groups (evidence signals)
};

struct CompiledRule {
  RuleSpec spec;
  int match_signal = -1;
  int weak_signal = -1;
  int after_signal = -1;
  int not_after_signal = -1;
  int not_before_signal = -1;
  int absent_signal = -1;
  int absent_after_signal = -1;
};

inline bool is_set_field(Field f) { return f == Field::kText || f == Field::kMessage || f == Field::kException; }

// The pack's `generic_errors:` and `advice_lines:` (rules/generic-errors.yaml), each compiled as
// one alternation (null: the list is empty): what the reader of an error asks of a line of its
// chain (error_text.h, "the cause").
struct CauseLines {
  std::unique_ptr<const RE2> generic;
  std::unique_ptr<const RE2> advice;

  static std::unique_ptr<const RE2> compile(const std::vector<std::string>& patterns) {
    if (patterns.empty()) return nullptr;
    std::string alternation;
    for (const auto& p : patterns) alternation += (alternation.empty() ? "(?:" : "|(?:") + p + ")";
    return std::make_unique<const RE2>(alternation, RE2::Quiet);
  }
  bool is_generic(std::string_view line) const { return generic && RE2::PartialMatch(line, *generic); }
  bool is_advice(std::string_view line) const { return advice && RE2::PartialMatch(line, *advice); }
};

struct CompiledRulePack {
  std::vector<RuleInfo> infos;      // every rule, sorted by id (disabled ones too)
  std::vector<CompiledRule> rules;  // enabled rules, sorted by id
  std::vector<Pattern> patterns;
  std::vector<Signal> signals;
  // One set for the message and the exception fields: it runs over each; a pattern written for one
  // field ignores what it finds in the other. (One set compiles once and shares its DFA cache.)
  std::unique_ptr<RE2::Set> text_set;
  std::vector<int> set_patterns;  // set index → pattern index
  std::vector<std::vector<int>> signals_by_pattern;
  std::vector<int> always_signals;            // signals without a trigger pattern
  std::vector<FactExtractorSpec> extractors;  // sorted by id
  FactCatalog catalog;
  PackPolicy policy;
  std::vector<FixState> fix_states;  // by id (the fixes' `achieves` resolved to their tests already)
  // The policy's quiet shapes: each one's message pattern (-1: the shape tests no message), a
  // pattern of `patterns` and so answered by the set's one pass over the message, and per enabled
  // rule the bit of each shape that does not silence it (its `except`).
  std::vector<int> quiet_patterns;
  std::vector<uint32_t> quiet_exempt;
  // The policy's framework frames and wrappers, compiled once for every job's evaluation (compiling
  // them per job cost ~1 M instructions a job).
  std::unique_ptr<const FrameFilter> frameworks;
  Wrappers wrappers;
  CauseLines causes;
  // The policy's `first_steps:`, each pattern compiled (parallel to policy.first_steps).
  std::vector<std::unique_ptr<const RE2>> first_step_patterns;
  LineFormats line_formats;
  // The policy's benign_errors, compiled once for every analysis the pack runs (each rule example is
  // one: compiled per analysis they were three quarters of proving a user rule).
  std::unique_ptr<const BenignErrors> benign;
  std::string hash;

  int rule_index(std::string_view id) const;
};

// The compiled form of a loaded pack.
const CompiledRulePack& compiled(const RulePack& pack);

}  // namespace gpudiag::detail
