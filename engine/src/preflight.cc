// preflight(): launch options → the same facts as `--job` (launch_facts.h) → the fact-only rules.
#include "gpudiag/preflight.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "facts/facts.h"
#include "judge/judge.h"
#include "pack/pack.h"

namespace gpudiag {
namespace {

constexpr std::string_view kCommandLine = "(command line)";

// The facts the accelerator service option (or the Prime / resource-hint options) sets: a finding
// about them is located at that option.
bool accelerator_fact(std::string_view fact) {
  static const std::set<std::string_view> kFacts{
      "gpu_requested",  "gpu_type",   "gpu_count", "accelerator", "driver_install_requested",
      "driver_version", "flex_start", "mps",       "prime"};
  return kFacts.count(fact) > 0;
}

void collect_facts(const std::vector<detail::FactTest>& tests, std::vector<std::string>& out) {
  for (const auto& t : tests) {
    if (!t.fact.empty()) out.push_back(t.fact);
    for (const auto& group : t.any) collect_facts(group, out);
  }
}

// A rule evaluated before a launch: it tests facts only (no log records to match or miss).
bool fact_only(const detail::CompiledRule& rule) { return !rule.spec.match && !rule.spec.absent; }

class Preflight {
 public:
  Preflight(const RulePack& pack, const PreflightInput& in) : pack_(detail::compiled(pack)), in_(in) {
    names_ = in.sources;
    if (names_.empty()) names_.emplace_back(kCommandLine);
    for (auto& n : names_) {
      if (n.empty()) n = kCommandLine;
    }
    summaries_.resize(names_.size());
    for (size_t i = 0; i < names_.size(); ++i) summaries_[i].path = names_[i];
  }

  Result<Analysis> run() {
    detail::Options options = usable_options();
    detail::ExportAccumulator acc(pack_, names_, 1);
    acc.jobs.emplace("", std::make_unique<detail::JobAccumulator>(pack_, acc.input_paths, ""));
    if (auto status = detail::apply_job_files(in_.job_files, pack_.catalog, acc.given); !status.ok()) {
      return status.error();
    }
    // What the launch says is stronger than an earlier run's description.
    const detail::FactSource source{"launch options"};
    if (!options.empty()) {
      detail::apply_launch_options(options, pack_.catalog, acc.given, source, detail::kExamplePriority);
    }
    if (!misspelled_.empty()) {
      acc.given.set("misspelled_options", fmt::format("{}", fmt::join(misspelled_, "; ")), source,
                    detail::kExamplePriority);
    }
    for (const auto& [name, value] : in_.facts) acc.given.set(name, value, source, detail::kExamplePriority);
    // As for `--job` (apply_job): what the launch leaves out is Dataflow's default, not unknown.
    detail::apply_service_defaults(pack_.catalog, options, acc.given);
    for (const auto& text : in_.notes) note(0, 0, text);
    // Facts that change over time come from dated tables: say which dates this verdict rests on.
    if (const auto& gpus = pack_.catalog.gpu_platforms(); !gpus.read.empty()) {
      note(0, 0, fmt::format("GPU types and machine families: the table of {} ({})", gpus.read, gpus.source));
    }
    if (const auto& defaults = pack_.catalog.service_defaults(); !defaults.empty()) {
      std::string newest;
      for (const auto& d : defaults) newest = std::max(newest, d.read);
      note(0, 0, fmt::format("Dataflow's service defaults for options left out: the table read {}", newest));
    }
    acc.finish();
    Analysis d;
    d.inputs = summaries_;
    detail::JobAnalyses(pack_, {}).finish(acc, d);
    keep_fact_only(d);
    for (auto& job : d.jobs) keep_fact_only(job);
    for (Analysis* a : {&d, d.jobs.empty() ? &d : &d.jobs.front()}) {
      a->preflight = true;
      a->launch_options = in_.options.size();
    }
    return d;
  }

 private:
  uint32_t input_of(const std::string& file) const {
    const std::string& name = file.empty() ? std::string(kCommandLine) : file;
    const auto it = std::find(names_.begin(), names_.end(), name);
    return it == names_.end() ? 0 : static_cast<uint32_t>(it - names_.begin());
  }
  void note(uint32_t input, uint64_t line, std::string message) {
    summaries_[input].add_problem(
        InputProblem{.line = line, .offset = -1, .skipped_entry = false, .message = std::move(message)});
  }
  void note(const LaunchOption& o, std::string message) { note(input_of(o.file), o.line, std::move(message)); }

