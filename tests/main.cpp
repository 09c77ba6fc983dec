// The one main() of every kt test executable: starts Kokkos through kt::Runtime (which takes
// the --kokkos-* flags, e.g. --kokkos-threads=3) and hands the rest to doctest.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <kt/core/runtime.hpp>

#include <cstdlib>

int main(int argc, char** argv) {
  // Kokkos' OpenMP back-end warns on stdout without these; ctest's test discovery parses that
  // output, so keep it clean (an explicit environment still wins).
  setenv("OMP_PROC_BIND", "false", 0);
  setenv("OMP_PLACES", "threads", 0);
  kt::Runtime runtime(argc, argv);
  doctest::Context context(argc, argv);
  return context.run();
}
