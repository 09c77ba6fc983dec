// Finite-difference gradient checks of every differentiable op, on every enabled host device.

#include "autograd/gradcheck.hpp"

#include <kt/autograd/ops.hpp>

#include <algorithm>
#include <cstdint>

using kt_test::gradcheck;

namespace {

template <class D>
kt::Tensor<double, D> input(const kt::Shape& shape, std::uint64_t seed, double low = -1, double high = 1) {
  return kt::rand<double, D>(shape, seed, low, high);
}

template <class D>
using Vars = std::vector<kt::Var<double, D>>;

}  // namespace

TEST_CASE_TEMPLATE("gradcheck: arithmetic with broadcasting", D, KT_DEVICES) {
  const auto a = input<D>({3, 4}, 1), b = input<D>({4}, 2), c = input<D>({3, 1}, 3, 0.5, 2);
  CHECK(gradcheck<D>([](const Vars<D>& v) { return v[0] + v[1]; }, {a, b}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return v[0] - v[1]; }, {a, c}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return v[0] * v[1]; }, {a, b}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return v[0] / v[1]; }, {a, c}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return v[1] / v[0]; }, {c, a}));
}

TEST_CASE_TEMPLATE("gradcheck: arithmetic with scalars", D, KT_DEVICES) {
  const auto a = input<D>({2, 3}, 4, 0.5, 2);
  CHECK(gradcheck<D>([](const Vars<D>& v) { return (v[0] + 1.5) * 2.0 - 0.25; }, {a}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return 3.0 - v[0] / 4.0; }, {a}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return 2.0 / v[0] + 1.0 * v[0]; }, {a}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::pow(v[0], 3.0) + kt::pow(v[0], 0.5); }, {a}));
}

TEST_CASE_TEMPLATE("gradcheck: maximum and minimum", D, KT_DEVICES) {
  const auto a = input<D>({3, 4}, 5), b = input<D>({3, 4}, 6), r = input<D>({4}, 7);
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::maximum(v[0], v[1]); }, {a, b}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::minimum(v[0], v[1]); }, {a, r}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::maximum(v[0], 0.1) + kt::minimum(v[0], -0.2); }, {a}));
}

TEST_CASE_TEMPLATE("gradcheck: unary math", D, KT_DEVICES) {
  const auto x = input<D>({2, 5}, 8, -2, 2);
  const auto positive = input<D>({2, 5}, 9, 0.5, 3);
  CHECK(gradcheck<D>([](const Vars<D>& v) { return -v[0]; }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::abs(v[0]); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::relu(v[0]); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::gelu(v[0]); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::exp(v[0]); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::log(v[0]); }, {positive}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::sqrt(v[0]); }, {positive}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::tanh(v[0]); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::sigmoid(v[0]); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::sin(v[0]) * kt::cos(v[0]); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::clamp(v[0], -0.7, 0.9); }, {x}));
}

TEST_CASE_TEMPLATE("gradcheck: reductions", D, KT_DEVICES) {
  const auto x = input<D>({3, 4, 2}, 10);
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::sum(v[0]); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::mean(v[0]); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::sum(v[0], 1); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::mean(v[0], -1, true); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::max(v[0]) + kt::min(v[0]); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::max(v[0], 1); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::min(v[0], 0, true); }, {x}));
}

TEST_CASE_TEMPLATE("gradcheck: reshape transpose slice", D, KT_DEVICES) {
  const auto x = input<D>({4, 3, 2}, 11);
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::reshape(v[0], {6, -1}); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::flatten(v[0], 1); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::transpose(v[0], 0, 2); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::permute(v[0], {1, 2, 0}); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::slice(v[0], 1, 3) * kt::slice(v[0], -2, 4); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::select(v[0], 2) + kt::select(v[0], -1); }, {x}));
}

TEST_CASE_TEMPLATE("gradcheck: matmul incl. batched and broadcast", D, KT_DEVICES) {
  const auto a = input<D>({3, 4}, 12), b = input<D>({4, 2}, 13);
  const auto ba = input<D>({2, 3, 4}, 14), bb = input<D>({2, 4, 2}, 15), one = input<D>({1, 4, 2}, 16);
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::matmul(v[0], v[1]); }, {a, b}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::matmul(v[0], v[1]); }, {ba, bb}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::matmul(v[0], v[1]); }, {ba, b}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::matmul(v[0], v[1]); }, {a, bb}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::matmul(v[0], v[1]); }, {ba, one}));
}

