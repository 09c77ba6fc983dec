// Losses against hand-computed values and finite differences; bad targets and shapes.

#include "autograd/gradcheck.hpp"
#include "kt_test.hpp"

#include <kt/functional/cross_entropy.hpp>
#include <kt/functional/mse_loss.hpp>
#include <kt/functional/nll_loss.hpp>
#include <kt/nn/loss.hpp>

#include <limits>

#include <cmath>

using kt_test::error_of;
using kt::Reduction;

namespace {
// The cross-entropy of one row, computed directly from the definition in double.
double row_loss(const std::vector<double>& x, std::size_t row, std::size_t classes, std::int64_t target, double eps) {
  double m = -1e300;
  for (std::size_t j = 0; j < classes; ++j) m = std::max(m, x[row * classes + j]);
  double s = 0;
  for (std::size_t j = 0; j < classes; ++j) s += std::exp(x[row * classes + j] - m);
  const double lse = m + std::log(s);
  double loss = 0;
  for (std::size_t j = 0; j < classes; ++j) {
    const double q = (1 - eps) * (static_cast<std::int64_t>(j) == target ? 1 : 0) + eps / static_cast<double>(classes);
    loss -= q * (x[row * classes + j] - lse);
  }
  return loss;
}
}  // namespace

TEST_CASE_TEMPLATE("cross_entropy: values for each reduction and label smoothing", D, KT_DEVICES) {
  const auto logits = kt::rand<double, D>({4, 5}, 1, -3, 3);
  const auto target = kt::from_host<std::int64_t, D>({0, 4, 2, 2}, {4});
  const auto x = logits.to_vector();
  for (double eps : {0.0, 0.2}) {
    CAPTURE(eps);
    std::vector<double> want;
    double total = 0;
    for (std::size_t i = 0; i < 4; ++i) {
      want.push_back(row_loss(x, i, 5, target.to_vector()[i], eps));
      total += want.back();
    }
    const auto opts = kt::CrossEntropyOptions().label_smoothing(eps);
    kt::Var<double, D> z(logits);
    CHECK(kt_test::all_close(kt::cross_entropy(z, target, kt::CrossEntropyOptions(opts).reduction(Reduction::None)).data().to_vector(), want));
    CHECK(kt::cross_entropy(z, target, opts).item() == doctest::Approx(total / 4).epsilon(1e-12));
    CHECK(kt::cross_entropy(z, target, kt::CrossEntropyOptions(opts).reduction(Reduction::Sum)).item() ==
          doctest::Approx(total).epsilon(1e-12));
  }
  // Large logits do not overflow.
  kt::Var<float, D> big(kt::from_host<float, D>({1000.f, 0.f, -1000.f}, {1, 3}));
  CHECK(kt::cross_entropy(big, kt::from_host<std::int64_t, D>(std::vector<std::int64_t>{0}, {1})).item() == doctest::Approx(0.0));
  CHECK(kt::cross_entropy(big, kt::from_host<std::int64_t, D>(std::vector<std::int64_t>{1}, {1})).item() == doctest::Approx(1000.0));
}

TEST_CASE_TEMPLATE("cross_entropy: ignore_index rows count for nothing", D, KT_DEVICES) {
  const auto logits = kt::rand<double, D>({3, 4}, 2, -1, 1);
  const auto x = logits.to_vector();
  kt::Var<double, D> z(logits, true);
  auto loss = kt::cross_entropy(z, kt::from_host<std::int64_t, D>({1, -100, 3}, {3}));
  CHECK(loss.item() == doctest::Approx((row_loss(x, 0, 4, 1, 0) + row_loss(x, 2, 4, 3, 0)) / 2).epsilon(1e-12));
  loss.backward();
  const auto g = z.grad().to_vector();
  for (std::size_t j = 4; j < 8; ++j) CHECK(g[j] == 0.0);
}

