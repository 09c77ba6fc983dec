// The optimizers in a training loop: from the same initial weights and batches,
// 100 SGD-momentum steps and 100 Adam steps of an MLP on fixed data end with parameters that
// agree with an independent double-precision host reference to 1e-5 relative.
//
// The gradients are computed by hand on the host (Linear-ReLU-Linear, MSE loss, manual
// backward) from kt's current parameter values and handed to the kt optimizers with
// set_grad(); the reference runs its own copy of the parameters through its own optimizer
// loop. A second variant computes kt's gradients with autograd (kt::linear, kt::relu,
// kt::mse_loss, backward()) instead, so the whole training step is kt's.

#include "optim/reference.hpp"

#include <kt/autograd/ops.hpp>
#include <kt/nn/loss.hpp>
#include <kt/optim/adam.hpp>
#include <kt/optim/sgd.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace kt_optim_test;

namespace {

constexpr int n_in = 5, n_hidden = 8, n_out = 3, batch = 16, n_batches = 4;

/// Parameters in the order W1 (8, 5), b1 (8), W2 (3, 8), b2 (3).
using Params = std::vector<std::vector<double>>;

const std::vector<kt::Shape>& shapes() {
  static const std::vector<kt::Shape> s{{n_hidden, n_in}, {n_hidden}, {n_out, n_hidden}, {n_out}};
  return s;
}

/// PyTorch-like initial weights (uniform in ±1/sqrt(fan_in)), from a fixed formula.
Params initial_params() {
  Params p;
  for (std::size_t k = 0; k < shapes().size(); ++k) {
    const double bound = 1.0 / std::sqrt(double(k < 2 ? n_in : n_hidden));
    std::vector<double> v(static_cast<std::size_t>(shapes()[k].numel()));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = bound * std::sin(2.7 * double(i) + 1.9 * double(k) + 0.3);
    p.push_back(v);
  }
  return p;
}

/// Input x (batch, 5) and target y (batch, 3) of batch b: a smooth function of x.
void batch_data(int b, std::vector<double>& x, std::vector<double>& y) {
  x.assign(batch * n_in, 0.0);
  y.assign(batch * n_out, 0.0);
  for (int s = 0; s < batch; ++s) {
    const int id = b * batch + s;
    for (int j = 0; j < n_in; ++j) x[s * n_in + j] = std::cos(0.37 * id + 1.1 * j);
    for (int o = 0; o < n_out; ++o)
      y[s * n_out + o] = std::sin(x[s * n_in + o] + 0.5 * x[s * n_in + o + 1]) + 0.1 * o;
  }
}

/// d(MSE)/d(params) of Linear(5, 8) - ReLU - Linear(8, 3) on one batch (mean over batch and
/// outputs, as mse_loss's reduction='mean').
Params mlp_grads(const Params& p, const std::vector<double>& x, const std::vector<double>& y) {
  const auto &W1 = p[0], &b1 = p[1], &W2 = p[2], &b2 = p[3];
  Params g{std::vector<double>(W1.size()), std::vector<double>(b1.size()),
           std::vector<double>(W2.size()), std::vector<double>(b2.size())};
  for (int s = 0; s < batch; ++s) {
    double z[n_hidden], h[n_hidden], dy[n_out], dh[n_hidden] = {};
    for (int i = 0; i < n_hidden; ++i) {
      z[i] = b1[i];
      for (int j = 0; j < n_in; ++j) z[i] += W1[i * n_in + j] * x[s * n_in + j];
      h[i] = std::max(z[i], 0.0);
    }
    for (int o = 0; o < n_out; ++o) {
      double out = b2[o];
      for (int i = 0; i < n_hidden; ++i) out += W2[o * n_hidden + i] * h[i];
      dy[o] = 2.0 * (out - y[s * n_out + o]) / double(batch * n_out);
      g[3][o] += dy[o];
      for (int i = 0; i < n_hidden; ++i) {
        g[2][o * n_hidden + i] += dy[o] * h[i];
        dh[i] += W2[o * n_hidden + i] * dy[o];
      }
    }
    for (int i = 0; i < n_hidden; ++i) {
      const double dz = z[i] > 0 ? dh[i] : 0.0;
      g[1][i] += dz;
      for (int j = 0; j < n_in; ++j) g[0][i * n_in + j] += dz * x[s * n_in + j];
    }
  }
  return g;
}

/// The MSE of the MLP on all batches.
double full_loss(const Params& p) {
  double loss = 0;
  std::vector<double> x, y;
  for (int b = 0; b < n_batches; ++b) {
    batch_data(b, x, y);
    for (int s = 0; s < batch; ++s)
      for (int o = 0; o < n_out; ++o) {
        double out = p[3][o];
        for (int i = 0; i < n_hidden; ++i) {
          double z = p[1][i];
          for (int j = 0; j < n_in; ++j) z += p[0][i * n_in + j] * x[s * n_in + j];
          out += p[2][o * n_hidden + i] * std::max(z, 0.0);
        }
        loss += (out - y[s * n_out + o]) * (out - y[s * n_out + o]);
      }
  }
  return loss / double(n_batches * batch * n_out);
}

/// 100 steps of kt's optimizer made by `make` and of the reference optimizers `ref` (one per
/// parameter); returns the largest difference of the final parameters relative to
/// max(|reference|, 1e-3).
template <class T, class D, bool Autograd, class Make, class Ref>
double train_both(Make make, const Ref& ref, int steps = 100) {
  Params want = initial_params();
  std::vector<kt::Var<T, D>> vars;
  for (std::size_t k = 0; k < want.size(); ++k) {
    round_stored<T>(want[k]);
    vars.push_back(param_of<T, D>(want[k], shapes()[k]));
    if constexpr (std::is_same_v<T, float>)
      for (auto& w : want[k]) w = as_stored<float>(w);  // the same starting values
  }
  const double loss_before = full_loss(want);
  auto opt = make(vars);
  std::vector<Ref> refs(want.size(), ref);
  std::vector<double> x, y;
  for (int step = 0; step < steps; ++step) {
    batch_data(step % n_batches, x, y);
    // kt: gradients at kt's current parameters.
    opt.zero_grad();
    if constexpr (Autograd) {
      const kt::Var<T, D> xv(tensor_of<T, D>(x, {batch, n_in})), yv(tensor_of<T, D>(y, {batch, n_out}));
      const auto h = kt::relu(kt::linear(xv, vars[0], vars[1]));
      kt::mse_loss(kt::linear(h, vars[2], vars[3]), yv).backward();
    } else {
      Params now;
      for (const auto& v : vars) now.push_back(values_of(v.data()));
      const Params g = mlp_grads(now, x, y);
      for (std::size_t k = 0; k < vars.size(); ++k) vars[k].set_grad(tensor_of<T, D>(g[k], shapes()[k]));
    }
    opt.step();
    // Reference: everything in double.
    const Params gr = mlp_grads(want, x, y);
    for (std::size_t k = 0; k < want.size(); ++k) refs[k].step(want[k], gr[k]);
  }
  double worst = 0;
  for (std::size_t k = 0; k < vars.size(); ++k) {
    const auto got = values_of(vars[k].data());
    for (std::size_t i = 0; i < got.size(); ++i)
      worst = std::max(worst, std::abs(got[i] - want[k][i]) / std::max(1e-3, std::abs(want[k][i])));
  }
  // The training is real: the loss went down severalfold.
  CHECK(full_loss(want) < loss_before / 4);
  return worst;
}

template <class T>
constexpr double training_tolerance() {
  return std::is_same_v<T, double> ? 1e-5 : 1e-4;  // float: measured 6e-6 (SGD), 4e-5 (Adam)
}

}  // namespace

