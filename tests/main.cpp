// The one main() of every kt test executable: starts Kokkos through kt::Runtime (which takes
// the --kokkos-* flags, e.g. --kokkos-threads=3) and hands the rest to doctest.
//
// Listing the tests (what ctest's discovery runs at build time) needs no Kokkos, so it works
// on any machine. A Cuda build run where there is no GPU reports every test skipped (exit
// code 77, ctest's SKIP_RETURN_CODE), never a silent pass: its typed tests include Cuda and
// kt::DefaultDevice is Cuda. Host coverage comes from the host build.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#define KT_USES_INTERNALS  // counts the GPUs (kt/core/impl/cuda_devices.hpp) before Kokkos starts
#include <kt/core/impl/cuda_devices.hpp>
#include <kt/core/runtime.hpp>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  // Kokkos' OpenMP back-end warns on stdout without these; ctest's test discovery parses that
  // output, so keep it clean (an explicit environment still wins).
  setenv("OMP_PROC_BIND", "false", 0);
  setenv("OMP_PLACES", "threads", 0);
  doctest::Context context(argc, argv);
  if (context.shouldExit()) return context.run();  // --list-test-cases, --help, ...
#if defined(KOKKOS_ENABLE_CUDA)
  if (kt::impl::cuda_device_count() == 0) {
    std::printf("skipped: no GPU (this is a Cuda build of kt's tests; run them on a GPU machine)\n");
    return 77;
  }
#endif
  kt::Runtime runtime(argc, argv);
  return context.run();
}
