// Every byte gpudiag prints to stdout goes through one checked writer: a full disk, /dev/full or a
// closed stdout is an error (exit 2 with the reason on stderr), never a silent exit 0 with half a
// report. A reader that goes away (EPIPE, when SIGPIPE is ignored as some CI runners and Python's
// subprocess do) ends the process by SIGPIPE, as it would have without the ignore: exit 141.
#pragma once

#include <string>

namespace gpudiag::cli {

// Routes std::cout through the checked writer; call once at start-up.
void guard_stdout();
// Flushes std::cout. An empty string when everything written so far reached stdout; otherwise why not.
std::string flush_stdout();
// Flushes and closes stdout at exit; the error, if any, as flush_stdout().
std::string close_stdout();

}  // namespace gpudiag::cli