// Each optimizer is checked twice: gradients computed by hand on the host and fed in with
// set_grad (the optimizer alone), and gradients from kt's autograd (the whole training step).
template <class T, class D, class MakeOptimizer, class Ref>
void check_both_gradient_sources(MakeOptimizer make, const Ref& ref) {
  SUBCASE("hand-computed gradients") {
    const double worst = train_both<T, D, false>(make, ref);
    MESSAGE("largest relative difference after 100 steps: ", worst);
    CHECK(worst <= training_tolerance<T>());
  }
  SUBCASE("autograd gradients") {
    const double worst = train_both<T, D, true>(make, ref);
    MESSAGE("largest relative difference after 100 steps: ", worst);
    CHECK(worst <= training_tolerance<T>());
  }
}

TEST_CASE_TEMPLATE("MLP training with SGD momentum matches the host reference", Case, KT_FLOAT_CASES) {
  using T = typename Case::dtype;
  using D = typename Case::device;
  SGDRef ref;
  ref.lr = 0.05;
  ref.momentum = 0.9;
  check_both_gradient_sources<T, D>(
      [](std::vector<kt::Var<T, D>> ps) {
        return kt::optim::SGD<T, D>(std::move(ps), kt::optim::SGDOptions(0.05).momentum(0.9));
      },
      ref);
}

TEST_CASE_TEMPLATE("MLP training with Adam matches the host reference", Case, KT_FLOAT_CASES) {
  using T = typename Case::dtype;
  using D = typename Case::device;
  AdamRef ref;
  ref.lr = 0.01;
  check_both_gradient_sources<T, D>(
      [](std::vector<kt::Var<T, D>> ps) {
        return kt::optim::Adam<T, D>(std::move(ps), kt::optim::AdamOptions(0.01));
      },
      ref);
}
