// --redact (reports/redaction.h): every mask on real text, what must stay, and the CLI in every
// format. Each sample says where its text comes from; values that would be secrets in a real log
// are the ones the cited source shows.
#include "gpudiag/redaction.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <regex>
#include <set>

#include "test_support.h"

using gpudiag::redact_text;
using gpudiag::RedactionTerms;

namespace {

std::string redact(const std::string& text, const RedactionTerms& terms = {}) { return redact_text(text, terms); }

}  // namespace

TEST_CASE("redaction masks service account e-mail addresses and bucket names in a GCS 403", "[unit][redaction]") {
  // GoogleCloudPlatform/professional-services#456 (google-cloud-storage's Forbidden, from a Dataflow example).
  const std::string text =
      "google.api_core.exceptions.Forbidden: 403 GET "
      "https://storage.googleapis.com/storage/v1/b/python-dataflow-example?projection=noAcl: "
      "caixa-poc@caixa-bigquery.iam.gserviceaccount.com does not have storage.buckets.get access to "
      "python-dataflow-example.";
  const std::string out = redact(text);
  CHECK(out.find("caixa") == std::string::npos);
  CHECK(out.find("python-dataflow-example") == std::string::npos);
  CHECK(out ==
        "google.api_core.exceptions.Forbidden: 403 GET "
        "https://storage.googleapis.com/storage/v1/b/<bucket>?projection=noAcl: <email> does not have "
        "storage.buckets.get access to <bucket>.");
}

TEST_CASE("redaction keeps the path shape of gs:// URLs and masks the bucket", "[unit][redaction]") {
  // jwngr/sdow#42: gsutil's AccessDeniedException and the command that caused it.
  CHECK(redact("AccessDeniedException: 403 foo-bar@appspot.gserviceaccount.com does not have "
               "storage.objects.list access to sdow-prod.") ==
        "AccessDeniedException: 403 <email> does not have storage.objects.list access to sdow-prod.");
  CHECK(redact("gsutil -m cp gs://pubsite_prod_7763943235860257566/stats/installs/* data/") ==
        "gsutil -m cp gs://<bucket>/stats/installs/* data/");
  // A bucket named in gs:// is masked wherever else the same text names it.
  CHECK(redact("$ gsutil -u foo-bar cp gs://sdow-prod/dumps/20190801/sdow.sqlite.gz . AccessDeniedException: 403 "
               "does not have storage.objects.list access to sdow-prod.") ==
        "$ gsutil -u foo-bar cp gs://<bucket>/dumps/20190801/sdow.sqlite.gz . AccessDeniedException: 403 "
        "does not have storage.objects.list access to <bucket>.");
  // Dataflow's own: "Unable to expand file pattern gs://BUCKET_NAME/temp/FILE" (shared/reference,
  // dataflow-log-signatures.md).
  CHECK(redact("Unable to expand file pattern gs://my-temp-bucket/temp/part-0001") ==
        "Unable to expand file pattern gs://<bucket>/temp/part-0001");
}

TEST_CASE("redaction masks signatures and keys in URL query parameters", "[unit][redaction]") {
  // googleapis/google-cloud-go#2859: a V2 signed URL (its Signature value, cut).
  const std::string signed_url =
      "https://storage.googleapis.com/bucket-a/object-b?Expires=1600187505&GoogleAccessId=sa@p.iam.gserviceaccount.com"
      "&Signature=PGEJSTe9UEU95WEgq%2FDYPWT81tlbUEWWjPgHO8a%2B6fqly2uNmLMlkH9SI5RTLHHyQFcqaa1oEIDoRcyfV7k9xns";
  CHECK(redact(signed_url) ==
        "https://storage.googleapis.com/<bucket>/object-b?Expires=1600187505&GoogleAccessId=<email>&Signature=<token>");
  // V4 signed URLs: X-Goog-Signature (docs.cloud.google.com/storage/docs/access-control/signed-urls).
  CHECK(redact("GET https://storage.googleapis.com/example-bucket/cat.jpeg?X-Goog-Algorithm=GOOG4-RSA-SHA256"
               "&X-Goog-Date=20190101T000000Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host"
               "&X-Goog-Signature=247a2aa45f169edf4d187d54e7cc46e4731b1e6273242c4f4c39a1d2507a0e58") ==
        "GET https://storage.googleapis.com/<bucket>/cat.jpeg?X-Goog-Algorithm=GOOG4-RSA-SHA256"
        "&X-Goog-Date=20190101T000000Z&X-Goog-Expires=900&X-Goog-SignedHeaders=host&X-Goog-Signature=<token>");
  // requests' raise_for_status: "%s Client Error: %s for url: %s" (psf/requests, models.py).
  CHECK(redact("requests.exceptions.HTTPError: 400 Client Error: Bad Request for url: "
               "https://www.googleapis.com/customsearch/v1?key=AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW&q=gpu") ==
        "requests.exceptions.HTTPError: 400 Client Error: Bad Request for url: "
        "https://www.googleapis.com/customsearch/v1?key=<token>&q=gpu");
  CHECK(redact("GET /userinfo?access_token=ya29.a0AfH6SMBx-example&alt=json") ==
        "GET /userinfo?access_token=<token>&alt=json");
}

