// Which back-end serves host float products when the linked BLAS runs kernels narrower than
// kt's own: the rule on hand-picked OpenBLAS core names, the heuristic's choice and the tuning
// statistics that report it. ctest runs this binary once more with OPENBLAS_CORETYPE=Prescott
// (OpenBLAS' SSE3 kernels) and says so in KT_TEST_BLAS_CORE: that run really saw that core,
// and kt's choice followed the rule.

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

TEST_CASE_TEMPLATE("the tuning statistics count the products each back-end ran", D, KT_HOST_DEVICES) {
  kt::tuning::clear();
  const auto a = kt::rand<float, D>({64, 48}, 1);
  const auto b = kt::rand<float, D>({48, 32}, 2);
  (void)kt::matmul(a, b);
  (void)kt::matmul(a, b);
  auto s = kt::tuning::stats();
  CHECK(s.blas_calls + s.eigen_calls + s.kokkos_calls == 2);
  CHECK(s.cublas_calls == 0);
  // The heuristic's choice: BLAS unless kt passes over its core.
  const auto choice = kt::impl::gemm_heuristic<D>(kt::GemmProblem<float>{}, 1).backend;
  if (kt::impl::have_blas_gemm) {
    CHECK(choice == (s.blas_bypassed ? kt::GemmBackend::Kokkos : kt::GemmBackend::Blas));
    CHECK((s.blas_bypassed ? s.kokkos_calls : s.blas_calls) == 2);
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
  if (const char* expected = std::getenv("KT_TEST_BLAS_CORE")) CHECK(s.blas_core == expected);
}
