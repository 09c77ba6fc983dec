// The staging race of the Cuda DataLoader, reproduced without the loader: a block written on
// one stream (the loader's copy instance) and read by a long kernel on another (the default
// instance) is freed while the kernel still runs; the next block of that size requested for
// the copy stream must not be it. Before kt's stream-aware cache (kt/core/impl/block_cache.hpp)
// the cache handed the same block back and the copy overwrote it mid-kernel: the sums below
// came out wrong. Needs a GPU; the deterministic host version is test_block_cache.cpp.

#include "kt_test.hpp"

#if defined(KOKKOS_ENABLE_CUDA)

#include <cstdint>

TEST_CASE("Cuda: a block read on the default stream is not reused by another stream until that read is done") {
  using D = Kokkos::Cuda;
  cudaStream_t copy_stream = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&copy_stream, cudaStreamNonBlocking) == cudaSuccess);
  {
    const D compute;            // the default instance: where the "training step" reads a batch
    const D copy(copy_stream);  // the loader's copy instance
    const std::int64_t n = std::int64_t(1) << 22, repeats = 256;
    kt::Tensor<float, D> sums({n}, compute);
    for (int round = 0; round < 4; ++round) {
      CAPTURE(round);
      {
        kt::Tensor<float, D> batch({n}, copy);  // a batch, written on the copy stream
        batch.fill_(copy, 1.0f);
        copy.fence();
        // A long kernel on the default stream reads the batch (each element `repeats` times).
        const auto x = batch.view();
        const auto s = sums.view();
        Kokkos::parallel_for("kt::test::slow_reader", Kokkos::RangePolicy<D>(compute, 0, n), KOKKOS_LAMBDA(std::int64_t i) {
          float acc = 0;
          for (std::int64_t r = 0; r < repeats; ++r) acc += x((i + r * 4099) % n);
          s(i) = acc;
        });
        batch.record_stream(compute);  // what the DataLoader does before handing a batch over
      }  // freed while the kernel may still run
      kt::Tensor<float, D> next({n}, copy);  // the next batch, requested for the copy stream
      next.fill_(copy, 2.0f);               // must not land in the block still being read
      copy.fence();
      compute.fence();
      CHECK(kt::sum(sums).item() == doctest::Approx(double(n) * double(repeats)));
    }
  }
  cudaStreamDestroy(copy_stream);
}

#endif