TEST_CASE("redaction masks bearer tokens and secret options", "[unit][redaction]") {
  // RFC 6750 §2.1, its example request header.
  CHECK(redact("Authorization: Bearer mF_9.B5f-4.1JqM") == "Authorization: Bearer <token>");
  // Beam's "Discarding unparseable args: %s" (apache_beam/options/pipeline_options.py) with a token option.
  CHECK(redact("Discarding unparseable args: ['--hf_token=hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ012345', "
               "'--model_name=bert-base']") ==
        "Discarding unparseable args: ['--hf_token=<token>', '--model_name=bert-base']");
  // AWS's documented example credentials (docs.aws.amazon.com, "Managing access keys").
  CHECK(redact("--aws_access_key_id=AKIAIOSFODNN7EXAMPLE --aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/"
               "bPxRfiCYEXAMPLEKEY") == "--aws_access_key_id=<token> --aws_secret_access_key=<token>");
  CHECK(redact("using key AKIAIOSFODNN7EXAMPLE") == "using key <token>");
  // Dataflow's own message already holds a placeholder: it stays one.
  CHECK(redact("'--experiments=unsupported_sdk_temporary_override_token=<token>'") ==
        "'--experiments=unsupported_sdk_temporary_override_token=<token>'");
}

TEST_CASE("redaction masks long mixed-case secrets but not ids or digests or names", "[unit][redaction]") {
  CHECK(redact("credential 6fqly2uNmLMlkH9SI5RTLHHyQFcqaa1oEIDoRcyfV7k9xnsZTvxH2lmwo rejected") ==
        "credential <token> rejected");
  // Kept: a job id, a worker VM name, an image digest, a framework path (messy-cropped-message-project-number).
  for (const std::string kept : {
           std::string("job 2022-11-16_12_18_34-10200092675968747072 failed"),
           std::string("worker my-job-name-1w2-11161218-zqh4-harness-t3b6"),
           std::string("gcr.io/cloud-dataflow/v1beta3/python310@sha256:"
                       "4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b4f5a6b7c8d9e0f1a2b3c4d"),
           std::string("File \"/usr/local/lib/python3.10/site-packages/apache_beam/runners/worker/sdk_worker.py\", "
                       "line 287, in _execute"),
       }) {
    CHECK(redact(kept) == kept);
  }
}

TEST_CASE("redaction masks the export's own projects and project paths", "[unit][redaction]") {
  RedactionTerms terms;
  terms.projects = {"823514981911", "media-ml-prod"};
  // tools/corpus/cases: the zone exhaustion job message (GCE's ZONE_RESOURCE_POOL_EXHAUSTED text).
  CHECK(redact("Instance 'gpu-1' creation failed: The zone 'projects/media-ml-prod/zones/us-central1-b' does not "
               "have enough resources available to fulfill the request.",
               terms) ==
        "Instance 'gpu-1' creation failed: The zone 'projects/<project>/zones/us-central1-b' does not have enough "
        "resources available to fulfill the request.");
  CHECK(redact("project 823514981911 (media-ml-prod)", terms) == "project <project> (<project>)");
  // Only whole names: a longer number or a name that merely contains the project stays.
  CHECK(redact("id 98235149819112 media-ml-prod-2", terms) == "id 98235149819112 media-ml-prod-2");
}

