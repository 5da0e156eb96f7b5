// The table of rule keys (see rule_keys.h) and what is derived from it.
#include "rule_keys.h"

#include <fmt/format.h>

#include <array>

#include "fact_extractor.h"
#include "rule_reader.h"

namespace gpudiag::detail {
namespace {

using P = KeyPlace;
using N = KeyNeed;
using V = KeyValue;

const auto kKeys = std::to_array<RuleKey>({
    // A rule. Read in this order; required keys are reported missing in this order.
    {"id", P::kRule, N::kRequired, V::kId,
     "kebab-case (`[a-z0-9]+(-[a-z0-9]+)*`), unique; other tools rely on it — never rename",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_id(v, s); }},
    {"aliases", P::kRule, N::kOptional, V::kTextList,
     "other kebab-case names users type for it (`gpu-oom`): `explain` suggests the rule for them; not another "
     "rule's id or alias",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_aliases(v, s); }},
    {"title", P::kRule, N::kRequired, V::kText, "one line, may use `{capture}` and `{fact}` placeholders",
     [](RuleReader& r, const Node& v, RuleSpec& s) { s.info.title = r.text(v, "title"); }},
    {"family", P::kRule, N::kRequired, V::kChoice, "grouping for reports and JUnit `classname` (see \"Families\")",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_family(v, s); }},
    {"severity", P::kRule, N::kRequired, V::kChoice, "`info`, `warning`, `error`, `critical` — how bad it is if true",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_severity(v, s); }},
    {"confidence", P::kRule, N::kRequired, V::kNumber, "0.0–1.0 — how sure a single piece of evidence makes us",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_confidence(v, s); }},
    {"description", P::kRule, N::kRequired, V::kText, "what it means and why, our own words, may use placeholders",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_description(v, s); }},
    {"enabled", P::kRule, N::kOptional, V::kBool,
     "`false` disables the rule (use in a `--rules` directory to switch off a built-in)",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_enabled(v, s); }},
    {"explains", P::kRule, N::kOptional, V::kTextList,
     "ids of symptom rules this cause produces (see \"Causes and symptoms\")",
     [](RuleReader& r, const Node& v, RuleSpec& s) { s.info.explains = r.string_list(v, "explains"); }},
    {"match", P::kRule, N::kTrigger, V::kCondition, "record condition: the entries that are evidence",
     [](RuleReader& r, const Node& v, RuleSpec& s) { s.match = r.condition(v); }},
    {"count", P::kRule, N::kOptional, V::kMapping, "how many matching entries, in what window, make a finding",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_count(v, s); }},
    {"after", P::kRule, N::kOptional, V::kMapping, "sequence: a matching entry only counts after another kind of entry",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_after(v, "after", s.after); }},
    {"not_after", P::kRule, N::kOptional, V::kMapping,
     "sequence: a matching entry only counts when no entry of another kind came before it (the keys of `after`)",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_after(v, "not_after", s.not_after); }},
    {"not_before", P::kRule, N::kOptional, V::kMapping,
     "sequence: a matching entry only counts when no entry of another kind came after it (the keys of `after`, "
     "`within` and `min` measured forwards)",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_after(v, "not_before", s.not_before); }},
    {"absent", P::kRule, N::kTrigger, V::kMapping, "absence with a horizon: what is *missing* is the finding",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_absent(v, s); }},
    {"when", P::kRule, N::kTrigger, V::kFactTests, "job facts that must hold",
     [](RuleReader& r, const Node& v, RuleSpec& s) { s.when = r.fact_tests(v, "when"); }},
    {"unless", P::kRule, N::kOptional, V::kFactTests, "job facts that suppress the rule",
     [](RuleReader& r, const Node& v, RuleSpec& s) { s.unless = r.fact_tests(v, "unless"); }},
    {"if_unknown", P::kRule, N::kOptional, V::kChoice,
     "what to do when a fact in `when` is unknown: `skip` (default), `inconclusive`, `fire`",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_if_unknown(v, s); }},
    {"hides_failure", P::kRule, N::kOptional, V::kBool,
     "`true`: the finding keeps its severity even when the job succeeded (the failure it names can hide "
     "behind a success); otherwise a succeeded job's findings are risks, at most `warning`",
     [](RuleReader& r, const Node& v, RuleSpec& s) { s.info.hides_failure = r.flag(v, "hides_failure"); }},
    {"generic", P::kRule, N::kOptional, V::kBool,
     "`true`: the rule only says that something went wrong here (a stall, a lost worker): an earlier "
     "error that no rule explains outranks it and is reported as the likely cause",
     [](RuleReader& r, const Node& v, RuleSpec& s) { s.info.generic = r.flag(v, "generic"); }},
    {"corroborated_by", P::kRule, N::kOptional, V::kTextList, "rule ids whose firing raises this finding's confidence",
     [](RuleReader& r, const Node& v, RuleSpec& s) { s.corroborated_by = r.string_list(v, "corroborated_by"); }},
    {"identity", P::kRule, N::kOptional, V::kList,
     "named groups the fingerprint hashes (default: all captures; `[]`: the rule id alone; see \"Fingerprints\")",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_identity(v, s); }},
    {"weak", P::kRule, N::kOptional, V::kCondition, "record condition for evidence that alone lowers confidence",
     [](RuleReader& r, const Node& v, RuleSpec& s) { s.weak = r.condition(v); }},
    {"fixes", P::kRule, N::kRequired, V::kList, "at least one (see \"Fixes\")",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_fixes(v, s); }},
    {"examples", P::kRule, N::kRequired, V::kMapping, "at least one `match` and one `no_match` (see \"Examples\")",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_examples(v, s); }},
    {"sources", P::kRule, N::kRequired, V::kTextList, "where the example and signature text came from",
     [](RuleReader& r, const Node& v, RuleSpec& s) { r.read_sources(v, s); }},

    {"at_least", P::kCount, N::kOptional, V::kNumber,
     "entries needed (default 1), or a percentage of the workers seen"},
    {"within", P::kCount, N::kOptional, V::kDuration, "one sliding window (omit: the whole export)"},
    {"per", P::kCount, N::kOptional, V::kChoice, "`worker` or `job` (default)"},
    {"distinct", P::kCount, N::kOptional, V::kChoice, "count different `worker` or `sdk_worker` values, not entries"},

    {"match", P::kAfter, N::kRequired, V::kCondition, "the entry that must come first"},
    {"within", P::kAfter, N::kOptional, V::kDuration, "at most this long before (omit: any time before)"},
    {"min", P::kAfter, N::kOptional, V::kDuration, "at least this long before (omit: any gap)"},
    {"same", P::kAfter, N::kOptional, V::kChoice, "`worker` or `job` (default)"},

    {"match", P::kAbsent, N::kRequired, V::kCondition, "the entry whose absence is the finding"},
    {"after", P::kAbsent, N::kOptional, V::kCondition, "where the horizon starts (omit: the first entry of the job)"},
    {"within", P::kAbsent, N::kRequired, V::kDuration, "the horizon"},
    {"needs_logs", P::kAbsent, N::kOptional, V::kTextList, "logs that would hold the entry"},
    {"when", P::kAbsent, N::kOptional, V::kFactTests, "facts that must hold, for this leg only"},
    {"unless", P::kAbsent, N::kOptional, V::kFactTests, "facts that suppress this leg"},

    {"id", P::kFix, N::kRequired, V::kId,
     "stable kebab-case; the same fix proposed by several findings is listed once with all reasons"},
    {"action", P::kFix, N::kRequired, V::kText, "what to do, imperative, one line"},
    {"action_with_facts", P::kFix, N::kOptional, V::kTextList,
     "more specific actions, best first: the first whose every placeholder is known replaces `action`"},
    {"command", P::kFix, N::kOptional, V::kText,
     "one shell command to paste (or the options to add to the launch command), quoted as the Dataflow docs "
     "quote it; unknown placeholders print as the docs' upper-case names ({gpu_type} → GPU_TYPE)"},
    {"command_with_facts", P::kFix, N::kOptional, V::kTextList,
     "more specific commands, best first: the first whose every placeholder is known replaces `command`"},
    {"why", P::kFix, N::kRequired, V::kText, "why it helps, one or two sentences"},
    {"weight", P::kFix, N::kOptional, V::kNumber, "0–100, order within the rule (higher first; default 50)"},
    {"achieves", P::kFix, N::kOptional, V::kId,
     "the state the fix brings about, one of the pack's `fix_states`: when the state holds, by whatever setting, the "
     "fix is already in place; it ranks last and says so (instead of `demote_if`)"},
    {"demote_if", P::kFix, N::kOptional, V::kFactTests,
     "fact tests (as in `when`): when they hold the fix is already in place; it ranks last and says so"},
    {"needs", P::kFix, N::kOptional, V::kFactTests,
     "fact tests (as in `when`) the fix needs: when a known fact contradicts them the fix does not fit the job; the "
     "reports leave it out, JSON lists it with the reason"},
    {"doc", P::kFix, N::kRequired, V::kMapping, "the Dataflow documentation the fix comes from"},
    {"i18n", P::kFix, N::kOptional, V::kMapping,
     "language tag (`es`, `es-419`, `ja`, `ko`, `he`) → `{action, why}`: the fix in that language (--lang)"},

    {"title", P::kDoc, N::kRequired, V::kText, "the page's title"},
    {"section", P::kDoc, N::kRequired, V::kText, "the section of the page"},
    {"url", P::kDoc, N::kRequired, V::kText, "the page, `https://…`"},

    {"match", P::kExamples, N::kRequired, V::kList, "examples this rule must fire on"},
    {"no_match", P::kExamples, N::kRequired, V::kList, "examples this rule must stay quiet on"},

    {"records", P::kExample, N::kOptional, V::kList, "several entries (each a line or a mapping of fields)"},
    {"facts", P::kExample, N::kOptional, V::kMapping, "facts given as if from `--job`"},
    {"captures", P::kExample, N::kOptional, V::kMapping, "captured values the finding must show"},
    {"yields", P::kExample, N::kOptional, V::kMapping,
     "fact extractors: facts (and `phase`, `worker_count`) the example must give"},

    {"message", P::kExampleEntry, N::kOptional, V::kText, "the entry's message"},
    {"exception", P::kExampleEntry, N::kOptional, V::kText, "`jsonPayload.exception`"},
    {"log", P::kExampleEntry, N::kOptional, V::kText, "short log name (default `worker`)"},
    {"severity", P::kExampleEntry, N::kOptional, V::kChoice, "log severity (default `ERROR`)"},
    {"worker", P::kExampleEntry, N::kOptional, V::kText, "the worker VM"},
    {"logger", P::kExampleEntry, N::kOptional, V::kText, "`jsonPayload.logger`"},
    {"sdk_worker", P::kExampleEntry, N::kOptional, V::kText, "`jsonPayload.portability_worker_id`"},
    {"step", P::kExampleEntry, N::kOptional, V::kText, "`jsonPayload.step`"},
    {"at", P::kExampleEntry, N::kOptional, V::kDuration, "offset from the example's first entry"},
    {"captures", P::kExampleEntry, N::kOptional, V::kMapping, "as in an example with `records`"},
    {"facts", P::kExampleEntry, N::kOptional, V::kMapping, "as in an example with `records`"},
    {"yields", P::kExampleEntry, N::kOptional, V::kMapping, "as in an example with `records`"},

    // A pack file: a rule file without `id` (see "Lists and macros").
    {"lists", P::kPackFile, N::kOptional, V::kMapping,
     "names → lists of literal values; `${name}` in a pattern becomes the values, quoted, as alternatives"},
    {"macros", P::kPackFile, N::kOptional, V::kMapping, "names → pieces of RE2 regex; `${name}` becomes the piece"},
    {"families", P::kPackFile, N::kOptional, V::kMapping,
     "family → role in ranking: `cause` (default) or `symptom` (ranks below every cause when alone)"},
    {"confidence", P::kPackFile, N::kOptional, V::kMapping, "the confidence arithmetic (see \"Policy\")"},
    {"wrappers", P::kPackFile, N::kOptional, V::kList,
     "what Dataflow wraps around a copied error: RE2 patterns, each alone or a mapping with its examples (see "
     "\"Frameworks\")"},
    {"frameworks", P::kPackFile, N::kOptional, V::kTextList,
     "RE2 patterns over a traceback frame line: a frame that matches one is a framework's, not the user's"},
    {"benign_errors", P::kPackFile, N::kOptional, V::kTextList,
     "RE2 patterns over an entry's first line: error-level lines healthy runs print too, never reported as "
     "errors no rule explains"},
    {"generic_errors", P::kPackFile, N::kOptional, V::kList,
     "RE2 patterns over one line of an error: messages that only say something below failed; the reader looks "
     "down the chain for the cause (see \"Causes\")"},
    {"line_formats", P::kPackFile, N::kOptional, V::kList,
     "formats that say a line's own level and where its text starts (a relayed model server's output; see "
     "\"Line formats\")"},
    {"advice_lines", P::kPackFile, N::kOptional, V::kList,
     "RE2 patterns over one line of an error: what a library advises after it (never the cause; see \"Causes\")"},
    {"facts", P::kPackFile, N::kOptional, V::kMapping,
     "the fact catalog: fact name → `type`, `meaning`, `from` (see \"Job facts\")"},
    {"option_names", P::kPackFile, N::kOptional, V::kMapping,
     "fact → the option spellings the options decoders read for it, first present wins"},
    {"gpu_platforms", P::kPackFile, N::kOptional, V::kMapping,
     "the dated GPU table: `read`, `source`, `gpus` (type, family, `counts` or `machines`); derives the GPU fit facts"},
    {"service_defaults", P::kPackFile, N::kOptional, V::kMapping,
     "Dataflow's defaults for options left out: `read`, `defaults` (fact, value, when, source); applied with --job"},
    {"quiet", P::kPackFile, N::kOptional, V::kList,
     "shapes of entries that are never evidence, whatever text they quote (see \"Policy\")"},

    {"weak_only", P::kConfidencePolicy, N::kOptional, V::kNumber,
     "factor when every piece of evidence matches `weak` (default 0.5)"},
    {"unknown_fact", P::kConfidencePolicy, N::kOptional, V::kNumber,
     "factor when a `when` fact is unknown and `if_unknown: fire` (default 0.8)"},
    {"per_corroboration", P::kConfidencePolicy, N::kOptional, V::kNumber,
     "added for each `corroborated_by` rule that fired (default 0.1)"},
    {"ceiling", P::kConfidencePolicy, N::kOptional, V::kNumber,
     "corroboration raises confidence at most to this (default 0.99)"},

    // A fact extractor: a rule file with `extractor` instead of `id` (see "Fact extractors").
    {"extractor", P::kExtractor, N::kRequired, V::kId, "kebab-case id, unique among extractors", nullptr,
     [](RuleReader& r, const Node& v, FactExtractorSpec& s) { r.read_extractor_id(v, s); }},
    {"description", P::kExtractor, N::kRequired, V::kText, "what the line is and what it tells", nullptr,
     [](RuleReader& r, const Node& v, FactExtractorSpec& s) { s.description = r.text(v, "description"); }},
    {"match", P::kExtractor, N::kRequired, V::kCondition, "record condition; its named groups feed `set` and `decode`",
     nullptr, [](RuleReader& r, const Node& v, FactExtractorSpec& s) { s.match = r.condition(v); }},
    {"set", P::kExtractor, N::kOptional, V::kMapping,
     "catalog fact → value; `{group}` is a named group of `match` (a value that comes out empty is not set)", nullptr,
     [](RuleReader& r, const Node& v, FactExtractorSpec& s) { r.read_sets(v, s); }},
    {"decode", P::kExtractor, N::kOptional, V::kMapping,
     "`{group: decoder}`: a decoder (`python-dict`, `json`) reads the value that starts at the group", nullptr,
     [](RuleReader& r, const Node& v, FactExtractorSpec& s) { r.read_decode(v, s); }},
    {"priority", P::kExtractor, N::kOptional, V::kNumber,
     "1–29 (default 10; the options echo is 20, `--job` 30): a stronger source replaces a weaker one", nullptr,
     [](RuleReader& r, const Node& v, FactExtractorSpec& s) { r.read_priority(v, s); }},
    {"phase", P::kExtractor, N::kOptional, V::kId, "the timeline phase a matching entry marks", nullptr,
     [](RuleReader& r, const Node& v, FactExtractorSpec& s) { s.phase = r.text(v, "phase"); }},
    {"worker_count", P::kExtractor, N::kOptional, V::kText,
     "a template giving the number of workers from this moment on (the timeline)", nullptr,
     [](RuleReader& r, const Node& v, FactExtractorSpec& s) { s.worker_count = r.text(v, "worker_count"); }},
    {"examples", P::kExtractor, N::kRequired, V::kMapping,
     "`match` examples with what they yield, `no_match` examples that yield nothing", nullptr,
     [](RuleReader& r, const Node& v, FactExtractorSpec& s) { r.read_example_lists(v, s.examples, true); }},
    {"sources", P::kExtractor, N::kRequired, V::kTextList, "where the example text came from", nullptr,
     [](RuleReader& r, const Node& v, FactExtractorSpec& s) { s.sources = r.string_list(v, "sources"); }},

    {"type", P::kCatalogFact, N::kRequired, V::kChoice, "`bool`, `string` or `number`"},
    {"meaning", P::kCatalogFact, N::kRequired, V::kText, "one line"},
    {"from", P::kCatalogFact, N::kOptional, V::kText, "what sets it besides the extractors"},
    {"name", P::kQuietShape, N::kRequired, V::kId, "kebab-case, shown by `gpudiag rules dump`"},
    {"severity", P::kQuietShape, N::kOptional, V::kTextList, "the entry's severity is one of these names"},
    {"message", P::kQuietShape, N::kOptional, V::kText, "RE2 regex found in the entry's message"},
    {"except", P::kQuietShape, N::kOptional, V::kTextList,
     "ids of rules that may still take such an entry as evidence (ids not in the pack are ignored)"},
    {"pattern", P::kWrapper, N::kRequired, V::kText, "RE2 regex; `^` for a wrapper in front of the error"},
    {"examples", P::kWrapper, N::kOptional, V::kList, "texts and what removing every match leaves of them"},
    {"sources", P::kWrapper, N::kOptional, V::kTextList, "where the wrapper's text was seen or is printed"},
    {"text", P::kWrapperExample, N::kRequired, V::kText, "a copied error as a log holds it"},
    {"leaves", P::kWrapperExample, N::kRequired, V::kText, "the text with every match of the pattern removed"},
    {"first_steps", P::kPackFile, N::kOptional, V::kList,
     "what to try first about an error no rule knows, by its kind: each `id`, `pattern`, `action`, `doc`, "
     "`examples` (see \"First steps\")"},

    {"fix_states", P::kPackFile, N::kOptional, V::kList,
     "states a fix can bring about (`achieves`): each `id`, `meaning`, `holds_if` and examples of facts (see "
     "\"Fixes\")"},

    {"id", P::kFixState, N::kRequired, V::kId, "stable kebab-case, what fixes name in `achieves`"},
    {"meaning", P::kFixState, N::kRequired, V::kText,
     "the state in words, as the report says it is already in place (\"each GPU serves one SDK process\")"},
    {"holds_if", P::kFixState, N::kRequired, V::kFactTests,
     "fact tests (as in `when`, `any:` for each road to the state): the state holds when they hold"},
    {"holds", P::kFixState, N::kRequired, V::kList, "sets of facts (mappings) on which the state holds"},
    {"does_not_hold", P::kFixState, N::kRequired, V::kList,
     "sets of facts on which it does not (a known fact says so, not an unknown one)"},
    {"sources", P::kFixState, N::kRequired, V::kTextList, "the documentation that says what reaches the state"},

    {"id", P::kFirstStep, N::kRequired, V::kId, "stable kebab-case"},
    {"pattern", P::kFirstStep, N::kRequired, V::kText,
     "RE2 regex over one line of the error (its exception line, its cause, the lines of its chain)"},
    {"action", P::kFirstStep, N::kRequired, V::kText,
     "what to do first, imperative; `{name}` placeholders are the pattern's named groups"},
    {"command", P::kFirstStep, N::kOptional, V::kText, "one shell command to paste, as a fix's `command`"},
    {"doc", P::kFirstStep, N::kRequired, V::kMapping, "the documentation the step comes from (as a fix's `doc`)"},
    {"examples", P::kFirstStep, N::kRequired, V::kTextList, "real lines the pattern must find"},
    {"near_misses", P::kFirstStep, N::kOptional, V::kTextList, "real lines it must not find"},
    {"sources", P::kFirstStep, N::kRequired, V::kTextList, "where each example was printed or seen"},

    {"pattern", P::kLinePattern, N::kRequired, V::kText, "RE2 regex over one line"},
    {"examples", P::kLinePattern, N::kRequired, V::kTextList, "real lines the pattern must find"},
    {"near_misses", P::kLinePattern, N::kOptional, V::kTextList, "real lines it must not find"},
    {"sources", P::kLinePattern, N::kRequired, V::kTextList, "where each example was printed or seen"},
    {"name", P::kLineFormat, N::kRequired, V::kId, "kebab-case, shown by `gpudiag rules dump`"},
    {"starts", P::kLineFormat, N::kOptional, V::kTextList,
     "what a matching line starts with (a cheap screen); `starts` or `contains` is needed"},
    {"contains", P::kLineFormat, N::kOptional, V::kTextList,
     "what a matching line holds near its start, when no start is fixed (tried on ERROR entries only)"},
    {"pattern", P::kLineFormat, N::kRequired, V::kText,
     "RE2 regex from the line's start; named groups `text` (required) and `level`"},
    {"levels", P::kLineFormat, N::kOptional, V::kMapping, "`level` tokens that are not severity names → severity"},
    {"examples", P::kLineFormat, N::kRequired, V::kList, "real lines with the `level` and `text` read from them"},
    {"near_misses", P::kLineFormat, N::kOptional, V::kTextList, "real lines the format must not read"},
    {"sources", P::kLineFormat, N::kRequired, V::kTextList, "where the format is printed"},
    {"line", P::kLineFormatExample, N::kRequired, V::kText, "a line as a log holds it"},
    {"level", P::kLineFormatExample, N::kRequired, V::kText, "the severity read from it, or `none`"},
    {"text", P::kLineFormatExample, N::kRequired, V::kText, "the line's own text, after the format's prefix"},
});

