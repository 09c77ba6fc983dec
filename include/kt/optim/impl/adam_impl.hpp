#pragma once
// The fused Adam/AdamW update: a kernel reads each parameter, its gradient and the moment
// estimates and writes the parameter and the moments, computing in compute_t<T>. Shared by
// kt::optim::Adam (L2 penalty added to the gradient) and kt::optim::AdamW (decoupled decay of
// the parameter). Two launch shapes share one element function: up to 6 parameters per
// launch (AdamGroup, the default), whose step counts and learning rate live on the device so
// that a captured step replays correctly, or one launch per parameter with the step's scalars
// by value (`foreach(false)`).

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"
#include "kt/core/impl/kokkos_compat.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/impl/multi_tensor.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>

namespace kt::impl {

/// What a step's scalars are made of (double, as PyTorch computes them in Python).
struct AdamHyper {
  double beta1, beta2, weight_decay;
  bool decoupled;  // AdamW: p ← (1 − lr·wd)·p instead of g ← g + wd·p
};

/// The scalars of step t that depend on t and the learning rate, in the compute type.
template <class C>
struct AdamStepScalars {
  C decay;                  // AdamW's 1 − lr·weight_decay: p ← decay·p (1 for Adam)
  C neg_step_size;          // −lr / (1 − β1^t)
  C bias_correction2_sqrt;  // sqrt(1 − β2^t)
};

/// Step t's scalars, computed in double as PyTorch does (host and device alike).
template <class C>
KOKKOS_INLINE_FUNCTION AdamStepScalars<C> adam_step_scalars(const AdamHyper& h, double lr, std::int64_t t) {
  const double bias_correction1 = 1.0 - KT_KOKKOS_MATH::pow(h.beta1, static_cast<double>(t));
  const double bias_correction2 = 1.0 - KT_KOKKOS_MATH::pow(h.beta2, static_cast<double>(t));
  return {C(1.0 - lr * (h.decoupled ? h.weight_decay : 0.0)), C(-(lr / bias_correction1)),
          C(KT_KOKKOS_MATH::sqrt(bias_correction2))};
}

/// The scalars that do not change between steps, in the compute type.
template <class C>
struct AdamCoefficients {
  C sign;  // −1 to maximize
  C l2;    // Adam's weight_decay: g ← g + l2·p (0 for AdamW)
  C beta1, one_minus_beta1, beta2, one_minus_beta2, eps;

