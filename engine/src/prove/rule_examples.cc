// `gpudiag rules test`: every rule's embedded examples, each analysed as a tiny export with the whole
// pack. A `match` example must make its rule fire (with the captures it lists); a `no_match`
// example must not. A fact extractor's examples run in a pack of the extractor alone: a `match`
// example must yield what it lists, a `no_match` example nothing at all.
#include <fmt/format.h>

#include "gpudiag/analyzer.h"
#include "pack/pack.h"

namespace gpudiag {
namespace {

using namespace detail;

constexpr Timestamp kExampleStart = 1'704'067'200'000'000'000;  // 2024-01-01T00:00:00Z

Analysis run_example(const RulePack& pack, const ExampleSpec& example) {
  RecordAnalysis run(pack, {"example"});
  for (const auto& [name, value] : example.facts) run.set_fact(name, value);
  for (size_t i = 0; i < example.records.size(); ++i) {
    const ExampleRecord& e = example.records[i];
    LogRecord r;
    r.timestamp = kExampleStart + e.at;
    r.severity = parse_severity(e.severity).value_or(Severity::kError);
    r.log = e.log;
    r.message = e.message;
    r.exception = e.exception;
    r.worker = e.worker;
    r.logger = e.logger;
    r.sdk_worker = e.sdk_worker;
    r.step = e.step;
    r.job_id = "2024-01-01_00_00_00-1234567890123456789";
    r.where.line = i + 1;
    run.add(r);
  }
  return run.finish();
}

// What an example's entries gave: facts taken from the entries (not the job's labels), the phases and
// the last worker count.
std::map<std::string, std::string> yielded(const Analysis& d) {
  std::map<std::string, std::string> out;
  for (const auto& f : d.facts) {
    if (f.line > 0) out[f.name] = f.value;
  }
  for (const auto& p : d.phases) out["phase"] = p.phase;
  if (!d.worker_counts.empty()) out["worker_count"] = std::to_string(d.worker_counts.back().workers);
  return out;
}

void test_extractor(const CompiledRulePack& all, const FactExtractorSpec& extractor, ExampleReport& out) {
  const auto fail = [&](uint64_t line, std::string message) {
    out.failures.push_back(ExampleFailure{extractor.id, extractor.file, line, std::move(message)});
  };
  CollectedRules one{.catalog = all.catalog, .policy = all.policy};
  one.extractors.emplace(extractor.id, extractor);
  auto compiled = compile_rules(std::move(one));
  if (!compiled) {
    fail(extractor.line, compiled.error().message);
    return;
  }
  const RulePack alone(std::move(*compiled));
  for (const auto& example : extractor.examples) {
    ++out.examples;
    const auto got = yielded(run_example(alone, example));
    std::string shown;
    for (const auto& [name, value] : got) shown += fmt::format("{}{}={}", shown.empty() ? "" : ", ", name, value);
    if (shown.empty()) shown = "nothing";
    if (!example.expect_match) {
      if (!got.empty()) fail(example.at.line, fmt::format("this `no_match` example yields {}", shown));
      continue;
    }
    for (const auto& [name, value] : example.yields) {
      auto it = got.find(name);
      if (it == got.end() || it->second != value) {
        fail(example.at.line, fmt::format("this `match` example should yield {}={}; it yields {}", name, value, shown));
        break;
      }
    }
  }
}

}  // namespace

ExampleReport test_rule_examples(const RulePack& pack, bool user_rules_only) {
  ExampleReport out;
  const auto& impl = detail::compiled(pack);
  for (const auto& rule : impl.rules) {
    const RuleInfo& info = rule.spec.info;
    if (user_rules_only && info.builtin) continue;
    ++out.rules;
    for (const auto& example : rule.spec.examples) {
      ++out.examples;
      const Analysis d = run_example(pack, example);
      const Finding* finding = nullptr;
      for (const auto& f : d.findings) {
        if (f.rule_id == info.id) finding = &f;
      }
      const auto fail = [&](std::string message) {
        out.failures.push_back(ExampleFailure{info.id, info.file, example.at.line, std::move(message)});
      };
      if (example.expect_match && finding == nullptr) {
        std::string why;
        for (const auto& i : d.inconclusive) {
          if (i.rule_id == info.id) why = fmt::format(" (inconclusive: {})", i.reason);
        }
        fail(fmt::format("this `match` example does not make the rule fire{}", why));
        continue;
      }
      if (!example.expect_match && finding != nullptr) {
        fail("this `no_match` example makes the rule fire");
        continue;
      }
      for (const auto& [name, value] : example.captures) {
        if (finding == nullptr) break;
        auto it = finding->captures.find(name);
        const bool ok =
            it != finding->captures.end() && std::find(it->second.begin(), it->second.end(), value) != it->second.end();
        if (!ok) {
          fail(fmt::format("capture `{}` should be `{}`, got `{}`", name, value,
                           it == finding->captures.end() ? "nothing" : fmt::format("{}", fmt::join(it->second, ", "))));
        }
      }
    }
  }
  for (const auto& extractor : impl.extractors) {
    if (user_rules_only && extractor.builtin) continue;
    ++out.extractors;
    test_extractor(impl, extractor, out);
  }
  return out;
}

}  // namespace gpudiag
