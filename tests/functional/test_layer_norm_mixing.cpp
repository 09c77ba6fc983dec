// layer_norm with Tensor and Var operands mixed: the same values as with Vars, gradients
// reach the Var operands only.

#include "kt_test.hpp"

#include <kt/functional/layer_norm.hpp>

TEST_CASE_TEMPLATE("layer_norm takes a constant Tensor input with Var weight and bias", D, KT_DEVICES) {
  const auto x = kt::randn<double, D>({3, 4}, 11);
  kt::Var<double, D> w(kt::randn<double, D>({4}, 12), true), b(kt::randn<double, D>({4}, 13), true);
  const auto mixed = kt::layer_norm(x, {4}, w, b);
  static_assert(std::is_same_v<std::decay_t<decltype(mixed)>, kt::Var<double, D>>);
  const auto reference = kt::layer_norm(kt::Var<double, D>(x), {4}, w, b);
  CHECK(mixed.data().to_vector() == reference.data().to_vector());
  kt::sum(mixed).backward();
  CHECK(w.grad().defined());
  CHECK(b.grad().to_vector() == std::vector<double>(4, 3.0));  // d sum / d bias = rows
  // A Tensor weight with a Var input works the same way.
  kt::Var<double, D> xv(x, true);
  const auto y = kt::layer_norm(xv, {4}, w.data(), b.data());
  CHECK(y.data().to_vector() == reference.data().to_vector());
}