TEST_CASE_TEMPLATE("gradcheck: cross_entropy, nll_loss and mse_loss", D, KT_DEVICES) {
  using Vars = std::vector<kt::Var<double, D>>;
  const auto logits = kt::rand<double, D>({4, 3}, 3, -2, 2);
  const auto target = kt::from_host<std::int64_t, D>({2, 0, 1, 1}, {4});
  for (Reduction r : {Reduction::Mean, Reduction::Sum, Reduction::None})
    for (double eps : {0.0, 0.1}) {
      const auto opts = kt::CrossEntropyOptions().reduction(r).label_smoothing(eps);
      CHECK(kt_test::gradcheck<D>([&](const Vars& v) { return kt::cross_entropy(v[0], target, opts); }, {logits}));
    }
  CHECK(kt_test::gradcheck<D>([&](const Vars& v) { return kt::nll_loss(kt::log_softmax(v[0], 1), target); }, {logits}));
  CHECK(kt_test::gradcheck<D>([&](const Vars& v) { return kt::nll_loss(v[0], target, kt::NLLLossOptions().reduction(Reduction::None)); }, {logits}));
  const auto y = kt::rand<double, D>({4, 3}, 4);
  for (Reduction r : {Reduction::Mean, Reduction::Sum, Reduction::None})
    CHECK(kt_test::gradcheck<D>([&](const Vars& v) { return kt::mse_loss(v[0], v[1], kt::MSELossOptions().reduction(r)); }, {logits, y}));
}

TEST_CASE_TEMPLATE("losses: values of nll_loss and mse_loss", D, KT_DEVICES) {
  kt::Var<double, D> lp(kt::from_host<double, D>({-1, -2, -3, -4}, {2, 2}));
  CHECK(kt::nll_loss(lp, kt::from_host<std::int64_t, D>({1, 0}, {2})).item() == doctest::Approx(2.5));
  kt::Var<double, D> a(kt::from_host<double, D>({1, 2, 3}, {3})), b(kt::from_host<double, D>({1, 0, 6}, {3}));
  CHECK(kt::mse_loss(a, b).item() == doctest::Approx(13.0 / 3));
  CHECK(kt::mse_loss(a, b, kt::MSELossOptions().reduction(Reduction::Sum)).item() == doctest::Approx(13.0));
}

TEST_CASE_TEMPLATE("losses: bad targets and shapes raise kt::Error", D, KT_DEVICES) {
  kt::Var<float, D> z(kt::zeros<float, D>({3, 4}));
  // Target values are checked on the device: raised by the op on host devices, at the next
  // host wait (here item()) on a GPU (tests/functional/test_device_errors.cpp).
  CHECK(error_of([&] { (void)kt::cross_entropy(z, kt::from_host<std::int64_t, D>({0, 4, 1}, {3})).item(); })
            .rfind("kt::cross_entropy: 1 target is outside [0, 4), the first at index 1 (value 4)", 0) == 0);
  CHECK(error_of([&] { (void)kt::cross_entropy(z, kt::from_host<std::int64_t, D>({0, 1}, {2})); }) ==
        "kt::cross_entropy: expected targets of shape (3) for scores (3, 4), got (2)");
  CHECK(error_of([&] { (void)kt::cross_entropy(kt::Var<float, D>(kt::zeros<float, D>({4})), kt::zeros<std::int64_t, D>({4})); })
            .find("expected scores of shape (N, C), got (4)") != std::string::npos);
  CHECK(error_of([&] { (void)kt::nll_loss(z, kt::from_host<std::int64_t, D>({-1, 0, 0}, {3})).item(); })
            .find("outside [0, 4)") != std::string::npos);
  CHECK(error_of([&] { (void)kt::mse_loss(z, kt::Var<float, D>(kt::zeros<float, D>({4, 3}))); }) ==
        "kt::mse_loss: input (3, 4) and target (4, 3) differ in shape");
}

