// Tests of kt::impl::exp_inline (kt/core/impl/exp_inline.hpp), the float exp of the host row
// kernels (softmax, log_softmax, cross-entropy): a sweep of every 509th float from −110 to 90
// against double exp, correctly rounded to float, with the error counted in ulps of the
// reference (subnormal ones too); the edges of its range and of float's; infinities and NaN.
// Computed inside a Kokkos kernel on each device, as the row kernels call it.

#define KT_USES_INTERNALS  // tests an internal function
#include "kt_test.hpp"

#include <kt/core/impl/exp_inline.hpp>

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace {

/// |got − exp(x)| in units of the last place of exp(x) rounded to float (the spacing of
/// subnormals below float's normal range); infinities count as exact when both are.
double ulp_error(float got, float x) {
  const double exact = std::exp(static_cast<double>(x));
  const float rounded = static_cast<float>(exact);
  if (std::isinf(rounded)) return std::isinf(got) && got > 0 ? 0 : 1e9;
  const double smallest = std::ldexp(1.0, -149);
  double ulp = smallest;
  if (rounded >= std::numeric_limits<float>::min()) {
    int e = 0;
    std::frexp(rounded, &e);
    ulp = std::ldexp(1.0, e - 24);
  }
  return std::fabs(static_cast<double>(got) - exact) / ulp;
}

template <class D>
std::vector<float> exp_on(const std::vector<float>& x) {
  Kokkos::View<float*, typename D::memory_space> in("x", x.size()), out("exp", x.size());
  auto host = Kokkos::create_mirror_view(in);
  for (std::size_t i = 0; i < x.size(); ++i) host(i) = x[i];
  Kokkos::deep_copy(in, host);
  Kokkos::parallel_for(
      "exp_inline", Kokkos::RangePolicy<D>(0, x.size()),
      KOKKOS_LAMBDA(std::size_t i) { out(i) = kt::impl::exp_inline(in(i)); });
  Kokkos::deep_copy(host, out);
  return std::vector<float>(host.data(), host.data() + x.size());
}

}  // namespace

TEST_CASE_TEMPLATE("exp_inline is within 1.02 ulp of exp over the float range", D, KT_DEVICES) {
  std::vector<float> x;
  for (std::uint64_t u = 0; u < (std::uint64_t(1) << 32); u += 509) {
    const std::uint32_t bits = static_cast<std::uint32_t>(u);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    if (f >= -110.0f && f <= 90.0f) x.push_back(f);
  }
  REQUIRE(x.size() > 4000000);
  const std::vector<float> y = exp_on<D>(x);
  double worst = 0;
  float worst_x = 0;
  std::size_t rounded_otherwise = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double e = ulp_error(y[i], x[i]);
    if (e > worst) worst = e, worst_x = x[i];
    rounded_otherwise += y[i] != static_cast<float>(std::exp(static_cast<double>(x[i])));
  }
  INFO("worst at x = " << worst_x);
  CHECK(worst <= 1.02);
  // Most results are the correctly rounded ones (the polynomial is not merely close).
  CHECK(rounded_otherwise < x.size() / 50);
}

TEST_CASE_TEMPLATE("exp_inline at the edges: overflow, subnormals, zero, infinities and NaN", D, KT_DEVICES) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const float largest = 88.7228317f;  // the largest float whose exp is finite, 3.4027974e38
  const std::vector<float> x = {0.0f,  -0.0f, 1.0f,    -1.0f,   largest, std::nextafter(largest, inf),
                                100.0f, 1e30f, -87.5f, -100.0f, -103.9f, -103.98f,
                                -120.0f, -1e30f, inf,   -inf,    nan};
  const std::vector<float> y = exp_on<D>(x);
  CHECK(y[0] == 1.0f);
  CHECK(y[1] == 1.0f);
  CHECK(ulp_error(y[2], 1.0f) <= 1.02);
  CHECK(ulp_error(y[3], -1.0f) <= 1.02);
  CHECK(std::isfinite(y[4]));
  CHECK(ulp_error(y[4], largest) <= 1.02);
  CHECK(y[5] == inf);
  CHECK(y[6] == inf);
  CHECK(y[7] == inf);
  CHECK(ulp_error(y[8], -87.5f) <= 1.02);   // 9.98e-39, below float's smallest normal
  CHECK(ulp_error(y[9], -100.0f) <= 1.02);  // a subnormal, 3.7e-44
  CHECK(y[10] == std::ldexp(1.0f, -149));   // exp(−103.9) = 7.7e-46 rounds up to the smallest subnormal
  CHECK(y[11] == 0.0f);                     // exp(−103.98) = 6.5e-46 rounds to 0
  CHECK(y[12] == 0.0f);
  CHECK(y[13] == 0.0f);
  CHECK(y[14] == inf);
  CHECK(y[15] == 0.0f);
  CHECK(std::isnan(y[16]));
}
