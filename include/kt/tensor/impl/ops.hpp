#pragma once
// The scalar functions behind kt's elementwise ops, evaluated in the compute type
// (fp32 for 16-bit dtypes). Each is a device-callable functor.

#include "kt/core/impl/kokkos_compat.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kt::impl::op {

#define KT_BINARY_OP(Name, expr)                                       \
  struct Name {                                                        \
    template <class C>                                                 \
    KOKKOS_INLINE_FUNCTION auto operator()(C x, C y) const { return expr; } \
  };

KT_BINARY_OP(Add, x + y)
KT_BINARY_OP(Sub, x - y)
KT_BINARY_OP(Mul, x* y)
KT_BINARY_OP(Div, x / y)
KT_BINARY_OP(Maximum, (x != x || x > y) ? x : y)  // NaN propagates, as in torch.maximum
KT_BINARY_OP(Minimum, (x != x || x < y) ? x : y)
KT_BINARY_OP(Pow, C(KT_KOKKOS_MATH::pow(x, y)))
KT_BINARY_OP(Eq, std::uint8_t(x == y))
KT_BINARY_OP(Ne, std::uint8_t(x != y))
KT_BINARY_OP(Lt, std::uint8_t(x < y))
KT_BINARY_OP(Le, std::uint8_t(x <= y))
KT_BINARY_OP(Gt, std::uint8_t(x > y))
KT_BINARY_OP(Ge, std::uint8_t(x >= y))
#undef KT_BINARY_OP

#define KT_UNARY_OP(Name, expr)                                   \
  struct Name {                                                   \
    template <class C>                                            \
    KOKKOS_INLINE_FUNCTION C operator()(C x) const { return expr; } \
  };

KT_UNARY_OP(Neg, C(-x))
KT_UNARY_OP(Abs, x < C(0) ? C(-x) : x)
KT_UNARY_OP(Relu, x > C(0) ? x : (x != x ? x : C(0)))  // relu(NaN) = NaN, as in PyTorch
KT_UNARY_OP(Exp, KT_KOKKOS_MATH::exp(x))
KT_UNARY_OP(Log, KT_KOKKOS_MATH::log(x))
KT_UNARY_OP(Sqrt, KT_KOKKOS_MATH::sqrt(x))
KT_UNARY_OP(Tanh, KT_KOKKOS_MATH::tanh(x))
KT_UNARY_OP(Sin, KT_KOKKOS_MATH::sin(x))
KT_UNARY_OP(Cos, KT_KOKKOS_MATH::cos(x))
// Two branches keep exp's argument non-positive, so neither overflows.
KT_UNARY_OP(Sigmoid, x >= C(0) ? C(1) / (C(1) + KT_KOKKOS_MATH::exp(-x))
                               : KT_KOKKOS_MATH::exp(x) / (C(1) + KT_KOKKOS_MATH::exp(x)))
#undef KT_UNARY_OP

/// x -> f(x, s): a binary op with a scalar right operand.
template <class F, class C>
struct BindRight {
  F f;
  C s;
  KOKKOS_INLINE_FUNCTION auto operator()(C x) const { return f(x, s); }
};

/// x -> f(s, x): a binary op with a scalar left operand.
template <class F, class C>
struct BindLeft {
  F f;
  C s;
  KOKKOS_INLINE_FUNCTION auto operator()(C x) const { return f(s, x); }
};

/// x -> min(max(x, lo), hi).
template <class C>
struct Clamp {
  C lo, hi;
  KOKKOS_INLINE_FUNCTION C operator()(C x) const { return x != x ? x : (x < lo ? lo : (x > hi ? hi : x)); }
};

}  // namespace kt::impl::op
