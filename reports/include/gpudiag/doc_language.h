// The language of documentation citations (gpudiag --lang, GPUDIAG_LANG, the locale): fixes cite
// Dataflow pages by English title and section; in another language a citation shows the page's and
// the section's translated titles where the translated pages have them, and its URL asks for the
// language (`?hl=`). The table is data: reports/data/doc-translations.yaml, embedded at build time
// and checked against the translated pages by tests/doc_language_test.cc (docs/formats.md, "Languages").
//
//   const std::string lang = language_from_locale(getenv("LANG"));      // "es_MX.UTF-8" → "es-419"
//   if (auto doc = localize(fix.doc, lang)) print(doc->title, doc->section, doc->url);
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpudiag/result.h"
#include "gpudiag/rule_pack.h"

namespace gpudiag {

// English, the language rules are written in and the default.
inline constexpr std::string_view kEnglish = "en";

struct DocLanguage {
  std::string tag;                   // what --lang takes: "es", "es-419", "ja", "ko", "he"
  std::string hl;                    // the documentation site's `hl=` value
  std::string name;                  // the language's own name ("Español")
  std::string in_english;            // "en inglés": marks a citation left in English
  bool rtl = false;                  // written right to left (Hebrew)
  std::vector<std::string> locales;  // "es", "es_MX": the locales that mean this language
};

// One page's translations: its title and its sections' titles, by language tag.
struct DocPageTranslation {
  std::string url;                                           // without #anchor or ?query
  std::string title;                                         // English
  std::vector<std::pair<std::string, std::string>> sources;  // language → the translated page's file
  std::vector<std::pair<std::string, std::string>> titles;   // language → title
  struct Section {
    std::string english;
    std::vector<std::pair<std::string, std::string>> titles;  // language → title
  };
  std::vector<Section> sections;
};

struct DocTranslations {
  std::vector<DocLanguage> languages;  // English is not listed
  std::vector<DocPageTranslation> pages;
};

// Parses a table in the format of reports/data/doc-translations.yaml (errors: rule-doc, with the line).
Result<DocTranslations> parse_doc_translations(std::string_view yaml, std::string_view path);
// The table built into gpudiag.
const DocTranslations& builtin_doc_translations();

// The languages --lang accepts: "en" first, then the table's.
std::vector<std::string> doc_language_tags();
// A language tag as --lang and GPUDIAG_LANG take it ("es-419", "ES_419" …) → its canonical tag, or
// nullopt when gpudiag has no such language.
std::optional<std::string> parse_doc_language(std::string_view tag);
// The documentation language a POSIX locale asks for ("es_MX.UTF-8" → "es-419", "ja_JP" → "ja"):
// "en" for C, POSIX, English and every language gpudiag has no table for.
std::string language_from_locale(std::string_view locale);
const DocLanguage* find_doc_language(std::string_view tag);

// A citation in a language other than English.
struct LocalizedDoc {
  std::string lang;     // the tag
  std::string title;    // the translated page title, or the English one (title_fallback)
  std::string section;  // the translated section title, or the English one (section_fallback)
  std::string url;      // the citation's URL with `hl=` set (before any #anchor)
  bool title_fallback = false;
  bool section_fallback = false;
  bool rtl = false;
  std::string in_english;  // the language's "in English" marker
  // Any part left in English: the page or the section has no translation in this language.
  bool fallback() const { return title_fallback || section_fallback; }
};

// `doc` in `lang`; nullopt for English (or a language gpudiag does not have).
std::optional<LocalizedDoc> localize(const DocLink& doc, std::string_view lang);
// `url` with `hl=<hl>` added to its query, before any #fragment.
std::string with_hl(std::string_view url, std::string_view hl);

}  // namespace gpudiag
