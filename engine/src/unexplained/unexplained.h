// unexplained/: the errors no rule explains (docs/unexplained.md; docs/architecture.md walks one
// error through these steps). The pipeline calls the stage after the matcher (unexplained_stage.h):
//   screen  which records can carry an error, and the one cache of short texts (error_candidates.h)
//   read    an error's text as fields (error_text.h: wrappers off, then python_traceback.h or
//           java_stack_trace.h)
//   group   the key and the per-job groups (group_key.h, unexplained_key.h, error_groups.h)
//   rank    the groups of a judged job (unexplained_ranking.h)
//   step    what to try first about each group (first_steps.h)
// This is the only header other folders include. Internal to engine.
#pragma once

#include "error_candidates.h"
#include "error_groups.h"
#include "first_steps.h"
#include "unexplained_ranking.h"
#include "unexplained_stage.h"
