// gpudiag sql --source analytics:PROJECT.DATASET[.VIEW] | sink:PROJECT.DATASET: prints the rule pack
// compiled into one GoogleSQL query (docs/sql.md); --check and --explain say what it needs first.
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/pack_selection.h"
#include "gpudiag/report.h"
#include "gpudiag/sql_query.h"

namespace gpudiag::cli {
namespace {

struct SqlCommandOptions {
  RuleOptions rules;
  std::string source;
  std::string since, until, job_name, layout = "partitioned";
  std::vector<std::string> job_ids, schema_files;
  uint64_t max_rows_per_job = 20000;
  bool check = false, explain = false;
  double daily_entries = 1e6;
};

int run_sql(const SqlCommandOptions& o) {
  auto source = parse_sql_source(o.source);
  if (!source) {
    print_problem(source.error());
    return kExitError;
  }
  SqlOptions options{.source = *source,
                     .layout = o.layout == "sharded" ? SinkLayout::kSharded : SinkLayout::kPartitioned,
                     .since = o.since,
                     .until = o.until,
                     .job_ids = o.job_ids,
                     .job_name_glob = o.job_name,
                     .max_rows_per_job = o.max_rows_per_job};
  for (const auto& file : o.schema_files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    if (!in) {
      print_problem(
          Diagnostic{.code = code_name(DiagnosticCode::kSqlSchema), .message = "cannot read the file", .file = file});
      return kExitError;
    }
    std::string table = file.substr(file.find_last_of('/') + 1);
    table = table.substr(0, table.find('.'));
    auto schema = parse_table_schema(text.str(), table, file);
    if (!schema) {
      print_problem(schema.error());
      return kExitError;
    }
    options.schemas.push_back(std::move(*schema));
  }
  auto pack = o.rules.load();
  if (!pack) return kExitError;
  const PackSelection selection = pack_selection(*pack);
  if (o.check) {
    const SqlCheck check = check_sql(selection, options);
    for (const auto& w : check.warnings) std::cout << "warning: " << terminal_safe(w) << '\n';
    for (const auto& e : check.errors) std::cout << "error: " << terminal_safe(e) << '\n';
    auto sql = compile_sql(selection, options);
    if (!sql) {
      print_problem(sql.error());
      return kExitError;
    }
    std::cout << fmt::format("{} conditions, {} errors, {} warnings; the query is {} bytes\n",
                             selection.conditions.size(), check.errors.size(), check.warnings.size(), sql->size());
    return check.errors.empty() ? kExitOk : kExitError;
  }
  if (o.explain) {
    auto sql = compile_sql(selection, options);
    if (!sql) {
      print_problem(sql.error());
      return kExitError;
    }
    std::cout << explain_sql(selection, options, o.daily_entries);
    std::cout << fmt::format("query text: {} bytes\n", sql->size());
    return kExitOk;
  }
  auto sql = compile_sql(selection, options);
  if (!sql) {
    print_problem(sql.error());
    return kExitError;
  }
  std::cout << *sql;
  return kExitOk;
}

}  // namespace

void add_sql_command(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<SqlCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "sql", "Print the rule pack as one GoogleSQL query over Cloud Logging in BigQuery (docs/sql.md)");
  cmd->add_option("--source", o->source, "analytics:PROJECT.DATASET[.VIEW] (Log Analytics) or sink:PROJECT.DATASET")
      ->required();
  cmd->add_option("--since", o->since, "Only entries since: 24h, 7d, 30m, a date (2024-05-01) or an RFC 3339 time");
  cmd->add_option("--until", o->until, "Only entries before this (the same forms)");
  cmd->add_option("--job-id", o->job_ids, "Only this job (repeatable)");
  cmd->add_option("--job-name", o->job_name, "Only the jobs whose name matches this glob");
  cmd->add_option("--max-rows-per-job", o->max_rows_per_job, "Entry rows returned per job at most")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--sink-layout", o->layout, "A sink's tables: partitioned on timestamp, or sharded by date")
      ->check(one_of({"partitioned", "sharded"}))
      ->capture_default_str();
  cmd->add_option("--schema", o->schema_files,
                  "`bq show --schema --format=json` of a table, in a file named after it (TABLE.json); repeatable");
  cmd->add_flag("--check", o->check,
                "Report patterns BigQuery cannot take and columns the schemas lack (exit 2 on an error)");
  cmd->add_flag("--explain", o->explain, "Print the tables, columns and partitions read and the bytes scanned a day");
  cmd->add_option("--daily-entries", o->daily_entries, "Entries a day, for --explain's estimate")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  o->rules.add_to(*cmd);
  cmd->callback([&run, o] { run = [o] { return run_sql(*o); }; });
}

}  // namespace gpudiag::cli
