// kt::Runtime's lifetime rules, tested in a process that starts without Kokkos (this
// executable has doctest's own main, not tests/main.cpp).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <kt/kt.hpp>

#include <optional>
#include <string>

TEST_CASE("Runtime finalises Kokkos only after the last tensor is released") {
  REQUIRE_FALSE(Kokkos::is_initialized());
  std::optional<kt::Tensor<float, kt::Host>> survivor;
  {
    kt::Runtime runtime(kt::RuntimeOptions().threads(2));
    CHECK(runtime.owns_kokkos());
    CHECK(Kokkos::is_initialized());
#if defined(KOKKOS_ENABLE_OPENMP) && !defined(KOKKOS_ENABLE_CUDA)
    CHECK(kt::DefaultDevice().concurrency() == 2);  // RuntimeOptions().threads(2) took effect
#endif
#if defined(KOKKOS_ENABLE_CUDA)
    // A Cuda build starts without a GPU too: the host devices work, Cuda reports unavailable.
    CHECK(kt::is_available<kt::Cuda>() == (kt::impl::cuda_device_count() > 0));
    CHECK(kt::impl::cuda_disabled() == (kt::impl::cuda_device_count() == 0));
#endif
    survivor = kt::full<float, kt::Host>({4}, 2.5f);
    {
      kt::Runtime nested;  // Kokkos is already up: this guard leaves it alone
      CHECK_FALSE(nested.owns_kokkos());
    }
#if defined(KOKKOS_ENABLE_OPENMP)
    {
      // Options Kokkos already runs with are fine; others cannot take effect and say so.
      kt::Runtime same(kt::RuntimeOptions().threads(static_cast<int>(Kokkos::OpenMP().concurrency())));
      CHECK_FALSE(same.owns_kokkos());
      std::string error;
      try {
        kt::Runtime other(kt::RuntimeOptions().threads(static_cast<int>(Kokkos::OpenMP().concurrency()) + 1));
      } catch (const kt::Error& e) {
        error = e.message();
      }
      const int n = static_cast<int>(Kokkos::OpenMP().concurrency());
      CHECK(error.find("Kokkos is already running with " + std::to_string(n) + " host threads, so RuntimeOptions().threads(" +
                       std::to_string(n + 1) + ") cannot take effect") != std::string::npos);
    }
#endif
    CHECK(Kokkos::is_initialized());
  }
  // The Runtime is gone but a tensor lives: Kokkos must still be up and the tensor usable.
  CHECK(Kokkos::is_initialized());
  CHECK(kt::impl::RuntimeState::instance().finalize_pending());
  CHECK(survivor->to_vector()[3] == 2.5f);
  survivor.reset();  // the last allocation goes: now Kokkos finalises
  CHECK_FALSE(Kokkos::is_initialized());
  CHECK_FALSE(kt::impl::RuntimeState::instance().finalize_pending());
}
