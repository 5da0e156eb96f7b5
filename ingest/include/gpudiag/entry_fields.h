// Where in a LogEntry each LogRecord field comes from, highest priority first: ingest's
// normalisation as one table, so that `gpudiag sql` writes the same normalisation in GoogleSQL
// instead of a second copy (docs/sql.md). tests/entry_fields_test.cc checks that the reader and
// this table agree, row by row.
//
//   for (const RecordFieldSources& f : record_field_sources())
//     for (const EntryFieldSource& s : f.sources) …  // s.part, s.key
#pragma once

#include <array>
#include <span>
#include <string_view>

namespace gpudiag {

// The part of a LogEntry a source names.
enum class EntryPart : uint8_t {
  kEntry,          // a top-level field, named as the API spells it: "textPayload", "logName"
  kJsonPayload,    // jsonPayload.<key>
  kProtoPayload,   // protoPayload.<key> (a dotted path: "status.message")
  kLabel,          // labels["<key>"], the API's key (a sink's column is sink_label_key(key))
  kResource,       // resource.<key> ("type")
  kResourceLabel,  // resource.labels.<key>
};

struct EntryFieldSource {
  EntryPart part;
  std::string_view key;
};

// One LogRecord field and its sources: the first that is present and not empty gives the value.
// A LogEntry holds one payload (the API's oneof), so message's sources never compete.
struct RecordFieldSources {
  std::string_view field;  // LogRecord's member name: "message", "worker" …
  std::array<EntryFieldSource, 3> source_slots;
  size_t count;
  std::span<const EntryFieldSource> sources() const { return {source_slots.data(), count}; }
};

inline constexpr std::array kRecordFieldSources = {
    RecordFieldSources{"message",
                       {{{EntryPart::kEntry, "textPayload"},
                         {EntryPart::kJsonPayload, "message"},
                         {EntryPart::kProtoPayload, "status.message"}}},
                       3},
    RecordFieldSources{"exception", {{{EntryPart::kJsonPayload, "exception"}}}, 1},
    // The label names the VM the entry came from; jsonPayload.worker is what the harness says.
    RecordFieldSources{
        "worker",
        {{{EntryPart::kLabel, "compute.googleapis.com/resource_name"}, {EntryPart::kJsonPayload, "worker"}}},
        2},
    RecordFieldSources{"sdk_worker", {{{EntryPart::kJsonPayload, "portability_worker_id"}}}, 1},
    RecordFieldSources{"job_id",
                       {{{EntryPart::kResourceLabel, "job_id"},
                         {EntryPart::kJsonPayload, "job"},
                         {EntryPart::kLabel, "dataflow.googleapis.com/job_id"}}},
                       3},
    RecordFieldSources{
        "job_name",
        {{{EntryPart::kResourceLabel, "job_name"}, {EntryPart::kLabel, "dataflow.googleapis.com/job_name"}}},
        2},
    RecordFieldSources{"project", {{{EntryPart::kResourceLabel, "project_id"}}}, 1},
    RecordFieldSources{
        "region", {{{EntryPart::kResourceLabel, "region"}, {EntryPart::kLabel, "dataflow.googleapis.com/region"}}}, 2},
    RecordFieldSources{"step", {{{EntryPart::kResourceLabel, "step_id"}, {EntryPart::kJsonPayload, "step"}}}, 2},
    RecordFieldSources{"logger", {{{EntryPart::kJsonPayload, "logger"}}}, 1},
    RecordFieldSources{"thread", {{{EntryPart::kJsonPayload, "thread"}}}, 1},
    // short_log_name() of it: what follows the last '/' or "%2F".
    RecordFieldSources{"log", {{{EntryPart::kEntry, "logName"}}}, 1},
    // A name (kSeverityNames, kSeverityAliases, any case) or a number; else severity_number.
    RecordFieldSources{"severity", {{{EntryPart::kEntry, "severity"}, {EntryPart::kEntry, "severity_number"}}}, 2},
    RecordFieldSources{"resource_type", {{{EntryPart::kResource, "type"}}}, 1},
};

std::span<const RecordFieldSources> record_field_sources();
// The row of `field`, or nullptr.
const RecordFieldSources* record_field(std::string_view field);

}  // namespace gpudiag
