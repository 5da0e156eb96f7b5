// Dataflow's service defaults (see service_defaults.h).
#include "service_defaults.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <vector>

namespace gpudiag::detail {
namespace {

std::vector<long> version_parts(std::string_view v) {
  std::vector<long> parts;
  size_t i = 0;
  while (i < v.size() && v[i] >= '0' && v[i] <= '9') {
    long n = 0;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9' && n < 1'000'000) n = n * 10 + (v[i++] - '0');
    parts.push_back(n);
    if (i < v.size() && v[i] == '.')
      ++i;
    else
      break;
  }
  return parts;
}

bool holds(const ServiceDefault::Test& t, const JobFacts& facts) {
  const FactValue* f = facts.get(t.fact);
  if (t.value == "unknown") return f == nullptr;
  if (f == nullptr) return false;
  if (t.value == "known") return true;
  if (t.value.rfind(">=", 0) == 0) {
    const auto c = compare_versions(f->value, std::string_view(t.value).substr(2));
    return c && *c >= 0;
  }
  return f->value == t.value;
}

}  // namespace

std::optional<int> compare_versions(std::string_view a, std::string_view b) {
  auto x = version_parts(a), y = version_parts(b);
  if (x.empty() || y.empty()) return std::nullopt;
  x.resize(std::max(x.size(), y.size()));
  y.resize(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return 0;
}

void apply_service_defaults(const FactCatalog& catalog, const Options& options, JobFacts& facts) {
  for (const auto& d : catalog.service_defaults()) {
    if (facts.get(d.fact) != nullptr) continue;  // given explicitly (or by an earlier default)
    const auto& names = catalog.option_names(d.fact);
    const bool written = std::any_of(names.begin(), names.end(), [&](const std::string& n) {
      auto it = options.find(n);
      return it != options.end() && it->second.text != "None";
    });
    if (written) continue;  // present with a value that is no fact (a placeholder): unknown, not absent
    bool all = true;
    for (const auto& t : d.when) all = all && holds(t, facts);
    if (!all) continue;
    const FactSource source{fmt::format("Dataflow default ({}, read {})", d.source, d.read), -1, 0, "service-defaults"};
    facts.set(d.fact, d.value, source, kServiceDefaultPriority);
  }
}

}  // namespace gpudiag::detail