  AdamCoefficients() = default;
  AdamCoefficients(const AdamHyper& h, double eps_, bool maximize)
      : sign(maximize ? C(-1) : C(1)),
        l2(C(h.decoupled ? 0.0 : h.weight_decay)),
        beta1(C(h.beta1)),
        one_minus_beta1(C(1.0 - h.beta1)),
        beta2(C(h.beta2)),
        one_minus_beta2(C(1.0 - h.beta2)),
        eps(C(eps_)) {}
};

/// PyTorch's Adam/AdamW on one element:
///   g ← −g if maximize; g ← g + l2·p; p ← decay·p
///   m ← β1·m + (1 − β1)·g;  v ← β2·v + (1 − β2)·g²;  v̂ ← max(v̂, v) if amsgrad
///   p ← p − step_size · m / (sqrt(v or v̂) / sqrt(bc2) + eps)
/// The flags are factors of one branch-free expression (maximize a ±1 sign, a disabled L2
/// term a 0 coefficient) so the loop vectorises; only amsgrad (an extra state tensor) is a
/// compile-time choice.
template <bool AmsGrad, class T, class C>
KOKKOS_FORCEINLINE_FUNCTION void adam_element(T& p, const T& g, C& m, C& v, C* vmax, const AdamCoefficients<C>& k,
                                              const AdamStepScalars<C>& s) {
  const C x0 = static_cast<C>(p);
  const C d = k.sign * static_cast<C>(g) + k.l2 * x0;
  const C x = x0 * s.decay;
  const C mi = m * k.beta1 + k.one_minus_beta1 * d;
  C vi = v * k.beta2 + k.one_minus_beta2 * d * d;
  m = mi;
  v = vi;
  if constexpr (AmsGrad) {
    vi = *vmax > vi ? *vmax : vi;
    *vmax = vi;
  } else {
    (void)vmax;
  }
  const C denom = KT_KOKKOS_MATH::sqrt(vi) / s.bias_correction2_sqrt + k.eps;
  p = static_cast<T>(x + s.neg_step_size * (mi / denom));
}

/// One parameter's update in its own launch, step t's scalars by value.
template <bool AmsGrad, class T, class D>
void adam_kernel(const char* label, const Tensor<T, D>& param, const Tensor<T, D>& grad,
                 const Tensor<compute_t<T>, D>& exp_avg, const Tensor<compute_t<T>, D>& exp_avg_sq,
                 const Tensor<compute_t<T>, D>& max_exp_avg_sq, const AdamCoefficients<compute_t<T>>& k,
                 const AdamStepScalars<compute_t<T>>& s) {
  using C = compute_t<T>;
  const auto p = param.view();
  const auto g = grad.view();
  const auto m = exp_avg.view();
  const auto v = exp_avg_sq.view();
  const auto vmax = AmsGrad ? max_exp_avg_sq.view() : typename Tensor<C, D>::view_type();
  parallel_for(D(), label, param.numel(), KOKKOS_LAMBDA(std::int64_t i) {
    adam_element<AmsGrad>(p(i), g(i), m(i), v(i), AmsGrad ? &vmax(i) : nullptr, k, s);
  });
}

/// Up to 6 parameters' updates in one launch; step e's scalars come from `scalars` (written
/// on the device by AdamAdvance just before).
template <bool AmsGrad, class T>
struct AdamGroup {
  using C = compute_t<T>;
  static constexpr int capacity = 6;
  TensorGroup<capacity> group;
  T* p[capacity];
  const T* g[capacity];
  C* m[capacity];
  C* v[capacity];
  C* vmax[capacity];
  int slot[capacity];  // the parameter's index: its scalars are scalars[slot]
  const AdamStepScalars<C>* scalars;
  const std::int32_t* skip;  // the update is skipped when *skip != 0 (none when null)
  AdamCoefficients<C> k;

  KOKKOS_INLINE_FUNCTION void element(int e, std::int64_t i) const {
    if (skip != nullptr && *skip != 0) return;
    adam_element<AmsGrad>(p[e][i], g[e][i], m[e][i], v[e][i], AmsGrad ? vmax[e] + i : nullptr, k, scalars[slot[e]]);
  }

  /// Tensor e with its scalars as values (host devices: kt/tensor/impl/multi_tensor.hpp).
  struct Bound {
    T* p;
    const T* g;
    C *m, *v, *vmax;
    AdamCoefficients<C> k;
    AdamStepScalars<C> s;
    bool skip;
    KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const {
      adam_element<AmsGrad>(p[i], g[i], m[i], v[i], AmsGrad ? vmax + i : nullptr, k, s);
    }
  };
  Bound bind(int e) const { return {p[e], g[e], m[e], v[e], vmax[e], k, scalars[slot[e]], skip != nullptr && *skip != 0}; }
};

/// The parameter indices of one group (nvcc refuses a function-local type in a device lambda).
template <int N>
struct AdamSlots {
  std::int64_t s[N];
};

/// Counts a step for the parameters in `slots` and writes their step scalars, on the device:
/// steps[slot] += 1, scalars[slot] = adam_step_scalars(steps[slot]) with the device's lr —
/// unless *skip != 0 (never when skip is null).
template <class T, class D>
void adam_advance(const char* label, const std::int64_t* slots_begin, int count, std::int64_t* steps,
                  AdamStepScalars<compute_t<T>>* scalars, const double* lr, const AdamHyper& h,
                  const std::int32_t* skip) {
  using C = compute_t<T>;
  AdamSlots<AdamGroup<false, T>::capacity> slots{};  // by value into the kernel
  for (int e = 0; e < count; ++e) slots.s[e] = slots_begin[e];
  parallel_for(D(), label, count, KOKKOS_LAMBDA(std::int64_t e) {
    if (skip != nullptr && *skip != 0) return;
    const std::int64_t j = slots.s[e];
    steps[j] += 1;
    scalars[j] = adam_step_scalars<C>(h, *lr, steps[j]);
  });
}

}  // namespace kt::impl
