// kt::Var semantics: leaves and requires_grad, accumulation, NoGradGuard, detach, freed
// graphs and bad input.

#include "kt_test.hpp"

#include <kt/autograd/ops.hpp>

using kt_test::error_of;

TEST_CASE_TEMPLATE("Var: backward fills the gradients of leaves that require grad", D, KT_DEVICES) {
  kt::Var<double, D> w(kt::from_host<double, D>({1, 2, 3, 4}, {2, 2}), true);
  kt::Var<double, D> x(kt::from_host<double, D>({1, -1, 2, 0.5}, {2, 2}));
  auto loss = kt::sum(kt::matmul(x, w) * 2.0);
  CHECK(loss.requires_grad());
  CHECK_FALSE(loss.is_leaf());
  CHECK(loss.grad_fn_name() == "kt::sum");
  loss.backward();
  // d/dw sum(2 x w) = 2 xᵀ · ones: row k of the gradient is twice the sum of column k of x.
  CHECK(w.grad().to_vector() == std::vector<double>{6, 6, -1, -1});
  CHECK_FALSE(x.grad().defined());
}

TEST_CASE_TEMPLATE("Var: gradients accumulate across backward calls until zeroed", D, KT_DEVICES) {
  kt::Var<double, D> w(kt::from_host<double, D>({1, 2, 3}, {3}), true);
  kt::sum(w * w).backward();
  CHECK(w.grad().to_vector() == std::vector<double>{2, 4, 6});
  kt::sum(w * 3.0).backward();
  CHECK(w.grad().to_vector() == std::vector<double>{5, 7, 9});
  // A Var used twice in one graph gets both contributions.
  w.zero_grad();
  CHECK_FALSE(w.grad().defined());
  kt::sum(w + w).backward();
  CHECK(w.grad().to_vector() == std::vector<double>{2, 2, 2});
  w.zero_grad(/*set_to_none=*/false);
  CHECK(w.grad().to_vector() == std::vector<double>{0, 0, 0});
}

TEST_CASE_TEMPLATE("Var: leaf gradients never alias each other", D, KT_DEVICES) {
  // add passes the same gradient tensor to both inputs; accumulating into one must not
  // change the other.
  kt::Var<double, D> a(kt::zeros<double, D>({2}), true), b(kt::zeros<double, D>({2}), true);
  kt::sum(a + b).backward();
  kt::sum(a * 5.0).backward();
  CHECK(a.grad().to_vector() == std::vector<double>{6, 6});
  CHECK(b.grad().to_vector() == std::vector<double>{1, 1});
}

TEST_CASE_TEMPLATE("Var: NoGradGuard records nothing", D, KT_DEVICES) {
  kt::Var<double, D> w(kt::ones<double, D>({3}), true);
  {
    kt::NoGradGuard no_grad;
    CHECK_FALSE(kt::GradMode::is_enabled());
    auto y = kt::sum(kt::exp(w) * 2.0);
    CHECK_FALSE(y.requires_grad());
    CHECK(y.is_leaf());
    CHECK(error_of([&] { y.backward(); }).find("does not require grad") != std::string::npos);
    {
      kt::EnableGradGuard enable;
      CHECK(kt::sum(w).requires_grad());
    }
    CHECK_FALSE(kt::GradMode::is_enabled());
  }
  CHECK(kt::GradMode::is_enabled());
  CHECK_FALSE(w.grad().defined());
}

TEST_CASE_TEMPLATE("Var: detach cuts the graph and shares storage", D, KT_DEVICES) {
  kt::Var<double, D> w(kt::from_host<double, D>({1, 2}, {2}), true);
  auto y = w * 3.0;
  auto d = y.detach();
  CHECK_FALSE(d.requires_grad());
  CHECK(d.data().data() == y.data().data());
  kt::sum(y * d).backward();  // d is a constant: d/dw = 3 d
  CHECK(w.grad().to_vector() == std::vector<double>{9, 18});
}

TEST_CASE_TEMPLATE("Var: a freed graph cannot run backward again", D, KT_DEVICES) {
  kt::Var<double, D> w(kt::ones<double, D>({2}), true);
  auto loss = kt::sum(kt::tanh(w) * w);
  loss.backward();
  const std::string message = error_of([&] { loss.backward(); });
  CHECK(message.find("already freed") != std::string::npos);
  CHECK(message.find("kt::sum") != std::string::npos);
  // A graph sharing part of the freed one fails too, but a fresh forward pass works.
  CHECK(error_of([&] { kt::sum(w * 2.0).backward(); }).empty());
}

TEST_CASE_TEMPLATE("Var: bad input raises kt::Error", D, KT_DEVICES) {
  kt::Var<double, D> a(kt::ones<double, D>({2, 3}), true), b(kt::ones<double, D>({4, 5}), true);
  CHECK(error_of([&] { (void)kt::matmul(a, b); }).find("kt::matmul: inner dimensions differ") != std::string::npos);
  CHECK(error_of([&] { (void)(a + b); }).find("cannot be broadcast") != std::string::npos);
  auto y = a * 2.0;
  CHECK(error_of([&] { y.backward(); }).find("only for a one-element tensor") != std::string::npos);
  CHECK(error_of([&] { y.backward(kt::ones<double, D>({3})); }).find("has shape (3) but the tensor has shape (2, 3)") !=
        std::string::npos);
  CHECK(error_of([&] { y.requires_grad_(false); }).find("only leaves") != std::string::npos);
  kt::Var<double, D> undefined;
  CHECK(error_of([&] { (void)(undefined + a); }).find("undefined") != std::string::npos);
  CHECK(error_of([&] { (void)undefined.grad(); }).find("kt::Var::grad: the Var is undefined") != std::string::npos);
  CHECK(error_of([&] { a.set_grad(kt::ones<double, D>({3})); }).find("kt::Var::set_grad") != std::string::npos);
}

TEST_CASE_TEMPLATE("Var: backward with an explicit gradient", D, KT_DEVICES) {
  kt::Var<double, D> x(kt::from_host<double, D>({1, 2, 3}, {3}), true);
  auto y = x * x;
  y.backward(kt::from_host<double, D>({1, 0.5, -1}, {3}));
  CHECK(x.grad().to_vector() == std::vector<double>{2, 2, -6});
}

TEST_CASE_TEMPLATE("Var: float gradients run in float", D, KT_DEVICES) {
  kt::Var<float, D> w(kt::full<float, D>({4}, 0.5f), true);
  kt::mean(kt::relu(w) * w).backward();
  CHECK(w.grad().to_vector() == std::vector<float>{0.25f, 0.25f, 0.25f, 0.25f});
}

TEST_CASE_TEMPLATE("Var: a deep graph does not overflow the stack", D, KT_DEVICES) {
  kt::Var<double, D> x(kt::ones<double, D>({1}), true);
  kt::Var<double, D> y = x;
  for (int i = 0; i < 20000; ++i) y = y * 1.0;
  kt::sum(y).backward();
  CHECK(x.grad().item() == 1.0);
}
