// Fix commands paste (issue 41, item 3): a fix's `command` is one shell command; the loader rejects
// one that a shell would split; placeholder values stay literal whatever they hold (checked by bash
// itself); unknown placeholders print as the docs' upper-case names; redaction keeps the command one
// command; every format prints it whole. tests/commands_paste.py checks every corpus report.
#include <catch2/catch.hpp>
#include <cstdio>

#include "facts/job_facts.h"
#include "gpudiag/redaction.h"
#include "gpudiag/report.h"
#include "gpudiag/rule_pack.h"
#include "judge/evaluator.h"
#include "pack/shell_command.h"
#include "test_support.h"

using namespace gpudiag;

namespace {

detail::JobFacts facts_of(const std::vector<std::pair<std::string, std::string>>& values) {
  detail::JobFacts facts;
  for (const auto& [name, value] : values) facts.set(name, value, detail::FactSource{"test"}, 10);
  return facts;
}

// What bash makes of `command`'s words: each argument on a line of its own (printf '%s\n' …).
std::string bash_words(const std::string& command) {
  const std::string script = test::temp_dir() + "/words.sh";
  test::write_file(script, "printf '%s\\n' " + command + "\n");
  std::string out;
  FILE* p = popen(("bash " + script + " 2>&1").c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  REQUIRE(pclose(p) == 0);
  return out;
}

std::string filled(std::string_view before, std::string_view value, std::string_view after) {
  detail::ShellFiller f;
  f.text(before);
  f.value(value);
  f.text(after);
  return f.result();
}

}  // namespace

TEST_CASE("a command is one simple command or the loader says where it splits", "[unit]") {
  using detail::shell_command_problem;
  CHECK(shell_command_problem(
            R"(--dataflow_service_options="worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver")")
            .empty());
  CHECK(shell_command_problem("gcloud storage buckets add-iam-policy-binding gs://b --member=serviceAccount:a@b.com "
                              "--role=roles/storage.objectViewer")
            .empty());
  CHECK(shell_command_problem(R"(pip install "numpy<2")").empty());
  CHECK(shell_command_problem(R"(echo 'a;b' "c|d" e\;f)").empty());
  CHECK_THAT(shell_command_problem("--dataflow_service_options=worker_accelerator=type:nvidia-l4;count:1"),
             Catch::Contains("splits it at `;` (byte 61)"));
  CHECK_THAT(shell_command_problem("pip install -r r.txt && pip check"), Catch::Contains("`&`"));
  CHECK_THAT(shell_command_problem("gcloud logging read x | head"), Catch::Contains("`|`"));
  CHECK_THAT(shell_command_problem("echo $(whoami)"), Catch::Contains("command substitution"));
  CHECK_THAT(shell_command_problem("echo \"`whoami`\""), Catch::Contains("command substitution"));
  CHECK_THAT(shell_command_problem("echo 'open"), Catch::Contains("single quote is not closed"));
  CHECK_THAT(shell_command_problem("a\nb"), Catch::Contains("a line break"));
  CHECK_THAT(shell_command_problem("  "), Catch::Contains("empty"));
}

TEST_CASE("a filled value is literal text to bash in every quote context", "[unit]") {
  // Values a log can hand a placeholder: shell syntax of every kind must come out as written.
  const std::vector<std::string> values = {
      "plain-value_1.2:3/4", "a;b|c&d",   "it's", "say \"hi\"", "$(rm -rf x)", "`id`",
      "back\\slash",         "two words", "",     "ünïcode …",  "$HOME"};
  for (const auto& v : values) {
    INFO("value: " << v);
    CHECK(bash_words(filled("", v, "")) == v + "\n");                    // bare
    CHECK(bash_words(filled("\"x=", v, "\"")) == "x=" + v + "\n");       // inside "…"
    CHECK(bash_words(filled("'x=", v, "'")) == "x=" + v + "\n");         // inside '…'
    CHECK(bash_words(filled("--m=", v, " z")) == "--m=" + v + "\nz\n");  // part of a bare word
    CHECK(detail::shell_command_problem(filled("\"x=", v, "\"")).empty());
  }
  // A plain value stays as it is: the command reads as the docs write it.
  CHECK(filled("gs://", "my-bucket", "") == "gs://my-bucket");
}

TEST_CASE("a fix's command takes the first fully known form and prints unknowns as the docs do", "[unit]") {
  FixInfo fix;
  fix.command =
      R"(--dataflow_service_options="worker_accelerator=type:{gpu_type};count:{gpu_count};install-nvidia-driver")";
  fix.command_with_facts = {R"(--dataflow_service_options="worker_accelerator={accelerator_corrected}")"};
  const std::map<std::string, std::vector<std::string>> none;
  CHECK(detail::fill_fix_command(
            fix, none, facts_of({{"accelerator_corrected", "type:nvidia-l4;count:1;install-nvidia-driver"}}), {1, 1}) ==
        R"(--dataflow_service_options="worker_accelerator=type:nvidia-l4;count:1;install-nvidia-driver")");
  CHECK(
      detail::fill_fix_command(fix, none, facts_of({{"gpu_type", "nvidia-tesla-t4"}}), {1, 1}) ==
      R"(--dataflow_service_options="worker_accelerator=type:nvidia-tesla-t4;count:GPU_COUNT;install-nvidia-driver")");
  CHECK(detail::fill_fix_command(fix, none, facts_of({}), {1, 1}) ==
        R"(--dataflow_service_options="worker_accelerator=type:GPU_TYPE;count:GPU_COUNT;install-nvidia-driver")");
  // A command acts on one thing: of several captured buckets, the first.
  FixInfo grant;
  grant.command = "gcloud storage buckets add-iam-policy-binding gs://{bucket} --member=serviceAccount:{principal}";
  const std::map<std::string, std::vector<std::string>> captures{{"bucket", {"models-a", "models-b"}}};
  CHECK(detail::fill_fix_command(grant, captures, facts_of({}), {1, 1}) ==
        "gcloud storage buckets add-iam-policy-binding gs://models-a --member=serviceAccount:PRINCIPAL");
  FixInfo none_given;
  CHECK(detail::fill_fix_command(none_given, none, facts_of({}), {1, 1}).empty());
}

TEST_CASE("a rule whose command a shell would split is a load error at its line", "[rules]") {
  const auto lint = [](const std::string& command) {
    return test::lint_rule(test::replaced(test::kTestRule, "    action: Try another zone\n",
                                          "    action: Try another zone\n    command: " + command + "\n"));
  };
  CHECK(lint(R"('--dataflow_service_options="worker_accelerator=type:{zone};count:1"')").empty());
  auto diags = lint("'--dataflow_service_options=worker_accelerator=type:{zone};count:1'");
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "rule-fixes");
  CHECK(diags[0].line == 12);
  CHECK_THAT(diags[0].message, Catch::Contains("`command` is not one shell command") && Catch::Contains("`;`"));
  diags = lint("'gcloud a {zonee}'");
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].code == "rule-reference");  // placeholders in commands are checked like the others
}

