// Documentation citations in the readers' languages (--lang): the table is checked against the
// translated pages it was built from, locales map to languages, and every format shows a citation in
// every language, with its `hl=` URL and, when the page has no translation, the English text marked.
//
// The translated pages are ../shared/reference/doc-pages (GPUDIAG_DOC_PAGES overrides the place); a
// missing page fails the check (a check that did not run must not pass).
#include "gpudiag/doc_language.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <sstream>

#include "gpudiag/formats.h"
#include "test_support.h"

using namespace gpudiag;
namespace fs = std::filesystem;

namespace {

std::string doc_pages_dir() {
  if (const char* dir = std::getenv("GPUDIAG_DOC_PAGES")) return dir;
  const std::string shared = test::shared_dir();
  return shared.empty() ? "" : shared + "/reference/doc-pages";
}

// The lines of a page, without surrounding blanks.
std::set<std::string> lines_of(const std::string& path) {
  std::set<std::string> out;
  std::istringstream in(test::read_file(path));
  for (std::string line; std::getline(in, line);) {
    const size_t a = line.find_first_not_of(" \t\r"), b = line.find_last_not_of(" \t\r");
    if (a != std::string::npos) out.insert(line.substr(a, b - a + 1));
  }
  return out;
}

const std::string* lookup(const std::vector<std::pair<std::string, std::string>>& pairs, std::string_view key) {
  for (const auto& [k, v] : pairs) {
    if (k == key) return &v;
  }
  return nullptr;
}

const std::vector<std::string> kLanguages = {"es", "es-419", "ja", "ko", "he"};

}  // namespace

TEST_CASE("every translated title in the doc table is a heading of its source page", "[unit][lang]") {
  const DocTranslations& table = builtin_doc_translations();
  if (doc_pages_dir().empty()) {  // as the other checks against the reference pages: where they are
    WARN("skipped: no reference pages (../shared/reference, GPUDIAG_SHARED or GPUDIAG_DOC_PAGES)");
    return;
  }
  REQUIRE(table.languages.size() == kLanguages.size());
  REQUIRE(table.pages.size() == 2);
  size_t checked = 0;
  for (const auto& page : table.pages) {
    INFO(page.url);
    for (const auto& [lang, file] : page.sources) {
      INFO(lang << " " << file);
      const std::string path = doc_pages_dir() + "/" + file;
      if (!fs::exists(path)) FAIL("cannot check: " << path << " is missing (set GPUDIAG_DOC_PAGES)");
      const std::set<std::string> lines = lines_of(path);
      const std::string* title = lookup(page.titles, lang);
      REQUIRE(title);
      CHECK(lines.count(*title) == 1);
      ++checked;
      for (const auto& section : page.sections) {
        INFO(section.english);
        if (const std::string* t = lookup(section.titles, lang)) {
          CHECK(lines.count(*t) == 1);
          ++checked;
        }
      }
    }
    // A translation without a source page would be unchecked.
    for (const auto& section : page.sections) {
      for (const auto& [lang, title] : section.titles) CHECK(lookup(page.sources, lang));
    }
  }
  CHECK(checked == 1 + 16 + 1 + 16 + 1 + 10 + 1 + 10 + 1 + 3);
}

TEST_CASE("the doc table covers every section the rule pack cites on a translated page", "[unit][lang]") {
  const DocTranslations& table = builtin_doc_translations();
  for (const auto& rule : test::builtin_pack().rules()) {
    for (const auto& fix : rule.fixes) {
      const std::string page = fix.doc.url.substr(0, fix.doc.url.find_first_of("?#"));
      for (const auto& p : table.pages) {
        if (p.url != page) continue;
        INFO(rule.id << " " << fix.id << ": " << fix.doc.title << " › " << fix.doc.section);
        CHECK(fix.doc.title == p.title);
        CHECK(std::any_of(p.sections.begin(), p.sections.end(),
                          [&](const DocPageTranslation::Section& s) { return s.english == fix.doc.section; }));
      }
    }
  }
}

TEST_CASE("a broken doc table is refused with its line", "[unit][lang]") {
  const auto bad = parse_doc_translations(
      "languages:\n  - {tag: es, hl: es, name: Español, in_english: en inglés}\npages:\n  - url: https://x/y\n"
      "    title: Y\n    sources: {es: y.es.txt}\n    titles: {es: Y}\n    sections:\n      - {en: A, fr: B}\n",
      "t.yaml");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().code == "rule-doc");
  CHECK(bad.error().line == 9);
  CHECK_THAT(bad.error().message, Catch::Contains("`fr` is not a language"));
}