struct PlaceInfo {
  KeyPlace place;
  std::string_view name;
};
constexpr auto kPlaces = std::to_array<PlaceInfo>({
    {P::kRule, "a rule"},
    {P::kCount, "count"},
    {P::kAfter, "after"},
    {P::kAbsent, "absent"},
    {P::kFix, "a fix"},
    {P::kDoc, "a doc citation"},
    {P::kExamples, "examples"},
    {P::kExample, "an example"},
    {P::kExampleEntry, "an example entry"},
    {P::kPackFile, "a pack file"},
    {P::kConfidencePolicy, "confidence"},
    {P::kQuietShape, "a quiet shape"},
    {P::kExtractor, "a fact extractor"},
    {P::kCatalogFact, "a catalog fact"},
    {P::kWrapper, "a wrapper"},
    {P::kWrapperExample, "a wrapper's example"},
    {P::kLinePattern, "a line pattern"},
    {P::kLineFormat, "a line format"},
    {P::kLineFormatExample, "a line format's example"},
    {P::kFirstStep, "a first step"},
    {P::kFixState, "a fix state"},
});
static_assert([] {
  for (size_t i = 0; i < kPlaces.size(); ++i) {
    if (static_cast<size_t>(kPlaces[i].place) != i) return false;
  }
  return true;
}());

