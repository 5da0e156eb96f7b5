// A small, strict unescaper for one JSON string, for the strings simdjson refuses. Internal to ingest.
//
// simdjson fails a whole string over one escaped surrogate without its pair ("\ud800" alone, as
// Python's json module writes the undecodable bytes that surrogateescape kept), and Debian's
// simdjson has no option to replace it. Entries are read with simdjson; only when it reports a
// string error is the raw string read again here, so the common path stays simdjson's own.
//
//   if (auto s = unescape_json_string(R"("bad \udc80 byte")")) use(s->text);  // "bad \uFFFD byte"
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpudiag::detail {

struct UnescapedString {
  std::string text;     // UTF-8
  size_t replaced = 0;  // lone surrogate escapes written as U+FFFD
};

// `raw` starts at the string's opening quote; whatever follows its closing quote is ignored. The
// text is what simdjson gives for every string simdjson accepts; a lone surrogate escape becomes
// U+FFFD. nullopt for what is not a JSON string at all: no quotes around it, an unknown escape,
// \u without four hex digits, or invalid UTF-8.
std::optional<UnescapedString> unescape_json_string(std::string_view raw);

}  // namespace gpudiag::detail
