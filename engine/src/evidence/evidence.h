// evidence/: how the lines of one log entry read, for every later stage — a traceback's lines told
// by kind (trace_lines.h), the few lines of an entry worth showing (evidence_excerpt.h), and whether
// two entries are copies of one failure that Dataflow wrapped into several logs (evidence_merge.h).
// Knows no rule and no job. The only header other folders include. Internal to engine.
#pragma once

#include "evidence_excerpt.h"
#include "evidence_merge.h"
#include "trace_lines.h"
