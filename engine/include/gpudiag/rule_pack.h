// RulePack: the compiled rules. Rules are YAML data (docs/rules.md); the built-in pack is embedded in
// the binary, and rule directories add rules, override built-ins by id, or disable them.
//
//   Result<RulePack> pack = RulePack::load({.builtin = builtin_rule_files(), .dirs = {"my-rules"}});
//   for (const RuleInfo& rule : pack->rules()) …
//
// Loading collects every problem in every file (RulePack::lint) instead of stopping at the first.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/impact.h"
#include "gpudiag/result.h"
#include "gpudiag/severity.h"

namespace gpudiag {

class RulePack;
namespace detail {
struct CompiledRulePack;
const CompiledRulePack& compiled(const RulePack& pack);
}  // namespace detail

// How a family takes part in ranking: a cause, or a generic symptom that ranks below every cause
// when it stands alone. The pack's `families:` policy (docs/rules.md, "Policy").
enum class FamilyRole : uint8_t { kCause, kSymptom };

// The confidence arithmetic, the pack's `confidence:` policy. These defaults are what a pack
// without a policy file gets; the built-in pack states them in rules/policy.yaml.
struct ConfidencePolicy {
  double weak_only = 0.5;          // × when every piece of evidence matches `weak`
  double unknown_fact = 0.8;       // × when a `when` fact is unknown and the rule fires anyway
  double per_corroboration = 0.1;  // + for each `corroborated_by` rule that fired
  double ceiling = 0.99;           // corroboration raises confidence at most to this
};

// An entry that quotes failure text rather than reports it — DEBUG chatter, an option's --help
// text — is never evidence of a rule (the pack's `quiet:` policy), except of the rules in `except`,
// which read that very line. Every test given must hold.
struct QuietShape {
  std::string name;
  std::vector<Severity> severities;  // one of these (empty: any)
  std::string message;               // RE2, searched in the message (empty: any)
  std::vector<std::string> except;   // rule ids this shape does not silence
};

// A line format that says a line's own level and where its text starts, as another program
// printed it (a pack file's `line_formats:`, rules/line-formats.yaml): a model server's output that
// Beam relays at INFO, a library's `[TRT] [E]` line that stderr carries at ERROR.
struct LineFormat {
  std::string name;
  std::vector<std::string> starts;  // a matching line starts with one of these (a cheap screen) …
  // … or, for a line whose prefix has no fixed first bytes (NCCL's `host:pid:tid [dev] NCCL INFO`),
  // holds one of these in its first LineFormats::kContainsWindow bytes: tried on ERROR entries only.
  std::vector<std::string> contains;
  std::string pattern;                                  // RE2, anchored; named groups `text` (required) and `level`
  std::map<std::string, Severity, std::less<>> levels;  // `level` tokens that are not severity names

  // The severity a `level` token names: `levels` first, then the severity names.
  std::optional<Severity> level_of(std::string_view token) const {
    if (auto it = levels.find(token); it != levels.end()) return it->second;
    return parse_severity(token);
  }
};

struct DocLink {
  std::string title;
  std::string section;
  std::string url;
};

// What to try first about an error no rule knows, by the kind of error it is (a pack file's
// `first_steps:`, rules/first-steps.yaml): the first whose pattern finds one of the error's lines
// gives the unexplained group's first step, its placeholders filled from the pattern's named groups.
struct FirstStepSpec {
  std::string id;
  std::string pattern;  // RE2 over one line of the error (its exception, cause and chain)
  std::string action;   // may hold {group} placeholders
  std::string command;  // one shell command (shell_command.h), may hold placeholders; "" = none
  DocLink doc;
};

struct PackPolicy {
  std::map<std::string, FamilyRole, std::less<>> family_roles;  // families not named are causes
  ConfidencePolicy confidence;
  std::vector<QuietShape> quiet;  // at most kMaxQuietShapes
  static constexpr size_t kMaxQuietShapes = 32;
  // RE2 patterns, one per framework, over one frame line of a traceback (a Python `File "…"` line,
  // a Java `at …` line): a frame that matches any is the framework's, not the user's. Evidence
  // excerpts show the innermost user frame (a pack file's `frameworks:`, rules/frameworks.yaml).
  std::vector<std::string> framework_frames;
  // RE2 patterns removed from an entry's text, in order, before copies of one failure in several
  // logs are compared: the wrappers Dataflow puts around a worker's error when it copies it (a
  // pack file's `wrappers:`, rules/wrappers.yaml).
  std::vector<std::string> wrappers;
  // Error-level lines that healthy runs print too (a pack file's `benign_errors:`,
  // rules/benign-errors.yaml): never candidates for the errors no rule explains.
  std::vector<std::string> benign_errors;
  // How the reader of an error finds its cause in a chain (a pack file's `generic_errors:` and
  // `advice_lines:`, rules/generic-errors.yaml): RE2 patterns over one line. A generic line says
  // only that something below failed ("Engine core initialization failed. See root cause above"),
  // so the reader looks further down the chain; an advice line tells what to try
  // ("For debugging consider passing CUDA_LAUNCH_BLOCKING=1"), never why.
  std::vector<std::string> generic_errors;
  std::vector<std::string> advice_lines;
  std::vector<LineFormat> line_formats;
  std::vector<FirstStepSpec> first_steps;

