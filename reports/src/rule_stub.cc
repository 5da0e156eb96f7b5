#include "gpudiag/rule_stub.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <cctype>

#include "gpudiag/report.h"

namespace gpudiag {
namespace {

// YAML single-quoted scalar: '' for a quote; line breaks kept out (a stub's lines are one line each).
std::string quoted(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "''";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "'";
}

// "valueerror-in-process" from the group: what failed, lowercase, [a-z0-9-] only.
std::string stub_id(const UnexplainedGroup& g) {
  std::string base = g.exception_type.empty() ? std::string("error-line") : g.exception_type;
  if (const size_t dot = base.find_last_of('.'); dot != std::string::npos) base = base.substr(dot + 1);
  if (g.user_frame && !g.user_frame->function.empty()) {
    std::string fn = g.user_frame->function;
    if (const size_t dot = fn.find_last_of('.'); dot != std::string::npos) fn = fn.substr(dot + 1);
    base += "-in-" + fn;
  }
  std::string id;
  for (char c : base) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u)) {
      if (std::isupper(u) && !id.empty() && id.back() != '-' && std::islower(static_cast<unsigned char>(id.back()))) {
        id += '-';
      }
      id += static_cast<char>(std::tolower(u));
    } else if (!id.empty() && id.back() != '-') {
      id += '-';
    }
  }
  while (!id.empty() && id.back() == '-') id.pop_back();
  return "user-" + (id.empty() ? std::string("error") : id);
}

// The line the example and the pattern are made of: the exception line, or the plain line.
std::string example_line(const UnexplainedGroup& g) {
  if (!g.exception.empty()) return g.exception;
  if (!g.exemplar.matched_line.empty()) return g.exemplar.matched_line;
  const std::string_view m = g.exemplar.entry->message;
  return std::string(m.substr(0, m.find('\n')));
}

// Escapes only what RE2 reads as syntax, so the pattern stays readable (RE2::QuoteMeta escapes
// every character that is not a letter or a digit).
std::string escape_literal(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (std::string_view("\\.^$|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

}  // namespace

std::string template_pattern(std::string_view t) {
  std::string out;
  size_t i = 0;
  while (i < t.size()) {
    while (i < t.size() && t[i] == ' ') ++i;
    const size_t start = i;
    while (i < t.size() && t[i] != ' ') ++i;
    if (i == start) break;
    std::string_view token = t.substr(start, i - start);
    if (!out.empty()) out += "\\s+";
    size_t at = 0;
    while (true) {
      const size_t var = token.find("<*>", at);
      out += escape_literal(token.substr(at, var == std::string_view::npos ? std::string_view::npos : var - at));
      if (var == std::string_view::npos) break;
      out += "\\S+";
      at = var + 3;
    }
  }
  return out;
}

namespace {

// At most kMaxStubLineBytes, not splitting a UTF-8 sequence.
std::string bounded(std::string_view line) {
  if (line.size() <= kMaxStubLineBytes) return std::string(line);
  size_t end = kMaxStubLineBytes;
  while (end > 0 && (static_cast<unsigned char>(line[end]) & 0xC0) == 0x80) --end;
  return std::string(line.substr(0, end));
}

}  // namespace

RuleStubInput rule_stub_input(const UnexplainedGroup& g, std::string_view healthy_line) {
  return RuleStubInput{.fingerprint = g.fingerprint,
                       .rule_id = stub_id(g),
                       .headline = unexplained_headline(g),
                       .template_text = g.template_text,
                       .example = bounded(example_line(g)),
                       .no_match = bounded(healthy_line)};
}

std::vector<std::string> stub_explains(const RankedReport& report, const UnexplainedGroup& g) {
  std::vector<std::string> out;
  for (const RankedUnexplained& u : report.unexplained) {
    if (u.group->fingerprint != g.fingerprint) continue;
    for (size_t i : u.symptoms) out.push_back(report.findings[i].finding->rule_id);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::string stub_healthy_line(const Analysis& job, const UnexplainedGroup& g) {
  for (const auto& other : job.unexplained) {
    if (other.fingerprint == g.fingerprint) continue;
    const std::string_view m = other.exemplar.entry->message;
    if (!m.empty()) return std::string(m.substr(0, m.find('\n')));
  }
  for (const auto& p : job.phases) {
    if (!p.message.empty()) return p.message.substr(0, p.message.find('\n'));
  }
  return "";
}

std::string render_rule_stub(const UnexplainedGroup& g, std::string_view healthy_line, std::string_view from) {
  return render_rule_stub(rule_stub_input(g, healthy_line), from);
}

std::string render_rule_stub(const RuleStubInput& in, std::string_view from) {
  const std::string& line = in.example;
  const std::string_view healthy_line = in.no_match;
  // The template when it matches the exemplar (it should: both come from the same line), else the
  // exemplar's own text, escaped: a stub must pass `rules test` as written.
  std::string pattern = template_pattern(in.template_text);
  if (pattern.empty() || !RE2::PartialMatch(line, RE2(pattern))) pattern = escape_literal(line.substr(0, 200));
  const bool healthy = !healthy_line.empty() && !RE2::PartialMatch(healthy_line, RE2(pattern));
  std::string out;
  out += fmt::format("# Generated by `gpudiag patterns suggest {}` from {}.\n", in.fingerprint, from);
  out += "# Put it in a rules directory (gpudiag analyze --rules DIR …), fill in every TODO, then run\n";
  out += "# `gpudiag rules test --rules DIR` and `gpudiag rules lint --rules DIR` (one warning per TODO left).\n";
  out += fmt::format("id: {}\n", in.rule_id);
  out += fmt::format("title: {}\n", quoted(fmt::format("TODO: what failed ({})", in.headline)));
  out += "family: runtime\n";
  out += "severity: error\n";
  out += "confidence: 0.8\n";
  out += fmt::format("description: {}\n", quoted("TODO: what this error means, when it happens and why"));
  // The findings the report folded under the error: the rule folds them too once it knows it.
  if (!in.explains.empty()) out += fmt::format("explains: [{}]\n", fmt::join(in.explains, ", "));
  out += "match:\n";
  out += fmt::format("  text: {}\n", quoted(pattern));
  out += "fixes:\n";
  out += "  - id: todo-fix\n";
  out += fmt::format("    action: {}\n", quoted("TODO: what to change so that the error stops"));
  out += fmt::format("    why: {}\n", quoted("TODO: why that helps"));
  out += "    doc:\n";
  out += fmt::format("      title: {}\n", quoted("TODO: the page that documents it"));
  out += fmt::format("      section: {}\n", quoted("TODO: its section"));
  out += "      url: https://cloud.google.com/dataflow/docs/guides/common-errors\n";
  out += "examples:\n";
  out += "  match:\n";
  out += fmt::format("    - {}\n", quoted(line));
  if (healthy) {
    out += "  no_match:\n";
    out += fmt::format("    - {}\n", quoted(healthy_line));
  } else {
    out += "  # no_match: no line of the run that the pattern leaves alone was found; add one\n";
  }
  out += "sources:\n";
  out += fmt::format("  - {}\n", quoted(fmt::format("TODO: where this text comes from (first seen in {})", from)));
  return out;
}

}  // namespace gpudiag
