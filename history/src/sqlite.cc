#include "sqlite.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "gpudiag/diagnostic_codes.h"

namespace gpudiag::detail {

namespace {

// What each kind of SQLite failure means to a user, and what to do about it.
struct FailureKind {
  std::array<int, 3> sqlite_codes;  // primary result codes (0 = unused)
  std::string_view code;
  std::string_view message;  // followed by what was being done and SQLite's own words
  std::string_view help;
};

constexpr std::string_view kCheckFolder =
    "check the file's and its folder's permissions (SQLite also writes FILE-wal and FILE-shm beside it)";

constexpr std::array<FailureKind, 5> kFailures{{
    {{SQLITE_BUSY, SQLITE_LOCKED, 0},
     code_name(DiagnosticCode::kDbLocked),
     "the database is locked by another process",
     "another gpudiag (or sqlite3) is writing it; try again, or wait longer with --db-timeout"},
    {{SQLITE_NOTADB, SQLITE_CORRUPT, 0},
     code_name(DiagnosticCode::kDbCorrupt),
     "not a gpudiag database, or a corrupt one",
     "it was left as it is; move it aside to start a new history (sqlite3's .recover may save its content)"},
    {{SQLITE_READONLY, SQLITE_PERM, SQLITE_AUTH},
     code_name(DiagnosticCode::kDbReadOnly),
     "the database cannot be written",
     kCheckFolder},
    {{SQLITE_CANTOPEN, 0, 0}, code_name(DiagnosticCode::kDbCannotOpen), "the database cannot be opened", kCheckFolder},
    {{SQLITE_FULL, 0, 0},
     code_name(DiagnosticCode::kDbFull),
     "the disk is full",
     "nothing of this write was kept; free some space, or prune the history (gpudiag history prune)"},
}};

}  // namespace

Diagnostic db_diagnostic(const std::string& path, int code, std::string_view sqlite_message, std::string_view what) {
  Diagnostic d{.code = code_name(DiagnosticCode::kDbError),
               .message = fmt::format("{} (sqlite: {})", what, sqlite_message),
               .file = path};
  for (const FailureKind& kind : kFailures) {
    if (std::find(kind.sqlite_codes.begin(), kind.sqlite_codes.end(), code & 0xff) == kind.sqlite_codes.end()) continue;
    d.code = kind.code;
    d.message = fmt::format("{}: {}", kind.message, d.message);
    d.help = kind.help;
  }
  return d;
}

Statement& Statement::bind(int i, int64_t v) {
  if (int rc = sqlite3_bind_int64(stmt_, i, v); rc != SQLITE_OK) fail(rc);
  return *this;
}

Statement& Statement::bind(int i, double v) {
  if (int rc = sqlite3_bind_double(stmt_, i, v); rc != SQLITE_OK) fail(rc);
  return *this;
}

Statement& Statement::bind(int i, std::string_view text) {
  // A non-null pointer even for "", so that "" stays an empty string rather than NULL.
  const int rc =
      sqlite3_bind_text64(stmt_, i, text.empty() ? "" : text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8);
  if (rc != SQLITE_OK) fail(rc);
  return *this;
}

Statement& Statement::bind_null(int i) {
  if (int rc = sqlite3_bind_null(stmt_, i); rc != SQLITE_OK) fail(rc);
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(rc);
}

void Statement::run() {
  while (step()) {
  }
  reset();
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

std::string_view Statement::text(int col) const {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, col));
  if (p == nullptr) return {};
  return {p, static_cast<size_t>(sqlite3_column_bytes(stmt_, col))};
}

void Statement::fail(int code) const {
  sqlite3* db = sqlite3_db_handle(stmt_);
  const char* sql = sqlite3_sql(stmt_);
  std::string what = sql ? fmt::format("running `{}`", std::string_view(sql).substr(0, 60)) : "running a statement";
  const std::string message = sqlite3_errmsg(db);
  sqlite3_reset(stmt_);
  throw DbError{db_diagnostic(path_, code, message, what), code & 0xff};
}

Database::Database(const std::string& path, int flags, int busy_timeout_ms) : path_(path) {
  const int rc = sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_EXRESCODE, nullptr);
  if (rc != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw DbError{db_diagnostic(path_, rc, message, "opening it"), rc & 0xff};
  }
  sqlite3_busy_timeout(db_, busy_timeout_ms);
}

Statement Database::prepare(std::string_view sql) const {
  sqlite3_stmt* stmt = nullptr;
  const int rc =
      sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
  if (rc != SQLITE_OK) fail(rc, fmt::format("preparing `{}`", sql.substr(0, 60)));
  return Statement(stmt, path_);
}

void Database::exec(std::string_view sql) const {
  const std::string text(sql);
  const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) fail(rc, fmt::format("running `{}`", sql.substr(0, 60)));
}

void Database::fail(int code, std::string_view what) const {
  throw DbError{db_diagnostic(path_, code, sqlite3_errmsg(db_), what), code & 0xff};
}

}  // namespace gpudiag::detail
