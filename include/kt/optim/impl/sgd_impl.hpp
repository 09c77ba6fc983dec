#pragma once
// The fused SGD update: one kernel per parameter tensor reads the parameter, its gradient and
// the momentum buffer and writes the parameter and the buffer, computing in compute_t<T>.

#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/dtype.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

namespace kt::impl {

/// The hyperparameters of one SGD update, in the compute type (copied into the kernel).
template <class C>
struct SGDStepArgs {
  C lr, momentum, one_minus_dampening, weight_decay;
  bool nesterov, maximize;
  bool first;  // the momentum buffer is new: buf = g
};

/// PyTorch's single-tensor SGD on one parameter: g (+ wd·p); buf = g on the first step, else
/// μ·buf + (1 − dampening)·g; g = g + μ·buf (Nesterov) or buf; p = p − lr·g. `buf` is
/// ignored when momentum is 0.
///
/// The options become coefficients of one branch-free expression (a flag is a 0/1 or ±1
/// factor), so the loop vectorises; the update is the same arithmetic, as the zero terms add
/// exactly 0. Only "momentum or not" is a compile-time choice (whether buf exists).
template <bool Momentum, class T, class D>
void sgd_kernel(const Tensor<T, D>& param, const Tensor<T, D>& grad, const Tensor<compute_t<T>, D>& buf,
                const SGDStepArgs<compute_t<T>>& a) {
  using C = compute_t<T>;
  const auto p = param.view();
  const auto g = grad.view();
  const auto b = Momentum ? buf.view() : typename Tensor<C, D>::view_type();
  const C sign = a.maximize ? C(-1) : C(1), wd = a.weight_decay, neg_lr = -a.lr;
  // m = keep·b + take·d: (0, 1) on the first step, (μ, 1 − τ) afterwards.
  const C keep = a.first ? C(0) : a.momentum, take = a.first ? C(1) : a.one_minus_dampening;
  // The step direction is use_d·d + use_m·m: Nesterov (1, μ), classic momentum (0, 1).
  const C use_d = a.nesterov ? C(1) : C(0), use_m = a.nesterov ? a.momentum : C(1);
  const bool first = a.first;
  parallel_for(D(), "kt::optim::SGD::step", param.numel(), KOKKOS_LAMBDA(std::int64_t i) {
        // Every capture is named before the `if constexpr`: nvcc rejects an extended lambda
        // whose first use of a captured variable is inside one.
        (void)b, (void)keep, (void)take, (void)use_d, (void)use_m, (void)first, (void)neg_lr;
        const C x = static_cast<C>(p(i));
        const C d = sign * static_cast<C>(g(i)) + wd * x;
        if constexpr (Momentum) {
          const C m = take * d + (first ? C(0) : keep * b(i));  // buf is uninitialised at first
          b(i) = m;
          p(i) = static_cast<T>(x + neg_lr * (use_d * d + use_m * m));
        } else {
          p(i) = static_cast<T>(x + neg_lr * d);
        }
      });
}

template <class T, class D>
void sgd_step(const Tensor<T, D>& param, const Tensor<T, D>& grad, const Tensor<compute_t<T>, D>& buf,
              const SGDStepArgs<compute_t<T>>& a) {
  if (a.momentum != compute_t<T>(0)) sgd_kernel<true>(param, grad, buf, a);
  else sgd_kernel<false>(param, grad, buf, a);
}

}  // namespace kt::impl
