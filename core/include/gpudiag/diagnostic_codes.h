// Every Diagnostic::code gpudiag can emit, in one table: the code (a contract: scripts and tests match
// on it, the JSON report carries it as input_errors[].code), the stage that emits it and what it
// means. docs/diagnostics.md lists the same table; tests/diagnostic_codes_test.cc checks both ways.
//
//   return Diagnostic{.code = code_name(DiagnosticCode::kInputNotJson), .message = …};
//   if (const DiagnosticCodeInfo* info = find_diagnostic_code(d.code)) explain(info->meaning);
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace gpudiag {

enum class DiagnosticStage : uint8_t { kInput, kJob, kRules, kBaseline, kHistory, kQuery, kConfig };

enum class DiagnosticCode : uint8_t {
  kInputUnreadable,
  kInputChanged,
  kInputUtf16,
  kInputNotJson,
  kInputAborted,
  kInputTruncated,
  kInputInterrupted,
  kInputCsv,
  kInputGcloudError,
  kInputHtml,
  kGzipTruncated,
  kGzipCorrupt,
  kGzipTrailingData,
  kGzipTooLarge,
  kGzipBomb,
  kJobFile,
  kJobMismatch,
  kRuleYaml,
  kRuleEmbedded,
  kRuleFile,
  kRuleDir,
  kRuleLimit,
  kRuleReference,
  kRuleDuplicateId,
  kRuleRegex,
  kRuleExample,
  kRuleFixes,
  kRuleDoc,
  kRuleMissingKey,
  kRuleUnknownKey,
  kRuleConfidence,
  kRuleType,
  kRuleSources,
  kRuleCount,
  kRuleAfter,
  kRuleAbsent,
  kRuleCondition,
  kRuleFacts,
  kRuleUnknownFact,
  kRuleFamily,
  kRuleId,
  kRuleSeverity,
  kRuleDuration,
  kRuleTodo,
  kBaselineYaml,
  kBaselineMissing,
  kBaselineType,
  kBaselineVersion,
  kBaselineDuplicate,
  kBaselineUnknownKey,
  kBaselineFingerprint,
  kBaselineDate,
  kDbError,
  kDbLocked,
  kDbCorrupt,
  kDbReadOnly,
  kDbCannotOpen,
  kDbFull,
  kDbMissing,
  kDbNewer,
  kDbForeign,
  kHistoryNotRecorded,
  kNoSuchRun,
  kQueryError,
  kQueryEmpty,
  kQuerySeveral,
  kQueryWrites,
  kQueryTimeout,
  kConfigYaml,
  kConfigUnknownKey,
  kConfigType,
  kLaunchOptions,
  kSqlOption,
  kSqlSchema,
  kFetchGcloudMissing,
  kFetchNotLoggedIn,
  kFetchPermission,
  kFetchJobNotFound,
  kFetchOutputExists,
  kFetchFailed,
  kFetchIncomplete,
};

struct DiagnosticCodeInfo {
  DiagnosticCode code;
  const char* name;  // kebab-case, as Diagnostic::code holds it (const char*: a std::string converts)
  DiagnosticStage stage;
  std::string_view meaning;  // one line
};

inline constexpr std::array<DiagnosticCodeInfo, 81> kDiagnosticCodes = [] {
  using enum DiagnosticStage;
  return std::array<DiagnosticCodeInfo, 81>{{
      {DiagnosticCode::kInputUnreadable, "input-unreadable", kInput, "an input cannot be opened or read"},
      {DiagnosticCode::kInputChanged, "input-changed", kInput, "an input changed size while it was read"},
      {DiagnosticCode::kInputUtf16, "input-utf16", kInput, "an input is UTF-16; exports are UTF-8"},
      {DiagnosticCode::kInputNotJson, "input-not-json", kInput,
       "an input is not a Cloud Logging export (neither JSON nor gcloud's YAML)"},
      {DiagnosticCode::kInputAborted, "input-aborted", kInput,
       "reading an input stopped part way (a limit or an error)"},
      {DiagnosticCode::kInputTruncated, "input-truncated", kInput,
       "an input ends before its end: inside its last entry, or before its JSON array is closed"},
      {DiagnosticCode::kInputInterrupted, "input-interrupted", kInput,
       "reading stopped at an interrupt (SIGINT or SIGTERM); what was read was analysed"},
      {DiagnosticCode::kInputCsv, "input-csv", kInput,
       "an input is a CSV of log entries (a Logs Explorer download, gcloud --format=csv): not whole entries"},
      {DiagnosticCode::kInputGcloudError, "input-gcloud-error", kInput,
       "an input holds what gcloud printed instead of log entries: an error (PERMISSION_DENIED …) or warnings"},
      {DiagnosticCode::kInputHtml, "input-html", kInput,
       "an input is an HTML page (an error or sign-in page saved as the file), not log entries"},
      {DiagnosticCode::kGzipTruncated, "gzip-truncated", kInput, "a gzip stream ends before its end"},
      {DiagnosticCode::kGzipCorrupt, "gzip-corrupt", kInput, "a gzip stream is damaged"},
      {DiagnosticCode::kGzipTrailingData, "gzip-trailing-data", kInput, "data follows the end of a gzip stream"},
      {DiagnosticCode::kGzipTooLarge, "gzip-too-large", kInput, "a gzip input decompresses past the size limit"},
      {DiagnosticCode::kGzipBomb, "gzip-bomb", kInput, "a gzip input expands past the ratio limit"},
      {DiagnosticCode::kJobFile, "job-file", kJob, "the --job file (gcloud dataflow jobs describe) cannot be used"},
      {DiagnosticCode::kJobMismatch, "job-mismatch", kJob, "a --job file describes a job that is not in the export"},
      {DiagnosticCode::kRuleYaml, "rule-yaml", kRules, "a rule file is not valid YAML"},
      {DiagnosticCode::kRuleEmbedded, "rule-embedded", kRules,
       "the built-in rule pack embedded at build time is damaged"},
      {DiagnosticCode::kRuleFile, "rule-file", kRules, "a rule file cannot be read or is not one rule"},
      {DiagnosticCode::kRuleDir, "rule-dir", kRules, "a --rules folder cannot be read"},
      {DiagnosticCode::kRuleLimit, "rule-limit", kRules, "a rule file or pack is past a size limit"},
      {DiagnosticCode::kRuleReference, "rule-reference", kRules, "a rule names a rule that does not exist"},
      {DiagnosticCode::kRuleDuplicateId, "rule-duplicate-id", kRules, "two rules have the same id"},
      {DiagnosticCode::kRuleRegex, "rule-regex", kRules, "a pattern does not compile (RE2 syntax)"},
      {DiagnosticCode::kRuleExample, "rule-example", kRules, "a rule's examples are missing or do not hold"},
      {DiagnosticCode::kRuleFixes, "rule-fixes", kRules, "a rule's `fixes` are malformed"},
      {DiagnosticCode::kRuleDoc, "rule-doc", kRules, "a fix's `doc` link is malformed"},
      {DiagnosticCode::kRuleMissingKey, "rule-missing-key", kRules, "a rule lacks a key it needs"},
      {DiagnosticCode::kRuleUnknownKey, "rule-unknown-key", kRules, "a rule has a key gpudiag does not know"},
      {DiagnosticCode::kRuleConfidence, "rule-confidence", kRules, "a confidence is not a number from 0 to 1"},
      {DiagnosticCode::kRuleType, "rule-type", kRules, "a rule key's value has the wrong type"},
      {DiagnosticCode::kRuleSources, "rule-sources", kRules, "a rule does not say where its signature came from"},
      {DiagnosticCode::kRuleCount, "rule-count", kRules, "a `count` is malformed"},
      {DiagnosticCode::kRuleAfter, "rule-after", kRules, "an `after` is malformed"},
      {DiagnosticCode::kRuleAbsent, "rule-absent", kRules, "an `absent` is malformed"},
      {DiagnosticCode::kRuleCondition, "rule-condition", kRules, "a condition is malformed or nests too deep"},
      {DiagnosticCode::kRuleFacts, "rule-facts", kRules, "a `when` over job facts is malformed"},
      {DiagnosticCode::kRuleUnknownFact, "rule-unknown-fact", kRules, "a rule tests a fact gpudiag does not know"},
      {DiagnosticCode::kRuleFamily, "rule-family", kRules, "a rule's family is not one of the known families"},
      {DiagnosticCode::kRuleId, "rule-id", kRules, "a rule or fix id is not kebab-case, or is reserved"},
      {DiagnosticCode::kRuleSeverity, "rule-severity", kRules, "a severity is not info, warning, error or critical"},
      {DiagnosticCode::kRuleDuration, "rule-duration", kRules, "a duration is malformed"},
      {DiagnosticCode::kRuleTodo, "rule-todo", kRules,
       "a warning of `rules lint`: a value still says TODO (a stub from `patterns suggest`)"},
      {DiagnosticCode::kBaselineYaml, "baseline-yaml", kBaseline, "a baseline file is not valid YAML"},
      {DiagnosticCode::kBaselineMissing, "baseline-missing", kBaseline, "a baseline entry lacks a key it needs"},
      {DiagnosticCode::kBaselineType, "baseline-type", kBaseline, "a baseline file or entry has the wrong shape"},
      {DiagnosticCode::kBaselineVersion, "baseline-version", kBaseline, "a baseline file has an unknown version"},
      {DiagnosticCode::kBaselineDuplicate, "baseline-duplicate", kBaseline, "a baseline lists one finding twice"},
      {DiagnosticCode::kBaselineUnknownKey, "baseline-unknown-key", kBaseline, "a baseline entry has an unknown key"},
      {DiagnosticCode::kBaselineFingerprint, "baseline-fingerprint", kBaseline, "a baseline fingerprint is malformed"},
      {DiagnosticCode::kBaselineDate, "baseline-date", kBaseline, "a baseline `expires` is not a YYYY-MM-DD date"},
      {DiagnosticCode::kDbError, "db-error", kHistory, "SQLite failed on the history database"},
      {DiagnosticCode::kDbLocked, "db-locked", kHistory, "the history database stayed locked past the timeout"},
      {DiagnosticCode::kDbCorrupt, "db-corrupt", kHistory, "the history database is corrupt or not a database"},
      {DiagnosticCode::kDbReadOnly, "db-read-only", kHistory, "the history database cannot be written"},
      {DiagnosticCode::kDbCannotOpen, "db-cannot-open", kHistory, "the history database cannot be opened"},
      {DiagnosticCode::kDbFull, "db-full", kHistory, "the disk filled while writing the history database"},
      {DiagnosticCode::kDbMissing, "db-missing", kHistory, "the history database does not exist"},
      {DiagnosticCode::kDbNewer, "db-newer", kHistory, "the history database is from a newer gpudiag"},
      {DiagnosticCode::kDbForeign, "db-foreign", kHistory, "the file is some other program's SQLite database"},
      {DiagnosticCode::kHistoryNotRecorded, "history-not-recorded", kHistory,
       "the run was not recorded: its outputs were not written"},
      {DiagnosticCode::kNoSuchRun, "no-such-run", kHistory, "no run has the given id"},
      {DiagnosticCode::kQueryError, "query-error", kQuery, "SQLite refused the query"},
      {DiagnosticCode::kQueryEmpty, "query-empty", kQuery, "no SQL statement was given"},
      {DiagnosticCode::kQuerySeveral, "query-several", kQuery, "more than one SQL statement was given"},
      {DiagnosticCode::kQueryWrites, "query-writes", kQuery, "the statement would write; gpudiag query only reads"},
      {DiagnosticCode::kQueryTimeout, "query-timeout", kQuery, "the query ran past --timeout"},
      {DiagnosticCode::kConfigYaml, "config-yaml", kConfig, "the .gpudiag.yaml config file is not valid YAML"},
      {DiagnosticCode::kConfigUnknownKey, "config-unknown-key", kConfig,
       "the .gpudiag.yaml config file has an unknown key"},
      {DiagnosticCode::kConfigType, "config-type", kConfig, "a .gpudiag.yaml setting has the wrong shape or value"},
      {DiagnosticCode::kLaunchOptions, "launch-options", kInput,
       "preflight cannot read the launch options (an options file, a launch script, a command line)"},
      {DiagnosticCode::kSqlOption, "sql-option", kConfig,
       "gpudiag sql cannot use an option's value (--source, --since, --until, --job-name)"},
      {DiagnosticCode::kSqlSchema, "sql-schema", kInput,
       "a --schema file is not `bq show --schema --format=json` output, or lacks a column the query reads"},
      {DiagnosticCode::kFetchGcloudMissing, "fetch-gcloud-missing", kInput,
       "gpudiag fetch cannot start gcloud: it is not installed or not on PATH"},
      {DiagnosticCode::kFetchNotLoggedIn, "fetch-not-logged-in", kInput,
       "gcloud has no credentials to use (gcloud auth login)"},
      {DiagnosticCode::kFetchPermission, "fetch-permission", kInput,
       "the account may not read the job or its logs (roles/dataflow.viewer, roles/logging.viewer)"},
      {DiagnosticCode::kFetchJobNotFound, "fetch-job-not-found", kInput,
       "Dataflow knows no such job in the project and region"},
      {DiagnosticCode::kFetchOutputExists, "fetch-output-exists", kInput,
       "gpudiag fetch would replace an existing file (--force replaces it)"},
      {DiagnosticCode::kFetchFailed, "fetch-failed", kInput, "gcloud failed in a way gpudiag fetch cannot retry"},
      {DiagnosticCode::kFetchIncomplete, "fetch-incomplete", kInput,
       "the export was fetched only in part (gcloud stopped early, after the retries): its job file says so"},
  }};
}();

static_assert(
    [] {
      for (size_t i = 0; i < kDiagnosticCodes.size(); ++i) {
        if (static_cast<size_t>(kDiagnosticCodes[i].code) != i) return false;
      }
      return static_cast<size_t>(DiagnosticCode::kFetchIncomplete) + 1 == kDiagnosticCodes.size();
    }(),
    "kDiagnosticCodes is indexed by DiagnosticCode");

constexpr const char* code_name(DiagnosticCode code) { return kDiagnosticCodes[static_cast<size_t>(code)].name; }
std::string_view stage_name(DiagnosticStage stage);  // "input", "job", "rules", "baseline", "history", "query"
// The row for a code as Diagnostic::code holds it, or nullptr for one that is not in the table.
const DiagnosticCodeInfo* find_diagnostic_code(std::string_view name);

}  // namespace gpudiag
