// gpudiag patterns suggest FINGERPRINT (PATH…|--db FILE): a rule stub from an unexplained error group.
// gpudiag patterns --lines FILE --format tsv: groups plain-text messages (one a line) by template
// and prints, for each line, LINE<TAB>GROUP<TAB>TEMPLATE, the template being its group's final one
// with <*> for variables (Loghub's convention; bench/patterns.py scores it on Loghub-2k).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>

#include "commands.h"
#include "gpudiag/history.h"
#include "gpudiag/patterns.h"
#include "gpudiag/report.h"
#include "gpudiag/rule_stub.h"
#include "run_options.h"

namespace gpudiag::cli {
namespace {

struct PatternsOptions {
  std::string lines;
  std::string format = "tsv";
  MinerLimits limits;
};

// One row per group, the largest first: COUNT<TAB>GROUP<TAB>TEMPLATE.
int print_summary(const TemplateMiner& miner) {
  std::vector<size_t> order(miner.groups());
  for (size_t g = 0; g < order.size(); ++g) order[g] = g;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return miner.count(a) > miner.count(b); });
  std::string out;
  for (size_t g : order)
    fmt::format_to(std::back_inserter(out), "{}\t{}\t{}\n", miner.count(g), g, miner.template_of(g));
  std::cout << out;
  return kExitOk;
}

int run_patterns(const PatternsOptions& o) {
  std::FILE* in = o.lines == "-" ? stdin : std::fopen(o.lines.c_str(), "rb");
  if (in == nullptr) {
    std::cerr << terminal_safe_lines(fmt::format("gpudiag: {}: cannot open: {}\n", o.lines, std::strerror(errno)));
    return kExitError;
  }
  TemplateMiner miner(o.limits);
  std::vector<uint32_t> group_of_line;
  char* line = nullptr;
  size_t capacity = 0;
  ssize_t length;
  while ((length = ::getline(&line, &capacity, in)) >= 0) {
    std::string_view message(line, static_cast<size_t>(length));
    if (!message.empty() && message.back() == '\n') message.remove_suffix(1);
    group_of_line.push_back(static_cast<uint32_t>(miner.add(message)));
  }
  const bool failed = std::ferror(in) != 0;
  const int read_errno = errno;
  std::free(line);
  if (in != stdin) std::fclose(in);
  if (failed) {
    std::cerr << terminal_safe_lines(fmt::format("gpudiag: {}: read failed: {}\n", o.lines, std::strerror(read_errno)));
    return kExitError;
  }
  std::vector<std::string> templates(miner.groups());
  for (size_t g = 0; g < templates.size(); ++g) templates[g] = miner.template_of(g);
  std::string out;
  if (o.format == "summary") return print_summary(miner);
  for (size_t i = 0; i < group_of_line.size(); ++i) {
    fmt::format_to(std::back_inserter(out), "{}\t{}\t{}\n", i + 1, group_of_line[i], templates[group_of_line[i]]);
    if (out.size() > (1u << 16)) {
      std::cout << out;
      out.clear();
    }
  }
  std::cout << out;
  if (miner.capped()) {
    std::cerr << fmt::format(
        "gpudiag: note: the miner reached a limit; {} later lines that fit no group are in group {}\n",
        miner.count(miner.overflow_group()), miner.overflow_group());
  }
  return kExitOk;
}

struct SuggestOptions {
  std::string fingerprint;
  RunOptions run;
};

// gpudiag patterns suggest FINGERPRINT PATH…: analyses the export and prints the group's rule stub.
int run_suggest(const SuggestOptions& o) {
  auto analysed = run_analysis(o.run);
  if (!analysed) return kExitError;
  const Analysis& d = analysed->analysis;
  std::vector<const Analysis*> jobs;
  for (const auto& j : d.jobs) jobs.push_back(&j);
  if (jobs.empty()) jobs.push_back(&d);
  std::vector<std::string> known;
  for (const Analysis* job : jobs) {
    for (const auto& g : job->unexplained) {
      if (g.fingerprint == o.fingerprint) {
        const std::string from = fmt::format(
            "{}:{}",
            o.run.inputs.empty()
                ? std::string("-")
                : display_path(
                      o.run.inputs[g.exemplar.entry->where.input < o.run.inputs.size() ? g.exemplar.entry->where.input
                                                                                       : 0],
                      false),
            g.exemplar.entry->where.line);
        RuleStubInput stub = rule_stub_input(g, stub_healthy_line(*job, g));
        stub.explains = stub_explains(rank(*job), g);  // the symptoms the report folds under it
        std::cout << render_rule_stub(stub, from);
        return kExitOk;
      }
      if (known.size() < 10) known.push_back(fmt::format("  {}  {}", g.fingerprint, unexplained_headline(g)));
    }
  }
  std::cerr << terminal_safe_lines(fmt::format(
      "gpudiag: no unexplained error group {} in this export{}\n{}", o.fingerprint,
      known.empty() ? "" : "; its groups:", known.empty() ? "" : fmt::format("{}\n", fmt::join(known, "\n"))));
  return kExitError;
}

