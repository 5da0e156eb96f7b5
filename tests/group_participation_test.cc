// some_group_takes_part (engine/src/pack/group_participation.h): whether a fact extractor's groups take
// part in every match, which decides whether `gpudiag sql` may return only a job's first entry of it.
#include "pack/group_participation.h"

#include <catch2/catch.hpp>

using gpudiag::detail::some_group_takes_part;

TEST_CASE("group participation: a group outside any optional part takes part in every match", "[unit]") {
  CHECK(some_group_takes_part(R"(beam_python(?P<python>[23]\.[0-9]+)_sdk:(?P<beam>[0-9.]+))", {"python"}));
  CHECK(some_group_takes_part(R"((?i)Installing GPU driver version (?P<version>[0-9][0-9.]*))", {"version"}));
  CHECK(some_group_takes_part(R"(x(?:a(?P<v>b)c)+y)", {"v"}));    // inside a repeated group
  CHECK(some_group_takes_part(R"(x(?P<v>b){2,3})", {"v"}));       // a repetition of at least 2
  CHECK(some_group_takes_part(R"(x(?<v>b))", {"v"}));             // the (?<name>) spelling
  CHECK(some_group_takes_part(R"([(?P<no>]x(?P<v>\)))", {"v"}));  // brackets and escapes are atoms
  CHECK(some_group_takes_part(R"([[:alpha:]](?P<v>b))", {"v"}));
}

TEST_CASE("group participation: an alternation needs a wanted group in every branch", "[unit]") {
  const char* both =
      R"((?i)Installing GPU driver version (?P<version>[0-9][0-9.]*)|DRIVER_VERSION:(?P<version2>[0-9][0-9.]*))";
  CHECK(some_group_takes_part(both, {"version", "version2"}));
  CHECK_FALSE(some_group_takes_part(both, {"version"}));
  CHECK_FALSE(some_group_takes_part(R"(a(?:(?P<v>b)|c))", {"v"}));
}

TEST_CASE("group participation: a group that may match zero times, or a pattern not read, is maybe not", "[unit]") {
  CHECK_FALSE(some_group_takes_part(R"(_sdk(?:python(?P<python>3\.[0-9]+))?:x)", {"python"}));
  CHECK_FALSE(some_group_takes_part(R"(x(?P<v>b)*)", {"v"}));
  CHECK_FALSE(some_group_takes_part(R"(x(?P<v>b){0,3})", {"v"}));
  CHECK_FALSE(some_group_takes_part(R"(x(?P<v>b)??)", {"v"}));
  CHECK_FALSE(some_group_takes_part(R"(x(?P<other>b))", {"v"}));
  CHECK_FALSE(some_group_takes_part(R"(x(?P<v>b)", {"v"}));  // unbalanced: not read
  CHECK_FALSE(some_group_takes_part(R"(x(?P<v>b)))", {"v"}));
  CHECK_FALSE(some_group_takes_part(R"(x(?P<v>b))", {}));
}
