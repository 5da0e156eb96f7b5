// gpudiag/entry_fields.h says where ingest reads each LogRecord field from: every row is checked
// against the reader itself, each source alone and all of a field's sources at once (the first wins).
#include "gpudiag/entry_fields.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>
#include <map>

#include "gpudiag/ingest.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

// A LogEntry built from sources: each part an object of its own.
struct EntryParts {
  std::map<std::string, std::string> top, payload, labels, resource, resource_labels, proto_status;
};

std::string json_object(const std::map<std::string, std::string>& m) {
  std::vector<std::string> parts;
  for (const auto& [k, v] : m) parts.push_back(fmt::format("\"{}\":{}", k, v));
  return fmt::format("{{{}}}", fmt::join(parts, ","));
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

void set_source(EntryParts& e, const EntryFieldSource& s, const std::string& value) {
  const std::string key(s.key);
  switch (s.part) {
    case EntryPart::kEntry:
      e.top[key] = quoted(value);
      break;
    case EntryPart::kJsonPayload:
      e.payload[key] = quoted(value);
      break;
    case EntryPart::kProtoPayload:
      REQUIRE(key == "status.message");
      e.proto_status["message"] = quoted(value);
      break;
    case EntryPart::kLabel:
      e.labels[key] = quoted(value);
      break;
    case EntryPart::kResource:
      e.resource[key] = quoted(value);
      break;
    case EntryPart::kResourceLabel:
      e.resource_labels[key] = quoted(value);
      break;
  }
}

std::string entry_json(EntryParts e) {
  auto top = e.top;
  if (!top.count("timestamp")) top["timestamp"] = quoted("2024-01-01T00:00:00Z");
  if (!top.count("insertId")) top["insertId"] = quoted("i1");
  if (!e.payload.empty()) top["jsonPayload"] = json_object(e.payload);
  if (!e.labels.empty()) top["labels"] = json_object(e.labels);
  if (!e.proto_status.empty()) top["protoPayload"] = json_object({{"status", json_object(e.proto_status)}});
  auto resource = e.resource;
  if (!e.resource_labels.empty()) resource["labels"] = json_object(e.resource_labels);
  if (!resource.empty()) top["resource"] = json_object(resource);
  return json_object(top);
}

std::string read_field(const std::string& entry, std::string_view field) {
  const std::string path = test::temp_dir() + "/entry.json";
  test::write_file(path, entry + "\n");
  std::string value = "<no record>";
  auto summary = read_export(path, [&](const LogRecord& r) {
    const std::map<std::string_view, std::string_view> fields = {{"message", r.message},
                                                                 {"exception", r.exception},
                                                                 {"worker", r.worker},
                                                                 {"sdk_worker", r.sdk_worker},
                                                                 {"job_id", r.job_id},
                                                                 {"job_name", r.job_name},
                                                                 {"project", r.project},
                                                                 {"region", r.region},
                                                                 {"step", r.step},
                                                                 {"logger", r.logger},
                                                                 {"thread", r.thread},
                                                                 {"log", r.log},
                                                                 {"resource_type", r.resource_type},
                                                                 {"severity", severity_name(r.severity)}};
    auto it = fields.find(field);
    value = it == fields.end() ? "<unknown field>" : std::string(it->second);
  });
  REQUIRE(summary.ok());
  return value;
}

// The value a source is given, and what the record shows of it.
std::pair<std::string, std::string> sample(std::string_view field, const EntryFieldSource& s, size_t i) {
  if (field == "log") return {"projects/p/logs/dataflow.googleapis.com%2Fworker", "worker"};
  if (field == "severity") return {i == 0 ? "ERROR" : "400", i == 0 ? "ERROR" : "WARNING"};
  (void)s;
  const std::string v = fmt::format("{}-{}", field, i);
  return {v, v};
}

}  // namespace

TEST_CASE("entry_fields.h: each source alone gives its LogRecord field, as the reader reads it", "[unit]") {
  for (const auto& row : record_field_sources()) {
    for (size_t i = 0; i < row.sources().size(); ++i) {
      const EntryFieldSource& s = row.sources()[i];
      EntryParts e;
      const auto [given, shown] = sample(row.field, s, i);
      set_source(e, s, given);
      if (row.field != "message") e.top["textPayload"] = quoted("text");  // an entry with a payload
      if (row.field == "message" && s.part != EntryPart::kEntry) e.top.erase("textPayload");
      INFO(row.field << " from source " << i << ": " << entry_json(e));
      CHECK(read_field(entry_json(e), row.field) == shown);
    }
  }
}

TEST_CASE("entry_fields.h: with every source given, the first in the table wins", "[unit]") {
  for (const auto& row : record_field_sources()) {
    if (row.sources().size() < 2 || row.field == "message") continue;  // message: one payload per entry
    EntryParts e;
    e.top["textPayload"] = quoted("text");
    for (size_t i = 0; i < row.sources().size(); ++i)
      set_source(e, row.sources()[i], sample(row.field, row.sources()[i], i).first);
    INFO(row.field << ": " << entry_json(e));
    CHECK(read_field(entry_json(e), row.field) == sample(row.field, row.sources()[0], 0).second);
  }
}

TEST_CASE("entry_fields.h names every LogRecord field the SQL normalises, once", "[unit]") {
  for (std::string_view f : {"message", "exception", "worker", "sdk_worker", "job_id", "job_name", "project", "region",
                             "step", "logger", "thread", "log", "severity", "resource_type"}) {
    INFO(f);
    CHECK(record_field(f) != nullptr);
  }
  CHECK(record_field("nope") == nullptr);
}
