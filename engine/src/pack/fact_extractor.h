// A fact extractor: a record condition and what a matching entry tells about the job — facts (`set`,
// with `{group}` templates over the condition's named groups), a structured value handed to a
// decoder (`decode`), a phase of the job's timeline (`phase`) or its worker count (`worker_count`).
// Read from rule files with `extractor:` instead of `id:` (rules/facts/), proven by their examples,
// matched in the same pass as the rules. Internal to engine.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rule_spec.h"

namespace gpudiag::detail {

// The decoders: C++ that reads a structured value (option names come from the fact catalog).
enum class Decoder : uint8_t {
  kNone,
  kPythonDict,  // a Python dict as repr() prints it: the SDK harness's options echo
  kJson,        // a JSON object of options: {"options": {...}} or the options themselves
};
inline constexpr std::array kDecoderNames = {
    std::pair{std::string_view{"python-dict"}, Decoder::kPythonDict},
    std::pair{std::string_view{"json"}, Decoder::kJson},
};

// How strong a fact's source is; a weaker one never replaces a stronger one, and of equal ones the
// first in input order stays. Extractors choose from kMinExtractorPriority to kMaxExtractorPriority.
inline constexpr int kLogLinePriority = 10;  // an extractor's default
inline constexpr int kOptionsPriority = 20;  // what the job was launched with, echoed by the SDK
inline constexpr int kJobFilePriority = 30;  // --job job.json
inline constexpr int kExamplePriority = 40;  // facts given to an example, or by a caller
inline constexpr int kMinExtractorPriority = 1;
inline constexpr int kMaxExtractorPriority = kJobFilePriority - 1;

struct FactAssignment {
  std::string fact;
  std::string value;  // a template: literal text and `{group}` references
  Position at;
};

struct FactExtractorSpec {
  std::string id;
  std::string description;
  std::string file;
  uint32_t line = 0;
  bool builtin = false;
  std::optional<ConditionSpec> match;
  std::vector<FactAssignment> sets;
  std::string decode_group;  // the named group whose text the decoder reads
  Decoder decoder = Decoder::kNone;
  int priority = kLogLinePriority;
  std::string phase;         // a timeline phase name
  std::string worker_count;  // a template giving the number of workers
  std::vector<ExampleSpec> examples;
  std::vector<std::string> sources;
};

// Reads a file with `extractor:` (see read_rule_file); nullopt when it holds no usable extractor.
std::optional<FactExtractorSpec> read_extractor_file(const RuleFile& file, const Node& tree, bool builtin,
                                                     const Fragments& fragments, const class FactCatalog& catalog,
                                                     Diagnostics& diags, std::vector<std::string>& used);
// A rule file that holds a fact extractor (it has `extractor:`).
bool is_extractor_file(const Node& root);

// `{group}` references replaced by the captured values ("" for a group that did not take part).
std::string expand_template(std::string_view text, const std::vector<std::pair<std::string, std::string>>& captures);
// The `{group}` names a template references.
std::vector<std::string> template_groups(std::string_view text);

}  // namespace gpudiag::detail
