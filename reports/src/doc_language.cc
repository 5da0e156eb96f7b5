// The documentation-language table: read from its YAML (embedded, doc_translations_data.cc), and the
// lookups renderers and the CLI use.
#include "gpudiag/doc_language.h"

#include <fmt/format.h>

#include <algorithm>

#include "doc_translations_data.h"
#include "gpudiag/yaml_tree.h"

namespace gpudiag {
namespace {

using yaml::Node;

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return out;
}

class TableReader {
 public:
  explicit TableReader(std::string_view path) : path_(path) {}

  Result<DocTranslations> read(const Node& root) {
    DocTranslations t;
    if (!root.is_map()) return fail(root, "the table is a mapping with `languages` and `pages`");
    const Node* languages = root.get("languages");
    const Node* pages = root.get("pages");
    if (!languages || !languages->is_seq()) return fail(root, "`languages` is a list");
    if (!pages || !pages->is_seq()) return fail(root, "`pages` is a list");
    for (const Node& l : languages->items) {
      DocLanguage lang;
      if (!text(l, "tag", lang.tag) || !text(l, "hl", lang.hl) || !text(l, "name", lang.name) ||
          !text(l, "in_english", lang.in_english)) {
        return *error_;
      }
      if (const Node* rtl = l.get("rtl")) lang.rtl = rtl->is_scalar() && rtl->scalar == "true";
      if (const Node* locales = l.get("locales"); locales && locales->is_seq()) {
        for (const Node& x : locales->items) lang.locales.push_back(x.scalar);
      }
      t.languages.push_back(std::move(lang));
    }
    for (const Node& p : pages->items) {
      DocPageTranslation page;
      if (!text(p, "url", page.url) || !text(p, "title", page.title)) return *error_;
      if (!pairs(p, "sources", page.sources) || !pairs(p, "titles", page.titles)) return *error_;
      const Node* sections = p.get("sections");
      if (!sections || !sections->is_seq()) return fail(p, "a page has a list of `sections`");
      for (const Node& s : sections->items) {
        DocPageTranslation::Section section;
        if (!s.is_map()) return fail(s, "a section maps `en` and language tags to titles");
        for (const auto& [k, v] : s.entries) {
          if (!v.is_scalar()) return fail(v, "a section title is text");
          if (k.scalar == "en") {
            section.english = v.scalar;
          } else {
            if (!known(t, k.scalar)) return fail(k, fmt::format("`{}` is not a language of `languages`", k.scalar));
            section.titles.emplace_back(k.scalar, v.scalar);
          }
        }
        if (section.english.empty()) return fail(s, "a section needs its English title, `en`");
        page.sections.push_back(std::move(section));
      }
      for (const auto& [lang, title] : page.titles) {
        if (!known(t, lang)) return fail(p, fmt::format("`{}` is not a language of `languages`", lang));
      }
      t.pages.push_back(std::move(page));
    }
    return t;
  }

 private:
  static bool known(const DocTranslations& t, std::string_view tag) {
    return std::any_of(t.languages.begin(), t.languages.end(), [&](const DocLanguage& l) { return l.tag == tag; });
  }
  Diagnostic diagnostic(const Node& at, std::string message) const {
    return Diagnostic{.code = "rule-doc",
                      .message = std::move(message),
                      .file = std::string(path_),
                      .line = at.at.line,
                      .column = at.at.column};
  }
  Diagnostic fail(const Node& at, std::string message) { return diagnostic(at, std::move(message)); }
  bool text(const Node& map, std::string_view key, std::string& out) {
    const Node* v = map.is_map() ? map.get(key) : nullptr;
    if (!v || !v->is_scalar() || v->scalar.empty()) {
      error_ = diagnostic(map, fmt::format("`{}` is required text", key));
      return false;
    }
    out = v->scalar;
    return true;
  }
  bool pairs(const Node& map, std::string_view key, std::vector<std::pair<std::string, std::string>>& out) {
    const Node* v = map.get(key);
    if (!v || !v->is_map()) {
      error_ = diagnostic(map, fmt::format("`{}` maps language tags to text", key));
      return false;
    }
    for (const auto& [k, x] : v->entries) out.emplace_back(k.scalar, x.scalar);
    return true;
  }

