#include "targets.h"

#include <sys/mman.h>
#include <unistd.h>

#include <string>
#include <string_view>

#include "gpudiag/analyzer.h"
#include "gpudiag/ingest.h"
#include "gpudiag/rule_pack.h"
#include "job_facts.h"

namespace gpudiag::fuzz {

// The export reader and chunk parser on arbitrary bytes — arrays, NDJSON, concatenated objects,
// gzip — through both the mapped and the read path. The first byte picks the path and the chunk
// size, so chunk boundaries fall everywhere.
int export_reader(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t mode = data[0];
  ++data;
  --size;
  const int fd = memfd_create("export", 0);
  if (fd < 0) return 0;
  size_t written = 0;
  while (written < size) {
    const ssize_t n = write(fd, data + written, size - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  ReadLimits limits;
  limits.no_mmap = (mode & 1) != 0;
  limits.chunk_bytes = 64u << (mode >> 5);  // 64 B … 8 KiB
  limits.max_entry_bytes = 1u << 16;
  limits.max_decompressed_bytes = 8u << 20;  // keep gzip bombs cheap
  auto summary = read_export(
      "/proc/self/fd/" + std::to_string(fd), [](const LogRecord&) {}, limits);
  close(fd);
  if (summary.ok() && summary->analysed + summary->skipped > summary->entries) __builtin_trap();  // nothing invented
  return 0;
}

// The RFC 3339 parser; what it parses must format and parse back to the same instant.
int timestamp(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto t = parse_rfc3339(text)) {
    const auto again = parse_rfc3339(format_rfc3339(*t));
    if (!again || *again != *t) __builtin_trap();
  }
  parse_severity(text);
  short_log_name(text);
  return 0;
}

// The parser of the Python dict the SDK harness echoes its options in, and the facts from it.
int pipeline_options(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  detail::JobFacts facts;
  detail::apply_options(detail::parse_python_dict(text), facts, detail::FactSource{"fuzz"},
                        detail::FactPriority::kOptions);
  detail::apply_accelerator(text, facts, detail::FactSource{"fuzz"}, detail::FactPriority::kOptions);
  return 0;
}

// A rule file of arbitrary text through the loader and, when it loads, the compiler and examples.
int rule_loader(const uint8_t* data, size_t size) {
  const RuleSources sources{{RuleFile{"fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size), {}}}, {}};
  RulePack::lint(sources);
  if (auto pack = RulePack::load(sources)) test_rule_examples(*pack);
  return 0;
}

}  // namespace gpudiag::fuzz
