#pragma once
// The activations a fused Linear epilogue applies, and their derivatives, as device functions.

#include "kt/core/impl/kokkos_compat.hpp"

#include <Kokkos_Core.hpp>

namespace kt {

/// The activation fused into kt::linear's epilogue.
enum class Activation { Identity, ReLU, GELU, Tanh };

inline const char* to_string(Activation act) {
  switch (act) {
    case Activation::Identity: return "identity";
    case Activation::ReLU: return "relu";
    case Activation::GELU: return "gelu";
    case Activation::Tanh: return "tanh";
  }
  return "?";
}

namespace impl {

/// act(z). GELU is the exact form, 0.5 z (1 + erf(z / sqrt 2)), PyTorch's default.
template <class C>
KOKKOS_INLINE_FUNCTION C activate(Activation act, C z) {
  switch (act) {
    case Activation::ReLU: return z > C(0) ? z : (z != z ? z : C(0));
    case Activation::GELU: return C(0.5) * z * (C(1) + KT_KOKKOS_MATH::erf(z * C(0.70710678118654752440)));
    case Activation::Tanh: return KT_KOKKOS_MATH::tanh(z);
    default: return z;
  }
}

/// d act / dz, from the pre-activation z (GELU) or the output y (ReLU, Tanh, Identity), so
/// only GELU needs z kept for the backward pass.
template <class C>
KOKKOS_INLINE_FUNCTION C activation_grad(Activation act, C z, C y) {
  switch (act) {
    case Activation::ReLU: return y > C(0) ? C(1) : C(0);
    case Activation::GELU: {
      const C cdf = C(0.5) * (C(1) + KT_KOKKOS_MATH::erf(z * C(0.70710678118654752440)));
      const C pdf = KT_KOKKOS_MATH::exp(C(-0.5) * z * z) * C(0.39894228040143267794);
      return cdf + z * pdf;
    }
    case Activation::Tanh: return C(1) - y * y;
    default: return C(1);
  }
}

/// act(z) with the activation as a compile-time constant (the kernels' form: no switch).
template <Activation A, class C>
KOKKOS_INLINE_FUNCTION C activate(C z) {
  if constexpr (A == Activation::ReLU) return z > C(0) ? z : (z != z ? z : C(0));
  else if constexpr (A == Activation::GELU)
    return C(0.5) * z * (C(1) + KT_KOKKOS_MATH::erf(z * C(0.70710678118654752440)));
  else if constexpr (A == Activation::Tanh) return KT_KOKKOS_MATH::tanh(z);
  else return z;
}

/// dy · act'(z), from the upstream gradient dy, the pre-activation z (read by GELU only) and
/// the output y. ReLU is a select, `y > 0 ? dy : 0`, not `dy * mask`: GCC turns the 0/1
/// product into a branch that mispredicts on a ReLU layer's random signs (24x slower, see
/// docs/performance.md); the select also gives exactly 0 where y <= 0, as PyTorch does.
template <Activation A, class C>
KOKKOS_INLINE_FUNCTION C activation_backprop(C dy, C z, C y) {
  if constexpr (A == Activation::ReLU) {
    (void)z;
    return y > C(0) ? dy : C(0);
  } else if constexpr (A == Activation::GELU) {
    (void)y;
    const C cdf = C(0.5) * (C(1) + KT_KOKKOS_MATH::erf(z * C(0.70710678118654752440)));
    const C pdf = KT_KOKKOS_MATH::exp(C(-0.5) * z * z) * C(0.39894228040143267794);
    return dy * (cdf + z * pdf);
  } else if constexpr (A == Activation::Tanh) {
    (void)z;
    return dy * (C(1) - y * y);
  } else {
    (void)z, (void)y;
    return dy;
  }
}

}  // namespace impl
}  // namespace kt
