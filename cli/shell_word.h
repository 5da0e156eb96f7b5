// A path or value in a command line gpudiag prints for the user to paste.
#pragma once

#include <string>

namespace gpudiag::cli {

// One word for sh, bash and zsh: single-quoted unless it is made of characters no shell treats
// specially.
std::string shell_word(const std::string& s);

}  // namespace gpudiag::cli