  std::string_view path_;
  std::optional<Diagnostic> error_;
};

const std::string* lookup(const std::vector<std::pair<std::string, std::string>>& pairs, std::string_view key) {
  for (const auto& [k, v] : pairs) {
    if (k == key) return &v;
  }
  return nullptr;
}

// "https://…/use-gpus?x#verify" → "https://…/use-gpus".
std::string_view page_of(std::string_view url) { return url.substr(0, url.find_first_of("?#")); }

}  // namespace

Result<DocTranslations> parse_doc_translations(std::string_view text, std::string_view path) {
  auto root = yaml::parse(text, path, {DiagnosticCode::kRuleDoc, "see docs/formats.md, \"Languages\""});
  if (!root) return root.error();
  return TableReader(path).read(*root);
}

const DocTranslations& builtin_doc_translations() {
  // Checked by tests/doc_language_test.cc; a table that did not parse leaves every citation English.
  static const DocTranslations table = [] {
    auto t = parse_doc_translations(detail::kDocTranslationsYaml, "builtin:reports/data/doc-translations.yaml");
    return t ? std::move(*t) : DocTranslations{};
  }();
  return table;
}

std::vector<std::string> doc_language_tags() {
  std::vector<std::string> tags{std::string(kEnglish)};
  for (const auto& l : builtin_doc_translations().languages) tags.push_back(l.tag);
  return tags;
}

const DocLanguage* find_doc_language(std::string_view tag) {
  for (const auto& l : builtin_doc_translations().languages) {
    if (l.tag == tag) return &l;
  }
  return nullptr;
}

std::optional<std::string> parse_doc_language(std::string_view tag) {
  std::string t = lower(tag);
  std::replace(t.begin(), t.end(), '_', '-');
  if (t == kEnglish) return std::string(kEnglish);
  if (const DocLanguage* l = find_doc_language(t)) return l->tag;
  return std::nullopt;
}

std::string language_from_locale(std::string_view locale) {
  // language[_territory][.codeset][@modifier]
  locale = locale.substr(0, locale.find_first_of(".@"));
  const std::string_view language = locale.substr(0, locale.find_first_of("_-"));
  // English is the pages' own language, never a row of the table: the C locale and en_* need not
  // read it (parsing it was 9.5 M instructions of every run, 4 % of `analyze` of `[]`).
  if (language.empty() || language == "C" || language == "POSIX" || lower(language) == "en") {
    return std::string(kEnglish);
  }
  std::string full(locale);
  std::replace(full.begin(), full.end(), '-', '_');
  const DocLanguage* by_language = nullptr;
  for (const auto& l : builtin_doc_translations().languages) {
    for (const auto& x : l.locales) {
      if (lower(x) == lower(full) && x.find('_') != std::string::npos) return l.tag;  // es_MX
      if (!by_language && lower(x) == lower(language)) by_language = &l;              // es
    }
  }
  return by_language ? by_language->tag : std::string(kEnglish);
}

std::string with_hl(std::string_view url, std::string_view hl) {
  const size_t hash = url.find('#');
  const std::string_view base = url.substr(0, hash);
  const std::string_view fragment = hash == std::string_view::npos ? "" : url.substr(hash);
  return fmt::format("{}{}hl={}{}", base, base.find('?') == std::string_view::npos ? '?' : '&', hl, fragment);
}

std::optional<LocalizedDoc> localize(const DocLink& doc, std::string_view lang) {
  const DocLanguage* language = find_doc_language(lang);
  if (!language) return std::nullopt;
  LocalizedDoc out{.lang = language->tag,
                   .title = doc.title,
                   .section = doc.section,
                   .url = doc.url.empty() ? "" : with_hl(doc.url, language->hl),
                   .title_fallback = true,
                   .section_fallback = !doc.section.empty(),
                   .rtl = language->rtl,
                   .in_english = language->in_english};
  const auto& pages = builtin_doc_translations().pages;
  const auto page =
      std::find_if(pages.begin(), pages.end(), [&](const DocPageTranslation& p) { return p.url == page_of(doc.url); });
  if (page == pages.end()) return out;
  if (const std::string* title = lookup(page->titles, language->tag)) {
    out.title = *title;
    out.title_fallback = false;
  }
  for (const auto& s : page->sections) {
    if (s.english != doc.section) continue;
    if (const std::string* title = lookup(s.titles, language->tag)) {
      out.section = *title;
      out.section_fallback = false;
    }
  }
  return out;
}

}  // namespace gpudiag
