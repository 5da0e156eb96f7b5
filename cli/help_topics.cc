#include "help_topics.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>
#include <string_view>

#include "commands.h"
#include "gpudiag/formats.h"
#include "gpudiag/name_suggestions.h"
#include "gpudiag/report.h"
#include "usage_hints.h"

namespace gpudiag::cli {
namespace {

struct CommandExamples {
  std::string_view command;   // "rules lint": the words after gpudiag
  std::string_view examples;  // one command a line, a comment after #
};

constexpr CommandExamples kExamples[] = {
    {"analyze",
     "gpudiag analyze --project my-proj --region us-central1 --job-id 2024-05-01_10_00_00-123456789\n"
     "gpudiag analyze export.json\n"
     "gpudiag analyze --format json --fail-on error logs/*.json.gz\n"
     "gcloud logging read 'resource.labels.job_id=\"JOB_ID\"' --format=json | gpudiag analyze -"},
    {"report",
     "gpudiag report export.json -o post-mortem.html -o results.sarif\n"
     "gpudiag report export.json --format md > summary.md    # no -o: stdout"},
    {"gate",
     "gpudiag gate export.json                               # exit 1 on an error finding\n"
     "gpudiag gate --format github --baseline gpudiag-baseline.yaml export.json"},
    {"rules",
     "gpudiag rules list\n"
     "gpudiag rules show gpu-out-of-memory\n"
     "gpudiag rules lint --rules my-rules/"},
    {"rules list", "gpudiag rules list\ngpudiag rules list --rules my-rules/"},
    {"rules show", "gpudiag rules show gpu-out-of-memory"},
    {"rules test", "gpudiag rules test --rules my-rules/"},
    {"rules lint", "gpudiag rules lint --rules my-rules/"},
    {"rules dump",
     "gpudiag rules dump\ngpudiag rules dump --patterns > patterns.txt && rg -f patterns.txt export.json"},
    {"explain", "gpudiag explain gpu-out-of-memory"},
    {"history",
     "gpudiag history --db runs.db\n"
     "gpudiag history --db runs.db --pipeline nightly --format json\n"
     "gpudiag history --db runs.db --reclassify"},
    {"history accept", "gpudiag history --db runs.db accept 12 --reason \"known flake, INFRA-42\""},
    {"history prune",
     "gpudiag history --db runs.db prune --keep 50\ngpudiag history --db runs.db prune --older-than 30d"},
    {"ingest", "gpudiag ingest --db runs.db export.json"},
    {"query",
     "gpudiag query --db runs.db \"SELECT rule_id, COUNT(*) FROM finding GROUP BY rule_id\"\n"
     "gpudiag query --db runs.db --format csv - < report.sql"},
    {"patterns", "gpudiag patterns --lines messages.txt --format summary"},
    {"patterns suggest",
     "gpudiag patterns suggest unexplained-error/0123456789abcdef export.json\n"
     "gpudiag patterns suggest unexplained-error/0123456789abcdef --db runs.db"},
    {"preflight",
     "gpudiag preflight -- python main.py --runner DataflowRunner --experiments=use_runner_v2\n"
     "gpudiag preflight --script launch.sh -o preflight.sarif   # findings at the script's lines\n"
     "gpudiag preflight --options params.json --image-python 3.10 --image-beam 2.60.0\n"
     "gpudiag preflight --job job.json                          # an earlier run's options"},
    {"sql",
     "gpudiag sql --source analytics:my-proj.my_logs --since 24h > diag.sql\n"
     "bq query --nouse_legacy_sql --format=json --max_rows=1000000 \"$(cat diag.sql)\" | gpudiag analyze -\n"
     "gpudiag sql --source sink:my-proj.dataflow_logs --since 7d --explain\n"
     "gpudiag sql --source sink:my-proj.dataflow_logs --schema dataflow_googleapis_com_worker.json --check"},
    {"fetch",
     "gpudiag fetch 2024-05-01_10_00_00-123456789 --project my-proj --region us-central1 -o logs.json\n"
     "gpudiag analyze --job logs.job.json logs.json     # the export with the job's description\n"
     "gpudiag analyze --project my-proj --region us-central1 --job-id 2024-05-01_10_00_00-123456789   # both"},
    {"help", "gpudiag help report\ngpudiag help exit-codes\ngpudiag help formats"},
};

constexpr std::string_view kExitCodes =
    "Exit codes (the same for every command):\n"
    "  0  ok: no finding at or above --fail-on (analyze and report: never, unless given; gate: error)\n"
    "  1  the gate tripped: a finding at or above --fail-on that no --baseline accepts\n"
    "     (rules test: an example failed)\n"
    "  2  usage error (an unknown command, option or value), an input that cannot be read, or a rule,\n"
    "     baseline or database error\n";

std::string formats_text() {
  std::string out = "Output formats (--format NAME; an -o path's extension selects one too):\n";
  for (const auto& f : kOutputFormats) {
    out += fmt::format("  {:<7} {:<20} {}\n", f.name, f.extensions.empty() ? "-" : f.extensions, f.what);
  }
  out +=
      "analyze writes text or json; report and gate any of them. Colour (text only): --color=auto|always|never,\n"
      "NO_COLOR=1 in the environment turns it off unless --color=always.\n";
  return out;
}

struct Topic {
  std::string_view name;
  std::string_view what;
};
constexpr Topic kTopics[] = {{"exit-codes", "what each exit code means"}, {"formats", "the output formats"}};

std::string topic_text(std::string_view name) {
  if (name == "exit-codes") return std::string(kExitCodes);
  return formats_text();
}

std::string examples_footer(std::string_view examples) {
  std::string out = "EXAMPLES\n";
  size_t start = 0;
  while (start <= examples.size()) {
    const size_t end = std::min(examples.find('\n', start), examples.size());
    out += fmt::format("  {}\n", examples.substr(start, end - start));
    start = end + 1;
  }
  return out + "\nExit codes: 0 ok, 1 findings at or above --fail-on, 2 usage, input, rule or database error.";
}

CLI::App* find_command(CLI::App& app, std::string_view path) {
  CLI::App* at = &app;
  size_t start = 0;
  while (start < path.size()) {
    const size_t end = std::min(path.find(' ', start), path.size());
    const std::string word(path.substr(start, end - start));
    CLI::App* next = nullptr;
    for (CLI::App* sub : at->get_subcommands([](CLI::App*) { return true; })) {
      if (sub->get_name() == word) next = sub;
    }
    if (next == nullptr) return nullptr;
    at = next;
    start = end + 1;
  }
  return at;
}

// What `COMMAND --help` prints. (App::help would follow the subcommand parsed, `help` itself.)
std::string help_of(const CLI::App& command) {
  return command.get_formatter()->make_help(&command, command_path(command), CLI::AppFormatMode::Normal);
}

int show_help(CLI::App& app, const std::vector<std::string>& topic) {
  if (topic.empty()) {
    std::cout << help_of(app);
    std::cout << "\nHelp topics (gpudiag help TOPIC): every command above, and\n";
    for (const auto& t : kTopics) std::cout << fmt::format("  {:<12} {}\n", t.name, t.what);
    return kExitOk;
  }
  if (topic.size() == 1) {
    for (const auto& t : kTopics) {
      if (t.name == topic[0]) {
        std::cout << topic_text(t.name);
        return kExitOk;
      }
    }
  }
  // A command, word by word: `help rules lint`.
  CLI::App* at = &app;
  for (const auto& word : topic) {
    std::vector<std::string> names;
    CLI::App* next = nullptr;
    for (CLI::App* sub : at->get_subcommands([](CLI::App*) { return true; })) {
      names.push_back(sub->get_name());
      if (sub->get_name() == word) next = sub;
    }
    if (next == nullptr) {
      if (at == &app) {
        for (const auto& t : kTopics) names.emplace_back(t.name);
      }
      const std::string hint = did_you_mean(word, names);
      std::cerr << terminal_safe_lines(fmt::format("gpudiag help: no help topic `{}`{}\nThe topics: {}\n",
                                                   fmt::join(topic, " "), hint.empty() ? "" : ": " + hint,
                                                   fmt::join(names, ", ")));
      return kExitError;
    }
    at = next;
  }
  std::cout << help_of(*at);
  return kExitOk;
}

}  // namespace

void add_help_command(CLI::App& app, std::function<int()>& run) {
  auto topic = std::make_shared<std::vector<std::string>>();
  CLI::App* cmd = app.add_subcommand("help", "Help on a command or a topic: exit-codes, formats");
  cmd->add_option("topic", *topic, "A command (report, rules lint …) or exit-codes, formats");
  cmd->callback([&run, &app, topic] { run = [&app, topic] { return show_help(app, *topic); }; });
}

void add_examples(CLI::App& app) {
  for (const auto& e : kExamples) {
    if (CLI::App* cmd = find_command(app, e.command)) cmd->footer(examples_footer(e.examples));
  }
}

}  // namespace gpudiag::cli