constexpr auto kValueNames =
    std::to_array<std::string_view>({"text", "id", "number", "true/false", "one of", "duration", "text or list",
                                     "condition", "fact tests", "mapping", "list"});
static_assert(kValueNames.size() == static_cast<size_t>(V::kList) + 1);

std::string_view need_name(KeyNeed need) {
  if (need == N::kRequired) return "yes";
  if (need == N::kTrigger) return "one of `match`/`absent`/`when`";
  return "no";
}

}  // namespace

std::span<const RuleKey> rule_keys() { return kKeys; }

const std::vector<std::string_view>& key_names(KeyPlace place) {
  // Built once: every mapping of every rule file asks (9,659 vectors at each start-up before).
  static const auto by_place = [] {
    std::array<std::vector<std::string_view>, kPlaces.size()> out;
    for (const auto& k : kKeys) out[static_cast<size_t>(k.place)].push_back(k.key);
    return out;
  }();
  return by_place[static_cast<size_t>(place)];
}

std::string_view place_name(KeyPlace place) { return kPlaces[static_cast<size_t>(place)].name; }

std::string key_reference(KeyPlace place) {
  std::string out = "| key | required | value | meaning |\n|---|---|---|---|\n";
  for (const auto& k : kKeys) {
    if (k.place != place) continue;
    out += fmt::format("| `{}` | {} | {} | {} |\n", k.key, need_name(k.need), kValueNames[static_cast<size_t>(k.value)],
                       k.doc);
  }
  return out;
}

}  // namespace gpudiag::detail
