// gpudiag history: what the run history says — per finding, how often and how lately it recurs; per
// run, its verdict — and its upkeep: accept a run's findings, prune old runs, and judge stored runs
// again with the current rules (--reclassify).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>

#include "commands.h"
#include "gpudiag/name_suggestions.h"

namespace gpudiag::cli {
namespace {

struct HistoryCommandOptions {
  HistoryOptions history;
  std::string format = "text";
  bool deterministic = false;
  bool reclassify = false;
  RuleOptions rules;
  int64_t accept_run = 0;
  std::string reason;
  uint64_t keep = 0;
  std::string older_than;
};

// "30d", "12h", "90m", "45s", "2w" → seconds.
std::optional<int64_t> parse_duration(const std::string& text) {
  size_t end = 0;
  int64_t n = 0;
  try {
    n = std::stoll(text, &end);
  } catch (const std::exception&) {
    return std::nullopt;
  }
  const std::string unit = text.substr(end);
  static const std::pair<const char*, int64_t> kUnits[] = {
      {"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400}, {"w", 604800}};
  for (const auto& [name, seconds] : kUnits) {
    if (unit == name && n >= 0) return n * seconds;
  }
  return std::nullopt;
}

// --pipeline names one with no runs: the pipelines that have runs, and which it may have meant.
// nullopt when it has runs (or none was named); else the exit code: 2 when a name is close (a typo),
// 0 when none is (a pipeline not recorded yet).
std::optional<int> check_pipeline(HistoryStore& store, const std::string& pipeline) {
  if (pipeline.empty()) return std::nullopt;
  std::vector<std::string> names;
  auto listed = store.query("SELECT DISTINCT pipeline FROM run ORDER BY pipeline",
                            [&](const auto&, const auto& row) { names.push_back(row.at(0).text); });
  if (!listed || names.empty() || std::find(names.begin(), names.end(), pipeline) != names.end()) return std::nullopt;
  const std::string hint = did_you_mean(pipeline, names);
  std::cerr << terminal_safe_lines(
      fmt::format("gpudiag history: no runs of pipeline `{}` in {}{}\n  pipelines with runs: {}\n", pipeline,
                  store.path(), hint.empty() ? "" : ": " + hint, fmt::join(names, ", ")));
  return hint.empty() ? kExitOk : kExitError;
}

int list(HistoryStore& store, const HistoryCommandOptions& o) {
  if (const auto code = check_pipeline(store, o.history.pipeline)) return *code;
  auto pipelines = store.history(o.history.pipeline);
  if (!pipelines) {
    print_problem(pipelines.error());
    return kExitError;
  }
  std::cout << (o.format == "json" ? render_history_json(*pipelines, o.deterministic)
                                   : render_history_text(*pipelines, o.deterministic));
  return kExitOk;
}

int reclassify(HistoryStore& store, const HistoryCommandOptions& o) {
  if (const auto code = check_pipeline(store, o.history.pipeline)) return *code;
  auto pack = o.rules.load();
  if (!pack) return kExitError;
  auto runs = store.reclassify(*pack, o.history.pipeline);
  if (!runs) {
    print_problem(runs.error());
    return kExitError;
  }
  std::cout << (o.format == "json" ? render_reclassified_json(*runs, pack->version_hash())
                                   : render_reclassified_text(*runs, pack->version_hash()));
  return kExitOk;
}

int accept(HistoryStore& store, const HistoryCommandOptions& o) {
  auto run = store.accept(o.accept_run, o.reason);
  if (!run) {
    print_problem(run.error());
    return kExitError;
  }
  std::cout << fmt::format("accepted run #{} of {} (job {}, {}): {} finding{} now known to the pipeline\n", run->id,
                           terminal_safe(run->pipeline), terminal_safe(run->job.id), terminal_safe(run->summary),
                           run->findings.size(), run->findings.size() == 1 ? " is" : "s are");
  return kExitOk;
}

int prune(HistoryStore& store, const HistoryCommandOptions& o) {
  PruneOptions options{.keep = std::nullopt, .older_than_seconds = std::nullopt, .pipeline = o.history.pipeline};
  if (o.keep > 0) options.keep = o.keep;
  if (!o.older_than.empty()) {
    options.older_than_seconds = parse_duration(o.older_than);
    if (!options.older_than_seconds) {
      std::cerr << fmt::format("gpudiag: --older-than {}: give a number and a unit: 45s, 90m, 12h, 30d, 2w\n",
                               o.older_than);
      return kExitError;
    }
  }
  auto pruned = store.prune(options);
  if (!pruned) {
    print_problem(pruned.error());
    return kExitError;
  }
  std::cout << fmt::format("pruned {} run{}, {} ingested input{} and {} stored entries\n", pruned->runs,
                           pruned->runs == 1 ? "" : "s", pruned->sources, pruned->sources == 1 ? "" : "s",
                           pruned->entries);
  return kExitOk;
}

}  // namespace

void add_history_command(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<HistoryCommandOptions>();
  CLI::App* cmd = app.add_subcommand("history", "Recurring and new findings per pipeline, and every run's verdict");
  cmd->require_subcommand(0, 1);
  o->history.add_db(*cmd, true);
  o->history.add_pipeline(*cmd, "Only this pipeline");
  cmd->add_option("--format", o->format, "Output format")->check(one_of({"text", "json"}));
  cmd->add_flag("--deterministic", o->deterministic, "Leave out when runs were recorded (for golden files)");
  cmd->add_flag(
      "--reclassify", o->reclassify,
      "Judge stored runs again with the current rules, over their ingested entries; list verdicts that change");
  o->rules.add_to(*cmd);

  CLI::App* accept_cmd =
      cmd->add_subcommand("accept", "Accept a run's findings: they count as known, even if it was red");
  accept_cmd->add_option("run", o->accept_run, "The run's number (gpudiag history lists them)")
      ->required()
      ->check(CLI::PositiveNumber);
  accept_cmd->add_option("--reason", o->reason, "Why, for whoever reads the history later");
  accept_cmd->fallthrough();

  CLI::App* prune_cmd = cmd->add_subcommand("prune", "Drop old runs (and, with --older-than, old ingested entries)");
  CLI::Option* keep =
      prune_cmd->add_option("--keep", o->keep, "Keep the N latest runs of each pipeline")->check(CLI::PositiveNumber);
  CLI::Option* older =
      prune_cmd->add_option("--older-than", o->older_than, "Drop what was recorded longer ago: 30d, 12h …");
  prune_cmd->fallthrough();
  prune_cmd->callback([keep, older] {
    if (keep->count() == 0 && older->count() == 0)
      throw CLI::ValidationError("prune", "give --keep N or --older-than D");
  });

  cmd->callback([&run, o, accept_cmd, prune_cmd] {
    run = [o, accept = accept_cmd->parsed(), prune_runs = prune_cmd->parsed()]() -> int {
      auto store = o->history.open(/*read_only=*/false, /*create=*/false);
      if (!store) return kExitError;
      if (accept) return cli::accept(*store, *o);
      if (prune_runs) return prune(*store, *o);
      return o->reclassify ? reclassify(*store, *o) : list(*store, *o);
    };
  });
}

}  // namespace gpudiag::cli
