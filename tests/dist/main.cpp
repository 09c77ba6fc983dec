// The main() of kt's MPI tests, run as `mpiexec -n 2 kt_tests_dist`: MPI and Kokkos for the
// process, then doctest on every rank (ranks other than 0 report failures only), and the exit
// status is the worst rank's, so a check that fails on one rank fails the test.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#define KT_USES_INTERNALS  // counts the GPUs (kt/core/impl/cuda_devices.hpp) before Kokkos starts
#include <kt/core/runtime.hpp>
#include <kt/dist/environment.hpp>

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

#if defined(KOKKOS_ENABLE_CUDA)
#include <kt/core/impl/cuda_devices.hpp>
#endif

int main(int argc, char** argv) {
  setenv("OMP_PROC_BIND", "false", 0);
  setenv("OMP_PLACES", "threads", 0);
  doctest::Context context(argc, argv);
  if (context.shouldExit()) return context.run();  // --list-test-cases (no MPI needed)
#if defined(KOKKOS_ENABLE_CUDA)
  if (kt::impl::cuda_device_count() == 0) {
    std::printf("skipped: no GPU (this is a Cuda build of kt's tests; run them on a GPU machine)\n");
    return 77;
  }
#endif
  kt::dist::Environment mpi(argc, argv);
  kt::Runtime runtime(kt::dist::runtime_options());  // threads: OMP_NUM_THREADS
  const auto& world = kt::dist::world();
  if (world.rank() != 0) context.setOption("minimal", true);
  int status = context.run();
  int worst = 0;
  MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, world.comm());
  return worst;
}