  // The options to evaluate, as Beam would hold them; the rest are noted.
  detail::Options usable_options() {
    detail::Options options;
    std::set<std::string> unknown_noted, placeholders_noted;
    for (const auto& o : in_.options) {
      if (o.written.rfind("gcloud ", 0) == 0) {
        note(o, fmt::format("--{} is not a flag of `gcloud dataflow … run` that sets a pipeline option: not read",
                            o.written.substr(7)));
        continue;
      }
      const OptionNameCheck check = check_option_name(o.written);
      if (check.kind == OptionNameCheck::Kind::kNearMiss) {
        misspelled_.push_back(fmt::format("--{} (did you mean {}?)", o.written, check.suggestion));
        if (first_misspelled_ == nullptr) first_misspelled_ = &o;
        continue;
      }
      if (check.kind == OptionNameCheck::Kind::kUnknown) {
        if (unknown_noted.insert(o.written).second) {
          note(o, fmt::format("info: --{} is not a Beam or Dataflow option (the pipeline's own flags pass "
                              "through to its argparse)",
                              o.written));
        }
        continue;
      }
      if (!o.unknown.empty()) {
        note(o, fmt::format("--{} is `{}`, a shell substitution whose value is not known before the launch: "
                            "not checked",
                            o.written, o.unknown));
        continue;
      }
      const auto placeholders = placeholders_in_value(o.value);
      for (const auto& p : placeholders) {
        if (placeholders_noted.insert(p).second) {
          note(o, fmt::format("placeholder {} (in --{}): the documentation's placeholder, to be replaced by a "
                              "value; not checked",
                              p, o.written));
        }
      }
      if (!placeholders.empty()) continue;
      detail::PythonValue& v = options[o.name];
      if (o.list) {
        v.is_list = true;
        if (!o.flag) v.items.push_back(o.value);
      } else {
        v.text = o.flag ? "True" : o.value;
      }
      used_.push_back(&o);
    }
    return options;
  }

  // The option a finding is about: the first that sets one of the facts its rule tests.
  const LaunchOption* option_for(const detail::CompiledRule& rule) const {
    std::vector<std::string> facts;
    collect_facts(rule.spec.when, facts);
    // The last fact a rule tests is its most specific (gpu_requested, then runner_v2: false).
    std::reverse(facts.begin(), facts.end());
    if (std::find(facts.begin(), facts.end(), "misspelled_options") != facts.end() && first_misspelled_ != nullptr) {
      return first_misspelled_;
    }
    for (const auto& fact : facts) {
      std::vector<std::string> spellings = pack_.catalog.option_names(fact);
      std::string_view value_prefix;
      if (accelerator_fact(fact)) {
        for (const auto* f : {"service_options", "experiments", "accelerator_hint"}) {
          for (const auto& s : pack_.catalog.option_names(f)) spellings.push_back(s);
        }
        value_prefix = fact == "prime" ? "enable_prime" : "worker_accelerator=";
      } else if (fact == "runner_v2") {
        spellings = pack_.catalog.option_names("experiments");
      }
      const LaunchOption* first = nullptr;
      for (const LaunchOption* o : used_) {
        if (std::find(spellings.begin(), spellings.end(), o->name) == spellings.end()) continue;
        if (value_prefix.empty() || o->value.rfind(value_prefix, 0) == 0) return o;
        if (first == nullptr) first = o;
      }
      if (first != nullptr) return first;
    }
    return nullptr;
  }

  void keep_fact_only(Analysis& a) const {
    std::erase_if(a.findings, [&](const Finding& f) {
      const int ri = pack_.rule_index(f.rule_id);
      return ri < 0 || !fact_only(pack_.rules[ri]);
    });
    std::erase_if(a.inconclusive, [&](const Inconclusive& c) {
      const int ri = pack_.rule_index(c.rule_id);
      return ri < 0 || !fact_only(pack_.rules[ri]);
    });
    for (auto& f : a.findings) {
      const LaunchOption* o = option_for(pack_.rules[pack_.rule_index(f.rule_id)]);
      if (o == nullptr) continue;
      const std::string text = o->flag ? fmt::format("--{}", o->written) : fmt::format("--{}={}", o->written, o->value);
      LogRecord r;
      r.log = "launch-options";
      r.message = text;
      r.where.input = input_of(o->file);
      r.where.line = o->line;
      Evidence e;
      e.entry = KeptRecord(r);
      e.matched_line = text;
      f.evidence.push_back(std::move(e));
      f.count = std::max<uint64_t>(f.count, 1);
    }
  }

  const detail::CompiledRulePack& pack_;
  const PreflightInput& in_;
  std::vector<std::string> names_;
  std::vector<InputSummary> summaries_;
  std::vector<std::string> misspelled_;
  const LaunchOption* first_misspelled_ = nullptr;  // where the misspelled_options finding points
  std::vector<const LaunchOption*> used_;
};

}  // namespace

Result<Analysis> preflight(const RulePack& pack, const PreflightInput& input) { return Preflight(pack, input).run(); }

}  // namespace gpudiag
