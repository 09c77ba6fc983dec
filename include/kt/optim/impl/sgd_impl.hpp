#pragma once
// The fused SGD update: a kernel reads each parameter, its gradient and momentum buffer and
// writes the parameter and the buffer, computing in compute_t<T>. Two launch shapes share one
// element function: all parameters in few launches (SGDGroup, the default: a training step
// pays launches, not arithmetic, on a GPU) or one launch per parameter (`foreach(false)`).

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/impl/multi_tensor.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kt::impl {

/// The hyperparameters of one SGD update, in the compute type (copied into the kernel).
template <class C>
struct SGDStepArgs {
  C lr, momentum, one_minus_dampening, weight_decay;
  bool nesterov, maximize;
  bool first;  // the momentum buffer is new: buf = g
};

/// The options as coefficients of one branch-free expression (a flag is a 0/1 or ±1 factor),
/// so the loop vectorises; the zero terms add exactly 0, so the update is PyTorch's
/// arithmetic. The learning rate is not among them: it comes by value or from the device.
template <class C>
struct SGDCoefficients {
  C sign, wd;
  C keep, take;    // m = keep·b + take·d: (0, 1) on the first step, (μ, 1 − τ) afterwards
  C use_d, use_m;  // direction use_d·d + use_m·m: Nesterov (1, μ), classic momentum (0, 1)

  SGDCoefficients() = default;
  explicit SGDCoefficients(const SGDStepArgs<C>& a)
      : sign(a.maximize ? C(-1) : C(1)),
        wd(a.weight_decay),
        keep(a.first ? C(0) : a.momentum),
        take(a.first ? C(1) : a.one_minus_dampening),
        use_d(a.nesterov ? C(1) : C(0)),
        use_m(a.nesterov ? a.momentum : C(1)) {}
};

/// PyTorch's SGD on one element: g (+ wd·p); buf = g on the first step, else
/// μ·buf + (1 − dampening)·g; g = g + μ·buf (Nesterov) or buf; p = p − lr·g. `b` is unused
/// without momentum, and not read on the first step (it is uninitialised then).
template <bool Momentum, class T, class C>
KOKKOS_FORCEINLINE_FUNCTION void sgd_element(T& p, const T& g, C* b, const SGDCoefficients<C>& k, bool first,
                                             C neg_lr) {
  const C x = static_cast<C>(p);
  const C d = k.sign * static_cast<C>(g) + k.wd * x;
  if constexpr (Momentum) {
    const C m = k.take * d + (first ? C(0) : k.keep * *b);
    *b = m;
    p = static_cast<T>(x + neg_lr * (k.use_d * d + k.use_m * m));
  } else {
    (void)b, (void)first;
    p = static_cast<T>(x + neg_lr * d);
  }
}

/// One parameter's update in its own launch.
template <bool Momentum, class T, class D>
void sgd_kernel(const Tensor<T, D>& param, const Tensor<T, D>& grad, const Tensor<compute_t<T>, D>& buf,
                const SGDStepArgs<compute_t<T>>& a) {
  using C = compute_t<T>;
  const auto p = param.view();
  const auto g = grad.view();
  const auto b = Momentum ? buf.view() : typename Tensor<C, D>::view_type();
  const SGDCoefficients<C> k(a);
  const bool first = a.first;
  const C neg_lr = -a.lr;
  parallel_for(D(), "kt::optim::SGD::step", param.numel(), KOKKOS_LAMBDA(std::int64_t i) {
    sgd_element<Momentum>(p(i), g(i), Momentum ? &b(i) : nullptr, k, first, neg_lr);
  });
}

template <class T, class D>
void sgd_step(const Tensor<T, D>& param, const Tensor<T, D>& grad, const Tensor<compute_t<T>, D>& buf,
              const SGDStepArgs<compute_t<T>>& a) {
  if (a.momentum != compute_t<T>(0)) sgd_kernel<true>(param, grad, buf, a);
  else sgd_kernel<false>(param, grad, buf, a);
}

/// Up to 8 parameters' updates in one launch; the learning rate is read on the device
/// (`lr`, one double), so a captured step follows set_lr() between replays, and so is the
/// flag that skips the update (kt::amp::GradScaler's Inf/NaN check).
template <bool Momentum, class T>
struct SGDGroup {
  using C = compute_t<T>;
  static constexpr int capacity = 8;
  TensorGroup<capacity> group;
  T* p[capacity];
  const T* g[capacity];
  C* b[capacity];
  bool first[capacity];
  const double* lr;
  const std::int32_t* skip;  // the update is skipped when *skip != 0 (none when null)
  SGDCoefficients<C> first_k, later_k;

  KOKKOS_INLINE_FUNCTION void element(int e, std::int64_t k) const {
    if (skip != nullptr && *skip != 0) return;
    const C neg_lr = static_cast<C>(-*lr);
    sgd_element<Momentum>(p[e][k], g[e][k], Momentum ? b[e] + k : nullptr, first[e] ? first_k : later_k, first[e],
                          neg_lr);
  }

  /// Tensor e with its scalars as values (host devices: kt/tensor/impl/multi_tensor.hpp).
  struct Bound {
    T* p;
    const T* g;
    C* b;
    SGDCoefficients<C> k;
    bool first;
    C neg_lr;
    bool skip;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
      sgd_element<Momentum>(p[i], g[i], Momentum ? b + i : nullptr, k, first, neg_lr);
    }
  };
  Bound bind(int e) const {
    return {p[e], g[e], b[e], first[e] ? first_k : later_k, first[e], static_cast<C>(-*lr), skip != nullptr && *skip != 0};
  }
};

}  // namespace kt::impl
