#include "tool_results.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <cctype>

namespace gpudiag::mcp_detail {
namespace {

using simdjson::dom::element;

// A field of an object that may be missing, null or of another type ("" or 0 then): a result is
// passed on as it is, so a missing parent never throws.
using maybe = simdjson::simdjson_result<element>;

std::string_view text_of(maybe e, std::string_view key) {
  std::string_view s;
  return e[key].get(s) == simdjson::SUCCESS ? s : std::string_view{};
}

int64_t number_of(maybe e, std::string_view key) {
  int64_t n = 0;
  if (e[key].get(n) == simdjson::SUCCESS) return n;
  uint64_t u = 0;
  return e[key].get(u) == simdjson::SUCCESS ? static_cast<int64_t>(u) : 0;
}

std::string_view text_of(element e, std::string_view key) { return text_of(maybe(std::move(e)), key); }
int64_t number_of(element e, std::string_view key) { return number_of(maybe(std::move(e)), key); }

// One line of a log message, cut to fit a summary; the structured report has it whole.
std::string clip(std::string_view s, size_t max = 240) {
  if (const size_t nl = s.find('\n'); nl != std::string_view::npos) s = s.substr(0, nl);
  if (s.size() <= max) return std::string(s);
  size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 character
  return std::string(s.substr(0, cut)) + " …";
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

void add_causes(std::string& out, element report) {
  simdjson::dom::array findings;
  if (report["findings"].get(findings) != simdjson::SUCCESS || findings.size() == 0) return;
  out += "Most likely cause first (symptoms are folded under their cause in findings[].symptoms):\n";
  int shown = 0;
  size_t causes = 0;
  for (element f : findings) {
    if (!f["caused_by"].is_null()) continue;  // a symptom: its cause is listed
    ++causes;
    if (shown == 5) continue;
    ++shown;
    const std::string_view first = text_of(f, "first_seen");  // "" for a preflight finding: no log entry
    out += fmt::format("{}. [{}] {} (rule {}, fingerprint {}){}\n", shown, text_of(f, "severity"), text_of(f, "title"),
                       text_of(f, "rule_id"), text_of(f, "fingerprint"),
                       first.empty() ? "" : fmt::format(", {} entries from {}", number_of(f, "count"), first));
    simdjson::dom::array evidence;
    if (f["evidence"].get(evidence) == simdjson::SUCCESS && evidence.size() > 0) {
      element e = evidence.at(0).value();
      const int64_t line = number_of(e, "line");
      out += fmt::format("   evidence: {} — at {}{}\n", clip(text_of(e, "message")), text_of(e, "file"),
                         line > 0 ? fmt::format(":{}", line) : "");
    }
  }
  if (causes > 5) out += fmt::format("   … {} more causes in findings[]\n", causes - 5);
}

void add_unexplained(std::string& out, element report) {
  simdjson::dom::array groups;
  if (report["unexplained"].get(groups) != simdjson::SUCCESS || groups.size() == 0) return;
  out += "Error groups no rule explains (unexplained[]):\n";
  int shown = 0;
  for (element g : groups) {
    if (++shown > 3) break;
    out += fmt::format("  U{} {} ({} entries, fingerprint {})\n", shown, clip(text_of(g, "headline")),
                       number_of(g, "count"), text_of(g, "fingerprint"));
  }
  const int64_t total = number_of(report, "unexplained_total");
  if (total > 3) out += fmt::format("  … {} groups in all\n", total);
}

void add_first_fix(std::string& out, element report) {
  simdjson::dom::array fixes;
  if (report["fixes"].get(fixes) != simdjson::SUCCESS || fixes.size() == 0) return;
  element fix = fixes.at(0).value();
  out += fmt::format("Fix 1: {}\n", clip(text_of(fix, "action"), 600));
  element doc;
  if (fix["doc"].get(doc) == simdjson::SUCCESS) {
    out += fmt::format("  doc: {} › {} {}\n", text_of(doc, "title"), text_of(doc, "section"), text_of(doc, "url"));
  }
  if (fixes.size() > 1) out += fmt::format("  ({} more fixes in fixes[], best first)\n", fixes.size() - 1);
}

void add_other_jobs(std::string& out, element report) {
  simdjson::dom::array jobs;
  if (report["jobs"].get(jobs) != simdjson::SUCCESS || jobs.size() < 2) return;
  out += fmt::format("Jobs ({}, worst first; the lines above are the first one's):\n", jobs.size());
  size_t shown = 0;
  for (element j : jobs) {
    if (++shown > 5) break;
    out += fmt::format("  {} ({}): {}\n", text_of(j, "id"), text_of(j, "name"), clip(text_of(j, "summary")));
  }
  if (jobs.size() > 5) out += fmt::format("  … {} more in jobs[]\n", jobs.size() - 5);
}

void add_input_errors(std::string& out, element report) {
  simdjson::dom::array errors;
  if (report["input_errors"].get(errors) != simdjson::SUCCESS || errors.size() == 0) return;
  out += "Not read in full (input_errors[]):\n";
  for (element e : errors) {
    out += fmt::format("  {}: [{}] {}\n", text_of(e, "path"), text_of(e, "code"), clip(text_of(e, "message")));
  }
}

// The child's stderr as an error message: its lines, without the trailing newline.
std::string error_text(const ChildRun& run, std::string_view fallback) {
  std::string text = run.err;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text.empty() ? std::string(fallback) : text;
}

std::string rules_text(element root) {
  std::string out;
  simdjson::dom::array rules;
  if (root["rules"].get(rules) != simdjson::SUCCESS) return out;
  out += fmt::format("{} rules (id — family, severity: title):\n", rules.size());
  for (element r : rules) {
    out += fmt::format("{} — {}, {}: {}\n", text_of(r, "id"), text_of(r, "family"), text_of(r, "severity"),
                       text_of(r, "title"));
  }
  return out;
}

std::string history_text(element root, const Arguments& args) {
  std::string out;
  simdjson::dom::array pipelines;
  if (root["pipelines"].get(pipelines) != simdjson::SUCCESS) return out;
  const auto wanted = args.find("fingerprint");
  bool seen = false;
  for (element p : pipelines) {
    simdjson::dom::array findings;
    const bool has_findings = p["findings"].get(findings) == simdjson::SUCCESS;
    out += fmt::format("pipeline {}: {} runs recorded, {} findings\n", text_of(p, "pipeline"),
                       number_of(p, "runs_recorded"), has_findings ? findings.size() : 0);
    if (!has_findings) continue;
    for (element f : findings) {
      if (wanted == args.end() || text_of(f, "fingerprint") != wanted->second.text) continue;
      seen = true;
      const maybe h = f["history"];
      bool accepted = false;
      if (h["accepted"].get(accepted) != simdjson::SUCCESS) accepted = false;
      out +=
          fmt::format("  {} was seen before: {} of {} runs, streak {}, first in run {} ({}), last in run {} ({}){}\n",
                      wanted->second.text, number_of(h, "runs_affected"), number_of(h, "runs_recorded"),
                      number_of(h, "streak"), number_of(h["first_seen"], "run"), text_of(h["first_seen"], "time"),
                      number_of(h["last_seen"], "run"), text_of(h["last_seen"], "time"), accepted ? ", accepted" : "");
    }
  }
  if (wanted != args.end() && !seen) {
    out += fmt::format("{} is in no recorded run: it is new to this history\n", wanted->second.text);
  }
  return out;
}

}  // namespace

std::string summarize_report(std::string_view report_json) {
  simdjson::dom::parser parser;
  element report;
  if (parser.parse(report_json.data(), report_json.size()).get(report) != simdjson::SUCCESS) return "";
  std::string out = fmt::format("gpudiag report (gpudiag.report/v1): {}\n", upper(text_of(report, "verdict")));
  out += fmt::format("{}\n", text_of(report, "summary"));
  element job;
  if (report["job"].get(job) == simdjson::SUCCESS && !text_of(job, "id").empty()) {
    out += fmt::format("job {} ({}) in {}, outcome {}\n", text_of(job, "id"), text_of(job, "name"),
                       text_of(job, "region"), text_of(job, "outcome"));
  }
  element preflight;
  if (report["preflight"].get(preflight) == simdjson::SUCCESS) {
    out += fmt::format("preflight: {} launch options from {} sources\n", number_of(preflight, "launch_options"),
                       number_of(preflight, "sources"));
  } else {
    const maybe totals = report["totals"];
    out += fmt::format("{} entries read: {} analysed, {} skipped\n", number_of(totals, "entries"),
                       number_of(totals, "analysed"), number_of(totals, "skipped"));
  }
  add_input_errors(out, report);
  add_causes(out, report);
  add_unexplained(out, report);
  add_first_fix(out, report);
  add_other_jobs(out, report);
  out += "The structured content is the whole report: findings[].evidence, fixes[], facts[], jobs[].\n";
  return out;
}

ToolResult shape_result(const ToolSpec& tool, const Arguments& args, const ChildRun& run, double timeout_seconds) {
  ToolResult result;
  if (!run.started) {
    result.is_error = true;
    result.text = fmt::format("gpudiag could not be started: {}", run.start_error);
    return result;
  }
  if (run.out_overflow) {
    result.is_error = true;
    result.text = "the output passed 32 MiB and was not kept: narrow the call (job_id, fewer paths)";
    return result;
  }
  std::string stopped;
  if (run.timed_out) {
    stopped = fmt::format("stopped after {:.0f} s (the server's --call-timeout)", timeout_seconds);
  }
  // A report on stdout is the answer even when the exit code is not 0: 1 is a tripped gate, and 2 with
  // a report is an input not read in full, which the report says.
  simdjson::dom::parser parser;
  element root;
  const bool json = tool.output != ToolOutput::kText && !run.out.empty() &&
                    parser.parse(run.out).get(root) == simdjson::SUCCESS && root.is_object();
  if (tool.output == ToolOutput::kText) {
    if (run.exit_code == 0) {
      result.text = run.out;
      return result;
    }
  } else if (json) {
    result.structured = simdjson::minify(root);  // one message is one line
    switch (tool.output) {
      case ToolOutput::kReport:
        result.text = summarize_report(result.structured);
        break;
      case ToolOutput::kRules:
        result.text = rules_text(root);
        break;
      case ToolOutput::kHistory:
        result.text = history_text(root, args);
        break;
      case ToolOutput::kText:
        break;
    }
    if (!stopped.empty())
      result.text = fmt::format("{}: the report covers what was read by then.\n{}", stopped, result.text);
    return result;
  }
  result.is_error = true;
  if (!stopped.empty()) {
    result.text = fmt::format("{}; nothing was reported", stopped);
  } else if (run.signal != 0) {
    result.text = fmt::format("gpudiag ended by signal {}: {}", run.signal, error_text(run, "no message"));
  } else {
    result.text = error_text(run, fmt::format("gpudiag exited with {} and no message", run.exit_code));
  }
  return result;
}

}  // namespace gpudiag::mcp_detail
