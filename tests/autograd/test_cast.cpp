// Var::to<U>(): a differentiable dtype cast. The value is converted, the gradient flows back
// converted to the input's dtype, and graphs that mix dtypes are swept in one order (a
// variable used directly and through a cast gets both gradients before its node runs).

#include "kt_test.hpp"

#include <vector>

TEST_CASE_TEMPLATE("Var::to casts values and gradients between float and 16-bit dtypes", D, KT_DEVICES) {
  kt::Var<float, D> w(kt::from_host<float, D>({0.5f, -1.25f, 3.0f}, {3}), true);
  const auto c = kt::from_host<float, D>({2.0f, 4.0f, -8.0f}, {3});
  auto h = w.template to<kt::bfloat16>();
  CHECK(h.grad_fn_name() == "kt::Var::to");
  CHECK(static_cast<float>(h.data().to_vector()[1]) == -1.25f);
  // loss = sum(float(bf16(w) * bf16(c))): d loss / d w = c (exact in both dtypes).
  auto loss = kt::sum((h * kt::Var<kt::bfloat16, D>(c.template to<kt::bfloat16>())).template to<float>());
  CHECK(loss.item() == 1.0f - 5.0f - 24.0f);
  loss.backward();
  CHECK(w.grad().to_vector() == std::vector<float>{2.0f, 4.0f, -8.0f});

  // The same through half, and to<float>() of a float Var is that Var.
  kt::Var<float, D> v(kt::from_host<float, D>({1.0f, 2.0f}, {2}), true);
  kt::sum(v.template to<kt::half>() * kt::half(3.0f)).backward();
  CHECK(v.grad().to_vector() == std::vector<float>{3.0f, 3.0f});
  CHECK(v.template to<float>().is_same(v));
}

TEST_CASE_TEMPLATE("a graph that mixes dtypes is swept in one order", D, KT_DEVICES) {
  kt::Var<float, D> w(kt::from_host<float, D>({1.0f, 2.0f}, {2}), true);
  auto x = w * 2.0f;                                   // float, used twice:
  auto through_half = x.template to<kt::half>().template to<double>() * 3.0;  // float -> half -> double
  auto loss = kt::sum(through_half).template to<float>() + kt::sum(x);
  loss.backward();
  // d loss / d w = 2 * (3 + 1), each path once.
  CHECK(w.grad().to_vector() == std::vector<float>{8.0f, 8.0f});
  // A second backward through the freed graph is an error, as for one dtype.
  CHECK(kt_test::error_of([&] { loss.backward(); }).find("was already freed by an earlier backward()") !=
        std::string::npos);
}

TEST_CASE("Var::to under NoGradGuard records nothing; constants stay constants") {
  kt::Var<float, kt::Host> w(kt::ones<float, kt::Host>({2}), true);
  {
    kt::NoGradGuard no_grad;
    CHECK(w.to<kt::half>().is_leaf());
    CHECK_FALSE(w.to<kt::half>().requires_grad());
  }
  kt::Var<float, kt::Host> c(kt::ones<float, kt::Host>({2}));
  CHECK_FALSE(c.to<double>().requires_grad());
}
