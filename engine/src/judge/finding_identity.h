// A finding's identity and fingerprints: what makes two findings of two runs "the same one".
//
// The identity is the byte string the fingerprint hashes (docs/json-schema.md, "Fingerprints"):
//
//   identity(v3) = RULE_ID, then for each identity capture (the rule's `identity:` list, default
//                  all of its captures) in byte order and each distinct masked value in byte order:
//                  "|" NAME "=" mask_identity_value(VALUE)
//   fingerprint  = RULE_ID "/" 16 lowercase hex digits of XXH3-64 (seed 0) of identity(v3)
//
// The v2 fingerprint (XXH3-64 of the v2 identity: every capture, digits blurred, values in
// capture order) and the v1 one (std::hash of the v2 identity) are kept so that baselines and run
// histories written before still match. Internal to engine; tested in tests/engine_test.cc.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpudiag::detail {

// Captured value → its identity form: per-run parts replaced by placeholders, in this order:
// UUIDs `<uuid>`, Dataflow job ids `<job>`, worker VM names (`…-harness-xxxx`) `<worker>`, SDK
// worker ids (`sdk-0-1`) `<sdk>`, instruction and bundle ids `bundle_<id>`, pids `pid <pid>`, hex
// runs (6+ hex digits with a digit among them, or 0x…) `<hex>`, then every run of digits `#`.
std::string mask_identity_value(std::string_view value);

// Every run of ASCII digits replaced by one `#` (the v2 mask).
std::string blur_digits(std::string_view value);

struct FindingIdentity {
  std::string identity;        // v3, what `fingerprint` hashes
  std::string fingerprint;     // v3
  std::string fingerprint_v2;  // XXH3-64 of the v2 identity
  std::string fingerprint_v1;  // std::hash of the v2 identity (gpudiag 0.1)
};

// `identity_captures`: the rule's `identity:` list; nullopt = every capture.
FindingIdentity finding_identity(std::string_view rule_id,
                                 const std::map<std::string, std::vector<std::string>>& captures,
                                 const std::optional<std::vector<std::string>>& identity_captures);

}  // namespace gpudiag::detail
