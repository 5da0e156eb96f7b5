// The text of reports/data/doc-translations.yaml, embedded at build time (reports/CMakeLists.txt).
#pragma once

#include <string_view>

namespace gpudiag::detail {
extern const std::string_view kDocTranslationsYaml;
}  // namespace gpudiag::detail
