#pragma once
// The scalar functions behind kt's elementwise ops, evaluated in the compute type C (fp32 for
// 16-bit dtypes), each written once. Unary functors also give their derivative,
// `grad(g, x, y)` = g · f'(x) from the upstream gradient g, the input x and the output y, which
// autograd and the fused Linear epilogue use; `uses_input` says whether grad reads x (so
// callers know whether the input must be kept for the backward pass). Each differentiable op
// also declares what it does under kt::amp::autocast (`autocast`, kt/core/impl/autocast_policy.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/autocast_policy.hpp"
#include "kt/core/impl/kokkos_compat.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

namespace kt::impl::op {

// --- Binary: f(x, y). Comparisons give uint8 (`using result = std::uint8_t`). ---------------

struct Add {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x, C y) const { return x + y; }
};
struct Sub {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x, C y) const { return x - y; }
};
struct Mul {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x, C y) const { return x * y; }
};
struct Div {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  static constexpr bool divides = true;  // integer division by zero is checked first
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x, C y) const { return x / y; }
};
/// NaN propagates, as in torch.maximum / torch.minimum.
struct Maximum {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x, C y) const { return (x != x || x > y) ? x : y; }
};
struct Minimum {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x, C y) const { return (x != x || x < y) ? x : y; }
};
struct Pow {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Fp32;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x, C y) const { return C(KT_KOKKOS_MATH::pow(x, y)); }
};

struct Comparison {
  using result = std::uint8_t;
};
struct Eq : Comparison {
  template <class C> KOKKOS_INLINE_FUNCTION std::uint8_t operator()(C x, C y) const { return x == y; }
};
struct Ne : Comparison {
  template <class C> KOKKOS_INLINE_FUNCTION std::uint8_t operator()(C x, C y) const { return x != y; }
};
struct Lt : Comparison {
  template <class C> KOKKOS_INLINE_FUNCTION std::uint8_t operator()(C x, C y) const { return x < y; }
};
struct Le : Comparison {
  template <class C> KOKKOS_INLINE_FUNCTION std::uint8_t operator()(C x, C y) const { return x <= y; }
};
struct Gt : Comparison {
  template <class C> KOKKOS_INLINE_FUNCTION std::uint8_t operator()(C x, C y) const { return x > y; }
};
struct Ge : Comparison {
  template <class C> KOKKOS_INLINE_FUNCTION std::uint8_t operator()(C x, C y) const { return x >= y; }
};

/// The dtype an op gives for operands of dtype T: Op::result when it names one, else T.
template <class Op, class T, class = void>
struct result {
  using type = T;
};
template <class Op, class T>
struct result<Op, T, std::void_t<typename Op::result>> {
  using type = typename Op::result;
};
template <class Op, class T>
using result_t = typename result<Op, T>::type;

template <class Op, class = void>
struct divides : std::false_type {};
template <class Op>
struct divides<Op, std::void_t<decltype(Op::divides)>> : std::true_type {};

// --- Unary: value and derivative. `floating` ops need a floating dtype. ---------------------

struct Neg {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  static constexpr bool floating = false, uses_input = false;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x) const { return C(-x); }
  template <class C> KOKKOS_INLINE_FUNCTION C grad(C g, C, C) const { return C(-g); }
};
struct Abs {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  static constexpr bool floating = false, uses_input = true;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x) const { return x < C(0) ? C(-x) : x; }
  template <class C> KOKKOS_INLINE_FUNCTION C grad(C g, C x, C) const {
    return x > C(0) ? g : (x < C(0) ? C(-g) : C(0));
  }
};
struct Exp {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Fp32;
  static constexpr bool floating = true, uses_input = false;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x) const { return KT_KOKKOS_MATH::exp(x); }
  template <class C> KOKKOS_INLINE_FUNCTION C grad(C g, C, C y) const { return g * y; }
};
struct Log {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Fp32;
  static constexpr bool floating = true, uses_input = true;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x) const { return KT_KOKKOS_MATH::log(x); }
  template <class C> KOKKOS_INLINE_FUNCTION C grad(C g, C x, C) const { return g / x; }
};
struct Sqrt {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  static constexpr bool floating = true, uses_input = false;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x) const { return KT_KOKKOS_MATH::sqrt(x); }
  template <class C> KOKKOS_INLINE_FUNCTION C grad(C g, C, C y) const { return g / (C(2) * y); }
};
struct Sin {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  static constexpr bool floating = true, uses_input = true;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x) const { return KT_KOKKOS_MATH::sin(x); }
  template <class C> KOKKOS_INLINE_FUNCTION C grad(C g, C x, C) const { return g * KT_KOKKOS_MATH::cos(x); }
};
struct Cos {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  static constexpr bool floating = true, uses_input = true;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x) const { return KT_KOKKOS_MATH::cos(x); }
  template <class C> KOKKOS_INLINE_FUNCTION C grad(C g, C x, C) const { return C(-g) * KT_KOKKOS_MATH::sin(x); }
};