TEST_CASE("documentation languages: the values of --lang and the locales that mean them", "[unit][lang]") {
  CHECK(doc_language_tags() == std::vector<std::string>{"en", "es", "es-419", "ja", "ko", "he"});
  CHECK(parse_doc_language("es-419") == "es-419");
  CHECK(parse_doc_language("ES_419") == "es-419");
  CHECK(parse_doc_language("JA") == "ja");
  CHECK(parse_doc_language("en") == "en");
  CHECK_FALSE(parse_doc_language("fr"));
  CHECK_FALSE(parse_doc_language("es-MX"));
  CHECK(language_from_locale("es_ES.UTF-8") == "es");
  CHECK(language_from_locale("es_MX.UTF-8") == "es-419");
  CHECK(language_from_locale("es_AR") == "es-419");
  CHECK(language_from_locale("es") == "es");
  CHECK(language_from_locale("ja_JP.UTF-8") == "ja");
  CHECK(language_from_locale("ko_KR.eucKR") == "ko");
  CHECK(language_from_locale("he_IL.UTF-8") == "he");
  CHECK(language_from_locale("iw_IL") == "he");
  CHECK(language_from_locale("fr_FR.UTF-8") == "en");
  CHECK(language_from_locale("en_US.UTF-8") == "en");
  CHECK(language_from_locale("C") == "en");
  CHECK(language_from_locale("POSIX") == "en");
  CHECK(language_from_locale("C.UTF-8") == "en");
  CHECK(language_from_locale("") == "en");
}

TEST_CASE("a citation in each language: translated where the page is and English with hl= elsewhere", "[unit][lang]") {
  const DocLink run{"Run a pipeline with GPUs", "Verify your Dataflow job",
                    "https://cloud.google.com/dataflow/docs/gpu/use-gpus#verify"};
  const DocLink mps{"Run a pipeline with GPUs", "Enable NVIDIA Multi-Process Service",
                    "https://cloud.google.com/dataflow/docs/gpu/use-gpus"};
  const DocLink best{"Best practices for working with Dataflow GPUs", "GPUs and worker parallelism",
                     "https://cloud.google.com/dataflow/docs/gpu/develop-with-gpus"};
  const DocLink errors{"Troubleshoot Dataflow errors", "No space left on device",
                       "https://cloud.google.com/dataflow/docs/guides/common-errors#no-space-left"};
  CHECK_FALSE(localize(run, "en"));

  const auto es = localize(run, "es");
  REQUIRE(es);
  CHECK(es->title == "Ejecutar una canalización con GPUs");
  CHECK(es->section == "Verificar una tarea de Dataflow");
  CHECK(es->url == "https://cloud.google.com/dataflow/docs/gpu/use-gpus?hl=es#verify");
  CHECK_FALSE(es->fallback());
  CHECK(localize(run, "es-419")->title == "Ejecuta una canalización con las GPU");
  CHECK(localize(run, "es-419")->url == "https://cloud.google.com/dataflow/docs/gpu/use-gpus?hl=es-419#verify");
  CHECK(localize(run, "ja")->section == "Dataflow ジョブの確認");
  CHECK(localize(run, "ko")->section == "Dataflow 작업 확인");

  // The older ja copy has no MPS section: the page title is Japanese, the section English.
  const auto ja = localize(mps, "ja");
  CHECK(ja->title == "GPU の使用");
  CHECK(ja->section == "Enable NVIDIA Multi-Process Service");
  CHECK(ja->section_fallback);
  CHECK(ja->fallback());

  const auto he = localize(best, "he");
  CHECK(he->title == "שיטות מומלצות לעבודה עם GPU ב-Dataflow");
  CHECK(he->section == "מעבדי GPU והרצת עובדים במקביל");
  CHECK(he->rtl);
  CHECK_FALSE(he->fallback());
  // Best practices exists only in Hebrew among the copies; in Spanish it stays English.
  CHECK(localize(best, "es")->title == best.title);
  CHECK(localize(best, "es")->fallback());

  for (const auto& lang : kLanguages) {
    INFO(lang);
    const auto e = localize(errors, lang);
    REQUIRE(e);
    CHECK(e->title == errors.title);
    CHECK(e->section == errors.section);
    CHECK(e->title_fallback);
    CHECK(e->url ==
          fmt::format("https://cloud.google.com/dataflow/docs/guides/common-errors?hl={}#no-space-left", lang));
    CHECK_FALSE(e->in_english.empty());
  }
  CHECK(with_hl("https://x.test/a?b=1#c", "ja") == "https://x.test/a?b=1&hl=ja#c");
}