TEST_CASE("redaction replaces quoted user data in exception messages", "[unit][redaction]") {
  // CPython: "invalid literal for int() with base %d: %R" (Objects/longobject.c).
  CHECK(redact("ValueError: invalid literal for int() with base 10: 'Order #1183 (rush)'") ==
        "ValueError: invalid literal for int() with base 10: '<redacted>'");
  // CPython: "could not convert string to float: %R" (Objects/floatobject.c).
  CHECK(redact("ValueError: could not convert string to float: 'twelve dollars'") ==
        "ValueError: could not convert string to float: '<redacted>'");
  CHECK(redact("java.lang.IllegalArgumentException: Unable to parse \"alice smith,42,NY\" as a row") ==
        "java.lang.IllegalArgumentException: Unable to parse \"<redacted>\" as a row");
  // Not after an exception: a plain log line keeps its quotes.
  CHECK(redact("Loaded model 'my big model'") == "Loaded model 'my big model'");
}

TEST_CASE("redaction keeps type names identifiers and code in exception messages", "[unit][redaction]") {
  for (const std::string kept : {
           // scikit-learn's check_array (sklearn/utils/validation.py), as in issue 15.
           std::string("ValueError: Input contains NaN, infinity or a value too large for dtype('float32')."),
           // CPython's TypeError for subscripting None (Objects/abstract.c).
           std::string("TypeError: 'NoneType' object is not subscriptable"),
           // CPython's import system (Lib/importlib/_bootstrap.py).
           std::string("ModuleNotFoundError: No module named 'transformers'"),
           std::string("AttributeError: 'Tensor' object has no attribute 'numpy_array'"),
           // ansible-collections/google.cloud#575 (the permission is an identifier).
           std::string("Permission 'storage.buckets.get' denied on resource (or it may not exist)."),
           std::string("FileNotFoundError: [Errno 2] No such file or directory: '/app/model/config.json'"),
           std::string("RuntimeError: CUDA out of memory. Tried to allocate 16.00 MiB (GPU 0; 39.59 GiB total "
                       "capacity; 666.60 MiB already allocated)"),
           // Beam's step suffix (apache_beam/runners/common.py).
           std::string("KeyError: 'id' [while running 'Embed/ParDo(EmbedFn)']"),
           std::string("rule gpu-out-of-memory at /app/pipeline.py:88"),
       }) {
    CHECK(redact(kept) == kept);
  }
  // "doesn't" is not a quote: the span after it still is.
  CHECK(redact("ValueError: the row doesn't parse: 'bob@ex ample 9'") ==
        "ValueError: the row doesn't parse: '<redacted>'");
}

namespace {

std::set<std::string> all_matches(const std::string& text, const std::string& pattern) {
  std::set<std::string> out;
  const std::regex re(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it) {
    out.insert((*it)[1].str());
  }
  return out;
}

}  // namespace

