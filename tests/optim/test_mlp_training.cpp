// A whole training loop as users write it: 100 SGD-momentum steps and 100 Adam steps of a
// kt::nn::Sequential MLP with kt::cross_entropy, autograd and kt::optim, against a
// double-precision host loop (forward and backward written out here; the updates are
// tests/optim/reference.hpp's, which test_training.cpp checks the optimizers with alone).

#include "optim/reference.hpp"

#include <kt/nn/nn.hpp>
#include <kt/optim/adam.hpp>
#include <kt/optim/sgd.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace {

constexpr int kIn = 6, kHidden = 12, kClasses = 4, kBatch = 8, kBatches = 3, kSteps = 100;

/// One dense layer of the host reference, row-major W (out, in).
struct RefLayer {
  int in, out;
  bool relu;
  std::vector<double> w, b;
};

/// The reference network: forward, cross-entropy (mean), backward, all by hand in double.
struct RefMlp {
  std::vector<RefLayer> layers;

  /// Gradients (dW, db per layer) of the mean cross-entropy on one batch.
  std::vector<std::pair<std::vector<double>, std::vector<double>>> gradients(const std::vector<double>& x,
                                                                            const std::vector<std::int64_t>& t) const {
    std::vector<std::vector<double>> acts{x};  // inputs of each layer, then the logits
    for (const auto& l : layers) {
      const auto& in = acts.back();
      std::vector<double> z(static_cast<std::size_t>(kBatch * l.out));
      for (int n = 0; n < kBatch; ++n)
        for (int o = 0; o < l.out; ++o) {
          double s = l.b[static_cast<std::size_t>(o)];
          for (int i = 0; i < l.in; ++i) s += in[static_cast<std::size_t>(n * l.in + i)] * l.w[static_cast<std::size_t>(o * l.in + i)];
          z[static_cast<std::size_t>(n * l.out + o)] = l.relu ? std::max(s, 0.0) : s;
        }
      acts.push_back(z);
    }
    // d loss / d logits = (softmax − one-hot) / N.
    std::vector<double> dz = acts.back();
    for (int n = 0; n < kBatch; ++n) {
      double m = -1e300, s = 0;
      for (int c = 0; c < kClasses; ++c) m = std::max(m, dz[static_cast<std::size_t>(n * kClasses + c)]);
      for (int c = 0; c < kClasses; ++c) s += std::exp(dz[static_cast<std::size_t>(n * kClasses + c)] - m);
      for (int c = 0; c < kClasses; ++c) {
        auto& v = dz[static_cast<std::size_t>(n * kClasses + c)];
        v = (std::exp(v - m) / s - (c == t[static_cast<std::size_t>(n)] ? 1.0 : 0.0)) / kBatch;
      }
    }
    std::vector<std::pair<std::vector<double>, std::vector<double>>> grads(layers.size());
    for (int k = static_cast<int>(layers.size()) - 1; k >= 0; --k) {
      const auto& l = layers[static_cast<std::size_t>(k)];
      const auto& in = acts[static_cast<std::size_t>(k)];
      const auto& out = acts[static_cast<std::size_t>(k + 1)];
      if (l.relu)
        for (std::size_t e = 0; e < dz.size(); ++e) dz[e] = out[e] > 0 ? dz[e] : 0.0;
      std::vector<double> dw(static_cast<std::size_t>(l.out * l.in), 0.0), db(static_cast<std::size_t>(l.out), 0.0),
          dx(static_cast<std::size_t>(kBatch * l.in), 0.0);
      for (int n = 0; n < kBatch; ++n)
        for (int o = 0; o < l.out; ++o) {
          const double g = dz[static_cast<std::size_t>(n * l.out + o)];
          db[static_cast<std::size_t>(o)] += g;
          for (int i = 0; i < l.in; ++i) {
            dw[static_cast<std::size_t>(o * l.in + i)] += g * in[static_cast<std::size_t>(n * l.in + i)];
            dx[static_cast<std::size_t>(n * l.in + i)] += g * l.w[static_cast<std::size_t>(o * l.in + i)];
          }
        }
      grads[static_cast<std::size_t>(k)] = {dw, db};
      dz = dx;
    }
    return grads;
  }
};

/// The parameters in kt's order (0.weight, 0.bias, 1.weight, ...) as flat host vectors.
std::vector<std::vector<double>*> flat(RefMlp& m) {
  std::vector<std::vector<double>*> out;
  for (auto& l : m.layers) {
    out.push_back(&l.w);
    out.push_back(&l.b);
  }
  return out;
}

template <class T, class D>
kt::nn::Sequential<T, D> make_model() {
  kt::nn::Sequential<T, D> model;
  model.push_back(kt::nn::Linear<T, D>(kt::nn::LinearOptions(kIn, kHidden).activation(kt::Activation::ReLU).seed(1)));
  model.push_back(kt::nn::Linear<T, D>(kt::nn::LinearOptions(kHidden, kHidden).seed(2)));
  model.push_back(kt::nn::ReLU<T, D>());
  model.push_back(kt::nn::Linear<T, D>(kt::nn::LinearOptions(kHidden, kClasses).seed(3)));
  return model;
}

