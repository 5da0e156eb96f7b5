// match/: one record at a time, on a matching thread — the job tally (job_tally.h: entries, time
// span, logs and workers per job) and the rule matcher (record_matcher.h: one RE2::Set pass, then
// only the candidate signals). What they find of a batch, and hand on to be merged in input order,
// is ChunkObservations (observations.h). The only header other folders include. Internal to engine.
#pragma once

#include "job_tally.h"
#include "observations.h"
#include "record_matcher.h"