TEST_CASE("redaction keeps a command one command", "[unit][redaction]") {
  Analysis a;
  Finding f;
  f.rule_id = "cloud-storage-read-denied";
  FindingFix fix;
  fix.id = "grant-bucket-read";
  fix.command =
      "gcloud storage buckets add-iam-policy-binding gs://acme-models --member=serviceAccount:"
      "scorer@acme-prod.iam.gserviceaccount.com --role=roles/storage.objectViewer";
  f.fixes.push_back(fix);
  a.findings.push_back(f);
  const Analysis r = redacted(a);
  const std::string& c = r.findings.at(0).fixes.at(0).command;
  CHECK(c ==
        "gcloud storage buckets add-iam-policy-binding gs://BUCKET --member=serviceAccount:EMAIL "
        "--role=roles/storage.objectViewer");
  CHECK(detail::shell_command_problem(c).empty());
  CHECK(c.find('<') == std::string::npos);  // `<bucket>` would be a redirection
}

TEST_CASE("every format prints the fix's command whole", "[cli]") {
  const std::string dir = test::temp_dir();
  const std::string in = test::source_dir() + "/corpus/model-bucket-read-denied-worker-sa/export.json";
  const std::string cmd =
      "gcloud storage buckets add-iam-policy-binding gs://acme-model-registry "
      "--member=serviceAccount:img-scoring@acme-risk-prod.iam.gserviceaccount.com --role=roles/storage.objectViewer";
  // A narrow terminal wraps prose, never the command.
  const auto text =
      test::run_shell("COLUMNS=60 " + test::shell_quote(GPUDIAG_BINARY) + " analyze " + test::shell_quote(in));
  CHECK_THAT(text.out, Catch::Contains("     run: " + cmd + "\n"));
  const auto json = test::run_gpudiag({"analyze", "--format", "json", in});
  CHECK_THAT(json.out, Catch::Contains("\"command\": \"" + cmd + "\""));
  const auto md = test::run_gpudiag({"report", "--format", "md", in});
  CHECK_THAT(md.out, Catch::Contains("run: `" + cmd + "`"));
  const auto html = test::run_gpudiag({"report", "--format", "html", in});
  CHECK_THAT(html.out, Catch::Contains("<code class=\"cmd\">" + cmd + "</code>"));
}
