// Drafting baseline files and dropping their stale entries by line ranges (gpudiag/baseline_writer.h).
#include "gpudiag/baseline_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "gpudiag/diagnostic_codes.h"
#include "gpudiag/utf8.h"
#include "gpudiag/yaml_tree.h"

namespace gpudiag {
namespace {

constexpr std::string_view kHelp = "see docs/baseline.md for the form of a baseline file";
constexpr size_t kMaxCommentChars = 100;

// Every report a finding can be in: the top level (the worst job) and each job.
template <class Fn>
void for_each_report(const RankedReport& report, Fn&& fn) {
  fn(report);
  for (const RankedReport& job : report.jobs) fn(job);
}

// A YAML scalar: plain when it is made of characters no YAML rule gives a meaning, else double-quoted.
std::string yaml_scalar(std::string_view s) {
  const bool plain = !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
           c == '.' || c == '/';
  });
  if (plain && s.front() != '-' && s.front() != '.') return std::string(s);
  std::string out = "\"";
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      out += fmt::format("\\x{:02x}", u);
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// Text from outside (titles, templates, file names) on one comment line: control characters become
// spaces, invalid UTF-8 is dropped, and long texts are cut at a character boundary.
std::string comment_text(std::string_view s) {
  std::string out;
  size_t chars = 0;
  bool cropped = false;
  for_each_utf8_char(s, [&](std::string_view bytes, uint32_t cp) {
    if (chars >= kMaxCommentChars) {
      cropped = true;
      return;
    }
    ++chars;
    out += cp < 0x20 || cp == 0x7f ? std::string_view(" ") : bytes;
  });
  if (cropped) out += " …";
  return out;
}

struct Seen {
  std::set<std::pair<std::string, std::string>> keys;  // (rule id, fingerprint), every version
  size_t distinct = 0;                                 // current findings and groups, once each
  std::set<std::pair<std::string, std::string>> current;
};

Seen seen_in(const RankedReport& report) {
  Seen seen;
  for_each_report(report, [&](const RankedReport& r) {
    for (const RankedFinding& rf : r.findings) {
      const Finding& f = *rf.finding;
      for (const std::string* fp : {&f.fingerprint, &f.fingerprint_v2, &f.legacy_fingerprint}) {
        if (!fp->empty()) seen.keys.emplace(f.rule_id, *fp);
      }
      seen.current.emplace(f.rule_id, f.fingerprint);
    }
    for (const RankedUnexplained& u : r.unexplained) {
      seen.keys.emplace(std::string(kUnexplainedRuleId), u.group->fingerprint);
      seen.current.emplace(std::string(kUnexplainedRuleId), u.group->fingerprint);
    }
  });
  return seen;
}

struct Line {
  std::string_view text;  // without its line ending
  size_t begin = 0;       // byte offsets of the whole line, ending included
  size_t end = 0;
};

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  size_t at = 0;
  while (at < text.size()) {
    const size_t nl = text.find('\n', at);
    const size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    std::string_view body = text.substr(at, (nl == std::string_view::npos ? text.size() : nl) - at);
    if (!body.empty() && body.back() == '\r') body.remove_suffix(1);
    lines.push_back({body, at, end});
    at = end;
  }
  return lines;
}

size_t indent_of(std::string_view line) {
  const size_t first = line.find_first_not_of(' ');
  return first == std::string_view::npos ? line.size() : first;
}
bool is_blank(std::string_view line) { return line.find_first_not_of(" \t") == std::string_view::npos; }
bool is_comment(std::string_view line) {
  const size_t first = line.find_first_not_of(" \t");
  return first != std::string_view::npos && line[first] == '#';
}

Diagnostic problem(std::string_view text, std::string_view file, uint64_t line, std::string message) {
  return Diagnostic{.code = code_name(DiagnosticCode::kBaselineType),
                    .message = std::move(message),
                    .file = std::string(file),
                    .line = line,
                    .column = 1,
                    .source_line = yaml::source_line(text, line),
                    .help = "baseline update edits block-style YAML lists (`- rule: …`); edit this file by hand"};
}

}  // namespace

std::string draft_baseline(const RankedReport& report, const BaselineDraft& draft) {
  std::vector<std::string> inputs;
  for (const auto& input : draft.inputs) inputs.push_back(comment_text(input == "-" ? "stdin" : input));
  std::string out = fmt::format(
      "# gpudiag baseline: the findings this project accepts for now (docs/baseline.md).\n"
      "# Written by `gpudiag baseline create` on {} from {}.\n"
      "# Replace every reason with why the finding is accepted (a ticket, a date); `gpudiag gate` names\n"
      "# the entries whose reason still begins with \"TODO\". `gpudiag baseline update` drops entries\n"
      "# that no longer match and keeps your comments.\n"
      "version: 1\n",
      draft.today, fmt::join(inputs, ", "));
  std::set<std::pair<std::string, std::string>> written;
  std::string entries;
  const auto entry = [&](const std::string& rule, const std::string& fingerprint, const std::string& comment) {
    if (!written.emplace(rule, fingerprint).second) return;
    entries += fmt::format("  # {}\n  - rule: {}\n    fingerprint: {}\n    reason: {}\n", comment, yaml_scalar(rule),
                           yaml_scalar(fingerprint), yaml_scalar(kBaselineReasonPlaceholder));
    if (!draft.expires.empty()) entries += fmt::format("    expires: {}\n", yaml_scalar(draft.expires));
  };
  for_each_report(report, [&](const RankedReport& r) {
    for (const RankedFinding& rf : r.findings) {
      const Finding& f = *rf.finding;
      entry(f.rule_id, f.fingerprint, comment_text(fmt::format("[{}] {}", impact_name(f.severity), f.title)));
    }
    for (const RankedUnexplained& u : r.unexplained) {
      const UnexplainedGroup& g = *u.group;
      entry(std::string(kUnexplainedRuleId), g.fingerprint,
            comment_text(fmt::format("[{}] an error no rule explains: {}", impact_name(u.severity()),
                                     g.exception.empty() ? g.template_text : g.exception)));
    }
  });
  out += entries.empty() ? "suppress: []\n" : "suppress:\n" + entries;
  return out;
}

