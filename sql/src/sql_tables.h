// Which tables and columns the query reads, per schema: the one place that knows the Log Analytics
// view's and a log sink's column names. Internal to sql.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/entry_fields.h"
#include "gpudiag/sql_query.h"

namespace gpudiag::sql {

// The Dataflow logs a sink query reads, one table each (the logs the built-in rules and the corpus
// name; docs/sql.md lists them and how to add one).
inline constexpr std::array<std::string_view, 11> kDataflowLogs = {
    "dataflow.googleapis.com/job-message",      "dataflow.googleapis.com/launcher",
    "dataflow.googleapis.com/worker",           "dataflow.googleapis.com/worker-startup",
    "dataflow.googleapis.com/harness",          "dataflow.googleapis.com/harness-startup",
    "dataflow.googleapis.com/docker",           "dataflow.googleapis.com/kubelet",
    "dataflow.googleapis.com/system",           "dataflow.googleapis.com/shuffler",
    "dataflow.googleapis.com/shuffler-startup",
};

// The resource type of every Dataflow log (the Log Analytics view holds every log of the bucket).
inline constexpr std::string_view kDataflowResourceType = "dataflow_step";

// A sink's table for a log id: every character not [A-Za-z0-9_] becomes '_'.
std::string sink_table_name(std::string_view log_id);

// One table the query reads: its name in the FROM clause and the columns it reads there.
struct TableRead {
  std::string name;                  // project.dataset.table (a sharded sink's ends in _*)
  std::string schema_name;           // what a --schema file is matched by: the table's last part (without _*)
  std::vector<std::string> columns;  // dotted paths
};

// A source column, as the query reads it in one table: the column's path, "" when the schema has
// no such place (protoPayload in a sink's fixed set).
std::string column_path(SqlSchema schema, const EntryFieldSource& source);

// The fixed column set of a sink table's output RECORDs, from ingest's tables.
std::vector<std::string> sink_payload_fields();

}  // namespace gpudiag::sql
