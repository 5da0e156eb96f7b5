// Refuses to run on a CPU older than the x86-64 level gpudiag was compiled for (GPUDIAG_MARCH,
// CMakeLists.txt), with a sentence saying so, instead of dying of SIGILL at the first AVX2
// instruction with no word of why. The analysis libraries are compiled for the build machine's
// level because simdjson's On Demand parser has no run-time dispatch; a package built on one machine
// and installed on an older one would otherwise crash. This file alone is compiled for the x86-64
// baseline (cli/CMakeLists.txt), and the check runs before main() and before the other files' static
// initialisers (constructor priority 101, the first an application may use).
#if defined(__x86_64__) && defined(GPUDIAG_MARCH_LEVEL) && GPUDIAG_MARCH_LEVEL >= 2
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

// The first feature the build needs that this CPU lacks, or nullptr. GPUDIAG_TEST_CPU_LACKS names
// one to treat as missing, so the refusal can be tested on a machine that has them all.
const char* missing_feature() {
  const char* pretend = std::getenv("GPUDIAG_TEST_CPU_LACKS");
  __builtin_cpu_init();
  const auto has = [&](const char* name, bool supported) {
    return supported && (pretend == nullptr || std::strcmp(pretend, name) != 0);
  };
  // simdjson's x86 kernels also need carry-less multiplication (-mpclmul in CMakeLists.txt).
  if (!has("pclmul", __builtin_cpu_supports("pclmul"))) return "pclmul";
  if (!has("x86-64-v2", __builtin_cpu_supports("x86-64-v2"))) return "x86-64-v2";
  if (GPUDIAG_MARCH_LEVEL >= 3 && !has("x86-64-v3", __builtin_cpu_supports("x86-64-v3"))) return "x86-64-v3";
  return nullptr;
}

__attribute__((constructor(101))) void refuse_older_cpu() {
  const char* missing = missing_feature();
  if (missing == nullptr) return;
  std::fprintf(stderr,
               "gpudiag: this gpudiag was built for x86-64-v%d CPUs and this CPU lacks %s; build it on this machine "
               "(tools/setup demo) or for an older level: cmake -DGPUDIAG_MARCH=x86-64-v2 (README.md, \"Install\")\n",
               GPUDIAG_MARCH_LEVEL, missing);
  _exit(2);
}

}  // namespace
#endif
