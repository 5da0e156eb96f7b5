#include "usage_hints.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>

#include "gpudiag/name_suggestions.h"
#include "gpudiag/report.h"

namespace gpudiag::cli {
namespace {

// The app and the subcommands the command line chose, outermost first.
std::vector<const CLI::App*> chosen_chain(const CLI::App* top) {
  std::vector<const CLI::App*> chain{top};
  for (;;) {
    const auto parsed = chain.back()->get_subcommands();
    if (parsed.empty()) return chain;
    chain.push_back(parsed.back());
  }
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (!sub->get_name().empty()) names.push_back(sub->get_name());
  }
  return names;
}

// The flags `chain`'s innermost command takes: its own and, since subcommands fall through to
// their parents, those of the commands around it (the top's --help and --version aside).
std::vector<std::string> flag_names(const std::vector<const CLI::App*>& chain) {
  std::vector<std::string> names;
  for (size_t i = chain.size(); i-- > (chain.size() > 1 ? 1 : 0);) {
    for (const CLI::Option* opt : chain[i]->get_options()) {
      for (const auto& l : opt->get_lnames()) names.push_back("--" + l);
      for (const auto& s : opt->get_snames()) names.push_back("-" + s);
    }
  }
  return names;
}

std::string unknown_word_message(const std::vector<const CLI::App*>& chain, const std::string& word,
                                 bool subcommand_missing) {
  const CLI::App& inner = *chain.back();
  const std::string where = command_path(inner);
  if (word.starts_with("-")) {
    const std::string flag = word.substr(0, word.find('='));
    const std::string hint = did_you_mean(flag, flag_names(chain));
    return fmt::format("{}: unknown option `{}`{}\nRun `{} --help` for its options.\n", where, flag,
                       hint.empty() ? "" : ": " + hint, where);
  }
  const auto commands = subcommand_names(inner);
  if (commands.empty()) return "";
  const std::string hint = did_you_mean(word, commands);
  return fmt::format("{}: unknown command `{}`{}\nRun `{} --help` for its commands{}.\n", where, word,
                     hint.empty() ? fmt::format("; the commands are {}", fmt::join(commands, ", ")) : ": " + hint,
                     where, subcommand_missing && chain.size() == 1 ? ", or `gpudiag help`" : "");
}

}  // namespace

std::string command_path(const CLI::App& app) {
  std::string path = app.get_name();
  for (const CLI::App* p = app.get_parent(); p != nullptr; p = p->get_parent()) path = p->get_name() + " " + path;
  return path;
}

CLI::Validator one_of(std::vector<std::string> choices) {
  const std::string described = fmt::format("{{{}}}", fmt::join(choices, ","));
  return CLI::Validator(
      [choices, described](std::string& value) -> std::string {
        if (std::find(choices.begin(), choices.end(), value) != choices.end()) return "";
        const std::string hint = did_you_mean(value, choices);
        return fmt::format("{} not in {}{}", value, described, hint.empty() ? "" : "; " + hint);
      },
      described, "one of");
}

std::string usage_failure_message(const CLI::App* app, const CLI::Error& e) {
  const auto chain = chosen_chain(app);
  const bool subcommand_missing =
      dynamic_cast<const CLI::RequiredError*>(&e) != nullptr && std::string_view(e.what()).starts_with("A subcommand");
  if (subcommand_missing || dynamic_cast<const CLI::ExtrasError*>(&e) != nullptr) {
    // The first word no command took, innermost command first.
    for (size_t i = chain.size(); i-- > 0;) {
      const auto left = chain[i]->remaining();
      if (left.empty()) continue;
      if (const std::string m = unknown_word_message(chain, left.front(), subcommand_missing); !m.empty())
        return terminal_safe_lines(m);
    }
    if (subcommand_missing) {
      const std::string where = command_path(*chain.back());
      return fmt::format("{}: a command is required: {}\nRun `{} --help`{}.\n", where,
                         fmt::join(subcommand_names(*chain.back()), ", "), where,
                         chain.size() == 1 ? " or `gpudiag help TOPIC`" : "");
    }
  }
  if (dynamic_cast<const CLI::RequiredError*>(&e) != nullptr && std::string_view(e.what()) == "inputs is required") {
    // The first thing a new user types: how to get an export, rather than what the parser lacks.
    std::string m =
        "gpudiag: no export to analyse: give the file, e.g. gpudiag analyze logs.json\n"
        "  help: `--project PROJECT --region REGION --job-id JOB_ID` fetches the job with your gcloud;\n"
        "        `gpudiag export-command JOB_ID --project PROJECT` prints the gcloud command that writes one;\n"
        "        or pipe one in: gcloud logging read … --format=json | gpudiag analyze -\n";
    if (!isatty(STDIN_FILENO)) m += "        (stdin is not a terminal: pass - to read the export from it)\n";
    return m;
  }
  return terminal_safe_lines(CLI::FailureMessage::simple(app, e));
}

}  // namespace gpudiag::cli
