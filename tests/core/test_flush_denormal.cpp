// kt::set_flush_denormal: every thread of the host pool gets FTZ and DAZ, kt's own kernels then
// give 0 where the product of two floats is subnormal, and switching it off brings the
// subnormal results back. Refused while a kt::StepGraph records.

#include "kt_test.hpp"

#include <kt/core/flush_denormal.hpp>
#include <kt/tensor/elementwise.hpp>
#include <kt/tensor/factories.hpp>
#include <kt/tensor/step_graph.hpp>

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#if KT_HAVE_FLUSH_DENORMAL
#include <xmmintrin.h>

namespace {

using FlushHost = Kokkos::DefaultHostExecutionSpace;

/// MXCSR's FTZ and DAZ bits on each thread of the host pool: one iteration per thread, the
/// schedule set_flush_denormal uses, checked to have met every thread once.
std::vector<unsigned> pool_flush_bits() {
  const int threads = FlushHost().concurrency();
  std::vector<unsigned> bits(static_cast<std::size_t>(threads), 0xffffffffu);
  std::vector<std::thread::id> ids(static_cast<std::size_t>(threads));
  using Policy = Kokkos::RangePolicy<FlushHost, Kokkos::IndexType<int>>;
  Kokkos::parallel_for(Policy(0, threads, Kokkos::ChunkSize(1)), [&](int i) {
    bits[static_cast<std::size_t>(i)] = _mm_getcsr() & ((1u << 15) | (1u << 6));
    ids[static_cast<std::size_t>(i)] = std::this_thread::get_id();
  });
  CHECK(std::set<std::thread::id>(ids.begin(), ids.end()).size() == ids.size());
  return bits;
}

/// 1e-20 · 1e-20 (1e-40, subnormal in fp32) on `n` elements, through kt's elementwise kernel
/// on the host pool; the smallest and largest result.
std::pair<float, float> subnormal_products(std::int64_t n) {
  const auto a = kt::full<float, FlushHost>({n}, 1e-20f);
  const auto c = (a * a).to_vector();
  const auto [lo, hi] = std::minmax_element(c.begin(), c.end());
  return {*lo, *hi};
}

}  // namespace

TEST_CASE("set_flush_denormal sets FTZ and DAZ on every thread of the host pool and clears them again") {
  REQUIRE(kt::flush_denormal_supported());
  const unsigned both = (1u << 15) | (1u << 6);
  // Enough elements that every thread of the pool takes a piece of the product.
  const std::int64_t n = 2 * FlushHost().concurrency() * kt::impl::host_grain;
  CHECK(subnormal_products(n).first > 0.0f);  // the default keeps subnormals
  for (unsigned bits : pool_flush_bits()) CHECK(bits == 0u);

  CHECK(kt::set_flush_denormal(true));
  for (unsigned bits : pool_flush_bits()) CHECK(bits == both);
  CHECK((_mm_getcsr() & both) == both);
  CHECK(subnormal_products(n) == std::pair<float, float>{0.0f, 0.0f});

  CHECK(kt::set_flush_denormal(false));
  for (unsigned bits : pool_flush_bits()) CHECK(bits == 0u);
  CHECK((_mm_getcsr() & both) == 0u);
  const auto restored = subnormal_products(n);
  CHECK(restored.first > 0.0f);
  CHECK(restored.second < 1e-38f);
}

TEST_CASE_TEMPLATE("set_flush_denormal is refused inside a recorded step", D, KT_HOST_DEVICES) {
  // One warm-up call runs the step eagerly, where the switch is allowed; the next one records.
  auto step = kt::make_step_graph<D>(
      [](const kt::Tensor<float, D>& x) {
        kt::set_flush_denormal(true);
        return x * x;
      },
      kt::StepGraphOptions().warmup(1));
  const auto x = kt::ones<float, D>({4});
  CHECK(kt_test::error_of([&] { (void)step(x); }) == "");
  const std::string error = kt_test::error_of([&] { (void)step(x); });
  CHECK(error.find("kt::set_flush_denormal: called while a kt::StepGraph records a step") == 0);
  CHECK(kt::set_flush_denormal(false));
}

#else

TEST_CASE("set_flush_denormal reports that this CPU has no switch kt knows") {
  CHECK_FALSE(kt::flush_denormal_supported());
  CHECK_FALSE(kt::set_flush_denormal(true));
}

#endif
