// unexplained/: the errors no rule explains (docs/unexplained.md) — the stage the pipeline calls
// after the matcher (unexplained_stage.h) screens and reads the records that may carry an error
// (error_candidates.h, error_text.h), a key groups them per job (unexplained_key.h, error_groups.h),
// and the groups are ranked (unexplained_ranking.h). The only header other folders include.
// Internal to engine.
#pragma once

#include "error_candidates.h"
#include "error_groups.h"
#include "unexplained_ranking.h"
#include "unexplained_stage.h"
