// Which labels of a LogEntry ingest reads into a LogRecord's fields: one table for the entry's
// labels, one for its resource's. ingest reads entries with them; `gpudiag sql` can write its
// column list from the same rows instead of a second copy.
//
// A BigQuery log sink cannot keep "compute.googleapis.com/resource_name" as a column name: "Any
// unsupported characters are removed from field names and replaced with underscore characters"
// (cloud.google.com/logging/docs/export/bigquery, "Field naming conventions"), so its tables hold
// `labels.compute_googleapis_com_resource_name`. Each entry label's row names both spellings; a
// sink's spelling is read as the API's (LogRecord::label finds it under the API key).
#pragma once

#include <array>
#include <span>
#include <string>
#include <string_view>

#include "gpudiag/log_record.h"

namespace gpudiag {

struct EntryLabelField {
  std::string_view key;       // as the API writes it: "compute.googleapis.com/resource_name"
  std::string_view sink_key;  // as a BigQuery sink names the column: sink_label_key(key)
  std::string_view LogRecord::*field;
  // true: the label wins over what the payload said (jsonPayload.worker); false: it fills the
  // field only when the resource labels and the payload left it empty.
  bool overrides;
};

struct ResourceLabelField {
  std::string_view key;  // resource.labels.<key>, the same in every source (letters, digits, '_')
  std::string_view LogRecord::*field;
};

// The tables themselves, constexpr so that the reader's comparisons against them compile to
// fixed-length ones (every label of every entry is looked up).
inline constexpr std::array kEntryLabelFields = {
    EntryLabelField{"compute.googleapis.com/resource_name", "compute_googleapis_com_resource_name", &LogRecord::worker,
                    true},
    EntryLabelField{"dataflow.googleapis.com/job_id", "dataflow_googleapis_com_job_id", &LogRecord::job_id, false},
    EntryLabelField{"dataflow.googleapis.com/job_name", "dataflow_googleapis_com_job_name", &LogRecord::job_name,
                    false},
    EntryLabelField{"dataflow.googleapis.com/region", "dataflow_googleapis_com_region", &LogRecord::region, false},
};
inline constexpr std::array kResourceLabelFields = {
    ResourceLabelField{"job_id", &LogRecord::job_id},      ResourceLabelField{"job_name", &LogRecord::job_name},
    ResourceLabelField{"project_id", &LogRecord::project}, ResourceLabelField{"region", &LogRecord::region},
    ResourceLabelField{"step_id", &LogRecord::step},
};

std::span<const EntryLabelField> entry_label_fields();
std::span<const ResourceLabelField> resource_label_fields();

// The column name a BigQuery sink gives the label `key`: every character other than an ASCII
// letter, digit or '_' becomes '_', and leading underscores are dropped.
std::string sink_label_key(std::string_view key);

}  // namespace gpudiag