  FamilyRole role_of(std::string_view family) const {
    auto it = family_roles.find(family);
    return it == family_roles.end() ? FamilyRole::kCause : it->second;
  }
};

// A fix in another language (a fix's `i18n:`, docs/rules.md "Fixes"): shown with --lang.
struct FixTranslation {
  std::string lang;    // "es", "es-419", "ja" … (the --lang tags)
  std::string action;  // may hold {placeholders}
  std::string why;     // "" when only the action is translated
};

struct FixInfo {
  std::string id;
  std::string action;  // may hold {placeholders}; unknown ones render as `?`
  // More specific actions, best first: the first whose every placeholder the job knows replaces
  // `action` (docs/rules.md, "Placeholders"). `action` stays the generic text.
  std::vector<std::string> action_with_facts;
  // One shell command to paste, or the options to add to the launch command (shell_command.h): the
  // loader checks it is one command; placeholders fill as literal text. "" when the fix has none.
  std::string command;
  std::vector<std::string> command_with_facts;  // best first, as action_with_facts
  std::string why;
  int weight = 50;        // 0–100
  std::string achieves;   // the fix state it brings about (`achieves:`, "" = none)
  std::string demote_if;  // the fact tests, rendered ("" = none); of the state, with `achieves`
  std::string needs;      // the fact tests the fix needs, rendered ("" = none)
  DocLink doc;
  std::vector<FixTranslation> i18n;
};

// The rule id of errors no rule explains (Analysis::unexplained): baselines accept a group under it and
// SARIF reports groups as its results, so no rule of a pack may take it.
inline constexpr std::string_view kUnexplainedRuleId = "unexplained-error";

// What users see of one rule (rules list/show, explain, SARIF tool.driver.rules, JUnit testcases).
struct RuleInfo {
  std::string id;
  // `aliases:` — other names users look the rule up by (`gpu-oom`, `oom`): `explain` and `rules show`
  // suggest the rule for them; reports, baselines and --rules overrides know only the id.
  std::vector<std::string> aliases;
  std::string title;
  std::string family;
  Impact severity = Impact::kWarning;
  double confidence = 0.5;
  std::string description;
  std::vector<std::string> explains;
  bool hides_failure = false;  // keeps its severity when the job succeeded (`hides_failure: true`)
  // Says only "something went wrong here" (a stall, a lost worker): an earlier error no rule explains
  // outranks it, and it does not count as explaining the job (`generic: true`, docs/unexplained.md).
  bool generic = false;
  // `identity:` — the captures the fingerprint hashes; nullopt: all of them, empty: the rule id alone.
  std::optional<std::vector<std::string>> identity;
  std::vector<FixInfo> fixes;
  std::vector<std::string> sources;
  std::string file;  // the rule file it came from ("builtin:rules/…" for embedded ones)
  uint64_t line = 0;
  bool enabled = true;
  bool builtin = true;
};

// A rule file, as read from a directory (its YAML text) or embedded at build time (its tree,
// already parsed and checked by gpudiag-rulec, so that loading it costs next to nothing).
struct RuleFile {
  std::string path;       // shown in diagnostics
  std::string text;       // the YAML
  std::string_view tree;  // the parsed tree (gpudiag-rulec's format); empty: parse `text`
};

struct RuleSources {
  std::vector<RuleFile> builtin;  // usually builtin_rule_files()
  std::vector<std::string> dirs;  // user rule directories, in order; later ones win
  bool check_examples = true;     // refuse user rules whose examples fail (off for `rules test`)
};

// The rule files compiled into this binary (rules/**/*.yaml at build time).
const std::vector<RuleFile>& builtin_rule_files();

class RulePack {
 public:
  // Loads and compiles. Fails with the first diagnostic; use lint() to see them all.
  static Result<RulePack> load(const RuleSources& sources);
  // Every problem in every rule file (errors and warnings), each with file:line:column.
  static Diagnostics lint(const RuleSources& sources);
  // Warnings, not problems: the values in the user rule files that still say TODO (code rule-todo).
  static Diagnostics lint_warnings(const RuleSources& sources);

  // Made by load(): the loader's compiler stage builds the compiled form.
  explicit RulePack(std::unique_ptr<detail::CompiledRulePack> compiled);
  RulePack(RulePack&&) noexcept;
  RulePack& operator=(RulePack&&) noexcept;
  ~RulePack();

  // Enabled and disabled rules, sorted by id.
  const std::vector<RuleInfo>& rules() const;
  const RuleInfo* find(std::string_view id) const;

  // The compiled pack as canonical text (for `rules dump` and tests), or only the rules' regexes,
  // one per line, as `rg -f` takes them (`patterns_only`; with `observers`, also the built-in fact
  // observers' — everything the one pass runs).
  std::string dump(bool patterns_only = false, bool observers = false) const;
  // The pack's policy: family roles and confidence arithmetic.
  const PackPolicy& policy() const;
  // A short hash of the compiled pack, to tell which rules produced a result.
  std::string version_hash() const;

 private:
  friend const detail::CompiledRulePack& detail::compiled(const RulePack& pack);
  std::unique_ptr<detail::CompiledRulePack> compiled_;
};

}  // namespace gpudiag