// gpudiag patterns suggest FINGERPRINT --db FILE: the stub from what the run history stored of the
// group (the latest run that had it), without the export.
int run_suggest_from_history(const SuggestOptions& o) {
  auto store = o.run.history.open(/*read_only=*/true, /*create=*/false);
  if (!store) return kExitError;
  auto found = store->rule_stub(o.fingerprint);
  if (!found) {
    print_problem(found.error());
    return kExitError;
  }
  switch (found->status) {
    case StoredRuleStub::Status::kFound:
      std::cout << render_rule_stub(found->stub,
                                    fmt::format("run {} of pipeline {} in {}, job {}", found->run_id, found->pipeline,
                                                display_path(o.run.history.db, false), found->job_id));
      return kExitOk;
    case StoredRuleStub::Status::kNotStored:
      std::cerr << terminal_safe_lines(fmt::format(
          "gpudiag: {}: this history was recorded by an older gpudiag that kept no rule stub fields{}; run `gpudiag "
          "analyze --db {} EXPORT` on the export again (or give the export: `gpudiag patterns suggest {} EXPORT`)\n",
          display_path(o.run.history.db, false),
          found->run_id == 0 ? "" : fmt::format(" for {} (run {})", o.fingerprint, found->run_id), o.run.history.db,
          o.fingerprint));
      return kExitError;
    case StoredRuleStub::Status::kUnknown:
      break;
  }
  std::cerr << terminal_safe_lines(fmt::format(
      "gpudiag: no unexplained error group {} in {}{}\n{}", o.fingerprint, display_path(o.run.history.db, false),
      found->near.empty()      ? ""
      : found->near_are_latest ? "; the latest recorded run's groups:"
                               : "; did you mean one of these?",
      found->near.empty() ? "" : fmt::format("  {}\n", fmt::join(found->near, "\n  "))));
  return kExitError;
}

}  // namespace

void add_patterns_command(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<PatternsOptions>();
  CLI::App* cmd = app.add_subcommand("patterns", "Group plain-text log messages by template (Drain-style miner)");
  cmd->add_option("--lines", o->lines, "A text file, one message a line, or - for stdin");
  cmd->add_option(
         "--format", o->format,
         "tsv: LINE<TAB>GROUP<TAB>TEMPLATE for each input line; summary: COUNT<TAB>GROUP<TAB>TEMPLATE for each group")
      ->check(one_of({"tsv", "summary"}))
      ->capture_default_str();
  cmd->add_option("--similarity", o->limits.similarity,
                  "The fraction of a template's tokens a line must share to join its group")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--prefix-tokens", o->limits.prefix_tokens,
                  "A line is compared only with the groups whose first N tokens it shares (tokens with a digit "
                  "count as variables)")
      ->check(CLI::Range(0, 8))
      ->capture_default_str();
  auto s = std::make_shared<SuggestOptions>();
  CLI::App* suggest = cmd->add_subcommand(
      "suggest",
      "A rule stub for the pack from an unexplained error group (its fingerprint, from a report), found in the "
      "export (PATH…) or in the run history (--db FILE)");
  suggest->add_option("fingerprint", s->fingerprint, "unexplained-error/… (JSON unexplained[].fingerprint)")
      ->required();
  s->run.add_to(*suggest, "never");
  // PATH… or --db FILE: the export analysed again, or what the run history stored.
  suggest->get_option("inputs")->required(false);
  suggest->callback([&run, s] {
    if (!s->run.inputs.empty() && !s->run.history.db.empty())
      throw CLI::ValidationError("patterns suggest", "give the export (PATH…) or --db FILE, not both");
    if (s->run.inputs.empty() && s->run.history.db.empty()) throw CLI::RequiredError("PATH… or --db FILE");
    if (!s->run.history.db.empty()) {
      run = [s] { return run_suggest_from_history(*s); };
    } else {
      run = [s] { return run_suggest(*s); };
    }
  });
  cmd->require_subcommand(0, 1);
  cmd->callback([&run, o, cmd] {
    if (cmd->got_subcommand("suggest")) return;
    if (o->lines.empty()) throw CLI::RequiredError("--lines (or the subcommand suggest)");
    run = [o] { return run_patterns(*o); };
  });
}

}  // namespace gpudiag::cli
