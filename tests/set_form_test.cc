// set_form (engine/src/pack/set_form.h): the pattern the rule pack's RE2::Set holds must find a
// match in exactly the texts the rule's own pattern does, or the set would drop (or add) candidates.
#include "pack/set_form.h"

#include <re2/re2.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "pack/compiled_rule_pack.h"
#include "test_support.h"

using gpudiag::detail::set_form;

TEST_CASE("set_form leaves out leading elements that only capture and keeps the rest", "[unit]") {
  // What rules write to capture the frame before the exception line.
  CHECK(set_form(R"((?s)(?:lib/python(3\.[0-9]+)/.*?)?SystemError: unknown opcode)") ==
        "(?s)SystemError: unknown opcode");
  CHECK(set_form(R"((?:-packages/(\w+)/[^"\n]*_pb2\.py", line \d+\n(?:    .*\n)*)?(?:\w+\.)*TypeError: x)") ==
        "TypeError: x");
  CHECK(set_form(R"((?:\n    .*){0,3}Error)") == "Error");
  CHECK(set_form(R"([\w.]*Error)") == "Error");
  // A leading X+ is one X.
  CHECK(set_form(R"([\w.]+ is on the meta device)") == R"([\w.] is on the meta device)");
  CHECK(set_form(R"((?:ab)+?c)") == "(?:ab)c");
  // A group whose first element is quantified is itself one element, kept.
  CHECK(set_form(R"(([\w.]+) is on the meta device)") == R"(([\w.]+) is on the meta device)");
  CHECK(set_form(R"(\pL+x)") == R"(\pLx)");
  CHECK(set_form(R"(\p{Greek}+?x)") == R"(\p{Greek}x)");
  // Classes holding what would close or open a group are read as classes.
  CHECK(set_form(R"((?:[)(\]]x)?y)") == "y");
  CHECK(set_form(R"((?:[[:alpha:]])?y)") == "y");
  CHECK(set_form(R"((?i)(?m)(?:a)?b)") == "(?i)(?m)b");
  // Unchanged: an anchor first, a required first element, an alternation, \Q…\E, a lower bound.
  for (const char* same : {R"((?m)^(?:x)?Error)", R"(Error: (\w+)?)", R"(a|(?:b)?c)", R"(\Q*\E?x)", R"(a{2,3}b)",
                           R"((?s:a.b)c)", "", "(unclosed"}) {
    CHECK(set_form(same) == same);
  }
}

TEST_CASE("every pattern of the built-in pack finds a match in the same texts as its set form", "[unit]") {
  // The texts: every entry of every example of the pack, which together reach every rule's pattern.
  const auto& pack = gpudiag::detail::compiled(gpudiag::test::builtin_pack());
  std::vector<std::string> texts;
  for (const auto& rule : pack.rules) {
    for (const auto& example : rule.spec.examples) {
      for (const auto& record : example.records) {
        texts.push_back(record.message);
        if (!record.exception.empty()) texts.push_back(record.exception);
      }
    }
  }
  REQUIRE(texts.size() > 1000);
  int changed = 0;
  for (const auto& p : pack.patterns) {
    if (!p.in_set) continue;
    const std::string form = set_form(p.regex);
    if (form == p.regex) continue;
    ++changed;
    const RE2 re(form, p.re->options());
    REQUIRE(re.ok());
    int agreed_matches = 0;
    for (const auto& text : texts) {
      const bool full = RE2::PartialMatch(text, *p.re);
      INFO(p.regex << "\nset form: " << form << "\ntext: " << text);
      REQUIRE(RE2::PartialMatch(text, re) == full);
      agreed_matches += full ? 1 : 0;
    }
    INFO(p.regex);
    CHECK(agreed_matches > 0);  // the pattern's own examples reach it
  }
  CHECK(changed >= 5);  // the pack has such prefixes (protobuf, NumPy, unknown opcode …)
}