Result<BaselineTrim> drop_unseen_entries(std::string_view text, std::string_view file, const RankedReport& report) {
  Result<Baseline> baseline = parse_baseline(text, file);
  if (!baseline) return baseline.error();
  Result<yaml::Node> doc = yaml::parse(text, file, {DiagnosticCode::kBaselineYaml, kHelp});
  if (!doc) return doc.error();
  const std::vector<Line> lines = split_lines(text);
  const auto char_at = [&](yaml::Position at) -> char {
    if (at.line == 0 || at.line > lines.size() || at.column == 0) return '\0';
    const std::string_view l = lines[at.line - 1].text;
    return at.column - 1 < l.size() ? l[at.column - 1] : '\0';
  };
  const yaml::Node* list = doc->is_map() ? doc->get("suppress") : nullptr;
  BaselineTrim trim;
  const Seen seen = seen_in(report);
  for (const auto& key : seen.current) {
    const bool listed = std::any_of(baseline->entries.begin(), baseline->entries.end(), [&](const BaselineEntry& e) {
      return e.rule_id == key.first && e.fingerprint == key.second;
    });
    if (!listed) ++trim.not_listed;
  }
  if (list == nullptr || !list->is_seq() || list->items.empty()) {
    trim.text = std::string(text);
    return trim;
  }
  if (char_at(list->at) == '[') return problem(text, file, list->at.line, "the `suppress` list is in flow style");
  // Line ranges (0-based, end exclusive) to delete.
  std::vector<std::pair<size_t, size_t>> cut;
  for (size_t i = 0; i < list->items.size(); ++i) {
    const yaml::Node& item = list->items[i];
    const BaselineEntry& entry = baseline->entries[i];  // parse_baseline succeeded: one per item
    if (char_at(item.at) == '{') return problem(text, file, item.at.line, "this entry is in flow style");
    // Its `-`: on its first key's line ("- rule: …"), or alone on the line before.
    size_t dash = item.at.line - 1;
    size_t dash_column = std::string_view::npos;
    const std::string_view head = lines[dash].text.substr(0, item.at.column - 1);
    if (const size_t d = head.rfind('-'); d != std::string_view::npos && is_blank(head.substr(d + 1))) {
      dash_column = d;
    } else {
      size_t above = dash;
      while (above > 0 && is_blank(lines[above - 1].text)) --above;
      const std::string_view prev = above > 0 ? lines[above - 1].text : std::string_view{};
      if (above > 0 && prev.find_first_not_of(' ') != std::string_view::npos &&
          prev[prev.find_first_not_of(' ')] == '-' && is_blank(prev.substr(prev.find_first_not_of(' ') + 1))) {
        dash = above - 1;
        dash_column = indent_of(prev);
      }
    }
    if (dash_column == std::string_view::npos) {
      return problem(text, file, item.at.line, "cannot tell where this entry's `-` is");
    }
    const bool keep = seen.keys.count({entry.rule_id, entry.fingerprint}) > 0;
    (keep ? trim.kept : trim.dropped).push_back(entry);
    if (keep) continue;
    // Its last line of content: before the next line of content indented no deeper than its `-`.
    size_t end = dash + 1;
    size_t last_content = dash;
    for (; end < lines.size(); ++end) {
      const std::string_view l = lines[end].text;
      if (is_blank(l) || is_comment(l)) continue;
      if (indent_of(l) <= dash_column) break;
      last_content = end;
    }
    // Its own comment: the comment lines right above it, indented at least as far as its `-`.
    size_t begin = dash;
    while (begin > 0 && is_comment(lines[begin - 1].text) && indent_of(lines[begin - 1].text) >= dash_column) --begin;
    cut.emplace_back(begin, last_content + 1);
  }
  size_t line = 0;
  for (const auto& [begin, end] : cut) {
    for (; line < begin; ++line) trim.text += text.substr(lines[line].begin, lines[line].end - lines[line].begin);
    line = std::max(line, end);
  }
  for (; line < lines.size(); ++line) trim.text += text.substr(lines[line].begin, lines[line].end - lines[line].begin);
  return trim;
}

std::string baseline_placeholder_note(const Baseline& baseline) {
  std::vector<std::string> lines;
  for (const BaselineEntry& e : baseline.entries) {
    if (e.reason.rfind("TODO", 0) == 0) lines.push_back(fmt::format("{}:{}", baseline.file, e.line));
  }
  if (lines.empty()) return "";
  return fmt::format("gpudiag: note: the reason of {} baseline entr{} is still the TODO `baseline create` wrote: {}\n",
                     lines.size(), lines.size() == 1 ? "y" : "ies", fmt::join(lines, ", "));
}

}  // namespace gpudiag
