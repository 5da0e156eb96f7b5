// gpudiag rules list|show|test|lint|dump, and gpudiag explain ID.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "commands.h"
#include "gpudiag/analyzer.h"
#include "gpudiag/doc_language.h"
#include "gpudiag/json_writer.h"
#include "gpudiag/name_suggestions.h"
#include "run_options.h"

namespace gpudiag::cli {
namespace {

// Rule files may come from anywhere (a shared rules repository): their text and their paths reach the
// terminal the way log text does (gpudiag/report.h, terminal_safe_lines).
// A fix's or a first step's citation, in the documentation language when it has the page.
std::string doc_lines(const DocLink& doc, const std::string& lang) {
  if (const auto local = localize(doc, lang)) {
    return fmt::format("      doc: {} › {}{}\n           {}\n", local->title, local->section,
                       local->fallback() ? fmt::format(" ({})", local->in_english) : "", local->url);
  }
  return fmt::format("      doc: {} › {}\n           {}\n", doc.title, doc.section, doc.url);
}

void print_rule(const RuleInfo& r, const std::string& lang) {
  std::string out;
  out += fmt::format("{} — {}\n", r.id, r.title);
  out += fmt::format("  family {}, severity {}, confidence {:.2f}{}\n", r.family, impact_name(r.severity), r.confidence,
                     r.enabled ? "" : ", DISABLED");
  if (!r.aliases.empty()) out += fmt::format("  also known as {}\n", fmt::join(r.aliases, ", "));
  out += fmt::format("  defined in {}:{}\n\n", r.file, r.line);
  out += fmt::format("  {}\n", r.description);
  if (!r.explains.empty()) out += fmt::format("\n  explains: {}\n", fmt::join(r.explains, ", "));
  if (r.identity) {
    out += r.identity->empty()
               ? std::string("\n  fingerprint: the rule id alone (identity: [])\n")
               : fmt::format("\n  fingerprint: the rule id and the captures {}\n", fmt::join(*r.identity, ", "));
  }
  out += "\n  Fixes:\n";
  for (const auto& f : r.fixes) {
    out += fmt::format("    - {} (weight {})\n", f.action, f.weight);
    if (!f.command.empty()) out += fmt::format("      command: {}\n", f.command);
    out += fmt::format("      why: {}\n", f.why) + doc_lines(f.doc, lang);
    if (!f.demote_if.empty()) out += fmt::format("      ranked last when: {}\n", f.demote_if);
  }
  if (!r.sources.empty()) {
    out += "\n  Signature text from:\n";
    for (const auto& s : r.sources) out += fmt::format("    - {}\n", s);
  }
  std::cout << terminal_safe_lines(out);
}

// `unexplained-error`: the id reports, baselines and SARIF give the errors no rule knows. What such a
// group is, how it is told and ranked, and the first steps the pack gives by kind of error.
void print_unexplained(const RulePack& pack, const std::string& lang) {
  std::string out = fmt::format("{} — an error no rule in the pack knows\n", kUnexplainedRuleId);
  out +=
      "  reported as U1, U2 … with a fingerprint unexplained-error/<16 hex digits>, the same for the same error\n"
      "  in every run (docs/unexplained.md)\n\n"
      "  gpudiag groups the errors no rule explains: a traceback by its exception type and innermost user\n"
      "  frame, another line by its template. A group is at error when the job failed after its first entry\n"
      "  and no cause rule at error explains the job; the first such group is then the most likely cause,\n"
      "  the failures it leads to (work-item-failed, workflow-failed …) fold under it, and its first step is\n"
      "  fix 1: what failed and where, how often and since when, and what to try first by the kind of error.\n";
  out += "\n  First steps, by kind (the pack's first_steps:, tried in order on the error's lines):\n";
  for (const auto& step : pack.policy().first_steps) {
    out += fmt::format("    - {}: {}\n", step.id, step.action);
    if (!step.command.empty()) out += fmt::format("      command: {}\n", step.command);
    out += doc_lines(step.doc, lang);
  }
  out +=
      "    - any other error: fix the error the pipeline's own code raised (a traceback with a user frame), or\n"
      "      start from the first error before the failure\n"
      "\n  Accept a known one: a baseline entry `rule: unexplained-error` with its fingerprint (docs/baseline.md).\n"
      "  Make it known: gpudiag patterns suggest FINGERPRINT EXPORT drafts a rule for it.\n";
  std::cout << terminal_safe_lines(out);
}

// `rules list --format json`: what `gpudiag mcp`'s rules tool returns, and what a script reads.
std::string rules_json(const RulePack& pack) {
  JsonWriter w;
  w.begin_object().key("rules").begin_array();
  for (const auto& r : pack.rules()) {
    w.begin_object().field("id", r.id).field("family", r.family).field("severity", impact_name(r.severity));
    w.field("title", r.title).field("enabled", r.enabled).end_object();
  }
  w.end_array().end_object();
  return w.take();
}

int explain(const RuleOptions& rules, const std::string& id, const std::string& lang) {
  auto pack = rules.load();
  if (!pack) return kExitError;
  if (id == kUnexplainedRuleId) {
    print_unexplained(*pack, resolve_doc_language(lang, false));
    return kExitOk;
  }
  const RuleInfo* r = pack->find(id);
  if (r == nullptr) {
    // Rule ids and their `aliases:`, which lead to the id (gpu-oom → gpu-out-of-memory).
    std::vector<KnownName> names{KnownName(std::string(kUnexplainedRuleId))};
    for (const auto& rule : pack->rules()) {
      names.emplace_back(rule.id);
      for (const auto& alias : rule.aliases) names.emplace_back(alias, rule.id);
    }
    const std::string hint = did_you_mean(suggest_names(id, names));
    std::cerr << terminal_safe_lines(
        hint.empty() ? fmt::format("gpudiag: no rule `{}`; `gpudiag rules list` shows them\n", id)
                     : fmt::format("gpudiag: no rule `{}`: {} (`gpudiag rules list` shows them all)\n", id, hint));
    return kExitError;
  }
  print_rule(*r, resolve_doc_language(lang, false));
  return kExitOk;
}

}  // namespace

void add_rules_command(CLI::App& app, std::function<int()>& run) {
  auto rules = std::make_shared<RuleOptions>();
  auto id = std::make_shared<std::string>();
  auto patterns = std::make_shared<bool>(false);
  CLI::App* cmd = app.add_subcommand("rules", "List, show, test, lint or dump the rule pack");
  cmd->require_subcommand(1);
  rules->add_to(*cmd);
  cmd->fallthrough();  // `rules lint --rules DIR` and `rules --rules DIR lint` both work

  auto list_format = std::make_shared<std::string>("text");
  auto* list = cmd->add_subcommand("list", "Every rule: id, family, severity, title");
  list->add_option("--format", *list_format, "text, or json: {\"rules\": [{id, family, severity, title, enabled}]}")
      ->check(CLI::IsMember({"text", "json"}));
  list->callback([&run, rules, list_format] {
    run = [rules, list_format] {
      auto pack = rules->load();
      if (!pack) return kExitError;
      if (*list_format == "json") {
        std::cout << rules_json(*pack);
        return kExitOk;
      }
      for (const auto& r : pack->rules()) {
        std::cout << terminal_safe_lines(fmt::format("{:<32} {:<14} {:<9} {}{}\n", r.id, r.family,
                                                     impact_name(r.severity), r.title,
                                                     r.enabled ? "" : "  (disabled)"));
      }
      return kExitOk;
    };
  });
  auto* show = cmd->add_subcommand("show", "One rule in full");
  show->add_option("id", *id, "Rule id")->required();
  auto show_lang = std::make_shared<std::string>();
  add_doc_language_option(*show, *show_lang);
  show->callback(
      [&run, rules, id, show_lang] { run = [rules, id, show_lang] { return explain(*rules, *id, *show_lang); }; });

  cmd->add_subcommand("test", "Run every rule's embedded examples; exit 1 if any fails")->callback([&run, rules] {
    run = [rules] {
      auto pack = rules->load(/*check_examples=*/false);
      if (!pack) return kExitError;
      const ExampleReport report = test_rule_examples(*pack);
      for (const auto& f : report.failures) {
        std::cout << terminal_safe_lines(fmt::format("FAIL {}: {}:{}: {}\n", f.rule_id, f.file, f.line, f.message));
      }
      std::cout << fmt::format("{} rules, {} fact extractors, {} examples: {} passed, {} failed\n", report.rules,
                               report.extractors, report.examples, report.examples - report.failures.size(),
                               report.failures.size());
      return report.failures.empty() ? kExitOk : kExitGate;
    };
  });
  cmd->add_subcommand("lint", "Every problem in every rule file, with file:line:column")->callback([&run, rules] {
    run = [rules] {
      const RuleSources sources{builtin_rule_files(), rules->dirs};
      const auto diags = RulePack::lint(sources);
      const auto warnings = RulePack::lint_warnings(sources);
      for (const auto& d : diags) std::cout << terminal_safe_lines(render_with_source(d)) << '\n';
      for (const auto& d : warnings) std::cout << terminal_safe_lines(render_with_source(d, "warning")) << '\n';
      std::cout << fmt::format("{} problem{}", diags.size(), diags.size() == 1 ? "" : "s");
      if (!warnings.empty())
        std::cout << fmt::format(", {} warning{}", warnings.size(), warnings.size() == 1 ? "" : "s");
      std::cout << '\n';
      return diags.empty() ? kExitOk : kExitError;
    };
  });
  auto* dump = cmd->add_subcommand("dump", "The compiled pack, canonically");
  auto observers = std::make_shared<bool>(false);
  dump->add_flag("--patterns", *patterns, "Only the rules' regexes, one per line (for rg -f)");
  dump->add_flag("--observers", *observers, "With --patterns: also the built-in fact observers' regexes");
  dump->callback([&run, rules, patterns, observers] {
    run = [rules, patterns, observers] {
      auto pack = rules->load();
      if (!pack) return kExitError;
      std::cout << pack->dump(*patterns, *observers);
      return kExitOk;
    };
  });
}

void add_explain_command(CLI::App& app, std::function<int()>& run) {
  auto rules = std::make_shared<RuleOptions>();
  auto id = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand("explain", "What a rule means and the fixes it proposes");
  cmd->add_option("id", *id, "Rule id")->required();
  rules->add_to(*cmd);
  auto lang = std::make_shared<std::string>();
  add_doc_language_option(*cmd, *lang);
  cmd->callback([&run, rules, id, lang] { run = [rules, id, lang] { return explain(*rules, *id, *lang); }; });
}

}  // namespace gpudiag::cli
