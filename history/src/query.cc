// `gpudiag query`: one read-only SQL statement over the history, rows handed on as they come.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>

#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/name_suggestions.h"
#include "store.h"

namespace gpudiag {
namespace {

Diagnostic sql_problem(std::string code, std::string message, std::string_view sql, int offset, std::string help = "") {
  Diagnostic d{.code = std::move(code), .message = std::move(message), .file = "SQL", .help = std::move(help)};
  if (offset < 0 || static_cast<size_t>(offset) > sql.size()) return d;
  const size_t at = static_cast<size_t>(offset);
  const size_t line_start = sql.rfind('\n', at == 0 ? 0 : at - 1);
  const size_t begin = at == 0 || line_start == std::string_view::npos ? 0 : line_start + 1;
  const size_t end = std::min(sql.find('\n', at), sql.size());
  d.line = static_cast<uint64_t>(std::count(sql.begin(), sql.begin() + static_cast<long>(begin), '\n')) + 1;
  d.column = at - begin + 1;
  d.source_line = sql.substr(begin, end - begin);
  return d;
}

// Stops a statement once its time is up (an endless recursive CTE would run until killed): SQLite
// calls the progress handler every kProgressSteps virtual machine instructions, and a non-zero
// answer interrupts the statement with SQLITE_INTERRUPT.
class Deadline {
 public:
  Deadline(sqlite3* db, double seconds) : db_(db) {
    if (!(seconds > 0)) return;
    const std::chrono::duration<double> limit(std::min(seconds, 1e9));  // 30 years: no overflow below
    end_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(limit);
    sqlite3_progress_handler(db_, kProgressSteps, &Deadline::check, this);
  }
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;
  ~Deadline() { sqlite3_progress_handler(db_, 0, nullptr, nullptr); }

  bool passed() const { return passed_; }

 private:
  using Clock = std::chrono::steady_clock;
  static constexpr int kProgressSteps = 10'000;  // well under a millisecond between checks

  static int check(void* self) {
    auto* d = static_cast<Deadline*>(self);
    d->passed_ = d->passed_ || Clock::now() >= d->end_;
    return d->passed_ ? 1 : 0;
  }

  sqlite3* db_;
  Clock::time_point end_{};
  bool passed_ = false;
};

QueryValue cell(sqlite3_stmt* stmt, int col) {
  switch (sqlite3_column_type(stmt, col)) {
    case SQLITE_INTEGER:
      return {QueryValue::Type::kInteger, std::to_string(sqlite3_column_int64(stmt, col))};
    case SQLITE_FLOAT:
      return {QueryValue::Type::kReal, fmt::format("{}", sqlite3_column_double(stmt, col))};
    case SQLITE_TEXT: {
      const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt, col));
      return {QueryValue::Type::kText, std::string(p, static_cast<size_t>(sqlite3_column_bytes(stmt, col)))};
    }
    case SQLITE_BLOB: {
      const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(stmt, col));
      std::string hex;
      for (int i = 0; i < sqlite3_column_bytes(stmt, col); ++i) hex += fmt::format("{:02x}", p[i]);
      return {QueryValue::Type::kBlob, std::move(hex)};
    }
    default:
      return {};
  }
}

// For "no such table: findings": "did you mean `finding`?" among the tables and views of the database.
std::string table_hint(sqlite3* db, std::string_view message) {
  constexpr std::string_view kNoSuchTable = "no such table: ";
  if (!message.starts_with(kNoSuchTable)) return "";
  std::string_view typed = message.substr(kNoSuchTable.size());
  if (const size_t dot = typed.rfind('.'); dot != std::string_view::npos) typed.remove_prefix(dot + 1);
  std::vector<std::string> names;
  sqlite3_stmt* raw = nullptr;
  if (sqlite3_prepare_v2(db,
                         "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'",
                         -1, &raw, nullptr) == SQLITE_OK) {
    while (sqlite3_step(raw) == SQLITE_ROW)
      names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(raw, 0)));
  }
  sqlite3_finalize(raw);
  const std::string hint = did_you_mean(typed, names);
  return hint.empty() ? "" : hint + " ";
}

}  // namespace

Result<std::vector<std::string>> HistoryStore::query(std::string_view sql, const QueryRowFn& on_row,
                                                     double timeout_seconds) {
  return detail::guarded([&]() -> std::vector<std::string> {
    sqlite3* db = impl_->db.handle();
    sqlite3_stmt* raw = nullptr;
    const char* tail = nullptr;
    const int rc = sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &raw, &tail);
    detail::Statement stmt(raw, path());
    const std::string in = fmt::format("in {}", path());
    if (rc != SQLITE_OK) {
      const std::string message = sqlite3_errmsg(db);
      const int offset = sqlite3_error_offset(db);
      throw detail::DbError{
          sql_problem(code_name(DiagnosticCode::kQueryError), fmt::format("{} ({})", message, in), sql, offset,
                      table_hint(db, message) + "docs/schema.md lists the tables and views, with example queries")};
    }
    if (raw == nullptr)
      throw detail::DbError{sql_problem(code_name(DiagnosticCode::kQueryEmpty), "no SQL statement was given", sql, -1)};
    const std::string_view rest(tail, static_cast<size_t>(sql.data() + sql.size() - tail));
    if (rest.find_first_not_of(" \t\r\n;") != std::string_view::npos) {
      throw detail::DbError{sql_problem(code_name(DiagnosticCode::kQuerySeveral), "give one statement at a time", sql,
                                        static_cast<int>(tail - sql.data()))};
    }
    if (sqlite3_stmt_readonly(raw) == 0) {
      throw detail::DbError{sql_problem(code_name(DiagnosticCode::kQueryWrites),
                                        fmt::format("gpudiag query only reads ({})", in), sql, 0,
                                        "use `gpudiag history prune` or `history accept` to change the history")};
    }
    const int n = sqlite3_column_count(raw);
    std::vector<std::string> columns;
    for (int i = 0; i < n; ++i) columns.emplace_back(sqlite3_column_name(raw, i));
    std::vector<QueryValue> row(static_cast<size_t>(n));
    Deadline deadline(db, timeout_seconds);
    try {
      while (stmt.step()) {
        for (int i = 0; i < n; ++i) row[static_cast<size_t>(i)] = cell(raw, i);
        on_row(columns, row);
      }
    } catch (const detail::DbError&) {
      if (!deadline.passed()) throw;
      throw detail::DbError{sql_problem(
          code_name(DiagnosticCode::kQueryTimeout),
          fmt::format("the query was stopped after {:g} s, still running ({})", timeout_seconds, in), sql, -1,
          "give it longer with --timeout SECONDS (0: no limit), or ask for less (LIMIT, a narrower WHERE)")};
    }
    return columns;
  });
}

}  // namespace gpudiag
