// Forward values of softmax, log_softmax and layer_norm against references written here in
// double from their definitions (max-shifted exp and log-sum-exp; biased variance), along
// every dimension of a rank-3 tensor, with magnitudes that overflow a naive exp. A constant
// shift, a wrong normaliser or a wrong axis fails these, not only the gradient checks.

#include "kt_test.hpp"

#include <kt/functional/layer_norm.hpp>
#include <kt/functional/softmax.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

constexpr std::int64_t kShape[3] = {2, 3, 5};

/// Index of element (i, j, k) of a contiguous (2, 3, 5) tensor.
std::size_t at(std::int64_t i, std::int64_t j, std::int64_t k) {
  return static_cast<std::size_t>((i * kShape[1] + j) * kShape[2] + k);
}

/// softmax or log_softmax of x along `dim` of the (2, 3, 5) tensor, in double.
std::vector<double> softmax_reference(const std::vector<double>& x, int dim, bool log) {
  std::vector<double> y(x.size());
  std::int64_t idx[3];
  for (idx[0] = 0; idx[0] < kShape[0]; ++idx[0])
    for (idx[1] = 0; idx[1] < kShape[1]; ++idx[1])
      for (idx[2] = 0; idx[2] < kShape[2]; ++idx[2]) {
        if (idx[dim] != 0) continue;  // one row per position with index 0 along dim
        std::int64_t r[3] = {idx[0], idx[1], idx[2]};
        double m = -INFINITY;
        for (r[dim] = 0; r[dim] < kShape[dim]; ++r[dim]) m = std::max(m, x[at(r[0], r[1], r[2])]);
        double s = 0;
        for (r[dim] = 0; r[dim] < kShape[dim]; ++r[dim]) s += std::exp(x[at(r[0], r[1], r[2])] - m);
        for (r[dim] = 0; r[dim] < kShape[dim]; ++r[dim]) {
          const double v = x[at(r[0], r[1], r[2])] - m;
          y[at(r[0], r[1], r[2])] = log ? v - std::log(s) : std::exp(v) / s;
        }
      }
  return y;
}

/// Inputs spread over ±(scale), so that exp(x) overflows for scale 1000.
std::vector<double> spread(double scale) {
  std::vector<double> x(static_cast<std::size_t>(kShape[0] * kShape[1] * kShape[2]));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = scale * std::sin(1.7 * static_cast<double>(i) + 0.3);
  return x;
}

template <class T>
void check_close(const std::vector<T>& got, const std::vector<double>& want, double tol) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i);
    CHECK(static_cast<double>(got[i]) == doctest::Approx(want[i]).epsilon(tol).scale(1.0));
  }
}

}  // namespace

TEST_CASE_TEMPLATE("softmax and log_softmax equal a double reference along every dimension", D, KT_DEVICES) {
  for (double scale : {1.0, 1000.0}) {
    const auto xs = spread(scale);
    const auto x64 = kt::from_host<double, D>(xs, {kShape[0], kShape[1], kShape[2]});
    const auto x32 = x64.template to<float>();
    for (int dim : {0, 1, 2, -1}) {
      CAPTURE(scale);
      CAPTURE(dim);
      const int d = dim < 0 ? dim + 3 : dim;
      const auto p = softmax_reference(xs, d, false), logp = softmax_reference(xs, d, true);
      check_close(kt::softmax(kt::Var<double, D>(x64), dim).data().to_vector(), p, 1e-14);
      check_close(kt::log_softmax(kt::Var<double, D>(x64), dim).data().to_vector(), logp, 1e-13);
      check_close(kt::softmax(kt::Var<float, D>(x32), dim).data().to_vector(), p, 1e-6);
      // float log-probabilities reach ~-2000 at scale 1000: compare relative to their size.
      check_close(kt::log_softmax(kt::Var<float, D>(x32), dim).data().to_vector(), logp, 1e-6);
    }
  }
  // Hand-computed: softmax([0, ln 3]) = [1/4, 3/4]; log_softmax = [-ln 4, ln 3 - ln 4].
  const auto two = kt::from_host<double, D>(std::vector<double>{0.0, std::log(3.0)}, {1, 2});
  check_close(kt::softmax(kt::Var<double, D>(two), 1).data().to_vector(), {0.25, 0.75}, 1e-15);
  check_close(kt::log_softmax(kt::Var<double, D>(two), 1).data().to_vector(),
              {-std::log(4.0), std::log(3.0) - std::log(4.0)}, 1e-15);
}

