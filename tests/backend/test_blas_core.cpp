// Which back-end serves host float products when the linked BLAS runs kernels narrower than
// kt's own, or has none for small products: the rules on hand-picked OpenBLAS core names, the
// heuristic's choice and the tuning statistics that report it. ctest runs this file once more
// with OPENBLAS_CORETYPE=Prescott (OpenBLAS' SSE3 kernels), and in kt_tests_backend_avx2 (kt's
// kernel built for AVX2) with OPENBLAS_CORETYPE=Haswell, and says so in KT_TEST_BLAS_CORE:
// those runs really saw that core, and kt's choice followed the rules.

#include "kt_test.hpp"

#include <kt/backend/gemm.hpp>
#include <kt/backend/tuning.hpp>

#include <cstdlib>
#include <string>
#include <vector>

using kt::impl::SimdLevel;

TEST_CASE("OpenBLAS core names map to the vector units their kernels use") {
  CHECK(kt::impl::openblas_core_level("Prescott") == SimdLevel::Sse);
  CHECK(kt::impl::openblas_core_level("Nehalem") == SimdLevel::Sse);
  CHECK(kt::impl::openblas_core_level("Sandybridge") == SimdLevel::Avx);
  CHECK(kt::impl::openblas_core_level("Haswell") == SimdLevel::Avx2Fma);
  CHECK(kt::impl::openblas_core_level("ZEN") == SimdLevel::Avx2Fma);
  CHECK(kt::impl::openblas_core_level("SkylakeX") == SimdLevel::Avx512);
  CHECK(kt::impl::openblas_core_level("SapphireRapids") == SimdLevel::Avx512);
  CHECK(kt::impl::openblas_core_level("SomethingNew") == SimdLevel::Sse);
}

TEST_CASE("kt passes over a BLAS whose kernels use narrower vector units than its own") {
  using kt::impl::blas_core_loses;
  // No FMA in the BLAS's kernels, FMA in kt's: kt, whatever the width of 512-bit units.
  CHECK(blas_core_loses("Prescott", SimdLevel::Avx512, true));
  CHECK(blas_core_loses("Prescott", SimdLevel::Avx512, false));
  CHECK(blas_core_loses("Sandybridge", SimdLevel::Avx2Fma, false));
  // 256-bit FMA kernels: kt only where its AVX-512 kernel runs at full width (Zen 5, Intel).
  CHECK(blas_core_loses("Haswell", SimdLevel::Avx512, true));
  CHECK_FALSE(blas_core_loses("Haswell", SimdLevel::Avx512, false));  // Zen 4: two 256-bit halves
  CHECK_FALSE(blas_core_loses("Zen", SimdLevel::Avx2Fma, true));      // kt built for AVX2 only
  // As wide as kt's kernel, or kt's kernel no better, or not OpenBLAS: BLAS keeps the products.
  CHECK_FALSE(blas_core_loses("SkylakeX", SimdLevel::Avx512, true));
  CHECK_FALSE(blas_core_loses("Prescott", SimdLevel::Avx, true));
  CHECK_FALSE(blas_core_loses("Prescott", SimdLevel::Sse, true));
  CHECK_FALSE(blas_core_loses("", SimdLevel::Avx512, true));
}

TEST_CASE("kt's small path serves small products where OpenBLAS' core has no kernels for them") {
  using kt::impl::blas_small_products_lose;
  // 256-bit FMA cores pack every product; kt's small path, as wide or wider, does not.
  CHECK(blas_small_products_lose("Haswell", SimdLevel::Avx2Fma));
  CHECK(blas_small_products_lose("Zen", SimdLevel::Avx2Fma));
  CHECK(blas_small_products_lose("Zen", SimdLevel::Avx512));  // kt built for AVX-512, BLAS kept for larger products
  CHECK(blas_small_products_lose("Prescott", SimdLevel::Avx2Fma));
  // The AVX-512 cores have small-product kernels; kt's kernel without FMA or narrower: BLAS.
  CHECK_FALSE(blas_small_products_lose("SkylakeX", SimdLevel::Avx512));
  CHECK_FALSE(blas_small_products_lose("Cooperlake", SimdLevel::Avx2Fma));
  CHECK_FALSE(blas_small_products_lose("Haswell", SimdLevel::Avx));
  CHECK_FALSE(blas_small_products_lose("Prescott", SimdLevel::Sse));
  CHECK_FALSE(blas_small_products_lose("", SimdLevel::Avx512));
}

TEST_CASE_TEMPLATE("the tuning statistics count the products each back-end ran", D, KT_HOST_DEVICES) {
  kt::tuning::clear();
  const auto a = kt::rand<float, D>({64, 48}, 1);
  const auto b = kt::rand<float, D>({48, 32}, 2);
  (void)kt::matmul(a, b);
  (void)kt::matmul(a, b);
  auto s = kt::tuning::stats();
  CHECK(s.blas_calls + s.eigen_calls + s.kokkos_calls == 2);
  CHECK(s.cublas_calls == 0);
  // The heuristic's choice for this small product (64 x 32 x 48, B as stored): BLAS unless kt
  // passes over its core or its small path beats the core at small products.
  kt::GemmProblem<float> p;
  p.m = 64;
  p.n = 32;
  p.k = 48;
  const auto choice = kt::impl::gemm_heuristic<D>(p, 1).backend;
  if (kt::impl::have_blas_gemm) {
    const bool on_kt = s.blas_bypassed || kt::impl::blas_core().small_on_kt;
    CHECK(choice == (on_kt ? kt::GemmBackend::Kokkos : kt::GemmBackend::Blas));
    CHECK((on_kt ? s.kokkos_calls : s.blas_calls) == 2);
  }
  kt::tuning::set_deterministic(true);  // deterministic mode: kt's kernel, whatever the BLAS
  (void)kt::matmul(a, b);
  kt::tuning::set_deterministic(false);
  CHECK(kt::tuning::stats().kokkos_calls == s.kokkos_calls + 1);
  kt::tuning::clear();
  CHECK(kt::tuning::stats().kokkos_calls == 0);
}

TEST_CASE("the linked BLAS core is the one the test run expects, and kt's choice follows it") {
  const auto s = kt::tuning::stats();
  const bool full = kt::impl::cpu_full_width_avx512();
  MESSAGE("BLAS core: '" << s.blas_core << "', kt's kernel: " << std::string(kt::impl::to_string(kt::impl::kt_kernel_level()))
                         << ", full-width AVX-512: " << full << ", BLAS passed over: " << s.blas_bypassed);
  CHECK(s.blas_bypassed == kt::impl::blas_core_loses(s.blas_core, kt::impl::kt_kernel_level(), full));
  CHECK(kt::impl::blas_core().small_on_kt == kt::impl::blas_small_products_lose(s.blas_core, kt::impl::kt_kernel_level()));
  if (const char* expected = std::getenv("KT_TEST_BLAS_CORE")) CHECK(s.blas_core == expected);
}
