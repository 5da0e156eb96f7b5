#include "wording.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "gpudiag/doc_language.h"
#include "gpudiag/utf8.h"
#include "job_views.h"
#include "text_layout.h"

namespace gpudiag::detail {

std::string duration(int64_t secs) {
  if (secs >= 3600) return fmt::format("{}h{:02}m", secs / 3600, (secs % 3600) / 60);
  if (secs >= 60) return fmt::format("{}m{:02}s", secs / 60, secs % 60);
  return fmt::format("{}s", secs);
}

std::string time_span(Timestamp a, Timestamp b) {
  if (a == kNoTime) return "time unknown";
  if (b == kNoTime || a == b) return format_rfc3339(a);
  return fmt::format("{} … {} ({})", format_rfc3339(a), format_rfc3339(b), duration((b - a) / 1'000'000'000));
}

std::string plural(uint64_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string upper(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string input_path(const Analysis& d, const LogRecord& r, bool deterministic) {
  return r.where.input < d.inputs.size() ? display_path(d.inputs[r.where.input].path, deterministic) : "?";
}

// Line 0 is "no line": an option given on the command line (preflight) has none.
std::string source_location(const Analysis& d, const LogRecord& r, bool deterministic) {
  if (r.where.line == 0) return input_path(d, r, deterministic);
  return fmt::format("{}:{}", input_path(d, r, deterministic), r.where.line);
}

std::string input_path(const Analysis& d, const LogRecord& r, const RenderOptions& o) {
  return r.where.input < d.inputs.size() ? display_path(d.inputs[r.where.input].path, o) : "?";
}

std::string source_location(const Analysis& d, const LogRecord& r, const RenderOptions& o) {
  if (r.where.line == 0) return input_path(d, r, o);
  return fmt::format("{}:{}", input_path(d, r, o), r.where.line);
}

CitationText citation(const DocLink& doc, const RenderOptions& options) {
  const auto label = [](std::string_view title, std::string_view section) {
    return section.empty() ? std::string(title) : fmt::format("{} › {}", title, section);
  };
  const auto loc = localize(doc, options.lang);
  if (!loc) return {label(doc.title, doc.section), doc.url, ""};
  return {label(loc->title, loc->section), loc->url, loc->fallback() ? loc->in_english : ""};
}

const FixTranslation* fix_translation(const std::vector<FixTranslation>& i18n, const RenderOptions& options) {
  for (const auto& t : i18n) {
    if (t.lang == options.lang && !t.action.empty()) return &t;
  }
  return nullptr;
}

const std::string& fix_action(const RankedFix& fix, const RenderOptions& options) {
  const FixTranslation* t = fix_translation(fix.i18n, options);
  return t ? t->action : fix.action;
}

const std::string& fix_action(const FindingFix& fix, const RenderOptions& options) {
  const FixTranslation* t = fix_translation(fix.i18n, options);
  return t ? t->action : fix.action;
}

bool is_root_cause(const RankedFinding& rf) { return rf.depth == 0 && !rf.caused_by_unexplained; }

bool is_first_step(const RankedFix& fix) {
  return fix.for_rules.size() == 1 && fix.for_rules.front() == kUnexplainedRuleId;
}

std::string_view command_label(std::string_view command) {
  return !command.empty() && command.front() == '-' ? "launch with:" : "run:";
}

std::string_view entry_text(const LogRecord& r) { return r.message.empty() ? r.exception : r.message; }

std::string_view first_line(std::string_view text) { return text.substr(0, text.find('\n')); }

std::string_view key_line(const Evidence& e) {
  std::string_view line =
      e.matched_line.empty() ? first_line(entry_text(e.entry.record())) : std::string_view(e.matched_line);
  while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
  while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) line.remove_suffix(1);
  return line;
}

std::vector<ExcerptLine> excerpt_of(const Evidence& e) {
  if (!e.excerpt.empty()) return e.excerpt;
  ExcerptLine line{std::string(key_line(e))};
  if (!e.matched_line.empty() && e.match_at != std::string::npos) {
    const size_t lead = e.matched_line.find(line.text);
    if (lead != std::string::npos && e.match_at >= lead && e.match_at - lead < line.text.size()) {
      line.match_at = e.match_at - lead;
      line.match_length = std::min(e.match_length, line.text.size() - line.match_at);
    }
  }
  return {std::move(line)};
}

namespace {

struct Span {
  size_t from = 0, to = 0;
};

size_t utf8_start(std::string_view s, size_t pos) {
  while (pos > 0 && pos < s.size() && is_utf8_continuation(s[pos])) --pos;
  return pos;
}

void merge_spans(std::vector<Span>& spans) {
  std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) { return a.from < b.from; });
  std::vector<Span> out;
  for (const Span& s : spans) {
    if (!out.empty() && s.from <= out.back().to + 8) {  // a gap of a few bytes is not worth a "…"
      out.back().to = std::max(out.back().to, s.to);
    } else {
      out.push_back(s);
    }
  }
  spans = std::move(out);
}

size_t shown_bytes(const std::vector<Span>& spans) {
  size_t n = 0;
  for (const Span& s : spans) n += s.to - s.from;
  return n;
}

}  // namespace

std::string crop_around(std::string_view line, size_t max_bytes, size_t match_at, size_t match_length,
                        const std::vector<std::string>& keep) {
  if (line.size() <= max_bytes) return std::string(line);
  const bool matched = match_at < line.size();
  const size_t anchor = matched ? match_at : 0;
  // The spans that must show: the head of the match, and each captured value the line holds (its
  // occurrence at or after the match, else the last one before it).
  std::vector<Span> spans;
  spans.push_back({anchor, std::min({line.size(), anchor + (matched ? match_length : 0), anchor + max_bytes / 2})});
  for (const auto& value : keep) {
    if (value.empty()) continue;
    size_t at = line.find(value, anchor);
    if (at == std::string_view::npos) at = line.rfind(value, anchor);
    if (at != std::string_view::npos) spans.push_back({at, at + value.size()});
  }
  merge_spans(spans);
  const std::vector<Span> must = spans;
  // The room left widens the span holding the match: a little to its left (all of it when the
  // match is near the line's start), then to its right, reading on from the match.
  for (int round = 0; round < 3; ++round) {
    const size_t used = shown_bytes(spans);
    if (used >= max_bytes) break;
    size_t room = max_bytes - used;
    auto it =
        std::find_if(spans.begin(), spans.end(), [&](const Span& s) { return s.from <= anchor && anchor <= s.to; });
    if (it == spans.end()) break;
    const size_t lead = it->from <= max_bytes / 3 ? it->from : std::min(it->from, std::min<size_t>(room / 4, 40));
    it->from -= std::min(lead, room);
    room -= std::min(lead, room);
    const size_t right = std::min(room, line.size() - it->to);
    it->to += right;
    room -= right;
    it->from -= std::min(room, it->from);  // at the line's end: what is left goes to the left
    merge_spans(spans);
  }
  for (Span& s : spans) {
    // Cut between words where a space is near, never into what must show.
    size_t lo = s.to, hi = s.from;
    for (const Span& m : must) {
      if (m.from >= s.from && m.to <= s.to) lo = std::min(lo, m.from), hi = std::max(hi, m.to);
    }
    if (s.from > 0) {
      const size_t space = line.substr(s.from, 16).find(' ');
      if (space != std::string_view::npos && s.from + space + 1 <= lo) s.from += space + 1;
    }
    if (s.to < line.size() && s.to > 16) {
      const size_t space = line.substr(s.to - 16, 16).rfind(' ');
      if (space != std::string_view::npos && s.to - 16 + space >= hi) s.to = s.to - 16 + space;
    }
    s.from = utf8_start(line, s.from);
    s.to = utf8_start(line, s.to);
  }
  std::string out = spans.front().from > 0 ? "… " : "";
  for (size_t i = 0; i < spans.size(); ++i) {
    if (i > 0) out += " … ";
    out.append(line.substr(spans[i].from, spans[i].to - spans[i].from));
  }
  if (spans.back().to < line.size()) out += " …";
  return out;
}

std::string excerpt_text(const ExcerptLine& line, const Evidence& e, size_t max_bytes) {
  return crop_around(line.text, max_bytes, line.match_at, line.match_length, e.captured);
}

std::string matched_excerpt(const Evidence& e, size_t max_bytes) {
  const auto lines = excerpt_of(e);
  if (lines.empty()) return "";
  const auto it =
      std::find_if(lines.begin(), lines.end(), [](const ExcerptLine& l) { return l.match_at != std::string::npos; });
  return excerpt_text(it == lines.end() ? lines.front() : *it, e, max_bytes);
}

std::string also_in(const Evidence& e) { return fmt::format("{}", fmt::join(e.also_in, ", ")); }

std::string_view ci_level(Impact i, std::string_view note) {
  return i >= Impact::kError ? "error" : i == Impact::kWarning ? "warning" : note;
}

std::string safe_url(std::string_view url) {
  if (url.rfind("https://", 0) != 0 && url.rfind("http://", 0) != 0) return "";
  for (char c : url) {
    const auto u = static_cast<unsigned char>(c);
    if (u <= 0x20 || u >= 0x7F || c == '"' || c == '\'' || c == '<' || c == '>' || c == '(' || c == ')' || c == '`' ||
        c == '\\' || c == '[' || c == ']' || c == '|') {
      return "";
    }
  }
  return std::string(url);
}

bool unexplained_first(const RankedReport& report) {
  return !report.unexplained.empty() && report.unexplained.front().severity() >= Impact::kError;
}

std::string unexplained_stats(const UnexplainedGroup& g, bool to_ms) {
  return fmt::format("{}, {}{}{}{}", plural(g.count, "entry", "entries"),
                     to_ms ? time_span_ms(g.first_seen, g.last_seen) : time_span(g.first_seen, g.last_seen),
                     g.workers_total == 0 ? "" : fmt::format(", {}", plural(g.workers_total, "worker", "workers")),
                     several_processes(g) ? fmt::format(" × {} SDK processes", g.sdk_processes) : "",
                     g.truncated ? "; only a cut copy was exported" : "");
}

bool several_processes(const UnexplainedGroup& g) { return g.sdk_processes > std::max<uint64_t>(g.workers_total, 1); }

std::string_view novelty_note(Novelty n) {
  switch (n) {
    case Novelty::kNew:
      return "new: no earlier run of this pipeline had it";
    case Novelty::kRecurring:
      return "recurring: earlier failed runs had it";
    case Novelty::kNoise:
      return "noise: green runs of this pipeline have it too";
    case Novelty::kNoHistory:
      break;
  }
  return "";
}

std::vector<std::string> unexplained_explains(const RankedReport& report, const RankedUnexplained& u) {
  std::vector<std::string> names;
  for (size_t s : u.symptoms)
    names.push_back(fmt::format("#{} {}", report.findings[s].rank, report.findings[s].finding->rule_id));
  return names;
}

bool names_as_cause(const RankedUnexplained& by, const RankedUnexplained& u) {
  return &by != &u && !by.group->cause_group.empty() && by.group->cause_group == u.group->fingerprint;
}

int named_as_cause_by(const RankedReport& report, const RankedUnexplained& u) {
  for (const RankedUnexplained& other : report.unexplained) {
    if (names_as_cause(other, u)) return other.rank;
  }
  return 0;
}

std::string gate_line(const RankedReport& report, const RenderOptions& options) {
  const Impact threshold = *options.fail_on;
  if (const std::string refused = gate_refusal(report, options.allow_empty); !refused.empty()) {
    return fmt::format("refused: {}", refused);
  }
  std::vector<std::string> failing;
  for (const auto& rf : report.findings) {
    if (counts_for_gate(rf, threshold)) failing.push_back(rf.finding->rule_id);
  }
  for (const auto& u : report.unexplained) {  // errors no rule explains count like findings
    if (counts_for_gate(u, threshold)) failing.push_back(fmt::format("{} U{}", kUnexplainedRuleId, u.rank));
  }
  if (several_jobs(report) && unlisted_jobs_trip(report, threshold)) {  // no baseline accepts them
    failing.emplace_back("the jobs not listed");
  }
  const std::string suppressed =
      report.baseline && report.baseline->suppressed > 0
          ? fmt::format("; {} suppressed by the baseline", plural(report.baseline->suppressed, "finding", "findings"))
          : "";
  size_t known = 0;
  for (const auto& rf : report.findings) known += rf.history && rf.history->gate_ignores ? 1 : 0;
  const std::string ignored =
      known > 0 ? fmt::format("; {} known to the run history (--new-only)", plural(known, "finding", "findings")) : "";
  // Unexplained groups that trip it are named after the findings; the ones --new-only passes over
  // (recurring, noise) are counted.
  std::vector<std::string> groups;
  size_t groups_known = 0;
  for (const auto& u : report.unexplained) {
    if (counts_for_gate(u, threshold)) groups.push_back(u.group->fingerprint);
    groups_known += u.gate_ignores ? 1 : 0;
  }
  const auto groups_plural = [](size_t n) { return plural(n, "unexplained error group", "unexplained error groups"); };
  const std::string groups_ignored =
      groups_known == 0 ? "" : fmt::format("; {} not new (--new-only)", groups_plural(groups_known));
  if (failing.empty() && groups.empty()) {
    return fmt::format("passed: no {}finding at or above {}{}{}{}", known > 0 ? "new " : "", impact_name(threshold),
                       suppressed, ignored, groups_ignored);
  }
  if (failing.empty()) {
    return fmt::format("tripped: {} at or above {} ({}){}{}{}", groups_plural(groups.size()), impact_name(threshold),
                       fmt::join(groups, ", "), suppressed, ignored, groups_ignored);
  }
  const std::string group_note =
      (groups.empty() ? "" : fmt::format("; {} ({})", groups_plural(groups.size()), fmt::join(groups, ", "))) +
      groups_ignored;
  return fmt::format(
      "tripped: {} at or above {} ({}){}{}{}",
      plural(failing.size(), known > 0 ? "new finding" : "finding", known > 0 ? "new findings" : "findings"),
      impact_name(threshold), fmt::join(failing, ", "), suppressed, ignored, group_note);
}

std::string stale_reason(const BaselineEntryReview& e) {
  switch (e.state) {
    case BaselineState::kSuppressing:
      return "";
    case BaselineState::kExpired:
      return e.matched.empty() ? fmt::format("expired on {} and matches no finding; remove it", e.entry.expires)
                               : fmt::format("expired on {}; the finding it matches counts again", e.entry.expires);
    case BaselineState::kUnused:
      return "matches no finding in this export; remove it once the problem is fixed";
  }
  return "";
}

}  // namespace gpudiag::detail

namespace gpudiag {
namespace {

// Moves `pos` back to the start of the UTF-8 character it falls in.
size_t char_start(std::string_view s, size_t pos) {
  while (pos > 0 && pos < s.size() && is_utf8_continuation(s[pos])) --pos;
  return pos;
}

}  // namespace

std::string crop_middle(std::string_view text, size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  const size_t half = max_bytes / 2;
  const size_t head_end = char_start(text, half);
  const size_t tail_start = char_start(text, text.size() - half);
  return fmt::format("{} … [{} bytes cut] … {}", text.substr(0, head_end), tail_start - head_end,
                     text.substr(tail_start));
}

std::string display_path(const std::string& path, bool deterministic) {
  if (!deterministic || path.empty() || path.front() != '/') return path;
  return std::filesystem::path(path).filename().string();
}

namespace detail {

std::string relative_to(const std::string& path, const std::string& directory) {
  if (directory.empty() || path.empty() || path.front() != '/') return path;
  namespace fs = std::filesystem;
  const fs::path relative =
      fs::path(path).lexically_normal().lexically_relative(fs::path(directory).lexically_normal());
  if (relative.empty() || *relative.begin() == ".." || relative == ".") return path;
  return relative.string();
}

}  // namespace detail

std::string display_path(const std::string& path, const RenderOptions& o) {
  return display_path(detail::relative_to(path, o.working_directory), o.deterministic);
}

}  // namespace gpudiag
