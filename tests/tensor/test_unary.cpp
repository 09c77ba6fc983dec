#include "kt_test.hpp"

#include <functional>

namespace {
template <class T, class D, class KtOp, class RefOp>
void check_unary(const std::vector<double>& inputs, KtOp kt_op, RefOp ref_op, double tol = kt_test::tolerance<T>()) {
  std::vector<T> xs;
  for (double x : inputs) xs.push_back(T(static_cast<kt::compute_t<T>>(x)));
  std::vector<double> want;
  for (const T& x : xs) want.push_back(ref_op(double(static_cast<kt::compute_t<T>>(x))));
  const auto got = kt_op(kt::from_host<T, D>(xs)).to_vector();
  CHECK(kt_test::all_close(got, want, tol));
}
}  // namespace

TEST_CASE_TEMPLATE("unary math matches the C library", TestCase, KT_ALL_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  using Tensor = kt::Tensor<T, D>;
  const std::vector<double> any{-3.5, -1, -0.25, 0, 0.3, 1, 2.5, 7};
  const std::vector<double> positive{0.01, 0.5, 1, 2, 10, 100};
  const double tol = 2 * kt_test::tolerance<T>();
  check_unary<T, D>(any, [](const Tensor& x) { return kt::exp(x); }, [](double x) { return std::exp(x); }, tol);
  check_unary<T, D>(positive, [](const Tensor& x) { return kt::log(x); }, [](double x) { return std::log(x); }, tol);
  check_unary<T, D>(positive, [](const Tensor& x) { return kt::sqrt(x); }, [](double x) { return std::sqrt(x); }, tol);
  check_unary<T, D>(any, [](const Tensor& x) { return kt::tanh(x); }, [](double x) { return std::tanh(x); }, tol);
  check_unary<T, D>(any, [](const Tensor& x) { return kt::sin(x); }, [](double x) { return std::sin(x); }, tol);
  check_unary<T, D>(any, [](const Tensor& x) { return kt::cos(x); }, [](double x) { return std::cos(x); }, tol);
  check_unary<T, D>(any, [](const Tensor& x) { return kt::sigmoid(x); },
                    [](double x) { return 1 / (1 + std::exp(-x)); }, tol);
  check_unary<T, D>(any, [](const Tensor& x) { return kt::abs(x); }, [](double x) { return std::abs(x); });
  check_unary<T, D>(any, [](const Tensor& x) { return kt::relu(x); }, [](double x) { return std::max(x, 0.0); });
  check_unary<T, D>(any, [](const Tensor& x) { return -x; }, [](double x) { return -x; });
  check_unary<T, D>(any, [](const Tensor& x) { return kt::pow(x, 2); }, [](double x) { return x * x; }, tol);
  check_unary<T, D>(any, [](const Tensor& x) { return kt::clamp(x, -1, 2); },
                    [](double x) { return std::min(std::max(x, -1.0), 2.0); });
}

TEST_CASE_TEMPLATE("sigmoid and tanh saturate without overflow", TestCase, KT_FLOAT_CASES) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto x = kt::from_host<T, D>(std::vector<T>{-1000, 1000});
  const auto s = kt::sigmoid(x).to_vector(), t = kt::tanh(x).to_vector();
  CHECK(s[0] == T(0));
  CHECK(s[1] == T(1));
  CHECK(t[0] == T(-1));
  CHECK(t[1] == T(1));
}

TEST_CASE_TEMPLATE("relu, abs and clamp work on integers and keep NaN", TestCase, KT_CASES(std::int32_t),
                   KT_CASES(float)) {
  using T = typename TestCase::dtype;
  using D = typename TestCase::device;
  auto x = kt::from_host<T, D>(std::vector<T>{-5, 0, 3});
  CHECK(kt::relu(x).to_vector() == std::vector<T>{0, 0, 3});
  CHECK(kt::abs(x).to_vector() == std::vector<T>{5, 0, 3});
  CHECK(kt::clamp(x, -1, 1).to_vector() == std::vector<T>{-1, 0, 1});
  CHECK((-x).to_vector() == std::vector<T>{5, 0, -3});
  if constexpr (std::is_floating_point_v<T>) {
    auto n = kt::full<T, D>({1}, std::numeric_limits<T>::quiet_NaN());
    CHECK(std::isnan(kt::relu(n).item()));
    CHECK(std::isnan(kt::clamp(n, 0, 1).item()));
  }
  CHECK(kt_test::error_of([&] { kt::clamp(x, 2, 1); }) == "kt::clamp: lo (2) must not exceed hi (1)");
}