TEST_CASE("every format shows the citations in every language", "[unit][lang]") {
  // A GPU OOM: its fixes cite "Best practices" (he), "Run a pipeline with GPUs" (es, es-419, ja, ko)
  // and "Troubleshoot your Dataflow GPU job" (English everywhere).
  const Analysis d = test::analyze_case("corpus/gpu-oom-then-sdk-disconnected-work-item-failed");
  const RankedReport report = rank(d);
  struct Expect {
    std::string lang, title, marker;
  };
  const std::vector<Expect> expect = {{"es", "Ejecutar un trabajo con GPUs", "en inglés"},
                                      {"es-419", "Ejecuta tu trabajo con GPUs", "en inglés"},
                                      {"ja", "GPU を使用したジョブの実行", "英語"},
                                      {"ko", "GPU로 작업 실행", "영어"},
                                      {"he", "מעבדי GPU והרצת עובדים במקביל", "באנגלית"}};
  for (const auto& e : expect) {
    INFO(e.lang);
    RenderOptions o{.deterministic = true};
    o.lang = e.lang;
    const std::string hl = "?hl=" + e.lang;
    const std::string text = render_text(report, o);
    const std::string md = render_markdown(report, o);
    const std::string html = render_html(report, o);
    const std::string json = render_json(report, o);
    for (const std::string* out : {&text, &md, &html, &json}) CHECK_THAT(*out, Catch::Contains(hl));
    // "Troubleshoot your Dataflow GPU job" stays English, marked so (JSON says `fallback`).
    for (const std::string* out : {&text, &md, &html}) CHECK_THAT(*out, Catch::Contains(e.marker));
    // Text shows the fixes for a cause; the others every fix.
    for (const std::string* out : {&md, &html, &json}) CHECK_THAT(*out, Catch::Contains(e.title));
    CHECK_THAT(html, Catch::Contains(fmt::format(R"(lang="{}" dir="auto")", e.lang)));
    CHECK_THAT(html, Catch::Contains(R"(lang="en" dir="auto" hreflang=")" + e.lang));

    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    REQUIRE(parser.parse(json).get(doc) == simdjson::SUCCESS);
    size_t localized = 0, fallbacks = 0;
    for (simdjson::dom::element fix : doc["fixes"].get_array()) {
      simdjson::dom::element d2 = fix["doc"];
      std::string_view title = d2["title"], lang = d2["localized"]["lang"], url = d2["localized"]["url"],
                       local_title = d2["localized"]["title"];
      CHECK(lang == e.lang);
      CHECK(url.find(hl) != std::string_view::npos);
      ++localized;
      if (bool(d2["localized"]["fallback"])) {
        ++fallbacks;
      } else {
        CHECK(title != local_title);  // doc.title stays English
      }
    }
    CHECK(localized == report.fixes.size());
    CHECK(fallbacks > 0);
    CHECK(fallbacks < localized);
  }
  // English: no localized citation, no hl=.
  const std::string json = render_json(report, RenderOptions{.deterministic = true});
  CHECK(json.find("\"localized\"") == std::string::npos);
  CHECK(json.find("hl=") == std::string::npos);
}

TEST_CASE("the citations' language comes from --lang then GPUDIAG_LANG then the locale", "[cli][lang]") {
  const std::string input = "corpus/gpu-oom-then-sdk-disconnected-work-item-failed/export.json";
  const std::string bin = test::shell_quote(GPUDIAG_BINARY);
  const auto analyze = [&](const std::string& env, const std::string& flags) {
    return test::run_shell(fmt::format("env -u LC_ALL -u LC_MESSAGES -u LANG -u GPUDIAG_LANG {} {} analyze {} {}", env,
                                       bin, flags, test::shell_quote(input)));
  };
  const std::string es_title = "Ejecutar un trabajo con GPUs";
  const std::string ja_title = "GPU を使用したジョブの実行";
  CHECK_THAT(analyze("", "--lang es").out, Catch::Contains(es_title));
  CHECK_THAT(analyze("", "--lang es").out, Catch::Contains("?hl=es"));
  CHECK_THAT(analyze("GPUDIAG_LANG=ja", "").out, Catch::Contains(ja_title));
  CHECK_THAT(analyze("LANG=ja_JP.UTF-8", "").out, Catch::Contains(ja_title));
  CHECK_THAT(analyze("LANG=en_US.UTF-8 LC_MESSAGES=es_MX.UTF-8", "").out,
             Catch::Contains("Ejecuta tu trabajo con GPUs"));
  // LC_ALL wins over LC_MESSAGES and LANG; the flag over everything.
  CHECK_THAT(analyze("LANG=ja_JP.UTF-8 LC_ALL=ko_KR.UTF-8", "").out, Catch::Contains("GPU로 작업 실행"));
  CHECK_THAT(analyze("LANG=ja_JP.UTF-8 GPUDIAG_LANG=ko", "--lang es").out, Catch::Contains(es_title));
  const auto english = analyze("LANG=fr_FR.UTF-8", "");
  CHECK_THAT(english.out, Catch::Contains("Run a pipeline with GPUs › Run your job with GPUs"));
  CHECK(english.out.find("hl=") == std::string::npos);
  // The locale is the environment: --deterministic ignores it, not an explicit choice.
  CHECK(analyze("LANG=ja_JP.UTF-8", "--deterministic").out.find(ja_title) == std::string::npos);
  CHECK_THAT(analyze("", "--deterministic --lang ja").out, Catch::Contains(ja_title));
  // A rule's own translation of a fix.
  CHECK_THAT(analyze("", "--lang es").out, Catch::Contains("Ejecuta un solo proceso del SDK por trabajador"));

  const auto bad = analyze("", "--lang fr");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("no documentation language 'fr' (one of: en, es, es-419, ja, ko, he)"));
  const auto bad_env = analyze("GPUDIAG_LANG=klingon", "");
  CHECK(bad_env.exit_code == 2);
  CHECK_THAT(bad_env.err, Catch::Contains("klingon"));
}

