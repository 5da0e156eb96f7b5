// parse_job_summary(): the gpudiag_summary column of a `gpudiag sql` result row (docs/sql.md).
// A handful of rows per export, so the DOM API: simple, and the row is small.
#include "gpudiag/job_summary.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <charconv>

namespace gpudiag {
namespace {

namespace dom = simdjson::dom;

Diagnostic summary_error(std::string message) {
  return Diagnostic{.code = "summary-row",
                    .message = std::move(message),
                    .help =
                        "summary rows come from the query `gpudiag sql` prints; print it again with this "
                        "gpudiag and run it again"};
}

// A count: a JSON number, or an INT64 as BigQuery sends it (a string of digits). Null is 0.
bool read_count(dom::element e, uint64_t& out) {
  if (e.is_null()) return true;
  if (e.is_uint64()) return (out = e.get_uint64().value_unsafe()), true;
  if (e.is_int64()) return false;  // a negative count
  if (e.is_double()) {
    const double d = e.get_double().value_unsafe();
    if (!(d >= 0 && d < 1.8e19)) return false;
    out = static_cast<uint64_t>(d);
    return true;
  }
  std::string_view s;
  if (e.get_string().get(s)) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

bool read_time(dom::element e, Timestamp& out) {
  if (e.is_null()) return true;
  std::string_view s;
  if (e.get_string().get(s)) return false;
  auto t = parse_rfc3339(s);
  if (!t) t = parse_bigquery_timestamp(s);
  if (!t) return false;
  out = *t;
  return true;
}

bool read_text(dom::element e, std::string& out) {
  if (e.is_null()) return true;
  std::string_view s;
  if (e.get_string().get(s)) return false;
  out.assign(s);
  return true;
}

class SummaryReader {
 public:
  explicit SummaryReader(std::vector<std::string>& notes) : notes_(notes) {}

  Result<JobSummary> read(dom::object row) {
    JobSummary s;
    uint64_t version = 0;
    dom::element v;
    if (row["v"].get(v) || !read_count(v, version)) return summary_error("a summary row without its version (\"v\")");
    if (version != JobSummary::kVersion) {
      return summary_error(
          fmt::format("a summary row of version {}; this gpudiag reads version {}", version, JobSummary::kVersion));
    }
    for (auto [key, value] : row) {
      if (key == "job_id") {
        text(value, s.job_id, key);
      } else if (key == "job_name") {
        text(value, s.job_name, key);
      } else if (key == "project") {
        text(value, s.project, key);
      } else if (key == "region") {
        text(value, s.region, key);
      } else if (key == "entries") {
        count(value, s.entries, key);
      } else if (key == "returned") {
        count(value, s.returned, key);
      } else if (key == "capped") {
        count(value, s.capped, key);
      } else if (key == "workers_total") {
        count(value, s.workers_total, key);
      } else if (key == "first") {
        time(value, s.first, key);
      } else if (key == "last") {
        time(value, s.last, key);
      } else if (key == "logs") {
        logs(value, s.logs);
      } else if (key == "workers") {
        workers(value, s.workers);
      } else if (key == "fact_entries") {
        fact_entries(value, s.fact_entries);
      }
    }
    s.workers_total = std::max<uint64_t>(s.workers_total, s.workers.size());
    return s;
  }

 private:
  void note(std::string_view field, std::string_view what) {
    notes_.push_back(fmt::format("summary row: {} {}; ignored", field, what));
  }
  void text(dom::element e, std::string& out, std::string_view field) {
    if (!read_text(e, out)) note(field, "is not a string");
  }
  void count(dom::element e, uint64_t& out, std::string_view field) {
    if (!read_count(e, out)) note(field, "is not a count");
  }
  void time(dom::element e, Timestamp& out, std::string_view field) {
    if (!read_time(e, out)) note(field, "is not a timestamp");
  }

  void logs(dom::element e, std::vector<JobSummary::Log>& out) {
    dom::array list;
    if (e.is_null()) return;
    if (e.get_array().get(list)) return note("logs", "is not a list");
    for (dom::element item : list) {
      if (out.size() == JobSummary::kMaxLogs) {
        return note("logs", fmt::format("lists more than {} logs; the rest are", JobSummary::kMaxLogs));
      }
      dom::object o;
      if (item.get_object().get(o)) return note("logs", "holds an item that is not an object");
      JobSummary::Log log;
      for (auto [key, value] : o) {
        if (key == "log") text(value, log.log, "logs.log");
        if (key == "entries") count(value, log.entries, "logs.entries");
        if (key == "first") time(value, log.first, "logs.first");
        if (key == "last") time(value, log.last, "logs.last");
      }
      if (!log.log.empty()) out.push_back(std::move(log));
    }
  }

  void workers(dom::element e, std::vector<JobSummary::Worker>& out) {
    dom::array list;
    if (e.is_null()) return;
    if (e.get_array().get(list)) return note("workers", "is not a list");
    for (dom::element item : list) {
      if (out.size() == JobSummary::kMaxWorkers) {
        return note("workers", fmt::format("lists more than {} workers; the rest are", JobSummary::kMaxWorkers));
      }
      dom::object o;
      if (item.get_object().get(o)) return note("workers", "holds an item that is not an object");
      JobSummary::Worker worker;
      for (auto [key, value] : o) {
        if (key == "worker") text(value, worker.worker, "workers.worker");
        if (key == "entries") count(value, worker.entries, "workers.entries");
        if (key == "sdk_workers") sdk_workers(value, worker.sdk_workers);
      }
      if (!worker.worker.empty()) out.push_back(std::move(worker));
    }
  }

  void fact_entries(dom::element e, std::vector<std::pair<std::string, uint64_t>>& out) {
    dom::object counts;
    if (e.is_null()) return;
    if (e.get_object().get(counts)) return note("fact_entries", "is not an object");
    for (auto [key, value] : counts) {
      if (out.size() == JobSummary::kMaxFactEntries) {
        return note("fact_entries",
                    fmt::format("names more than {} extractors; the rest are", JobSummary::kMaxFactEntries));
      }
      uint64_t n = 0;
      if (value.is_null()) continue;
      if (!read_count(value, n)) {
        note("fact_entries", fmt::format("gives {} a value that is not a count", key));
        continue;
      }
      out.emplace_back(std::string(key), n);
    }
  }

  void sdk_workers(dom::element e, std::vector<std::string>& out) {
    dom::array list;
    if (e.is_null()) return;
    if (e.get_array().get(list)) return note("workers.sdk_workers", "is not a list");
    for (dom::element item : list) {
      if (out.size() == JobSummary::kMaxSdkWorkersPerWorker) {
        return note("workers.sdk_workers",
                    fmt::format("lists more than {} per worker; the rest are", JobSummary::kMaxSdkWorkersPerWorker));
      }
      std::string name;
      if (read_text(item, name) && !name.empty()) out.push_back(std::move(name));
    }
  }

  std::vector<std::string>& notes_;
};

}  // namespace

Result<JobSummary> parse_job_summary(std::string_view column_json, std::vector<std::string>& notes) {
  dom::parser parser;
  dom::element root;
  if (auto err = parser.parse(column_json.data(), column_json.size()).get(root)) {
    return summary_error(fmt::format("gpudiag_summary is not JSON ({})", simdjson::error_message(err)));
  }
  // A JSON column arrives as the JSON text of its value: parse the string's text again.
  std::string inner;
  dom::parser inner_parser;
  if (std::string_view text; root.get_string().get(text) == simdjson::SUCCESS) {
    inner.assign(text);
    if (auto err = inner_parser.parse(inner).get(root)) {
      return summary_error(
          fmt::format("gpudiag_summary holds a string that is not JSON ({})", simdjson::error_message(err)));
    }
  }
  dom::object row;
  if (root.get_object().get(row)) return summary_error("gpudiag_summary is not a JSON object");
  return SummaryReader(notes).read(row);
}

}  // namespace gpudiag
