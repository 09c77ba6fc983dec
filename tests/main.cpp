// The one main() of every kt test executable: starts Kokkos through kt::Runtime (which takes
// the --kokkos-* flags, e.g. --kokkos-threads=3) and hands the rest to doctest.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <kt/core/runtime.hpp>

int main(int argc, char** argv) {
  kt::Runtime runtime(argc, argv);
  doctest::Context context(argc, argv);
  return context.run();
}
