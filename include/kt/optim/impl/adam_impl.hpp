#pragma once
// The fused Adam/AdamW update: one kernel per parameter tensor reads the parameter, its
// gradient and the moment estimates and writes the parameter and the moments, computing in
// compute_t<T>. Shared by kt::optim::Adam (L2 penalty added to the gradient) and
// kt::optim::AdamW (decoupled decay of the parameter).

#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/dtype.hpp"
#include "kt/core/impl/kokkos_compat.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>

namespace kt::impl {

/// The hyperparameters of one Adam update in the compute type (copied into the kernel).
template <class C>
struct AdamStepArgs {
  C beta1, one_minus_beta1, beta2, one_minus_beta2;
  C l2;                 // Adam's weight_decay: g ← g + l2·p (0 for AdamW)
  C decay;              // AdamW's 1 − lr·weight_decay: p ← decay·p (1 for Adam)
  C neg_step_size;      // −lr / (1 − β1^t)
  C bias_correction2_sqrt;  // sqrt(1 − β2^t)
  C eps;
  bool amsgrad, maximize;
};

/// The scalars of step `step` of an Adam-family optimizer, computed in double on the host as
/// PyTorch does in Python. `Decoupled`: AdamW's weight decay (p ← (1 − lr·wd)·p) instead of
/// Adam's L2 term in the gradient.
template <class C, class Options>
AdamStepArgs<C> adam_args(const Options& o, bool decoupled, std::int64_t step) {
  const double bias_correction1 = 1.0 - std::pow(o.beta1(), static_cast<double>(step));
  const double bias_correction2 = 1.0 - std::pow(o.beta2(), static_cast<double>(step));
  AdamStepArgs<C> a;
  a.beta1 = C(o.beta1());
  a.one_minus_beta1 = C(1.0 - o.beta1());
  a.beta2 = C(o.beta2());
  a.one_minus_beta2 = C(1.0 - o.beta2());
  a.l2 = C(decoupled ? 0.0 : o.weight_decay());
  a.decay = C(1.0 - o.lr() * (decoupled ? o.weight_decay() : 0.0));
  a.neg_step_size = C(-(o.lr() / bias_correction1));
  a.bias_correction2_sqrt = C(std::sqrt(bias_correction2));
  a.eps = C(o.eps());
  a.amsgrad = o.amsgrad();
  a.maximize = o.maximize();
  return a;
}

/// PyTorch's single-tensor Adam/AdamW on one parameter:
///   g ← −g if maximize; g ← g + l2·p; p ← decay·p
///   m ← β1·m + (1 − β1)·g;  v ← β2·v + (1 − β2)·g²;  v̂ ← max(v̂, v) if amsgrad
///   p ← p − step_size · m / (sqrt(v or v̂) / sqrt(bc2) + eps)
///
/// The flags become factors of one branch-free expression (maximize a ±1 sign, a disabled L2
/// term a 0 coefficient) so the loop vectorises; only amsgrad (an extra state tensor) is a
/// compile-time choice.
template <bool AmsGrad, class T, class D>
void adam_kernel(const char* label, const Tensor<T, D>& param, const Tensor<T, D>& grad,
                 const Tensor<compute_t<T>, D>& exp_avg, const Tensor<compute_t<T>, D>& exp_avg_sq,
                 const Tensor<compute_t<T>, D>& max_exp_avg_sq, const AdamStepArgs<compute_t<T>>& a) {
  using C = compute_t<T>;
  const auto p = param.view();
  const auto g = grad.view();
  const auto m = exp_avg.view();
  const auto v = exp_avg_sq.view();
  const auto vmax = AmsGrad ? max_exp_avg_sq.view() : typename Tensor<C, D>::view_type();
  const C sign = a.maximize ? C(-1) : C(1), l2 = a.l2, decay = a.decay;
  const C beta1 = a.beta1, one_minus_beta1 = a.one_minus_beta1, beta2 = a.beta2,
          one_minus_beta2 = a.one_minus_beta2, neg_step_size = a.neg_step_size,
          bias_correction2_sqrt = a.bias_correction2_sqrt, eps = a.eps;
  parallel_for(D(), label, param.numel(), KOKKOS_LAMBDA(std::int64_t i) {
    (void)vmax;  // named before the `if constexpr` (nvcc: see kt/optim/impl/sgd_impl.hpp)
    const C x0 = static_cast<C>(p(i));
    const C d = sign * static_cast<C>(g(i)) + l2 * x0;
    const C x = x0 * decay;
    const C mi = m(i) * beta1 + one_minus_beta1 * d;
    C vi = v(i) * beta2 + one_minus_beta2 * d * d;
    m(i) = mi;
    v(i) = vi;
    if constexpr (AmsGrad) {
      vi = vmax(i) > vi ? vmax(i) : vi;
      vmax(i) = vi;
    }
    const C denom = KT_KOKKOS_MATH::sqrt(vi) / bias_correction2_sqrt + eps;
    p(i) = static_cast<T>(x + neg_step_size * (mi / denom));
  });
}

template <class T, class D>
void adam_step(const char* label, const Tensor<T, D>& param, const Tensor<T, D>& grad,
               const Tensor<compute_t<T>, D>& exp_avg, const Tensor<compute_t<T>, D>& exp_avg_sq,
               const Tensor<compute_t<T>, D>& max_exp_avg_sq, const AdamStepArgs<compute_t<T>>& a) {
  if (a.amsgrad) adam_kernel<true>(label, param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, a);
  else adam_kernel<false>(label, param, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, a);
}

}  // namespace kt::impl