TEST_CASE_TEMPLATE("matmul: both gradients of a product large enough to pair match a double reference", D,
                   KT_DEVICES) {
  // 128 x 192 x 160 in float: dA = C · Bᵀ and dB = Aᵀ · C are 7.9 MFLOP each, which a pool of two
  // threads runs at once on the BLAS (kt/backend/impl/gemm_pair.hpp); finite differences would
  // cost too much here, so the reference is the analytic gradient of sum((A · B) ⊙ C) in double.
  const std::int64_t m = 128, k = 192, n = 160;
  kt::Var<float, D> a(kt::rand<float, D>({m, k}, 30, -1, 1), true), b(kt::rand<float, D>({k, n}, 31, -1, 1), true);
  const auto c = kt::rand<float, D>({m, n}, 32, -1, 1);
  auto loss = kt::sum(kt::matmul(a, b) * kt::Var<float, D>(c));
  const std::int64_t pairs = kt_test::launches_during("kt::gemm::blas_pair", [&] { loss.backward(); });
  const bool paired = kt_test::runs_as_pair<D>({m, k, n}, {k, n, m});  // dA and dB
  CHECK(pairs == (paired ? 1 : 0));
  const auto av = a.data().to_vector(), bv = b.data().to_vector(), cv = c.to_vector();
  std::vector<double> da(std::size_t(m * k)), db(std::size_t(k * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t l = 0; l < k; ++l)
      for (std::int64_t j = 0; j < n; ++j) {
        da[std::size_t(i * k + l)] += double(cv[std::size_t(i * n + j)]) * bv[std::size_t(l * n + j)];
        db[std::size_t(l * n + j)] += double(av[std::size_t(i * k + l)]) * cv[std::size_t(i * n + j)];
      }
  const double tol = kt_test::tolerance<float>() * std::sqrt(double(std::max(m, n)));
  CHECK(kt_test::all_close(a.grad().to_vector(), da, tol));
  CHECK(kt_test::all_close(b.grad().to_vector(), db, tol));
}

TEST_CASE_TEMPLATE("gradcheck: softmax and log_softmax", D, KT_DEVICES) {
  const auto x = input<D>({3, 5}, 17, -3, 3);
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::softmax(v[0], 1); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::softmax(v[0], 0); }, {x}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::log_softmax(v[0], -1); }, {x}));
}

TEST_CASE_TEMPLATE("gradcheck: layer_norm", D, KT_DEVICES) {
  const auto x = input<D>({2, 3, 4}, 18, -2, 2), w = input<D>({4}, 19), b = input<D>({4}, 20);
  const auto w2 = input<D>({3, 4}, 21);
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::layer_norm(v[0], {4}, v[1], v[2]); }, {x, w, b}));
  CHECK(gradcheck<D>([](const Vars<D>& v) { return kt::layer_norm(v[0], {3, 4}, v[1]); }, {x, w2}));
}

TEST_CASE_TEMPLATE("gradcheck: dropout with a fixed seed", D, KT_DEVICES) {
  const auto x = input<D>({4, 6}, 22);
  CHECK(gradcheck<D>([](const Vars<D>& v) {
    kt::Generator gen(3);  // the same mask at every evaluation
    return kt::dropout(v[0], 0.4, true, gen);
  }, {x}));
}

TEST_CASE_TEMPLATE("gradcheck: fused linear with each activation", D, KT_DEVICES) {
  const auto x = input<D>({5, 4}, 23), w = input<D>({3, 4}, 24), b = input<D>({3}, 25);
  for (auto act : {kt::Activation::Identity, kt::Activation::ReLU, kt::Activation::GELU, kt::Activation::Tanh}) {
    CAPTURE(kt::to_string(act));
    CHECK(gradcheck<D>([act](const Vars<D>& v) { return kt::linear(v[0], v[1], v[2], act); }, {x, w, b}));
    CHECK(gradcheck<D>([act](const Vars<D>& v) { return kt::linear(v[0], v[1], {}, act); }, {x, w}));
  }
}

TEST_CASE_TEMPLATE("gradcheck: a user-defined function", D, KT_DEVICES) {
  auto cube = kt::make_function<double, D>(
      "cube",
      [](kt::Context<double, D>& ctx, const std::vector<kt::Tensor<double, D>>& in) {
        ctx.save_for_backward({in[0], in[1]});
        return in[0] * in[0] * in[0] * in[1];
      },
      [](const kt::Context<double, D>& ctx, const kt::Tensor<double, D>& g) {
        const auto& x = ctx.saved()[0];
        const auto& s = ctx.saved()[1];
        return std::vector<kt::Tensor<double, D>>{g * x * x * s * 3.0, g * x * x * x};
      });
  const auto x = input<D>({3, 2}, 26), s = input<D>({3, 2}, 27);
  CHECK(gradcheck<D>([&cube](const Vars<D>& v) { return cube({v[0], v[1]}); }, {x, s}));
}

TEST_CASE_TEMPLATE("gradcheck detects a wrong backward", D, KT_DEVICES) {
  // A deliberately wrong derivative (2x instead of 3x² for x³) must fail the check.
  auto wrong = kt::make_function<double, D>(
      "wrong_cube",
      [](kt::Context<double, D>& ctx, const std::vector<kt::Tensor<double, D>>& in) {
        ctx.save_for_backward({in[0]});
        return in[0] * in[0] * in[0];
      },
      [](const kt::Context<double, D>& ctx, const kt::Tensor<double, D>& g) {
        return std::vector<kt::Tensor<double, D>>{g * ctx.saved()[0] * 2.0};
      });
  const auto x = input<D>({4}, 28, 0.5, 1.5);
  CHECK_FALSE(gradcheck<D>([&wrong](const Vars<D>& v) { return wrong({v[0]}); }, {x}));
}