TEST_CASE("the HTML post-mortem shows overlapping context windows once and links every entry to Logs Explorer",
          "[unit][html]") {
  // Two GPU OOM lines next to each other (the PyTorch text of apache/beam#22811, the issue that shows
  // it inside RunInference on Dataflow), each the other's neighbour, between two plain INFO lines.
  const std::string oom =
      "CUDA out of memory. Tried to allocate 16.00 MiB (GPU 0; 39.59 GiB total capacity; 666.60 MiB already "
      "allocated; 13.19 MiB free; 682.00 MiB reserved in total by PyTorch)";
  const std::string text =
      test::log_entry_line("2024-01-01T00:00:00Z", "job-message", "Workers have started successfully.") +
      test::log_entry_line("2024-01-01T00:01:00Z", "worker", "Loading model weights", "INFO", "w-harness-1", "a1") +
      test::log_entry_line("2024-01-01T00:02:00Z", "worker", oom, "ERROR", "w-harness-1", "a2") +
      test::log_entry_line("2024-01-01T00:02:01Z", "worker", oom, "ERROR", "w-harness-1", "a3") +
      test::log_entry_line("2024-01-01T00:03:00Z", "worker", "Shutting down the SDK harness", "INFO", "w-harness-1",
                           "a4");
  const Analysis d = test::analyze_text(text, "export.ndjson");
  const RankedReport report = rank(d);
  const RankedFinding* oom_finding = nullptr;
  for (const auto& rf : report.findings) {
    if (rf.finding->rule_id == "gpu-out-of-memory") oom_finding = &rf;
  }
  REQUIRE(oom_finding);
  REQUIRE(oom_finding->finding->evidence.size() == 2);
  const std::string html = render_html(report, RenderOptions{.deterministic = true});
  const auto count = [&](std::string_view needle) {
    size_t n = 0;
    for (size_t at = html.find(needle); at != std::string::npos; at = html.find(needle, at + 1)) ++n;
    return n;
  };
  // Each neighbour once, though both evidence entries have it in their window; one block says so.
  CHECK(count(">Loading model weights<") == 1);
  CHECK(count(">Shutting down the SDK harness<") == 1);
  CHECK(count("2 entries close together") == 1);
  // The job's link, and one per evidence entry with the entry's time as the cursor.
  CHECK_THAT(html, Catch::Contains("https://console.cloud.google.com/logs/query;query=resource.labels.job_id%3D%22"
                                   "2024-01-01_00_00_00-1%22;timeRange=2024-01-01T00:00:00Z%2F2024-01-01T00:03:00Z"));
  // One entry: the job's entries in the ten minutes around it, the cursor on it.
  CHECK(count(";timeRange=2023-12-31T23:57:00Z%2F2024-01-01T00:07:00Z;cursorTimestamp=2024-01-01T00:02:00Z") == 1);
  CHECK(count(";cursorTimestamp=2024-01-01T00:02:00Z") >= 1);
  CHECK(count(";cursorTimestamp=2024-01-01T00:02:01Z") >= 1);
  CHECK_THAT(html, Catch::Contains("https://console.cloud.google.com/dataflow/jobs/us-central1/2024-01-01_00_00_00-1"));
  // Line numbers are their own nowrap cells.
  CHECK_THAT(html, Catch::Contains(R"(<span class="ln">:3</span>)"));
}
