#include "fact_test_runner.h"

#include <re2/re2.h>

namespace gpudiag::detail {
namespace {

std::optional<double> to_number(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  return v;
}

Tri as_tri(bool b) { return b ? Tri::kTrue : Tri::kFalse; }

}  // namespace

Tri run_test(const FactTest& t, const ValueLookup& lookup) {
  if (t.op == FactTest::Op::kAny) {
    Tri result = Tri::kFalse;
    for (const auto& group : t.any) {
      const Tri g = run_all(group, lookup);
      if (g == Tri::kTrue) return Tri::kTrue;
      if (g == Tri::kUnknown) result = Tri::kUnknown;
    }
    return result;
  }
  const std::optional<std::string> value = lookup(t.fact);
  if (t.op == FactTest::Op::kKnown) return as_tri(value.has_value());
  if (t.op == FactTest::Op::kUnknown) return as_tri(!value.has_value());
  if (!value) return Tri::kUnknown;
  if (t.op == FactTest::Op::kIs) return as_tri((*value == "true") == t.expect_bool);
  std::string operand = t.operand;
  if (t.operand_is_fact) {
    const auto other = lookup(t.operand);
    if (!other) return Tri::kUnknown;
    operand = *other;
  }
  if (t.op == FactTest::Op::kSearch) {
    if (t.regex) return as_tri(RE2::PartialMatch(*value, *t.regex));
    // The pattern is another fact's value, known only now.
    const RE2 re(operand, pattern_options());
    return as_tri(re.ok() && RE2::PartialMatch(*value, re));
  }
  // == and != compare text exactly: "3.10" and "3.1" are different Python versions.
  if (t.op == FactTest::Op::kEq) return as_tri(*value == operand);
  if (t.op == FactTest::Op::kNe) return as_tri(*value != operand);
  const auto a = to_number(*value);
  const auto b = to_number(operand);
  if (a && b) {
    switch (t.op) {
      case FactTest::Op::kLt:
        return as_tri(*a < *b);
      case FactTest::Op::kLe:
        return as_tri(*a <= *b);
      case FactTest::Op::kGt:
        return as_tri(*a > *b);
      case FactTest::Op::kGe:
        return as_tri(*a >= *b);
      default:
        break;
    }
  }
  return Tri::kUnknown;  // an order test on text that is not a number
}

Tri run_all(const std::vector<FactTest>& tests, const ValueLookup& lookup, std::string* undecided) {
  Tri result = Tri::kTrue;
  for (const auto& t : tests) {
    const Tri r = run_test(t, lookup);
    if (r == Tri::kFalse) return Tri::kFalse;
    if (r == Tri::kUnknown) {
      result = Tri::kUnknown;
      if (undecided && undecided->empty()) {
        *undecided = t.op == FactTest::Op::kAny ? "one of several facts"
                     : t.operand_is_fact        ? t.fact + " or " + t.operand
                                                : t.fact;
      }
    }
  }
  return result;
}

}  // namespace gpudiag::detail