TEST_CASE_TEMPLATE("losses: Tensor operands, loss modules, and a mean over no counted target is NaN", D, KT_DEVICES) {
  // A Tensor target (or prediction) is a constant: mse_loss(Var, Tensor) and (Tensor, Var).
  kt::Var<double, D> a(kt::from_host<double, D>({1, 2, 3}, {3}), true);
  const auto b = kt::from_host<double, D>({1, 0, 6}, {3});
  CHECK(kt::mse_loss(a, b).item() == doctest::Approx(13.0 / 3));
  CHECK(kt::mse_loss(b, a).item() == doctest::Approx(13.0 / 3));
  kt::mse_loss(a, b).backward();
  CHECK(kt_test::all_close(a.grad().to_vector(), {0.0, 4.0 / 3, -2.0}));
  // Modules hold their options and call the functions.
  kt::nn::MSELoss sum_mse(kt::MSELossOptions().reduction(Reduction::Sum));
  CHECK(sum_mse(a, b).item() == doctest::Approx(13.0));
  kt::Var<double, D> lp(kt::from_host<double, D>({-1, -2, -3, -4}, {2, 2}));
  const auto t = kt::from_host<std::int64_t, D>({1, 0}, {2});
  CHECK(kt::nn::NLLLoss()(lp, t).item() == doctest::Approx(2.5));
  const std::vector<double> scores{-1, -2, -3, -4};
  CHECK(kt::nn::CrossEntropyLoss()(lp, t).item() ==
        doctest::Approx((row_loss(scores, 0, 2, 1, 0) + row_loss(scores, 1, 2, 0, 0)) / 2).epsilon(1e-12));
  CHECK(kt::nn::CrossEntropyLoss(kt::CrossEntropyOptions().reduction(Reduction::Sum))(lp, t).item() ==
        doctest::Approx(row_loss(scores, 0, 2, 1, 0) + row_loss(scores, 1, 2, 0, 0)).epsilon(1e-12));
  // PyTorch: the mean over zero counted targets is 0/0 = NaN (the sum is 0); the gradient is 0.
  const auto ignored = kt::from_host<std::int64_t, D>({-100, -100}, {2});
  kt::Var<double, D> z(kt::from_host<double, D>({1, 2, 3, 4}, {2, 2}), true);
  auto none = kt::cross_entropy(z, ignored);
  CHECK(std::isnan(none.item()));
  CHECK(std::isnan(kt::nll_loss(z, ignored).item()));
  CHECK(kt::cross_entropy(z, ignored, kt::CrossEntropyOptions().reduction(Reduction::Sum)).item() == 0.0);
  none.backward();
  CHECK(kt_test::all_close(z.grad().to_vector(), {0, 0, 0, 0}));
}

TEST_CASE_TEMPLATE("cross_entropy equals nll_loss(log_softmax) bit for bit", Case, KT_ALL_FLOAT_CASES) {
  using T = typename Case::dtype;
  using D = typename Case::device;
  // Both take each row's log-sum-exp from one function, so they agree to the last bit. Wide
  // rows, whose sums of exponentials round differently in float and in double; and narrow rows
  // in a count that host devices take partly in blocks of rows and partly one by one.
  for (const auto& [rows, classes] : {std::pair<std::int64_t, std::int64_t>{64, 1000}, {67, 10}}) {
    CAPTURE(rows);
    const auto logits = kt::rand<double, D>({rows, classes}, 5, -4, 4).template to<T>();
    std::vector<std::int64_t> labels;
    for (std::int64_t i = 0; i < rows; ++i) labels.push_back((i * 37 + 3) % classes);
    const auto target = kt::from_host<std::int64_t, D>(labels, {rows});
    kt::Var<T, D> z(logits);
    for (Reduction r : {Reduction::None, Reduction::Mean, Reduction::Sum}) {
      CAPTURE(static_cast<int>(r));
      const auto fused = kt::cross_entropy(z, target, kt::CrossEntropyOptions().reduction(r)).data().template to<double>();
      const auto composed =
          kt::nll_loss(kt::log_softmax(z, 1), target, kt::NLLLossOptions().reduction(r)).data().template to<double>();
      CHECK(fused.to_vector() == composed.to_vector());
    }
  }
}

