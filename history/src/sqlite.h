// A thin RAII layer over the SQLite C API, internal to the history library. Failures throw
// DbError (a Diagnostic naming the database file); the public functions catch it at their edge
// (guarded()) and return it as a Result, so no exception leaves the library.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "gpudiag/result.h"

namespace gpudiag::detail {

struct DbError {
  Diagnostic diagnostic;
  int sqlite_code = 0;  // the primary result code, when SQLite gave one
};

// The Diagnostic for SQLite result `code` on the database at `path`, doing `what`.
Diagnostic db_diagnostic(const std::string& path, int code, std::string_view sqlite_message, std::string_view what);

class Statement {
 public:
  Statement(sqlite3_stmt* stmt, std::string path) : stmt_(stmt), path_(std::move(path)) {}
  Statement(Statement&& o) noexcept : stmt_(std::exchange(o.stmt_, nullptr)), path_(std::move(o.path_)) {}
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  ~Statement() { sqlite3_finalize(stmt_); }

  // Parameters are 1-based, as in SQLite. Text is bound without a copy: it must outlive step().
  Statement& bind(int i, int64_t v);
  Statement& bind(int i, uint64_t v) { return bind(i, static_cast<int64_t>(v)); }
  Statement& bind(int i, int v) { return bind(i, static_cast<int64_t>(v)); }
  Statement& bind(int i, double v);
  Statement& bind(int i, std::string_view text);
  Statement& bind(int i, const char* text) { return bind(i, std::string_view(text)); }
  Statement& bind(int i, const std::string& text) { return bind(i, std::string_view(text)); }
  Statement& bind_null(int i);
  // NULL for "" (absent fields) and kNoTime-like sentinels.
  Statement& bind_or_null(int i, std::string_view text) { return text.empty() ? bind_null(i) : bind(i, text); }

  bool step();  // true: a row is ready; false: done. Throws DbError otherwise.
  void run();   // step() to the end, then reset() for reuse
  void reset();

  bool is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }
  int64_t int64(int col) const { return sqlite3_column_int64(stmt_, col); }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }
  std::string_view text(int col) const;
  sqlite3_stmt* handle() const { return stmt_; }

 private:
  [[noreturn]] void fail(int code) const;
  sqlite3_stmt* stmt_;
  std::string path_;  // for messages
};

class Database {
 public:
  // Opens `path` (flags as sqlite3_open_v2). Throws DbError when it cannot.
  Database(const std::string& path, int flags, int busy_timeout_ms);
  Database(Database&& o) noexcept : db_(std::exchange(o.db_, nullptr)), path_(std::move(o.path_)) {}
  Database& operator=(Database&&) = delete;
  Database(const Database&) = delete;
  ~Database() { sqlite3_close_v2(db_); }

  Statement prepare(std::string_view sql) const;
  // For SQL without values (DDL, PRAGMA, BEGIN/COMMIT); values always go through bind().
  void exec(std::string_view sql) const;
  // Prepares `sql`, binds `args` to ?1, ?2 … and runs it to the end; returns the rows it changed.
  template <typename... Args>
  int64_t execute(std::string_view sql, const Args&... args) const {
    Statement s = prepare(sql);
    int i = 0;
    (s.bind(++i, args), ...);
    s.run();
    return changes();
  }
  // The first column of the first row (0 when there is none), `args` bound as by execute().
  template <typename... Args>
  int64_t single_int(std::string_view sql, const Args&... args) const {
    Statement s = prepare(sql);
    int i = 0;
    (s.bind(++i, args), ...);
    return s.step() ? s.int64(0) : 0;
  }
  int64_t last_insert_rowid() const { return sqlite3_last_insert_rowid(db_); }
  int64_t changes() const { return sqlite3_changes64(db_); }

  [[noreturn]] void fail(int code, std::string_view what) const;
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

// BEGIN IMMEDIATE (waits for other writers up to the busy timeout) … COMMIT; rolls back unless
// committed, so an error or a crash never leaves half of what it wrote. A read transaction (BEGIN
// DEFERRED) gives several SELECTs one consistent snapshot without blocking writers.
class Transaction {
 public:
  enum Kind { kWrite, kRead };
  explicit Transaction(const Database& db, Kind kind = kWrite) : db_(db) {
    db_.exec(kind == kWrite ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED");
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction() {
    if (open_) sqlite3_exec(db_.handle(), "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    db_.exec("COMMIT");
    open_ = false;
  }

 private:
  const Database& db_;
  bool open_ = true;
};

// Runs `body` and turns a DbError it throws into the Result's error.
template <typename Body>
auto guarded(Body&& body) -> Result<decltype(body())> {
  try {
    return body();
  } catch (const DbError& e) {
    return e.diagnostic;
  }
}

}  // namespace gpudiag::detail
