// gpudiag patterns --lines FILE --format tsv: groups plain-text messages (one a line) by template
// and prints, for each line, LINE<TAB>GROUP<TAB>TEMPLATE, the template being its group's final one
// with <*> for variables (Loghub's convention; bench/patterns.py scores it on Loghub-2k).
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <vector>

#include "commands.h"
#include "gpudiag/patterns.h"
#include "gpudiag/report.h"

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

}  // namespace

void add_patterns_command(CLI::App& app, std::function<int()>& run) {
  auto o = std::make_shared<PatternsOptions>();
  CLI::App* cmd = app.add_subcommand("patterns", "Group plain-text log messages by template (Drain-style miner)");
  cmd->add_option("--lines", o->lines, "A text file, one message a line, or - for stdin")->required();
  cmd->add_option(
         "--format", o->format,
         "tsv: LINE<TAB>GROUP<TAB>TEMPLATE for each input line; summary: COUNT<TAB>GROUP<TAB>TEMPLATE for each group")
      ->check(CLI::IsMember({"tsv", "summary"}))
      ->capture_default_str();
  cmd->add_option("--similarity", o->limits.similarity,
                  "The fraction of a template's tokens a line must share to join its group")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->callback([&run, o] { run = [o] { return run_patterns(*o); }; });
}

}  // namespace gpudiag::cli