TEST_CASE_TEMPLATE("cross_entropy: a -inf logit, a masked class, leaves the loss finite and its gradient zero", Case,
                   KT_ALL_FLOAT_CASES) {
  using T = typename Case::dtype;
  using D = typename Case::device;
  // As PyTorch: the masked class adds exp(-inf) = 0 to the row's sum. 20 rows: host devices
  // take 16 of them as a block and 4 one at a time. With label smoothing the masked class is
  // part of every row's target distribution, so the loss is +inf.
  const std::int64_t rows = 20, classes = 10, masked = 2;
  auto values = kt::rand<double, D>({rows, classes}, 11, -3, 3).to_vector();
  std::vector<std::int64_t> labels(rows);
  for (std::int64_t i = 0; i < rows; ++i) {
    values[i * classes + masked] = -std::numeric_limits<double>::infinity();
    labels[i] = (i * 3 + 1) % classes == masked ? 0 : (i * 3 + 1) % classes;
  }
  const auto logits = kt::from_host<double, D>(values, {rows, classes}).template to<T>();
  const auto target = kt::from_host<std::int64_t, D>(labels, {rows});
  kt::Var<T, D> z(logits, true);
  const auto none = kt::CrossEntropyOptions().reduction(Reduction::None);
  const auto loss = kt::cross_entropy(z, target, none);
  kt::sum(loss).backward();
  const auto l = loss.data().template to<double>().to_vector();
  const auto composed = kt::nll_loss(kt::log_softmax(z, 1), target, kt::NLLLossOptions().reduction(Reduction::None));
  CHECK(l == composed.data().template to<double>().to_vector());
  const auto g = z.grad().template to<double>().to_vector();
  for (std::int64_t i = 0; i < rows; ++i) {
    CAPTURE(i);
    CHECK(std::isfinite(l[i]));
    CHECK(l[i] > 0.0);
    CHECK(g[i * classes + masked] == 0.0);
  }
  const auto smoothed = kt::cross_entropy(z, target, kt::CrossEntropyOptions(none).label_smoothing(0.1));
  for (double v : smoothed.data().template to<double>().to_vector()) CHECK(v == std::numeric_limits<double>::infinity());
}

TEST_CASE_TEMPLATE("cross_entropy gives a row the same loss and gradient bits at any position", Case,
                   KT_ALL_FLOAT_CASES) {
  using T = typename Case::dtype;
  using D = typename Case::device;
  // 35 rows, row i a copy of row i % 5: host devices take rows 0-31 in two blocks of 16 (the
  // copies sit in different lanes) and rows 32-34 one at a time, so each path meets the others
  // on the same data. Label smoothing and an ignored target in the mix.
  const std::int64_t rows = 35, classes = 10, unique = 5;
  const auto source = kt::rand<double, D>({unique, classes}, 9, -6, 6).to_vector();
  std::vector<double> values(rows * classes);
  std::vector<std::int64_t> labels(rows);
  for (std::int64_t i = 0; i < rows; ++i) {
    const std::int64_t u = i % unique;
    for (std::int64_t j = 0; j < classes; ++j) values[i * classes + j] = source[u * classes + j];
    labels[i] = u == 3 ? -100 : (u * 3 + 1) % classes;
  }
  const auto logits = kt::from_host<double, D>(values, {rows, classes}).template to<T>();
  const auto target = kt::from_host<std::int64_t, D>(labels, {rows});
  kt::Var<T, D> z(logits, true);
  const auto loss = kt::cross_entropy(z, target, kt::CrossEntropyOptions().reduction(Reduction::None).label_smoothing(0.1));
  kt::sum(loss).backward();
  const auto l = loss.data().template to<double>().to_vector();
  const auto g = z.grad().template to<double>().to_vector();
  for (std::int64_t i = 0; i < rows; ++i) {
    CAPTURE(i);
    const std::int64_t u = i % unique;
    CHECK(l[i] == l[u]);
    for (std::int64_t j = 0; j < classes; ++j) CHECK(g[i * classes + j] == g[u * classes + j]);
  }
  CHECK(l[3] == 0.0);  // the ignored target
  CHECK(l[0] > 0.0);
}
