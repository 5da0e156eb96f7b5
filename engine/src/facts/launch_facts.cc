#include "launch_facts.h"

namespace gpudiag::detail {

void apply_launch_options(const Options& options, const FactCatalog& catalog, JobFacts& facts, const FactSource& source,
                          int priority) {
  apply_options(options, catalog, facts, source, priority);
}

}  // namespace gpudiag::detail