// Activations (also fused into Linear, see kt/tensor/activation.hpp).

struct Identity {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  static constexpr bool floating = false, uses_input = false;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x) const { return x; }
  template <class C> KOKKOS_INLINE_FUNCTION C grad(C g, C, C) const { return g; }
};
/// relu(NaN) = NaN, as in PyTorch. The gradient is a select, `y > 0 ? g : 0`, not `g * mask`:
/// GCC turns the 0/1 product into a branch that mispredicts on a ReLU layer's random signs
/// (docs/performance.md, "Fused Linear + ReLU"); the select also gives exactly 0 where y <= 0.
struct Relu {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  static constexpr bool floating = false, uses_input = false;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x) const { return x > C(0) ? x : (x != x ? x : C(0)); }
  template <class C> KOKKOS_INLINE_FUNCTION C grad(C g, C, C y) const { return y > C(0) ? g : C(0); }
};
/// GELU, the exact form 0.5 x (1 + erf(x / sqrt 2)) (PyTorch's default); its derivative
/// Φ(x) + x φ(x) needs the input.
struct Gelu {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  static constexpr bool floating = true, uses_input = true;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x) const {
    return C(0.5) * x * (C(1) + KT_KOKKOS_MATH::erf(x * C(0.70710678118654752440)));
  }
  template <class C> KOKKOS_INLINE_FUNCTION C grad(C g, C x, C) const {
    const C cdf = C(0.5) * (C(1) + KT_KOKKOS_MATH::erf(x * C(0.70710678118654752440)));
    const C pdf = KT_KOKKOS_MATH::exp(C(-0.5) * x * x) * C(0.39894228040143267794);
    return g * (cdf + x * pdf);
  }
};
struct Tanh {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  static constexpr bool floating = true, uses_input = false;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x) const { return KT_KOKKOS_MATH::tanh(x); }
  template <class C> KOKKOS_INLINE_FUNCTION C grad(C g, C, C y) const { return g * (C(1) - y * y); }
};
/// Two branches keep exp's argument non-positive, so neither overflows.
struct Sigmoid {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  static constexpr bool floating = true, uses_input = false;
  template <class C> KOKKOS_INLINE_FUNCTION C operator()(C x) const {
    return x >= C(0) ? C(1) / (C(1) + KT_KOKKOS_MATH::exp(-x)) : KT_KOKKOS_MATH::exp(x) / (C(1) + KT_KOKKOS_MATH::exp(x));
  }
  template <class C> KOKKOS_INLINE_FUNCTION C grad(C g, C, C y) const { return g * y * (C(1) - y); }
};

/// min(max(x, lo), hi); NaN stays NaN. The gradient passes where lo <= x <= hi (PyTorch's
/// convention at the bounds).
template <class C>
struct Clamp {
  static constexpr AutocastPolicy autocast = AutocastPolicy::Promote;
  static constexpr bool floating = false, uses_input = true;
  C lo, hi;
  KOKKOS_INLINE_FUNCTION C operator()(C x) const { return x != x ? x : (x < lo ? lo : (x > hi ? hi : x)); }
  KOKKOS_INLINE_FUNCTION C grad(C g, C x, C) const { return x >= lo && x <= hi ? g : C(0); }
};

// Classification: uint8 results (integers are always finite).
struct IsNan : Comparison {
  static constexpr bool floating = false;
  template <class C> KOKKOS_INLINE_FUNCTION std::uint8_t operator()(C x) const { return x != x; }
};
struct IsInf : Comparison {
  static constexpr bool floating = false;
  template <class C> KOKKOS_INLINE_FUNCTION std::uint8_t operator()(C x) const { return x == x && x - x != x - x; }
};
/// x - x is 0 for finite x and NaN for +-Inf and NaN.
struct IsFinite : Comparison {
  static constexpr bool floating = false;
  template <class C> KOKKOS_INLINE_FUNCTION std::uint8_t operator()(C x) const { return x - x == x - x; }
};

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

}  // namespace kt::impl::op
