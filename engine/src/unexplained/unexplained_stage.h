// The unexplained-errors stage as the pipeline calls it (record_pipeline.h), once per record after
// the rule matcher: it takes the entries no rule explains that may say why a job failed
// (error_candidates.h) into the chunk's observations, to be grouped per job (error_groups.h).
// unexplained_stage.cc is the stage; a build with the CMake option GPUDIAG_WITHOUT_UNEXPLAINED (a
// benchmark baseline: bench/run.sh's "stage off" row, never a user's build) compiles
// unexplained_stage_off.cc instead, which takes nothing. One per matching thread. Internal to engine.
#pragma once

#include "error_candidates.h"
#include "match/match.h"
#include "pack/pack.h"

namespace gpudiag::detail {

class UnexplainedStage {
 public:
  explicit UnexplainedStage(const CompiledRulePack& pack);

  // Call before the first record of each chunk.
  void start_chunk();
  // The record `matcher` has just matched, of the job with ordinal `job` in `out`. Most records are
  // none the screen could take (ErrorCandidates::may_be_candidate), answered inline.
  void note(const LogRecord& r, size_t entry_index, uint32_t job, RecordMatcher& matcher, ChunkObservations& out) {
    if (errors_.may_be_candidate(r)) take(r, entry_index, job, matcher, out);
  }

 private:
  void take(const LogRecord& r, size_t entry_index, uint32_t job, RecordMatcher& matcher, ChunkObservations& out);

  ErrorCandidates errors_;
};

}  // namespace gpudiag::detail
