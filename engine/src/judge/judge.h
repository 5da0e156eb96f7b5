// judge/: whole jobs, after matching — batches merged in input order per job (export_accumulator.h,
// job_accumulator.h), each rule's verdict from its evidence, facts, absences and sequences
// (evaluator.h), and the export's jobs finished into an Analysis (job_analyses.h). The only header
// other folders include. Internal to engine.
#pragma once

#include "evaluator.h"
#include "export_accumulator.h"
#include "job_analyses.h"
