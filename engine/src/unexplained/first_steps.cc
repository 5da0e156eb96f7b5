// First steps for the errors no rule explains (first_steps.h).
#include "first_steps.h"

#include <re2/re2.h>

#include <map>
#include <optional>
#include <string>

namespace gpudiag::detail {
namespace {

// The lines a step is tried on, most telling first: the exception line (or a plain error's own
// line), the cause the reader found, then the chain.
std::vector<std::string_view> lines_of(const UnexplainedGroup& g) {
  std::vector<std::string_view> lines;
  lines.push_back(!g.exception.empty() ? std::string_view(g.exception) : std::string_view(g.exemplar.matched_line));
  if (!g.cause.empty()) lines.push_back(g.cause);
  for (const auto& c : g.chain) lines.push_back(c);
  return lines;
}

// The named groups `re` captured in `line`; nullopt when it does not match.
std::optional<std::map<std::string, std::string, std::less<>>> match(const RE2& re, std::string_view line) {
  const int n = re.NumberOfCapturingGroups();
  std::vector<re2::StringPiece> groups(static_cast<size_t>(n) + 1);
  if (!re.Match(line, 0, line.size(), RE2::UNANCHORED, groups.data(), n + 1)) return std::nullopt;
  std::map<std::string, std::string, std::less<>> captured;
  for (const auto& [name, index] : re.NamedCapturingGroups()) {
    const auto& g = groups[static_cast<size_t>(index)];
    if (g.data() != nullptr) captured[name] = std::string(g.data(), g.size());
  }
  return captured;
}

// `text` with each {name} a captured value: as it is in prose, literal shell text in a command.
std::string fill(std::string_view text, const std::map<std::string, std::string, std::less<>>& captured, bool command) {
  std::string prose;
  ShellFiller shell;
  size_t pos = 0;
  for (const Placeholder& p : placeholders_in(text)) {
    const std::string_view before = text.substr(pos, p.begin - pos);
    const auto it = captured.find(p.name);
    const std::string_view value = it != captured.end() ? std::string_view(it->second) : std::string_view("?");
    if (command) {
      shell.text(before);
      shell.value(value);
    } else {
      prose.append(before).append(value);
    }
    pos = p.end;
  }
  if (!command) return prose.append(text.substr(pos));
  shell.text(text.substr(pos));
  return shell.result();
}

}  // namespace

void assign_first_steps(const CompiledRulePack& pack, std::vector<UnexplainedGroup>& groups) {
  const auto& steps = pack.policy.first_steps;
  for (auto& g : groups) {
    const auto lines = lines_of(g);
    for (size_t i = 0; i < steps.size() && i < pack.first_step_patterns.size() && g.first_step.id.empty(); ++i) {
      const RE2& re = *pack.first_step_patterns[i];
      for (const auto line : lines) {
        const auto captured = match(re, line);
        if (!captured) continue;
        g.first_step = FirstStep{.id = steps[i].id,
                                 .action = fill(steps[i].action, *captured, false),
                                 .command = steps[i].command.empty() ? "" : fill(steps[i].command, *captured, true),
                                 .doc = steps[i].doc};
        break;
      }
    }
  }
}

}  // namespace gpudiag::detail
