// "Did you mean": the one suggestion module every typed name goes through (gpudiag/name_suggestions.h),
// and the progress line (gpudiag/progress_line.h).
#include "gpudiag/name_suggestions.h"

#include <catch2/catch.hpp>

#include "gpudiag/progress_line.h"
#include "test_support.h"

using namespace gpudiag;

TEST_CASE("gpu-oom suggests gpu-out-of-memory by its tokens alone without an alias", "[unit]") {
  // Ten edits apart: edit distance alone would never suggest it.
  CHECK(edit_distance("gpu-oom", "gpu-out-of-memory") == 10);
  std::vector<std::string> ids;
  for (const auto& r : test::builtin_pack().rules()) ids.push_back(r.id);
  const auto s = suggest_names("gpu-oom", ids);
  REQUIRE_FALSE(s.empty());
  CHECK(s.front() == "gpu-out-of-memory");
}

TEST_CASE("an alias leads to the name it stands for and each target comes once", "[unit]") {
  const std::vector<KnownName> names{
      {"gpu-out-of-memory"},  {"gpu-oom", "gpu-out-of-memory"},   {"oom", "gpu-out-of-memory"},
      {"host-out-of-memory"}, {"host-oom", "host-out-of-memory"}, {"stockout", "zone-resource-pool-exhausted"}};
  CHECK(suggest_names("stockout", names) == std::vector<std::string>{"zone-resource-pool-exhausted"});
  // The exact alias first, then the other rule whose tokens' initials are o-o-m.
  CHECK(suggest_names("oom", names) == std::vector<std::string>{"gpu-out-of-memory", "host-out-of-memory"});
  CHECK(suggest_names("GPU-OOM", names).front() == "gpu-out-of-memory");
}

TEST_CASE("suggestions: prefixes and edits and tokens and nothing for a far word", "[unit]") {
  const std::vector<std::string> commands{"analyze", "report", "gate",  "rules",    "explain",
                                          "history", "ingest", "query", "patterns", "help"};
  CHECK(suggest_names("analyse", commands) == std::vector<std::string>{"analyze"});  // one edit
  CHECK(suggest_names("anlayze", commands) == std::vector<std::string>{"analyze"});  // a transposition
  CHECK(suggest_names("rep", commands) == std::vector<std::string>{"report"});       // a prefix
  CHECK(suggest_names("frobnicate", commands).empty());
  CHECK(suggest_names("", commands).empty());
  CHECK(suggest_names("lst", std::vector<std::string>{"list", "show", "test", "lint", "dump"}).front() == "list");
  CHECK(suggest_names("jsn", std::vector<std::string>{"text", "json"}) == std::vector<std::string>{"json"});
  CHECK(suggest_names("x", std::vector<std::string>{"md", "html"}).empty());
  // A token left out: zone-exhausted is zone-…-exhausted.
  CHECK(suggest_names("zone-exhausted", std::vector<std::string>{"zone-resource-pool-exhausted", "worker-disk-full"})
            .front() == "zone-resource-pool-exhausted");
  CHECK(did_you_mean("--formt", std::vector<std::string>{"--format", "--fail-on"}) == "did you mean `--format`?");
  CHECK(did_you_mean(std::vector<std::string>{"a", "b", "c"}) == "did you mean `a`, `b` or `c`?");
  CHECK(did_you_mean(std::vector<std::string>{}).empty());
}

TEST_CASE("the progress line: percent and time left when the size is known and a spinner otherwise", "[unit]") {
  const Progress p{.bytes = 120'000'000, .entries = 1234567, .seconds = 2.0};  // 60 MB/s
  CHECK(progress_line(p, uint64_t{300'000'000}, 0) == " 40%  120 of 300 MB, 1234567 entries, 60 MB/s, about 0:03 left");
  CHECK(progress_line(p, uint64_t{120'000'000}, 0) == "100%  120 of 120 MB, 1234567 entries, 60 MB/s, about 0:00 left");
  CHECK(progress_line(Progress{.bytes = 1'000'000, .entries = 10, .seconds = 0}, uint64_t{4'000'000'000}, 0) ==
        "  0%  1 of 4000 MB, 10 entries, 0 MB/s, time left unknown");
  CHECK(progress_line(Progress{.bytes = 60'000'000, .entries = 5, .seconds = 1}, uint64_t{60'000'000ull * 3601}, 0)
            .ends_with("about 1:00:00 left"));
  // Unknown size (stdin, gzip): a spinner, one frame a redraw.
  CHECK(progress_line(p, std::nullopt, 0) == "⠋ 120 MB, 1234567 entries, 60 MB/s");
  CHECK(progress_line(p, std::nullopt, 1) == "⠙ 120 MB, 1234567 entries, 60 MB/s");
  CHECK(progress_line(p, std::nullopt, 10) == progress_line(p, std::nullopt, 0));
}
