// Reading pack files (policy, lists and macros) and expanding lists and macros in patterns (see
// pack_file.h).
#include "pack_file.h"

#include <fmt/format.h>
#include <re2/re2.h>

#include <algorithm>
#include <initializer_list>
#include <optional>

#include "line_formats.h"
#include "placeholders.h"
#include "rule_keys.h"
#include "rule_reader.h"
#include "shell_command.h"

namespace gpudiag::detail {
namespace {

bool is_fragment_name(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

Diagnostic problem(const RuleFile& file, const Position& at, std::string code, std::string message,
                   std::string help = {}) {
  return Diagnostic{.code = std::move(code),
                    .message = std::move(message),
                    .file = file.path,
                    .line = at.line,
                    .column = at.column,
                    .source_line = source_line(file.text, at.line),
                    .help = std::move(help)};
}

std::vector<std::string> scalars(const Node& n) {
  std::vector<std::string> out;
  if (n.is_scalar()) out.push_back(n.scalar);
  for (const auto& item : n.items) {
    if (item.is_scalar()) out.push_back(item.scalar);
  }
  return out;
}

// `quiet:` — a list of shapes; a pack file that names it sets the whole list again.
void read_quiet(const RuleFile& file, const Node& list, PackPolicy& policy, Diagnostics& diags) {
  if (!list.is_seq() || list.items.size() > PackPolicy::kMaxQuietShapes) {
    diags.push_back(problem(file, list.at, "rule-type",
                            fmt::format("`quiet` is a list of at most {} shapes", PackPolicy::kMaxQuietShapes)));
    return;
  }
  policy.quiet.clear();
  const auto& allowed = key_names(KeyPlace::kQuietShape);
  for (const auto& item : list.items) {
    if (!item.is_map()) {
      diags.push_back(
          problem(file, item.at, "rule-type", "a quiet shape is a mapping (name, severity, message, except)"));
      continue;
    }
    QuietShape q;
    bool ok = true;
    for (const auto& [k, v] : item.entries) {
      if (std::find(allowed.begin(), allowed.end(), k.scalar) == allowed.end()) {
        diags.push_back(problem(file, k.at, "rule-unknown-key",
                                fmt::format("unknown key `{}` in {}", k.scalar, place_name(KeyPlace::kQuietShape)),
                                suggestion(k.scalar, allowed)));
        ok = false;
      } else if (k.scalar == "name") {
        q.name = v.is_scalar() ? v.scalar : "";
      } else if (k.scalar == "message") {
        q.message = v.is_scalar() ? v.scalar : "";
        RE2 re(q.message, RE2::Quiet);
        if (q.message.empty() || !re.ok()) {
          diags.push_back(
              problem(file, v.at, "rule-regex", fmt::format("`message` is a valid RE2 regex: {}", re.error())));
          ok = false;
        }
      } else if (k.scalar == "except") {
        q.except = scalars(v);
      } else {
        for (const auto& name : scalars(v)) {
          if (auto sev = parse_severity(name)) {
            q.severities.push_back(*sev);
          } else {
            diags.push_back(problem(file, v.at, "rule-condition", fmt::format("unknown log severity `{}`", name),
                                    "DEFAULT, DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT, EMERGENCY"));
            ok = false;
          }
        }
      }
    }
    if (ok && (q.name.empty() || (q.severities.empty() && q.message.empty()))) {
      diags.push_back(
          problem(file, item.at, "rule-type", "a quiet shape needs a `name` and a `severity` or `message`"));
      ok = false;
    }
    if (ok) policy.quiet.push_back(std::move(q));
  }
}

void read_policy(const RuleFile& file, const Node& root, PackPolicy& policy, Diagnostics& diags) {
  if (const Node* quiet = root.get("quiet")) read_quiet(file, *quiet, policy, diags);
  if (const Node* families = root.get("families")) {
    if (!families->is_map()) {
      diags.push_back(problem(file, families->at, "rule-type", "`families` is a mapping of family names to roles"));
    } else {
      for (const auto& [name, role] : families->entries) {
        if (std::find(kFamilies.begin(), kFamilies.end(), name.scalar) == kFamilies.end()) {
          diags.push_back(problem(file, name.at, "rule-family", fmt::format("unknown family `{}`", name.scalar),
                                  suggestion(name.scalar, kFamilies)));
        } else if (role.scalar == "cause" || role.scalar == "symptom") {
          policy.family_roles[name.scalar] = role.scalar == "symptom" ? FamilyRole::kSymptom : FamilyRole::kCause;
        } else {
          diags.push_back(problem(file, role.at, "rule-type", "a family's role is `cause` or `symptom`"));
        }
      }
    }
  }
  const Node* confidence = root.get("confidence");
  if (confidence == nullptr) return;
  if (!confidence->is_map()) {
    diags.push_back(problem(file, confidence->at, "rule-type", "`confidence` is a mapping of adjustments"));
    return;
  }
  const auto& allowed = key_names(KeyPlace::kConfidencePolicy);
  for (const auto& [k, v] : confidence->entries) {
    if (std::find(allowed.begin(), allowed.end(), k.scalar) == allowed.end()) {
      diags.push_back(problem(file, k.at, "rule-unknown-key",
                              fmt::format("unknown key `{}` in {}", k.scalar, place_name(KeyPlace::kConfidencePolicy)),
                              suggestion(k.scalar, allowed)));
      continue;
    }
    char* end = nullptr;
    const double x = v.is_scalar() ? std::strtod(v.scalar.c_str(), &end) : -1;
    if (!v.is_scalar() || v.scalar.empty() || *end != '\0' || !(x >= 0.0 && x <= 1.0)) {
      diags.push_back(
          problem(file, v.at, "rule-confidence", fmt::format("`{}` is a number from 0.0 to 1.0", k.scalar)));
      continue;
    }
    auto& c = policy.confidence;
    double* slot = k.scalar == "weak_only"           ? &c.weak_only
                   : k.scalar == "unknown_fact"      ? &c.unknown_fact
                   : k.scalar == "per_corroboration" ? &c.per_corroboration
                                                     : &c.ceiling;
    *slot = x;
  }
}

// A file gpudiag-rulec read when the binary was built (its tree came with it): its patterns
// compiled and its examples held then, so they are not compiled and proven again at each start
// (some 10 M instructions of every run, bench/RESULTS-stages.md).
bool proven_at_build(const RuleFile& file) { return !file.tree.empty(); }

// `frameworks:` (the frame patterns that tell framework frames from the user's) and
// `benign_errors:`: lists of RE2 patterns. A later pack file that names one replaces that list, as it
// does the policy.
void read_patterns(const RuleFile& file, const Node& root, std::string_view key, std::vector<std::string>& out,
                   Diagnostics& diags) {
  const Node* list = root.get(key);
  if (list == nullptr) return;
  if (!list->is_seq() && !list->is_scalar()) {
    diags.push_back(
        problem(file, list->at, "rule-type", fmt::format("`{}` is an RE2 pattern or a sequence of them", key)));
    return;
  }
  std::vector<std::string> patterns;
  for (const auto& item : list->is_seq() ? list->items : std::vector<Node>{*list}) {
    if (!item.is_scalar() || item.scalar.empty()) {
      diags.push_back(problem(file, item.at, "rule-type", fmt::format("each of `{}` is a non-empty RE2 pattern", key)));
      continue;
    }
    if (!proven_at_build(file)) {
      RE2 re(item.scalar, RE2::Quiet);
      if (!re.ok()) {
        diags.push_back(problem(file, item.at, "rule-regex", fmt::format("invalid regex: {}", re.error())));
        continue;
      }
    }
    patterns.push_back(item.scalar);
  }
  out = std::move(patterns);
}

// Keys of `map` not allowed at `place`, each a `rule-unknown-key` problem; false when there was one.
bool known_keys(const RuleFile& file, const Node& map, KeyPlace place, Diagnostics& diags) {
  const auto& allowed = key_names(place);
  bool ok = true;
  for (const auto& [k, v] : map.entries) {
    if (std::find(allowed.begin(), allowed.end(), k.scalar) != allowed.end()) continue;
    diags.push_back(problem(file, k.at, "rule-unknown-key",
                            fmt::format("unknown key `{}` in {}", k.scalar, place_name(place)),
                            suggestion(k.scalar, allowed)));
    ok = false;
  }
  return ok;
}

// A wrapper's examples, proven where they are read (the built-in pack's when the build compiles
// it): removing every match of the pattern from `text` leaves `leaves`.
void check_wrapper_examples(const RuleFile& file, const Node& examples, const RE2& wrapper, Diagnostics& diags) {
  if (!examples.is_seq()) {
    diags.push_back(
        problem(file, examples.at, "rule-example", "a wrapper's `examples` is a list of `text` and `leaves`"));
    return;
  }
  for (const auto& example : examples.items) {
    const Node* text = example.is_map() ? example.get("text") : nullptr;
    const Node* leaves = example.is_map() ? example.get("leaves") : nullptr;
    if (example.is_map() && !known_keys(file, example, KeyPlace::kWrapperExample, diags)) continue;
    if (text == nullptr || leaves == nullptr || !text->is_scalar() || !leaves->is_scalar()) {
      diags.push_back(
          problem(file, example.at, "rule-example", "a wrapper's example is a mapping of `text` and `leaves`"));
      continue;
    }
    std::string left = text->scalar;
    RE2::GlobalReplace(&left, wrapper, "");
    if (left != leaves->scalar) {
      diags.push_back(
          problem(file, example.at, "rule-example",
                  fmt::format("the wrapper leaves \"{}\" of this example's text, not \"{}\"", left, leaves->scalar)));
    }
  }
}

// `wrappers:` (what Dataflow wraps around a worker's error when it copies it into another log): RE2
// patterns, each alone or a mapping of `pattern`, `examples` and `sources`. The reader of an error
// takes off those that match at its front, copies are compared with every match removed
// (docs/rules.md, "Frameworks"). A later pack file that names the list replaces it.
void read_wrappers(const RuleFile& file, const Node& root, PackPolicy& policy, Diagnostics& diags) {
  const Node* list = root.get("wrappers");
  if (list == nullptr) return;
  if (!list->is_seq() && !list->is_scalar()) {
    diags.push_back(
        problem(file, list->at, "rule-type",
                "`wrappers` is a list of RE2 patterns, each alone or a mapping with `pattern` and `examples`"));
    return;
  }
  std::vector<std::string> patterns;
  for (const auto& item : list->is_seq() ? list->items : std::vector<Node>{*list}) {
    if (item.is_map() && !known_keys(file, item, KeyPlace::kWrapper, diags)) continue;
    const Node* pattern = item.is_map() ? item.get("pattern") : &item;
    if (pattern == nullptr || !pattern->is_scalar() || pattern->scalar.empty()) {
      diags.push_back(problem(file, item.at, "rule-type", "each of `wrappers` is a non-empty RE2 pattern"));
      continue;
    }
    if (!proven_at_build(file)) {
      RE2 re(pattern->scalar, RE2::Quiet);
      if (!re.ok()) {
        diags.push_back(problem(file, pattern->at, "rule-regex", fmt::format("invalid regex: {}", re.error())));
        continue;
      }
      if (const Node* examples = item.is_map() ? item.get("examples") : nullptr) {
        check_wrapper_examples(file, *examples, re, diags);
      }
    }
    patterns.push_back(pattern->scalar);
  }
  policy.wrappers = std::move(patterns);
}

// `generic_errors:` and `advice_lines:` (how the reader finds an error's cause in its chain): each
// a mapping of `pattern`, `examples` it must find, `near_misses` it must not and `sources`, proven
// here (a wrong example fails the build of the built-in pack). A later pack file that names the
// list replaces it.
void read_line_patterns(const RuleFile& file, const Node& root, std::string_view key, std::vector<std::string>& out,
                        Diagnostics& diags) {
  const Node* list = root.get(key);
  if (list == nullptr) return;
  if (!list->is_seq()) {
    diags.push_back(problem(file, list->at, "rule-type",
                            fmt::format("`{}` is a list of mappings of `pattern`, `examples` and `sources`", key)));
    return;
  }
  std::vector<std::string> patterns;
  for (const auto& item : list->items) {
    if (!item.is_map() || !known_keys(file, item, KeyPlace::kLinePattern, diags)) {
      if (!item.is_map())
        diags.push_back(problem(file, item.at, "rule-type",
                                fmt::format("each of `{}` is a mapping of `pattern`, `examples` and `sources`", key)));
      continue;
    }
    const Node* pattern = item.get("pattern");
    const Node* examples = item.get("examples");
    if (pattern == nullptr || !pattern->is_scalar() || pattern->scalar.empty() || examples == nullptr ||
        !examples->is_seq() || examples->items.empty() || item.get("sources") == nullptr) {
      diags.push_back(
          problem(file, item.at, "rule-type", "a line pattern needs a non-empty `pattern`, `examples` and `sources`"));
      continue;
    }
    if (proven_at_build(file)) {
      patterns.push_back(pattern->scalar);
      continue;
    }
    RE2 re(pattern->scalar, RE2::Quiet);
    if (!re.ok()) {
      diags.push_back(problem(file, pattern->at, "rule-regex", fmt::format("invalid regex: {}", re.error())));
      continue;
    }
    bool proven = true;
    for (const bool must : {true, false}) {
      const Node* texts = must ? examples : item.get("near_misses");
      if (texts == nullptr) continue;
      for (const auto& t : texts->is_seq() ? texts->items : std::vector<Node>{*texts}) {
        if (!t.is_scalar() || RE2::PartialMatch(t.scalar, re) == must) continue;
        proven = false;
        diags.push_back(problem(file, t.at, "rule-example",
                                must ? "the pattern does not find this example" : "the pattern finds this near miss"));
      }
    }
    if (proven) patterns.push_back(pattern->scalar);
  }
  out = std::move(patterns);
}

// `first_steps:` (what to try first about an error no rule knows, by its kind): each an `id`, a
// `pattern` with named groups, an `action` (and `command`) whose placeholders are those groups, a
// `doc`, and `examples` / `near_misses` proven here as a line pattern's are. A later pack file that
// names the list replaces it.
void read_first_steps(const RuleFile& file, const Node& root, PackPolicy& policy, Diagnostics& diags) {
  const Node* list = root.get("first_steps");
  if (list == nullptr) return;
  if (!list->is_seq()) {
    diags.push_back(problem(file, list->at, "rule-type", "`first_steps` is a list of mappings"));
    return;
  }
  std::vector<FirstStepSpec> steps;
  for (const auto& item : list->items) {
    if (!item.is_map()) {
      diags.push_back(
          problem(file, item.at, "rule-type", "each of `first_steps` is a mapping (id, pattern, action, doc)"));
      continue;
    }
    if (!known_keys(file, item, KeyPlace::kFirstStep, diags)) continue;
    const auto text = [&](std::string_view key) -> const Node* {
      const Node* n = item.get(key);
      return n != nullptr && n->is_scalar() && !n->scalar.empty() ? n : nullptr;
    };
    const Node* id = text("id");
    const Node* pattern = text("pattern");
    const Node* action = text("action");
    const Node* doc = item.get("doc");
    const Node* examples = item.get("examples");
    if (id == nullptr || pattern == nullptr || action == nullptr || doc == nullptr || !doc->is_map() ||
        examples == nullptr || !examples->is_seq() || examples->items.empty() || item.get("sources") == nullptr) {
      diags.push_back(problem(file, item.at, "rule-type",
                              "a first step needs `id`, `pattern`, `action`, `doc` (title, section, url), `examples` "
                              "and `sources`"));
      continue;
    }
    FirstStepSpec step{.id = id->scalar, .pattern = pattern->scalar, .action = action->scalar};
    if (const Node* c = text("command")) step.command = c->scalar;
    for (const auto& [key, slot] : {std::pair{"title", &step.doc.title}, std::pair{"section", &step.doc.section},
                                    std::pair{"url", &step.doc.url}}) {
      if (const Node* v = doc->get(key); v != nullptr && v->is_scalar()) *slot = v->scalar;
    }
    if (step.doc.title.empty() || step.doc.section.empty() || step.doc.url.rfind("https://", 0) != 0) {
      diags.push_back(
          problem(file, doc->at, "rule-doc", "a first step's `doc` needs title, section and an https:// url"));
      continue;
    }
    if (proven_at_build(file)) {
      steps.push_back(std::move(step));
      continue;
    }
    RE2 re(step.pattern, RE2::Quiet);
    if (!re.ok()) {
      diags.push_back(problem(file, pattern->at, "rule-regex", fmt::format("invalid regex: {}", re.error())));
      continue;
    }
    bool ok = true;
    // Placeholders are the pattern's named groups: a step fills them from the line it matched.
    const auto& groups = re.NamedCapturingGroups();
    for (const Node* t : {action, text("command")}) {
      if (t == nullptr) continue;
      for (const Placeholder& p : placeholders_in(t->scalar)) {
        if (groups.count(std::string(p.name)) > 0) continue;
        ok = false;
        diags.push_back(problem(file, t->at, "rule-reference",
                                fmt::format("`{{{}}}` is not a named group of the step's pattern", p.name)));
      }
    }
    if (const Node* c = text("command")) {
      if (std::string why = shell_template_problem(c->scalar); !why.empty()) {
        ok = false;
        diags.push_back(problem(file, c->at, "rule-fixes", fmt::format("`command` is not one shell command: {}", why)));
      }
    }
    for (const bool must : {true, false}) {
      const Node* texts = must ? examples : item.get("near_misses");
      if (texts == nullptr) continue;
      for (const auto& t : texts->is_seq() ? texts->items : std::vector<Node>{*texts}) {
        if (!t.is_scalar() || RE2::PartialMatch(t.scalar, re) == must) continue;
        ok = false;
        diags.push_back(problem(file, t.at, "rule-example",
                                must ? "the pattern does not find this example" : "the pattern finds this near miss"));
      }
    }
    if (ok) steps.push_back(std::move(step));
  }
  policy.first_steps = std::move(steps);
}

// A line format's examples, proven here by the reader itself (LineFormats: its `starts`, then its
// pattern): each line is read to its level and text, each near miss is not read.
void check_line_format_examples(const RuleFile& file, const Node& item, const LineFormat& f, Diagnostics& diags) {
  const LineFormats reader(std::vector<LineFormat>{f});
  // `screened`: only where one of its `starts` begins the line, as the reader reads; an example is
  // also read without them, so that a wrong start and a wrong reading are both said.
  const auto read = [&](std::string_view line, std::string* level, std::string* text, bool screened = true) {
    LineFormat any_start = f;
    any_start.starts = {std::string(line.substr(0, 1))};
    any_start.contains.clear();
    const auto r =
        screened || line.empty() ? reader.read(line, /*at_error=*/true) : LineFormats({any_start}).read(line);
    if (!r) return false;
    *text = std::string(r->text);
    *level = r->level ? std::string(severity_name(*r->level)) : "none";
    return true;
  };
  const auto starts = [&](std::string_view line) {
    return std::any_of(f.starts.begin(), f.starts.end(), [&](const std::string& st) { return line.starts_with(st); }) ||
           std::any_of(f.contains.begin(), f.contains.end(), [&](const std::string& c) {
             return line.substr(0, LineFormats::kContainsWindow).find(c) != std::string_view::npos;
           });
  };
  if (const Node* examples = item.get("examples"); examples != nullptr && examples->is_seq()) {
    for (const auto& e : examples->items) {
      if (!e.is_map() || !known_keys(file, e, KeyPlace::kLineFormatExample, diags)) continue;
      const Node* line = e.get("line");
      const Node* level = e.get("level");
      const Node* text = e.get("text");
      if (line == nullptr || level == nullptr || text == nullptr) {
        diags.push_back(problem(file, e.at, "rule-example", "a line format's example has `line`, `level` and `text`"));
        continue;
      }
      std::string got_level, got_text;
      if (!read(line->scalar, &got_level, &got_text, /*screened=*/false)) {
        diags.push_back(problem(file, line->at, "rule-example", "the format does not read this line"));
      } else if (got_level != level->scalar || got_text != text->scalar) {
        diags.push_back(
            problem(file, e.at, "rule-example",
                    fmt::format("the format reads level {} and text \"{}\" of this line", got_level, got_text)));
      }
      if (!starts(line->scalar)) {
        diags.push_back(problem(file, line->at, "rule-example",
                                f.starts.empty() ? "the line holds none of `contains` near its start"
                                                 : "the line starts with none of `starts`"));
      }
    }
  }
  if (const Node* misses = item.get("near_misses"); misses != nullptr && misses->is_seq()) {
    for (const auto& m : misses->items) {
      std::string level, text;
      if (m.is_scalar() && read(m.scalar, &level, &text))
        diags.push_back(problem(file, m.at, "rule-example", "the format reads this near miss"));
    }
  }
}

// `line_formats:` (how another program's line says its own level, rules/line-formats.yaml): each a
// mapping of `name`, `starts`, `pattern` (groups `text` and `level`), `levels`, `examples`,
// `near_misses`, `sources`. A later pack file that names the list replaces it.
void read_line_formats(const RuleFile& file, const Node& root, PackPolicy& policy, Diagnostics& diags) {
  const Node* list = root.get("line_formats");
  if (list == nullptr) return;
  if (!list->is_seq()) {
    diags.push_back(problem(file, list->at, "rule-type", "`line_formats` is a list of mappings"));
    return;
  }
  std::vector<LineFormat> formats;
  for (const auto& item : list->items) {
    if (!item.is_map()) {
      diags.push_back(problem(file, item.at, "rule-type", "each of `line_formats` is a mapping"));
      continue;
    }
    if (!known_keys(file, item, KeyPlace::kLineFormat, diags)) continue;
    const Node* name = item.get("name");
    const Node* pattern = item.get("pattern");
    const Node* starts = item.get("starts");
    const Node* contains = item.get("contains");
    const Node* examples = item.get("examples");
    const auto non_empty_list = [](const Node* n) { return n != nullptr && n->is_seq() && !n->items.empty(); };
    if (name == nullptr || pattern == nullptr || non_empty_list(starts) == non_empty_list(contains) ||
        !non_empty_list(examples) || item.get("sources") == nullptr || !pattern->is_scalar()) {
      diags.push_back(problem(file, item.at, "rule-type",
                              "a line format needs `name`, `starts` or `contains` (one of them), `examples` (non-empty "
                              "lists), `pattern` and `sources`"));
      continue;
    }
    LineFormat f{.name = name->scalar, .pattern = pattern->scalar};
    const bool by_start = non_empty_list(starts);
    for (const auto& st : (by_start ? starts : contains)->items) {
      if (st.is_scalar() && !st.scalar.empty()) (by_start ? f.starts : f.contains).push_back(st.scalar);
    }
    bool ok = true;
    if (const Node* levels = item.get("levels"); levels != nullptr && levels->is_map()) {
      for (const auto& [token, sev] : levels->entries) {
        const auto s = sev.is_scalar() ? parse_severity(sev.scalar) : std::nullopt;
        if (!s) {
          diags.push_back(problem(file, sev.at, "rule-type", "a level is a severity name (ERROR, WARNING …)"));
          ok = false;
          continue;
        }
        f.levels.emplace(token.scalar, *s);
      }
    }
    if (!ok) continue;
    if (!proven_at_build(file)) {
      RE2 re(f.pattern, RE2::Quiet);
      if (!re.ok() || !re.NamedCapturingGroups().contains("text") ||
          re.NumberOfCapturingGroups() > LineFormats::kMaxGroups) {
        diags.push_back(problem(
            file, pattern->at, "rule-regex",
            !re.ok() ? fmt::format("invalid regex: {}", re.error())
            : re.NumberOfCapturingGroups() > LineFormats::kMaxGroups
                ? fmt::format("a line format's pattern has at most {} capturing groups", LineFormats::kMaxGroups)
                : std::string("a line format's pattern needs a named group `text`")));
        continue;
      }
      const size_t before = diags.size();
      check_line_format_examples(file, item, f, diags);
      if (diags.size() > before) continue;
    }
    formats.push_back(std::move(f));
  }
  policy.line_formats = std::move(formats);
}

// `facts:` — the catalog — and `option_names:`.
void read_catalog(const RuleFile& file, const Node& root, FactCatalog& catalog, Diagnostics& diags) {
  if (const Node* facts = root.get("facts")) {
    if (!facts->is_map()) {
      diags.push_back(problem(file, facts->at, "rule-type", "`facts` is a mapping of fact names to definitions"));
    } else {
      const auto& allowed = key_names(KeyPlace::kCatalogFact);
      for (const auto& [name, def] : facts->entries) {
        if (!is_fragment_name(name.scalar)) {
          diags.push_back(problem(file, name.at, "rule-id",
                                  fmt::format("fact name `{}` is not snake_case", name.scalar),
                                  "lower-case letters, digits and `_`, e.g. gpu_requested"));
          continue;
        }
        if (!def.is_map()) {
          diags.push_back(problem(file, def.at, "rule-type", "a fact is a mapping with `type` and `meaning`"));
          continue;
        }
        for (const auto& [k, v] : def.entries) {
          if (std::find(allowed.begin(), allowed.end(), k.scalar) == allowed.end()) {
            diags.push_back(problem(file, k.at, "rule-unknown-key",
                                    fmt::format("unknown key `{}` in {}", k.scalar, place_name(KeyPlace::kCatalogFact)),
                                    suggestion(k.scalar, allowed)));
          }
        }
        FactDef f{.name = name.scalar, .file = file.path, .line = static_cast<uint32_t>(name.at.line)};
        const Node* type = def.get("type");
        const Node* meaning = def.get("meaning");
        const std::string t = type != nullptr ? type->scalar : "";
        if (t != "bool" && t != "string" && t != "number") {
          diags.push_back(problem(file, type != nullptr ? type->at : def.at, "rule-type",
                                  "a fact's `type` is bool, string or number"));
          continue;
        }
        f.type = t == "bool" ? FactType::kBool : t == "number" ? FactType::kNumber : FactType::kString;
        if (meaning == nullptr || !meaning->is_scalar() || meaning->scalar.empty()) {
          diags.push_back(problem(file, def.at, "rule-missing-key", "a fact needs a one-line `meaning`"));
          continue;
        }
        f.meaning = meaning->scalar;
        if (const Node* from = def.get("from"); from != nullptr && from->is_scalar()) f.from = from->scalar;
        catalog.add(std::move(f));
      }
    }
  }
  if (const Node* options = root.get("option_names")) {
    if (!options->is_map()) {
      diags.push_back(problem(file, options->at, "rule-type", "`option_names` is a mapping of facts to option names"));
      return;
    }
    for (const auto& [fact, names] : options->entries) {
      if (catalog.find(fact.scalar) == nullptr) {
        diags.push_back(problem(file, fact.at, "rule-unknown-fact", fmt::format("unknown fact `{}`", fact.scalar),
                                suggestion(fact.scalar, catalog.names())));
        continue;
      }
      std::vector<std::string> list;
      for (const auto& item : names.items) {
        if (item.is_scalar() && !item.scalar.empty()) list.push_back(item.scalar);
      }
      if (!names.is_seq() || list.empty() || list.size() != names.items.size()) {
        diags.push_back(problem(file, names.at, "rule-type", "option names are a list of non-empty names"));
        continue;
      }
      catalog.set_option_names(fact.scalar, std::move(list));
    }
  }
}

bool is_date(std::string_view s) {
  static const RE2 date(R"(\d{4}-\d{2}-\d{2})");
  return RE2::FullMatch(s, date);
}

// A scalar entry of a table's mapping, or "" (with a problem) when it is missing or not a scalar.
std::string table_text(const RuleFile& file, const Node& map, std::string_view key, std::string_view what,
                       Diagnostics& diags) {
  const Node* v = map.get(key);
  if (v == nullptr || !v->is_scalar() || v->scalar.empty()) {
    diags.push_back(
        problem(file, v != nullptr ? v->at : map.at, "rule-missing-key", fmt::format("{} needs a `{}`", what, key)));
    return "";
  }
  return v->scalar;
}

void check_keys(const RuleFile& file, const Node& map, std::initializer_list<std::string_view> allowed,
                std::string_view what, Diagnostics& diags) {
  const std::vector<std::string_view> names(allowed);
  for (const auto& [k, v] : map.entries) {
    if (std::find(names.begin(), names.end(), k.scalar) == names.end()) {
      diags.push_back(problem(file, k.at, "rule-unknown-key", fmt::format("unknown key `{}` in {}", k.scalar, what),
                              suggestion(k.scalar, names)));
    }
  }
}

std::optional<int> small_count(const Node& n) {
  if (!n.is_scalar() || n.scalar.empty() || n.scalar.size() > 3) return std::nullopt;
  for (char c : n.scalar) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  const int v = std::stoi(n.scalar);
  return v > 0 ? std::optional<int>(v) : std::nullopt;
}

// `gpu_platforms:` — read: DATE, source: URL, gpus: [{type, family, counts: [1, 2, 4]} | {type, family,
// machines: {a2-highgpu-1g: 1, …}}].
void read_gpu_platforms(const RuleFile& file, const Node& n, FactCatalog& catalog, Diagnostics& diags) {
  if (!n.is_map()) {
    diags.push_back(problem(file, n.at, "rule-type", "`gpu_platforms` is a mapping with `read`, `source`, `gpus`"));
    return;
  }
  check_keys(file, n, {"read", "source", "gpus"}, "gpu_platforms", diags);
  GpuPlatformTable table;
  table.read = table_text(file, n, "read", "gpu_platforms", diags);
  table.source = table_text(file, n, "source", "gpu_platforms", diags);
  if (!table.read.empty() && !is_date(table.read)) {
    diags.push_back(
        problem(file, n.get("read")->at, "rule-type", "`read` is the date the source was read, YYYY-MM-DD"));
  }
  const Node* gpus = n.get("gpus");
  if (gpus == nullptr || !gpus->is_seq() || gpus->items.empty()) {
    diags.push_back(problem(file, gpus != nullptr ? gpus->at : n.at, "rule-type", "`gpus` is a list of GPU types"));
    return;
  }
  for (const auto& g : gpus->items) {
    if (!g.is_map()) {
      diags.push_back(problem(file, g.at, "rule-type", "a GPU is a mapping (type, family, counts or machines)"));
      continue;
    }
    check_keys(file, g,
               {"type", "family", "counts", "machines", "min_driver", "min_cuda", "compute_capability", "memory_gb"},
               "a GPU of gpu_platforms", diags);
    GpuPlatform p{.type = table_text(file, g, "type", "a GPU", diags),
                  .family = table_text(file, g, "family", "a GPU", diags)};
    if (p.type.empty() || p.family.empty()) continue;
    for (const auto& [key, slot] :
         {std::pair{"min_driver", &p.min_driver}, std::pair{"min_cuda", &p.min_cuda},
          std::pair{"compute_capability", &p.compute_capability}, std::pair{"memory_gb", &p.memory_gb}}) {
      const Node* v = g.get(key);
      if (v == nullptr) continue;
      static const RE2 version(R"(\d+(?:\.\d+)*)");
      if (!v->is_scalar() || !RE2::FullMatch(v->scalar, version)) {
        diags.push_back(
            problem(file, v->at, "rule-type", fmt::format("`{}` is a number or a version, e.g. 525.0", key)));
        continue;
      }
      *slot = v->scalar;
    }
    if (table.find(p.type) != nullptr) {
      diags.push_back(problem(file, g.at, "rule-duplicate-id", fmt::format("GPU type `{}` is listed twice", p.type)));
      continue;
    }
    const Node* counts = g.get("counts");
    const Node* machines = g.get("machines");
    if ((counts == nullptr) == (machines == nullptr)) {
      diags.push_back(
          problem(file, g.at, "rule-type",
                  fmt::format("GPU `{}` needs either `counts` (attachable) or `machines` (fixed)", p.type)));
      continue;
    }
    bool ok = true;
    if (counts != nullptr) {
      for (const auto& c : counts->items) {
        if (auto v = small_count(c))
          p.counts.push_back(*v);
        else
          ok = false;
      }
      ok = ok && counts->is_seq() && !p.counts.empty();
    } else {
      for (const auto& [name, c] : machines->entries) {
        auto v = small_count(c);
        if (!v || name.scalar.rfind(p.family + "-", 0) != 0) {
          ok = false;
          continue;
        }
        p.machines.emplace_back(name.scalar, *v);
      }
      ok = ok && machines->is_map() && !p.machines.empty();
    }
    if (!ok) {
      diags.push_back(problem(file, (counts != nullptr ? counts : machines)->at, "rule-type",
                              fmt::format("GPU `{}`: `counts` is a list of GPU counts; `machines` maps machine types "
                                          "of family `{}` to the GPUs each carries",
                                          p.type, p.family)));
      continue;
    }
    table.gpus.push_back(std::move(p));
  }
  catalog.set_gpu_platforms(std::move(table));
}

// `service_defaults:` — read: DATE, defaults: [{fact, value, when: {fact: value}, source}].
void read_service_defaults(const RuleFile& file, const Node& n, FactCatalog& catalog, Diagnostics& diags) {
  if (!n.is_map()) {
    diags.push_back(problem(file, n.at, "rule-type", "`service_defaults` is a mapping with `read` and `defaults`"));
    return;
  }
  check_keys(file, n, {"read", "defaults"}, "service_defaults", diags);
  const std::string read = table_text(file, n, "read", "service_defaults", diags);
  if (!read.empty() && !is_date(read)) {
    diags.push_back(
        problem(file, n.get("read")->at, "rule-type", "`read` is the date the sources were read, YYYY-MM-DD"));
  }
  const Node* list = n.get("defaults");
  if (list == nullptr || !list->is_seq()) {
    diags.push_back(problem(file, list != nullptr ? list->at : n.at, "rule-type", "`defaults` is a list"));
    return;
  }
  std::vector<ServiceDefault> out;
  const auto known_fact = [&](const Node& at, const std::string& name) {
    if (catalog.find(name) != nullptr) return true;
    diags.push_back(problem(file, at.at, "rule-unknown-fact", fmt::format("unknown fact `{}`", name),
                            suggestion(name, catalog.names())));
    return false;
  };
  for (const auto& d : list->items) {
    if (!d.is_map()) {
      diags.push_back(problem(file, d.at, "rule-type", "a default is a mapping (fact, value, when, source)"));
      continue;
    }
    check_keys(file, d, {"fact", "value", "when", "source"}, "a service default", diags);
    ServiceDefault sd{.fact = table_text(file, d, "fact", "a service default", diags),
                      .value = table_text(file, d, "value", "a service default", diags),
                      .source = table_text(file, d, "source", "a service default", diags),
                      .read = read,
                      .file = file.path,
                      .line = static_cast<uint32_t>(d.at.line)};
    if (sd.fact.empty() || sd.value.empty() || sd.source.empty() || !known_fact(*d.get("fact"), sd.fact)) continue;
    if (const FactDef* def = catalog.find(sd.fact); !valid_fact_value(def->type, sd.value)) {
      diags.push_back(problem(file, d.get("value")->at, "rule-type",
                              fmt::format("`{}` is not a {} value", sd.value, fact_type_name(def->type))));
      continue;
    }
    bool ok = true;
    if (const Node* when = d.get("when")) {
      if (!when->is_map()) {
        diags.push_back(
            problem(file, when->at, "rule-type", "`when` maps facts to values (exact, known, unknown, >=VERSION)"));
        ok = false;
      } else {
        for (const auto& [k, v] : when->entries) {
          if (!known_fact(k, k.scalar) || !v.is_scalar() || v.scalar.empty()) {
            ok = false;
            continue;
          }
          sd.when.push_back(ServiceDefault::Test{k.scalar, v.scalar});
        }
      }
    }
    if (ok) out.push_back(std::move(sd));
  }
  catalog.set_service_defaults(std::move(out));
}

}  // namespace

bool is_pack_file(const Node& root) {
  if (!root.is_map() || root.get("id") != nullptr || root.get("extractor") != nullptr) return false;
  for (const auto name : key_names(KeyPlace::kPackFile)) {
    if (root.get(name) != nullptr) return true;
  }
  return false;
}

void read_pack_file(const RuleFile& file, const Node& root, Fragments& fragments, PackPolicy& policy,
                    FactCatalog& catalog, std::map<std::string, int>& group, Diagnostics& diags) {
  read_policy(file, root, policy, diags);
  read_patterns(file, root, "frameworks", policy.framework_frames, diags);
  read_wrappers(file, root, policy, diags);
  read_patterns(file, root, "benign_errors", policy.benign_errors, diags);
  read_line_patterns(file, root, "generic_errors", policy.generic_errors, diags);
  read_line_patterns(file, root, "advice_lines", policy.advice_lines, diags);
  read_first_steps(file, root, policy, diags);
  read_line_formats(file, root, policy, diags);
  read_catalog(file, root, catalog, diags);
  if (const Node* gpus = root.get("gpu_platforms")) read_gpu_platforms(file, *gpus, catalog, diags);
  if (const Node* defaults = root.get("service_defaults")) read_service_defaults(file, *defaults, catalog, diags);
  const auto& allowed = key_names(KeyPlace::kPackFile);
  for (const auto& [k, v] : root.entries) {
    if (std::find(allowed.begin(), allowed.end(), k.scalar) == allowed.end()) {
      diags.push_back(problem(file, k.at, "rule-unknown-key",
                              fmt::format("unknown key `{}` in {}", k.scalar, place_name(KeyPlace::kPackFile)),
                              suggestion(k.scalar, allowed)));
    }
  }
  for (const bool list : {true, false}) {
    const Node* section = root.get(list ? "lists" : "macros");
    if (section == nullptr) continue;
    const std::string_view kind = list ? "list" : "macro";
    if (!section->is_map()) {
      diags.push_back(problem(file, section->at, "rule-type", fmt::format("`{}s` is a mapping of names", kind)));
      continue;
    }
    for (const auto& [name, value] : section->entries) {
      if (!is_fragment_name(name.scalar)) {
        diags.push_back(problem(file, name.at, "rule-id",
                                fmt::format("{} name `{}` is not snake_case", kind, name.scalar),
                                "lower-case letters, digits and `_`, e.g. xid_application"));
        continue;
      }
      if (group[name.scalar]++ > 0) {
        diags.push_back(
            problem(file, name.at, "rule-duplicate-id",
                    fmt::format("`{}` is already defined in {}", name.scalar, fragments[name.scalar].file)));
        continue;
      }
      Fragment f{.file = file.path, .at = name.at, .list = list};
      if (list) {
        std::vector<std::string> items;
        if (value.is_seq()) {
          for (const auto& item : value.items) {
            if (item.is_scalar() && !item.scalar.empty()) items.push_back(RE2::QuoteMeta(item.scalar));
          }
        }
        if (items.empty() || items.size() != value.items.size()) {
          diags.push_back(problem(file, value.at, "rule-type", "a list is a sequence of non-empty values"));
          continue;
        }
        f.expansion = fmt::format("{}", fmt::join(items, "|"));
      } else {
        if (!value.is_scalar() || value.scalar.empty()) {
          diags.push_back(problem(file, value.at, "rule-type", "a macro is a non-empty piece of regex"));
          continue;
        }
        if (value.scalar.find("${") != std::string::npos) {
          diags.push_back(problem(file, value.at, "rule-regex", "macros do not nest: a macro cannot use `${…}`"));
          continue;
        }
        f.expansion = value.scalar;
      }
      fragments[name.scalar] = std::move(f);
    }
  }
}

Expanded expand_fragments(const std::string& pattern, const Fragments& fragments) {
  Expanded out;
  size_t pos = 0;
  while (pos < pattern.size()) {
    const size_t open = pattern.find("${", pos);
    const size_t close = open == std::string::npos ? open : pattern.find('}', open);
    if (close == std::string::npos) break;
    out.text.append(pattern, pos, open - pos);
    const std::string_view name(pattern.data() + open + 2, close - open - 2);
    if (auto it = fragments.find(name); it != fragments.end()) {
      out.text += it->second.expansion;
      out.used.emplace_back(name);
    } else {
      out.undefined.push_back(open);
      out.text.append(pattern, open, close + 1 - open);
    }
    pos = close + 1;
  }
  if (pos < pattern.size()) out.text.append(pattern, pos);
  return out;
}

}  // namespace gpudiag::detail