TEST_CASE("redact flag leaves no bucket or project in any format and keeps the fingerprints", "[cli][redaction]") {
  struct Case {
    std::string dir;
    std::vector<std::string> secrets;  // what the export names and an unredacted report shows
  };
  const std::vector<Case> cases{
      {"corpus/flex-start-unsupported-config-streaming-synthetic", {"acme-ml-dataflow", "fraud-rt"}},
      {"corpus/messy-cropped-message-project-number", {"hs-src-images", "823514981911"}},
      {"corpus/chained-exception-python", {"acme-ml-prod"}},
  };
  const std::vector<std::string> formats{"txt", "json", "md", "sarif", "html", "xml"};
  for (const auto& c : cases) {
    const std::string dir = gpudiag::test::temp_dir();
    for (const bool redacted : {false, true}) {
      std::vector<std::string> args{"report", "--deterministic", c.dir + "/export.json"};
      if (redacted) args.push_back("--redact");
      for (const auto& f : formats) {
        args.push_back("-o");
        args.push_back(dir + (redacted ? "/redacted." : "/raw.") + f);
      }
      INFO(c.dir << (redacted ? " --redact" : ""));
      REQUIRE(gpudiag::test::run_gpudiag(args).exit_code == 0);
    }
    const std::string raw_json = gpudiag::test::read_file(dir + "/raw.json");
    for (const auto& s : c.secrets) {
      INFO(c.dir << ": " << s);
      CHECK(raw_json.find(s) != std::string::npos);  // the test can fail: the raw report shows it
      for (const auto& f : formats) {
        INFO("format " << f);
        CHECK(gpudiag::test::read_file(dir + "/redacted." + f).find(s) == std::string::npos);
      }
    }
    // Fingerprints (findings and unexplained groups, JSON and SARIF) are those of the raw report.
    const std::string fingerprint = R"re("fingerprint": "([^"]+)")re";
    const auto raw_prints = all_matches(raw_json, fingerprint);
    CHECK_FALSE(raw_prints.empty());
    CHECK(all_matches(gpudiag::test::read_file(dir + "/redacted.json"), fingerprint) == raw_prints);
    const std::string partial = R"re("gpudiag[A-Za-z]*/v[0-9]+": "([^"]+)")re";
    CHECK(all_matches(gpudiag::test::read_file(dir + "/redacted.sarif"), partial) ==
          all_matches(gpudiag::test::read_file(dir + "/raw.sarif"), partial));
  }
}

TEST_CASE("redacted analysis keeps fingerprints and ids and the match highlights", "[unit][redaction]") {
  // messy-cropped-message-project-number: the project number in the resource labels, a bucket in
  // the logged batch, and a CUDA OOM (apache/beam#22811 text) as the match.
  const gpudiag::Analysis raw = gpudiag::test::analyze_case("corpus/messy-cropped-message-project-number");
  const gpudiag::RedactionTerms terms = gpudiag::redaction_terms(raw);
  CHECK(std::find(terms.projects.begin(), terms.projects.end(), "823514981911") != terms.projects.end());
  CHECK(std::find(terms.buckets.begin(), terms.buckets.end(), "hs-src-images") != terms.buckets.end());
  const gpudiag::Analysis out = gpudiag::redacted(raw, terms);
  CHECK(out.job.project == "<project>");
  CHECK(out.job.id == raw.job.id);
  CHECK(out.job.name == raw.job.name);
  REQUIRE(out.findings.size() == raw.findings.size());
  REQUIRE_FALSE(raw.findings.empty());
  REQUIRE_FALSE(raw.findings[0].evidence.empty());
  CHECK(raw.findings[0].evidence[0].entry->message.find("hs-src-images") != std::string_view::npos);
  for (size_t i = 0; i < raw.findings.size(); ++i) {
    const auto& f = out.findings[i];
    CHECK(f.rule_id == raw.findings[i].rule_id);
    CHECK(f.fingerprint == raw.findings[i].fingerprint);
    CHECK(f.identity == raw.findings[i].identity);
    REQUIRE(f.evidence.size() == raw.findings[i].evidence.size());
    for (size_t e = 0; e < f.evidence.size(); ++e) {
      const auto& ev = f.evidence[e];
      const auto& before = raw.findings[i].evidence[e];
      CHECK(ev.entry->message.find("hs-src-images") == std::string_view::npos);
      CHECK(ev.entry->project == "<project>");
      CHECK(ev.entry->worker == before.entry->worker);
      CHECK(ev.entry->where.line == before.entry->where.line);
      // The highlighted match is the same text (the OOM line holds nothing to mask).
      REQUIRE(ev.match_at != std::string::npos);
      CHECK(ev.matched_line.substr(ev.match_at, ev.match_length) ==
            before.matched_line.substr(before.match_at, before.match_length));
    }
  }
  for (size_t g = 0; g < std::min(out.unexplained.size(), raw.unexplained.size()); ++g) {
    CHECK(out.unexplained[g].fingerprint == raw.unexplained[g].fingerprint);
  }
}

TEST_CASE("redaction masks an error group's cause, chain and first step", "[unit][redaction]") {
  gpudiag::Analysis a;
  gpudiag::UnexplainedGroup g;
  g.exception = "RuntimeError: Engine core initialization failed. See root cause above.";
  g.cause = "scorer@acme-prod.iam.gserviceaccount.com does not have bigquery.tables.getData access to table t";
  g.chain = {"google.api_core.exceptions.Forbidden: 403 scorer@acme-prod.iam.gserviceaccount.com denied"};
  g.first_step.id = "permission-denied-to-principal";
  g.first_step.action = "Grant scorer@acme-prod.iam.gserviceaccount.com a role that holds bigquery.tables.getData";
  g.first_step.command = "gcloud projects get-iam-policy p --filter=scorer@acme-prod.iam.gserviceaccount.com";
  a.unexplained.push_back(g);
  const gpudiag::Analysis r = gpudiag::redacted(a);
  const gpudiag::UnexplainedGroup& out = r.unexplained.at(0);
  for (const std::string* text : {&out.cause, &out.chain.at(0), &out.first_step.action, &out.first_step.command}) {
    INFO(*text);
    CHECK(text->find("scorer@") == std::string::npos);
  }
  CHECK(out.first_step.command.find('<') == std::string::npos);  // still one shell command
}
