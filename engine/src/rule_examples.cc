// `gpudiag rules test`: every rule's embedded examples, each analysed as a tiny export with the whole
// pack. A `match` example must make its rule fire (with the captures it lists); a `no_match`
// example must not.
#include <fmt/format.h>

#include "compiled_rule_pack.h"
#include "gpudiag/analyzer.h"
#include "rule_spec.h"

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
  return out;
}

}  // namespace gpudiag
