#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <cstdlib>

int main(int argc, char* argv[]) {
  // The text report follows $COLUMNS in a pipe (cli/run_options.cc): the gpudiag runs of the [cli]
  // tests read their output in a pipe, so a COLUMNS the developer's shell exports would change it.
  unsetenv("COLUMNS");
  return Catch::Session().run(argc, argv);
}
