// Finding identities: the masks that keep per-run parts out of fingerprints, and the identity's
// exact form (docs/json-schema.md, "Fingerprints"), which other tools recompute.
#include "judge/finding_identity.h"

#include <fmt/format.h>

#include <catch2/catch.hpp>

#include "gpudiag/stable_hash.h"

using gpudiag::detail::blur_digits;
using gpudiag::detail::finding_identity;
using gpudiag::detail::mask_identity_value;

TEST_CASE("identity masks: ids, digests, VM names, pids and digits", "[unit]") {
  CHECK(mask_identity_value("job 2022-11-28_14_05_40-8583720370029902118 failed") == "job <job> failed");
  CHECK(mask_identity_value("worker traffic-cam-p-11281405-9c1f-harness-isll lost") == "worker <worker> lost");
  CHECK(mask_identity_value("beamapp-root-0304-harness-abcd") == "<worker>");
  CHECK(mask_identity_value("SDK harness sdk-0-1 disconnected") == "SDK harness <sdk> disconnected");
  CHECK(mask_identity_value("sdk-12") == "<sdk>");
  CHECK(mask_identity_value("sdk_worker stays") == "sdk_worker stays");
  CHECK(mask_identity_value("in bundle_17ab3 and instruction-c0ffee9") == "in bundle_<id> and instruction_<id>");
  CHECK(mask_identity_value("request 123e4567-e89b-12d3-a456-426614174000 done") == "request <uuid> done");
  CHECK(mask_identity_value("img@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08") ==
        "img@sha#:<hex>");
  CHECK(mask_identity_value("container 4f2a9e1c0d3b up") == "container <hex> up");
  CHECK(mask_identity_value("at 0x7f3a2b") == "at <hex>");
  CHECK(mask_identity_value("facade decade deadbeef") == "facade decade deadbeef");  // words, no digit
  CHECK(mask_identity_value("abc12") == "abc#");                                     // too short for hex
  CHECK(mask_identity_value("Killed (pid 4242) and pid=97, PID: 3") == "Killed (pid <pid>) and pid <pid>, pid <pid>");
  CHECK(mask_identity_value("2.00 GiB at 2024-03-04T09:17:28.101Z") == "#.# GiB at #-#-#T#:#:#.#Z");
  CHECK(mask_identity_value("Timed out waiting for an update from the worker") ==
        "Timed out waiting for an update from the worker");
  CHECK(blur_digits("a1b22c333") == "a#b#c#");
}

TEST_CASE("the identity: rule id, identity captures in byte order, distinct masked values in byte order", "[unit]") {
  const std::map<std::string, std::vector<std::string>> captures{
      {"zone", {"us-central1-a"}}, {"pid", {"4242", "97"}}, {"image", {"img@sha256:ab12cd34ef56", "a"}}};
  const auto all = finding_identity("r", captures, std::nullopt);
  CHECK(all.identity == "r|image=a|image=img@sha#:<hex>|pid=#|zone=us-central#-a");
  CHECK(all.fingerprint == fmt::format("r/{:016x}", gpudiag::stable_hash(all.identity)));
  // v2 and v1 hash every capture, digits blurred, values as captured (not de-duplicated).
  const std::string v2 = "r|image=img@sha#:ab#cd#ef#|image=a|pid=#|pid=#|zone=us-central#-a";
  CHECK(all.fingerprint_v2 == fmt::format("r/{:016x}", gpudiag::stable_hash(v2)));
  CHECK(all.fingerprint_v1 == fmt::format("r/{:016x}", gpudiag::legacy_std_hash(v2)));

  const auto zone = finding_identity("r", captures, std::vector<std::string>{"zone"});
  CHECK(zone.identity == "r|zone=us-central#-a");
  CHECK(zone.fingerprint_v2 == all.fingerprint_v2);  // the old values do not depend on `identity:`
  CHECK(finding_identity("r", captures, std::vector<std::string>{}).identity == "r");
  // A rule without captures: the identity is its id, and v3 equals v2.
  const auto none = finding_identity("r", {}, std::nullopt);
  CHECK(none.identity == "r");
  CHECK(none.fingerprint == none.fingerprint_v2);
}
