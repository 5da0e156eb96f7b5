// The build without the unexplained-errors stage (GPUDIAG_WITHOUT_UNEXPLAINED, unexplained_stage.h):
// no record is taken, so no job has an unexplained error group.
#include "unexplained_stage.h"

namespace gpudiag::detail {

UnexplainedStage::UnexplainedStage(const CompiledRulePack& pack) : errors_(pack) {}

void UnexplainedStage::start_chunk() {}

void UnexplainedStage::take(const LogRecord&, size_t, uint32_t, RecordMatcher&, ChunkObservations&) {}

}  // namespace gpudiag::detail
