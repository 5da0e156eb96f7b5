// The history database's schema: one migration per version (docs/schema.md), applied in order.
#pragma once

#include <array>
#include <string_view>

#include "sqlite.h"

namespace gpudiag::detail {

// Marks a database as gpudiag's (PRAGMA application_id): "gpdg".
inline constexpr int64_t kApplicationId = 0x67706467;

// Takes a database from version `to - 1` to `to`.
struct Migration {
  int to;
  std::string_view what;
  std::string_view sql;
};
extern const std::array<Migration, 8> kMigrations;

// Brings a writable database to kHistorySchemaVersion, all steps in one transaction. The version is
// read again inside it, so two processes opening a new database at once migrate it once.
void migrate(const Database& db);

// The FTS5 index over entry.message and entry.exception (created by the first ingest that wants it).
inline constexpr std::string_view kFullTextDdl =
    "CREATE VIRTUAL TABLE IF NOT EXISTS entry_fts USING fts5("
    "message, exception, content='entry', content_rowid='id', tokenize='unicode61')";

}  // namespace gpudiag::detail
