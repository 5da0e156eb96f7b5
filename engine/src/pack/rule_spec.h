// The validated form of a rule file, before compilation. Internal to engine.
#pragma once

#include <re2/re2.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gpudiag/log_record.h"
#include "gpudiag/pack_selection.h"
#include "gpudiag/rule_pack.h"
#include "lazy_regex.h"
#include "pack_file.h"
#include "rule_tree.h"

namespace gpudiag::detail {

// The LogRecord fields a condition can test: the public SelectField, one enum for the rules and
// for what `gpudiag sql` filters on.
using Field = SelectField;
std::string_view field_name(Field f);

struct ConditionSpec {
  enum class Kind : uint8_t { kAll, kAny, kNot, kRegex, kOneOf, kSeverityAtLeast, kCaptureTest };
  Kind kind = Kind::kAll;
  Field field = Field::kText;
  std::string label_key;                // Field::kLabel
  std::string regex;                    // kRegex
  std::shared_ptr<const RE2> compiled;  // kRegex: compiled by the loader (not for a file proven at build)
  std::vector<std::string> names;       // kOneOf: log names or severity names
  Severity min_severity = Severity::kDefault;
  std::vector<ConditionSpec> children;         // kAll, kAny, kNot (kNot: none of them holds)
  std::vector<struct FactTest> capture_tests;  // kCaptureTest: tests on the groups this condition captured
  Position at;
};

// A test on a job fact (in `when`, `unless`, `demote_if`) or on a captured group (`captures:`).
struct FactTest {
  enum class Op : uint8_t { kIs, kEq, kNe, kLt, kLe, kGt, kGe, kSearch, kKnown, kUnknown, kAny };
  std::string fact;  // the fact or group name ("" for kAny)
  Op op = Op::kIs;
  bool expect_bool = true;  // kIs
  std::string operand;      // a number, a regex (kSearch), or a fact name (operand_is_fact)
  bool operand_is_fact = false;
  std::shared_ptr<const RE2> regex;  // kSearch with a literal operand, compiled once at load
  std::string text;                  // as written, for dumps and explanations
  Position at;
  std::vector<std::vector<FactTest>> any;  // kAny: groups of tests, one group must hold entirely
};

// A state a fix brings about (`fix_states:` in a pack file, rules/facts/fix-states.yaml): a name for
// every road to it, so that a fix reaching it by one setting is seen in place when another reached it.
struct FixState {
  std::string id;
  std::string meaning;             // "each GPU serves one SDK process"
  std::vector<FactTest> holds_if;  // the state holds when these hold
  std::string file;
  uint32_t line = 0;
};

struct CountSpec {
  uint64_t at_least = 1;
  double percent = 0;             // > 0: relative to workers seen ("50%")
  std::optional<int64_t> within;  // nanoseconds
  bool per_worker = false;
  std::string distinct;  // "" (count entries), "worker" or "sdk_worker" (count distinct values)
};

struct AfterSpec {
  ConditionSpec match;
  std::optional<int64_t> within;  // at most this long before
  std::optional<int64_t> min;     // at least this long before
  bool same_worker = false;
};

struct AbsentSpec {
  ConditionSpec match;
  std::optional<ConditionSpec> after;
  int64_t within = 0;
  std::vector<std::string> needs_logs;
  std::vector<FactTest> when;
  std::vector<FactTest> unless;
};

struct ExampleRecord {
  std::string message, exception, log = "worker", severity = "ERROR", worker, logger, sdk_worker, step;
  int64_t at = 0;  // offset from the example's start, nanoseconds
};

struct ExampleSpec {
  bool expect_match = true;
  std::vector<ExampleRecord> records;
  std::map<std::string, std::string> facts;
  std::map<std::string, std::string> captures;
  std::map<std::string, std::string> yields;  // fact extractors: the facts, `phase`, `worker_count` it gives
  Position at;
};

enum class IfUnknown : uint8_t { kSkip, kInconclusive, kFire };

struct RuleSpec {
  RuleInfo info;
  std::vector<std::vector<FactTest>> fix_demote_tests;  // parallel to info.fixes
  // Parallel to info.fixes: where a fix's `achieves:` names its state ({0, 0}: it names none), and the
  // state's meaning once the collector has resolved it (the demote tests are then the state's).
  std::vector<Position> fix_achieves_at;
  std::vector<std::string> fix_state_meaning;
  std::vector<std::vector<FactTest>> fix_needs_tests;  // parallel to info.fixes
  std::optional<ConditionSpec> match;
  std::optional<ConditionSpec> weak;
  std::optional<CountSpec> count;
  std::optional<AfterSpec> after;
  std::optional<AfterSpec> not_after;   // a matching entry counts only when no such entry came first
  std::optional<AfterSpec> not_before;  // … only when no such entry came after it
  std::optional<AbsentSpec> absent;
  std::vector<FactTest> when;
  std::vector<FactTest> unless;
  IfUnknown if_unknown = IfUnknown::kSkip;
  std::vector<std::string> corroborated_by;
  std::vector<ExampleSpec> examples;
};

// The tree of a rule file: its embedded tree, or its YAML parsed.
Result<Node> parse_rule_file(const RuleFile& file);

// Validates one rule file's tree, expanding the lists and macros in `fragments`. Problems are
// appended to `diags`, the lists and macros it names (even when it has problems) to `used`; returns
// nullopt when the file holds no usable rule.
std::optional<RuleSpec> read_rule_file(const RuleFile& file, const Node& tree, bool builtin, const Fragments& fragments,
                                       const class FactCatalog& catalog, Diagnostics& diags,
                                       std::vector<std::string>& used);

// The `fix_states:` of a pack file (fix_state_reader.cc), read once every pack file's facts are in
// the catalog; empty when it has none.
std::vector<FixState> read_fix_states_file(const RuleFile& file, const Node& tree, const class FactCatalog& catalog,
                                           Diagnostics& diags);

// The RE2 options every rule pattern is compiled with.
re2::RE2::Options pattern_options();

// Durations as rules write them: "30s", "10m", "1h", "7d" (also combined: "1h30m").
std::optional<int64_t> parse_duration(std::string_view text);
std::string format_duration(int64_t ns);

}  // namespace gpudiag::detail
