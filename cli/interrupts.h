// Ctrl-C keeps the report (docs/formats.md, "Interrupts"): the first SIGINT or SIGTERM while an
// export is read stops the reading, and the report of what was read is written, marked incomplete,
// before gpudiag exits 130 (143 for SIGTERM). A second signal ends gpudiag at once, by the signal.
#pragma once

#include <atomic>

namespace gpudiag::cli {

// Installs the handlers (once; from the main thread, before any worker thread starts).
void catch_interrupts();

// The number of the first signal caught, or 0. Handed to the analysis as its stop flag.
const std::atomic<int>& interrupt_signal();

// Returns the signal caught (or 0) and forgets it: `analyze --follow` ends on Ctrl-C, which is then
// the normal end of the command, not an interrupted read (its report and exit code are analyze's).
int take_interrupt();

// 128 + the signal (the shell's convention for a process that ended by it), or 0 when none came.
int interrupted_exit_code();

}  // namespace gpudiag::cli
