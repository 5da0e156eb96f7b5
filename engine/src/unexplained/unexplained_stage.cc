#include "unexplained_stage.h"

namespace gpudiag::detail {

UnexplainedStage::UnexplainedStage(const CompiledRulePack& pack) : errors_(pack) {}

void UnexplainedStage::start_chunk() { errors_.start_batch(); }

void UnexplainedStage::take(const LogRecord& r, size_t entry_index, uint32_t job, RecordMatcher& matcher,
                            ChunkObservations& out) {
  const ErrorCandidates::Screened screened = errors_.screen(r);
  if (!screened.candidate) return;
  ErrorCandidates::LineVerdict* line = screened.line;  // a remembered text remembers its quiet shapes
  if (line == nullptr || line->quiet_severity != r.severity) {
    const uint32_t quiet = matcher.quiet_shapes(r);
    if (line != nullptr) {
      line->quiet_severity = r.severity;
      line->quiet = quiet;
    }
    if (quiet != 0) return;
  } else if (line->quiet != 0) {
    return;
  }
  errors_.take(screened, r, job, entry_index, matcher.claimed_by(), out);
}

}  // namespace gpudiag::detail