template <class T, class D>
RefMlp reference_of(const kt::nn::Sequential<T, D>& model) {
  RefMlp ref{{{kIn, kHidden, true, {}, {}}, {kHidden, kHidden, true, {}, {}}, {kHidden, kClasses, false, {}, {}}}};
  auto params = model.parameters();
  auto slots = flat(ref);
  for (std::size_t i = 0; i < params.size(); ++i) {
    const auto v = params[i].data().template to<double>().to_vector();
    slots[i]->assign(v.begin(), v.end());
  }
  return ref;
}

/// max |a − b| / max |b| over one parameter tensor.
template <class T>
double relative_error(const std::vector<T>& got, const std::vector<double>& want) {
  double diff = 0, scale = 0;
  for (std::size_t i = 0; i < want.size(); ++i) {
    diff = std::max(diff, std::abs(static_cast<double>(got[i]) - want[i]));
    scale = std::max(scale, std::abs(want[i]));
  }
  return diff / scale;
}

template <class T, class D, class MakeOptimizer, class Ref>
void train_and_compare(MakeOptimizer make_optimizer, const Ref& ref_optimizer, double tolerance) {
  auto model = make_model<T, D>();
  RefMlp ref = reference_of(model);
  auto opt = make_optimizer(model.parameters());
  // Fixed data: kBatches batches, visited in turn.
  std::vector<std::vector<double>> xs;
  std::vector<std::vector<std::int64_t>> ts;
  for (int b = 0; b < kBatches; ++b) {
    xs.push_back(kt::randn<double, kt::Serial>({kBatch, kIn}, 100 + static_cast<std::uint64_t>(b)).to_vector());
    std::vector<std::int64_t> t;
    for (int n = 0; n < kBatch; ++n) t.push_back((n * 7 + b * 3) % kClasses);
    ts.push_back(t);
  }
  std::vector<Ref> ref_optimizers(6, ref_optimizer);  // one per parameter tensor, like kt's state
  for (int step = 1; step <= kSteps; ++step) {
    const auto& x = xs[static_cast<std::size_t>(step % kBatches)];
    const auto& t = ts[static_cast<std::size_t>(step % kBatches)];
    // kt
    std::vector<T> xt(x.begin(), x.end());
    kt::Var<T, D> input(kt::from_host<T, D>(xt, {kBatch, kIn}));
    opt.zero_grad();
    kt::cross_entropy(model(input), kt::from_host<std::int64_t, D>(t, {kBatch})).backward();
    opt.step();
    // reference
    const auto grads = ref.gradients(x, t);
    auto slots = flat(ref);
    for (std::size_t p = 0; p < slots.size(); ++p) {
      const auto& g = p % 2 == 0 ? grads[p / 2].first : grads[p / 2].second;
      ref_optimizers[p].step(*slots[p], g);
    }
  }
  auto params = model.parameters();
  auto slots = flat(ref);
  for (std::size_t p = 0; p < params.size(); ++p) {
    CAPTURE(p);
    CHECK(relative_error(params[p].data().to_vector(), *slots[p]) < tolerance);
  }
}

constexpr double kLr = 0.05, kMomentum = 0.9;
constexpr double kAdamLr = 0.01, kBeta1 = 0.9, kBeta2 = 0.999, kEps = 1e-8;

}  // namespace

TEST_CASE_TEMPLATE("MLP training: 100 SGD-momentum steps match a double host reference", D, KT_DEVICES) {
  auto make = [](auto params) { return kt::optim::SGD(params, kt::optim::SGDOptions(kLr).momentum(kMomentum)); };
  kt_optim_test::SGDRef ref;
  ref.lr = kLr;
  ref.momentum = kMomentum;
  SUBCASE("double") { train_and_compare<double, D>(make, ref, 1e-10); }
  SUBCASE("float") { train_and_compare<float, D>(make, ref, 1e-5); }
}

TEST_CASE_TEMPLATE("MLP training: 100 Adam steps match a double host reference", D, KT_DEVICES) {
  auto make = [](auto params) {
    return kt::optim::Adam(params, kt::optim::AdamOptions(kAdamLr).betas(kBeta1, kBeta2).eps(kEps));
  };
  kt_optim_test::AdamRef ref;
  ref.lr = kAdamLr;
  ref.beta1 = kBeta1;
  ref.beta2 = kBeta2;
  ref.eps = kEps;
  SUBCASE("double") { train_and_compare<double, D>(make, ref, 1e-10); }
  SUBCASE("float") { train_and_compare<float, D>(make, ref, 1e-5); }
}
