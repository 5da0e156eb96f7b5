// JSON reports and histories read back in tests (simdjson's DOM API).
#pragma once

#include <simdjson.h>

#include <catch2/catch.hpp>
#include <string>
#include <string_view>

namespace gpudiag::test {

inline simdjson::dom::element parse_json(simdjson::dom::parser& parser, const std::string& text) {
  simdjson::dom::element root;
  REQUIRE(parser.parse(text).get(root) == simdjson::SUCCESS);
  return root;
}

// The finding with `rule_id` in a JSON report or history.
inline simdjson::dom::element finding(simdjson::dom::array findings, std::string_view rule_id) {
  for (simdjson::dom::element f : findings) {
    if (std::string_view(f["rule_id"]) == rule_id) return f;
  }
  FAIL("no finding " << rule_id);
  return {};
}

}  // namespace gpudiag::test