TEST_CASE_TEMPLATE("layer_norm equals a double reference, with and without weight and bias", D, KT_DEVICES) {
  const auto xs = spread(3.0);
  const auto x = kt::from_host<double, D>(xs, {kShape[0], kShape[1], kShape[2]});
  const std::vector<double> w{0.5, -1.0, 2.0, 1.5, 0.25}, b{0.1, 0.2, -0.3, 0.0, 1.0};
  const double eps = 1e-5;
  for (bool two_dims : {false, true}) {
    CAPTURE(two_dims);
    // Rows of 5 (normalized_shape {5}) or of 15 ({3, 5}).
    const std::size_t n = two_dims ? 15 : 5;
    std::vector<double> plain(xs.size()), affine(xs.size());
    for (std::size_t row = 0; row < xs.size() / n; ++row) {
      double mean = 0, var = 0;
      for (std::size_t k = 0; k < n; ++k) mean += xs[row * n + k];
      mean /= static_cast<double>(n);
      for (std::size_t k = 0; k < n; ++k) var += (xs[row * n + k] - mean) * (xs[row * n + k] - mean);
      var /= static_cast<double>(n);  // biased, as torch
      for (std::size_t k = 0; k < n; ++k) {
        plain[row * n + k] = (xs[row * n + k] - mean) / std::sqrt(var + eps);
        affine[row * n + k] = plain[row * n + k] * w[k % 5] + b[k % 5];
      }
    }
    const std::vector<std::int64_t> shape = two_dims ? std::vector<std::int64_t>{3, 5} : std::vector<std::int64_t>{5};
    const kt::Shape param_shape(shape);
    std::vector<double> wv, bv;
    for (std::size_t k = 0; k < n; ++k) {
      wv.push_back(w[k % 5]);
      bv.push_back(b[k % 5]);
    }
    const kt::Var<double, D> weight(kt::from_host<double, D>(wv, param_shape)), bias(kt::from_host<double, D>(bv, param_shape));
    check_close(kt::layer_norm(kt::Var<double, D>(x), shape, kt::Var<double, D>(), kt::Var<double, D>(), eps)
                    .data().to_vector(), plain, 1e-12);
    check_close(kt::layer_norm(kt::Var<double, D>(x), shape, weight, bias, eps).data().to_vector(), affine, 1e-12);
    const kt::Var<float, D> wf(weight.data().template to<float>()), bf(bias.data().template to<float>());
    check_close(kt::layer_norm(kt::Var<float, D>(x.template to<float>()), shape, wf, bf, eps).data().to_vector(),
                affine, 2e-6);
  }
}

TEST_CASE_TEMPLATE("layer_norm's options give its positional form's values and check elementwise_affine", D, KT_DEVICES) {
  const auto x = kt::randn<float, D>({4, 2, 3}, 21);
  const kt::Var<float, D> w(kt::randn<float, D>({2, 3}, 22), true), b(kt::randn<float, D>({2, 3}, 23), true);
  const auto positional = kt::layer_norm(kt::Var<float, D>(x), {2, 3}, w, b, 0.5).data().to_vector();
  const auto options = kt::LayerNormOptions({2, 3}).eps(0.5);
  CHECK(kt::layer_norm(kt::Var<float, D>(x), options, w, b).data().to_vector() == positional);
  CHECK(kt::layer_norm(x, options, w, b).data().to_vector() == positional);  // a Tensor input
  // eps is read from the options: the default 1e-5 gives other values.
  CHECK(kt::layer_norm(kt::Var<float, D>(x), kt::LayerNormOptions({2, 3}), w, b).data().to_vector() != positional);
  const auto no_affine = kt::LayerNormOptions({2, 3}).elementwise_affine(false);
  CHECK(kt::layer_norm(kt::Var<float, D>(x), no_affine).data().to_vector() ==
        kt::layer_norm(kt::Var<float, D>(x), {2, 3}).data().to_vector());
  CHECK_THROWS_WITH_AS(kt::layer_norm(kt::Var<float, D>(x), no_affine, w), doctest::Contains("elementwise_affine(false)"),
                       kt::Error);
}
