#pragma once
// Independent host references for the optimizer tests: PyTorch's documented SGD and Adam/AdamW
// updates written as plain double-precision loops over elements, and helpers to set fixed
// gradients and read parameters back.

#include "kt_test.hpp"

#include <kt/autograd/var.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace kt_optim_test {

/// torch.optim.SGD, single tensor, double precision.
struct SGDRef {
  double lr = 0.1, momentum = 0, dampening = 0, weight_decay = 0;
  bool nesterov = false, maximize = false;
  std::vector<double> buf;

  void step(std::vector<double>& p, const std::vector<double>& grad) {
    const bool first = buf.empty();  // the buffer starts as the first (decayed) gradient
    if (momentum != 0 && first) buf.assign(p.size(), 0.0);
    for (std::size_t i = 0; i < p.size(); ++i) {
      double g = maximize ? -grad[i] : grad[i];
      if (weight_decay != 0) g += weight_decay * p[i];
      if (momentum != 0) {
        buf[i] = first ? g : momentum * buf[i] + (1 - dampening) * g;
        g = nesterov ? g + momentum * buf[i] : buf[i];
      }
      p[i] -= lr * g;
    }
  }
};

/// torch.optim.Adam (decoupled = false) / AdamW (decoupled = true), single tensor, double.
struct AdamRef {
  double lr = 1e-3, beta1 = 0.9, beta2 = 0.999, eps = 1e-8, weight_decay = 0;
  bool decoupled = false, amsgrad = false, maximize = false;
  std::vector<double> m, v, vmax;
  std::int64_t t = 0;

  void step(std::vector<double>& p, const std::vector<double>& grad) {
    if (m.empty()) m.assign(p.size(), 0.0), v.assign(p.size(), 0.0), vmax.assign(p.size(), 0.0);
    ++t;
    const double bc1 = 1 - std::pow(beta1, double(t)), bc2 = 1 - std::pow(beta2, double(t));
    for (std::size_t i = 0; i < p.size(); ++i) {
      double g = maximize ? -grad[i] : grad[i];
      if (decoupled) p[i] *= 1 - lr * weight_decay;
      else if (weight_decay != 0) g += weight_decay * p[i];
      m[i] = beta1 * m[i] + (1 - beta1) * g;
      v[i] = beta2 * v[i] + (1 - beta2) * g * g;
      double vi = v[i];
      if (amsgrad) vi = vmax[i] = std::max(vmax[i], v[i]);
      p[i] -= (lr / bc1) * m[i] / (std::sqrt(vi) / std::sqrt(bc2) + eps);
    }
  }
};

/// The value of x as stored in T (rounded), back in double.
template <class T>
double as_stored(double x) {
  // volatile: GCC 12 at -O3 was seen to drop the rounding to float in a vectorised loop.
  volatile kt::compute_t<T> c = static_cast<kt::compute_t<T>>(x);
  const T stored = static_cast<T>(c);
  volatile kt::compute_t<T> back = static_cast<kt::compute_t<T>>(stored);
  return static_cast<double>(back);
}

/// Fixed, varied values: element i of tensor `which` at step k, shrinking with k (so AMSGrad's
/// maximum differs from the current second moment).
inline double fixed_value(std::size_t i, int k, int which, double scale = 1.0) {
  const double s = scale / ((1.0 + k) * (1.0 + 0.5 * k));
  return s * std::sin(1.3 * double(i) + 0.7 * k + 2.1 * which) + 0.05 * s * double(which + 1);
}

/// n values of fixed_value, stored in T and read back as double.
template <class T>
std::vector<double> fixed_values(std::size_t n, int k, int which, double scale = 1.0) {
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = as_stored<T>(fixed_value(i, k, which, scale));
  return out;
}

/// A tensor of T on D from doubles.
template <class T, class D>
kt::Tensor<T, D> tensor_of(const std::vector<double>& x, const kt::Shape& shape) {
  std::vector<T> v(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) v[i] = static_cast<T>(static_cast<kt::compute_t<T>>(x[i]));
  return kt::from_host<T, D>(v, shape);
}

/// A leaf parameter requiring grad with the given values.
template <class T, class D>
kt::Var<T, D> param_of(const std::vector<double>& x, const kt::Shape& shape) {
  return kt::Var<T, D>(tensor_of<T, D>(x, shape), true);
}

/// A tensor's elements as doubles.
template <class T, class D>
std::vector<double> values_of(const kt::Tensor<T, D>& t) {
  const auto v = t.to_vector();
  std::vector<double> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = static_cast<double>(static_cast<kt::compute_t<T>>(v[i]));
  return out;
}

/// Per-type tolerance of the optimizer tests: 1e-6 relative for float, 1e-12 for double,
/// the 16-bit types' usual tolerance.
template <class T>
constexpr double optim_tolerance() {
  if constexpr (std::is_same_v<T, float>) return 1e-6;
  else return kt_test::tolerance<T>();
}

/// Parameters are 16-bit: the reference rounds them after every step as kt stores them.
template <class T>
void round_stored(std::vector<double>& p) {
  if constexpr (!std::is_same_v<T, float> && !std::is_same_v<T, double>)
    for (auto& x : p) x = as_stored<T>(x);
}

}  // namespace kt_optim_test

namespace kt_optim_test {

/// got ≈ want to tol · max(1, |want|), element by element (reports the first mismatch).
inline bool close(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  return kt_test::all_close<double>(got, want, tol);
}

/// The two parameters (shapes (3, 5) and (7)) the update tests optimize; a third, (4), never
/// gets a gradient.
inline const kt::Shape& shape_a() { static const kt::Shape s{3, 5}; return s; }
inline const kt::Shape& shape_b() { static const kt::Shape s{7}; return s; }
inline const kt::Shape& shape_c() { static const kt::Shape s{4}; return s; }

/// Runs `steps` steps of a kt optimizer made by `make(params)` and of the references `ra`, `rb`
/// on fixed gradients (parameter b has no gradient at step 2) and checks the parameters after
/// each step. `Ref` has step(p, g).
template <class T, class D, class Make, class Ref>
void check_against_reference(Make make, Ref ra, Ref rb, int steps, double grad_scale = 1.0) {
  std::vector<double> a = fixed_values<T>(15, 0, 7), b = fixed_values<T>(7, 0, 8);
  const std::vector<double> c = fixed_values<T>(4, 0, 9);
  auto pa = param_of<T, D>(a, shape_a());
  auto pb = param_of<T, D>(b, shape_b());
  auto pc = param_of<T, D>(c, shape_c());
  auto opt = make(std::vector<kt::Var<T, D>>{pa, pb, pc});
  for (int k = 0; k < steps; ++k) {
    const auto ga = fixed_values<T>(15, k, 0, grad_scale), gb = fixed_values<T>(7, k, 1, grad_scale);
    pa.set_grad(tensor_of<T, D>(ga, shape_a()));
    pb.set_grad(k == 2 ? kt::Tensor<T, D>() : tensor_of<T, D>(gb, shape_b()));
    opt.step();
    ra.step(a, ga);
    if (k != 2) rb.step(b, gb);
    round_stored<T>(a);
    round_stored<T>(b);
    INFO("step ", k);
    CHECK(close(values_of(pa.data()), a, optim_tolerance<T>()));
    CHECK(close(values_of(pb.data()), b, optim_tolerance<T>()));
    CHECK(close(values_of(pa.grad()), ga, 0.0));  // the optimizer leaves gradients alone
  }
  CHECK(values_of(pc.data()) == c);  // no gradient: untouched
  CHECK(opt.state(2).empty());
}

}  // namespace kt_optim_test
