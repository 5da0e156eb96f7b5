// The rule language's keys: one row per key, saying where it may appear, whether it is required,
// what kind of value it takes and what it means. The table drives the reader (rule-level rows carry
// the function that reads them), the required-key checks, unknown-key linting ("did you mean") and
// the key reference in docs/rules.md (a test checks the committed doc against key_reference()).
// Internal to engine; the next rule-language keys are new rows here.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gpudiag::yaml {
struct Node;
}  // namespace gpudiag::yaml

namespace gpudiag::detail {

class RuleReader;
using yaml::Node;
struct RuleSpec;
struct FactExtractorSpec;

// The mapping a key belongs to.
enum class KeyPlace : uint8_t {
  kRule,
  kCount,
  kAfter,
  kAbsent,
  kFix,
  kDoc,
  kExamples,
  kExample,
  kExampleEntry,
  kPackFile,
  kConfidencePolicy,
  kQuietShape,
  kExtractor,          // a fact extractor (rules/facts/)
  kCatalogFact,        // a fact of the catalog (`facts:` in a pack file)
  kWrapper,            // one of a pack file's `wrappers:`, written as a mapping
  kWrapperExample,     // one of a wrapper's `examples`
  kLinePattern,        // one of a pack file's `generic_errors:` or `advice_lines:`, written as a mapping
  kLineFormat,         // one of a pack file's `line_formats:`
  kLineFormatExample,  // one of a line format's `examples`
  kFirstStep,          // one of a pack file's `first_steps:`
  kFixState,           // one of a pack file's `fix_states:`
};

enum class KeyNeed : uint8_t {
  kOptional,
  kRequired,
  kTrigger,  // at least one of the place's trigger keys is required (a rule's match/absent/when)
};

// What the value is, as the key reference shows it.
enum class KeyValue : uint8_t {
  kText,
  kId,
  kNumber,
  kBool,
  kChoice,
  kDuration,
  kTextList,
  kCondition,
  kFactTests,
  kMapping,
  kList,
};

struct RuleKey {
  std::string_view key;
  KeyPlace place;
  KeyNeed need;
  KeyValue value;
  std::string_view doc;  // one line, Markdown
  // Reads the value into the rule (rule-level keys; nested keys are read by their parent's row).
  void (*read)(RuleReader& reader, const Node& value, RuleSpec& rule) = nullptr;
  // Reads the value into a fact extractor (extractor-level keys).
  void (*read_extractor)(RuleReader& reader, const Node& value, FactExtractorSpec& extractor) = nullptr;
};

// Every key, in the order rules are read and documented.
std::span<const RuleKey> rule_keys();

// The key names allowed at `place`, in table order (for linting and suggestions).
const std::vector<std::string_view>& key_names(KeyPlace place);

// How a place is named in messages ("a rule", "count", "a fix", …).
std::string_view place_name(KeyPlace place);

// The Markdown key reference of `place` (a table), as docs/rules.md holds it.
std::string key_reference(KeyPlace place);

}  // namespace gpudiag::detail
