// kt::clip_grad_norm_ against hand-computed norms.

#include "optim/reference.hpp"

#include <kt/optim/clip_grad.hpp>

#include <cmath>
#include <limits>
#include <string>

using namespace kt_optim_test;

TEST_CASE_TEMPLATE("kt::clip_grad_norm_ matches hand-computed norms", Case, KT_FLOAT_CASES) {
  using T = typename Case::dtype;
  using D = typename Case::device;
  const double tol = optim_tolerance<T>();
  auto a = kt::Var<T, D>(kt::zeros<T, D>({2}), true);
  auto b = kt::Var<T, D>(kt::zeros<T, D>({1, 1}), true);
  auto c = kt::Var<T, D>(kt::zeros<T, D>({3}), true);  // no gradient: skipped
  const std::vector<kt::Var<T, D>> ps{a, b, c};
  const auto set = [&] {
    a.set_grad(tensor_of<T, D>({3, -4}, {2}));
    b.set_grad(tensor_of<T, D>({12}, {1, 1}));
  };
  set();
  // Below the limit: the 2-norm is returned and nothing changes.
  CHECK(kt::clip_grad_norm_(ps, 100.0) == doctest::Approx(13.0).epsilon(tol));
  CHECK(values_of(a.grad()) == std::vector<double>{3, -4});
  // Above it: scaled by max_norm / (total + 1e-6).
  double total = kt::clip_grad_norm_(ps, 6.5);
  CHECK(total == doctest::Approx(13.0).epsilon(tol));
  const double coef = 6.5 / (13.0 + 1e-6);
  CHECK(close(values_of(a.grad()), {3 * coef, -4 * coef}, tol));
  CHECK(close(values_of(b.grad()), {12 * coef}, tol));
  CHECK(!c.grad().defined());
  // Max-norm.
  set();
  total = kt::clip_grad_norm_(ps, 6.0, kt::inf_norm);
  CHECK(total == 12.0);
  CHECK(close(values_of(b.grad()), {12 * (6.0 / (12.0 + 1e-6))}, tol));
  // 1-norm and 3-norm.
  set();
  CHECK(kt::clip_grad_norm_(ps, 100.0, 1.0) == doctest::Approx(19.0).epsilon(tol));
  CHECK(kt::clip_grad_norm_(ps, 100.0, 3.0) ==
        doctest::Approx(std::cbrt(27.0 + 64.0 + 1728.0)).epsilon(tol));
  // No gradients at all: 0.
  CHECK(kt::clip_grad_norm_(std::vector<kt::Var<T, D>>{c}, 1.0) == 0.0);
}

TEST_CASE_TEMPLATE("kt::clip_grad_norm_ with non-finite gradients", D, KT_DEVICES) {
  using kt_test::error_of;
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = kt::inf_norm;
  auto a = kt::Var<double, D>(kt::zeros<double, D>({3}), true);
  a.set_grad(tensor_of<double, D>({1, nan, 2}, {3}));
  CHECK(error_of([&] { kt::clip_grad_norm_(std::vector<kt::Var<double, D>>{a}, 1.0, 2.0, true); }) ==
        "kt::clip_grad_norm_: the total norm of order 2 of the gradients is nan, so they cannot be "
        "clipped; pass error_if_nonfinite = false to skip this check");
  // Without the check: NaN comes back, and the gradients become NaN (PyTorch's clamped coef).
  CHECK(std::isnan(kt::clip_grad_norm_(std::vector<kt::Var<double, D>>{a}, 1.0)));
  CHECK(std::isnan(values_of(a.grad())[0]));
  // An infinite gradient: total inf, coef 0.
  a.set_grad(tensor_of<double, D>({1, -inf, 2}, {3}));
  CHECK(kt::clip_grad_norm_(std::vector<kt::Var<double, D>>{a}, 1.0, kt::inf_norm) == inf);
  const auto g = values_of(a.grad());
  CHECK(g[0] == 0.0);
  CHECK(std::isnan(g[1]));
  CHECK(error_of([&] { kt::clip_grad_norm_(std::vector<kt::Var<double, D>>{a}, -1.0); }) ==
        "kt::clip_grad_norm_: max_norm is -1 (expected >= 0)");
  CHECK(error_of([&] { kt::clip_grad_norm_(std::vector<kt::Var<double, D>>{a}, 1.0, 0.0); }) ==
        "kt::clip_grad_norm_: norm_type is 0 (expected > 0, or kt::inf_norm)");
}

TEST_CASE("kt::clip_grad_norm_ is bit-identical on every host device") {
  // 3 x 10000 elements: several passes of the chunked reduction.
  const auto grad = kt::randn<float, kt::Serial>({3, 10000}, /*seed=*/7);
  double want = 0;
  for (double x : values_of(grad)) want += x * x;
  want = std::sqrt(want);
  auto s = kt::Var<float, kt::Serial>(kt::zeros<float, kt::Serial>({3, 10000}), true);
  s.set_grad(grad.clone());
  const double serial = kt::clip_grad_norm_(std::vector<kt::Var<float, kt::Serial>>{s}, 1e9);
  CHECK(serial == doctest::Approx(want).epsilon(1e-12));
#if defined(KOKKOS_ENABLE_OPENMP)
  auto o = kt::Var<float, kt::OpenMP>(kt::zeros<float, kt::OpenMP>({3, 10000}), true);
  o.set_grad(grad.template to<kt::OpenMP>().clone());
  CHECK(kt::clip_grad_norm_(std::vector<kt::Var<float, kt::OpenMP>>{o}, 1e9) == serial);
#endif
}
