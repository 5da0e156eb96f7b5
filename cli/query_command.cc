// gpudiag query --db FILE "SQL": one read-only SQL statement over the run history and the stored
// entries (docs/schema.md), printed as a table, CSV or JSON.
#include <fmt/format.h>

#include <iostream>
#include <iterator>

#include "commands.h"

namespace gpudiag::cli {
namespace {

struct QueryOptions {
  HistoryOptions history;
  std::string sql;
  std::string format = "table";
  double timeout = 30;  // seconds (--timeout; 0: no limit)
};

int run_query(const QueryOptions& o) {
  auto store = o.history.open(/*read_only=*/true, /*create=*/false);
  if (!store) return kExitError;
  // A read-only open cannot migrate, so the tables are those of the version the file has.
  if (store->opened_version() < kHistorySchemaVersion) {
    std::cerr << terminal_safe_lines(fmt::format(
        "gpudiag: note: {} has history schema {}, older than this gpudiag's {}; query opens it read-only and does "
        "not upgrade it, so columns added since are missing (docs/upgrading.md). A run recorded with --db upgrades "
        "it.\n",
        store->path(), store->opened_version(), kHistorySchemaVersion));
  }
  const std::string sql =
      o.sql == "-" ? std::string(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>()) : o.sql;
  const auto format = o.format == "csv"    ? QueryPrinter::Format::kCsv
                      : o.format == "json" ? QueryPrinter::Format::kJson
                                           : QueryPrinter::Format::kTable;
  QueryPrinter printer(format, [](std::string_view text) { std::cout << text; });
  auto columns = store->query(
      sql, [&](const auto& names, const auto& row) { printer.row(names, row); }, o.timeout);
  if (!columns) {
    std::cout << std::flush;
    print_problem(columns.error());
    return kExitError;
  }
  printer.finish(*columns);
  return kExitOk;
}

}  // namespace

void add_query_command(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<QueryOptions>();
  CLI::App* cmd = app.add_subcommand("query", "Run one read-only SQL statement over --db (tables: docs/schema.md)");
  cmd->add_option("sql", o->sql, "The SQL statement, or - to read it from stdin")->required();
  o->history.add_db(*cmd, true);
  cmd->add_option("--format", o->format, "Output format")
      ->check(one_of({"table", "csv", "json"}))
      ->capture_default_str();
  cmd->add_option("--timeout", o->timeout, "Stop the query after this many seconds, with exit code 2 (0: no limit)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->callback([&run, o] { run = [o] { return run_query(*o); }; });
}

}  // namespace gpudiag::cli
