#pragma once
/// \file kt/autograd/unary.hpp
/// Differentiable elementwise functions of a kt::Var: `-x`, `abs`, `relu`, `gelu`, `exp`,
/// `log`, `sqrt`, `tanh`, `sigmoid`, `sin`, `cos`, `clamp`. Each backward is one kernel
/// over (gradient, input, output).
///
///     kt::Var<double> x(kt::randn<double>({8}, 0), true);
///     kt::sum(kt::tanh(x) * kt::sigmoid(x)).backward();     // x.grad() has shape (8)

#include "kt/autograd/impl/grad_kernels.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/impl/activation.hpp"
#include "kt/tensor/unary.hpp"

#include <vector>

namespace kt {

namespace impl::grad {
// d f / dx from the upstream gradient g, the input x and the output y.
#define KT_UNARY_GRAD(Name, expr)                                                 \
  struct Name {                                                                   \
    template <class C>                                                            \
    KOKKOS_INLINE_FUNCTION C operator()(C g, C x, C y) const {                    \
      (void)x;                                                                    \
      (void)y;                                                                    \
      return expr;                                                                \
    }                                                                             \
  };
KT_UNARY_GRAD(Neg, C(-g))
KT_UNARY_GRAD(Abs, x > C(0) ? g : (x < C(0) ? C(-g) : C(0)))
KT_UNARY_GRAD(Relu, y > C(0) ? g : C(0))
KT_UNARY_GRAD(Gelu, g * activation_grad(Activation::GELU, x, y))
KT_UNARY_GRAD(Exp, g * y)
KT_UNARY_GRAD(Log, g / x)
KT_UNARY_GRAD(Sqrt, g / (C(2) * y))
KT_UNARY_GRAD(Tanh, g * (C(1) - y * y))
KT_UNARY_GRAD(Sigmoid, g * y * (C(1) - y))
KT_UNARY_GRAD(Sin, g * KT_KOKKOS_MATH::cos(x))
KT_UNARY_GRAD(Cos, C(-g) * KT_KOKKOS_MATH::sin(x))
#undef KT_UNARY_GRAD

/// clamp passes the gradient where lo <= x <= hi (PyTorch's convention at the bounds).
template <class C>
struct Clamp {
  C lo, hi;
  KOKKOS_INLINE_FUNCTION C operator()(C g, C x, C) const { return x >= lo && x <= hi ? g : C(0); }
};

/// GELU forward, the exact erf form (PyTorch's default).
struct GeluForward {
  template <class C>
  KOKKOS_INLINE_FUNCTION C operator()(C x) const { return activate(Activation::GELU, x); }
};
}  // namespace impl::grad

namespace impl {
/// Records y = f(x) with the gradient map Grad(g, x, y).
template <class T, class D, class Grad>
Var<T, D> unary_op(const char* name, const Var<T, D>& a, Tensor<T, D> out, Grad grad) {
  return record(name, out, {a}, [x = a.data(), out, grad, name](const Tensor<T, D>& g, const Needs&) {
    return std::vector<Tensor<T, D>>{grad_map(name, g, x, out, grad)};
  });
}
}  // namespace impl

#define KT_VAR_UNARY(fn, name, Grad)                                       \
  template <class T, class D>                                              \
  Var<T, D> fn(const Var<T, D>& a) {                                       \
    impl::require_defined(name, {a});                                      \
    return impl::unary_op(name, a, fn(a.data()), impl::grad::Grad{});      \
  }
KT_VAR_UNARY(operator-, "kt::neg", Neg)
KT_VAR_UNARY(abs, "kt::abs", Abs)
KT_VAR_UNARY(relu, "kt::relu", Relu)
KT_VAR_UNARY(exp, "kt::exp", Exp)
KT_VAR_UNARY(log, "kt::log", Log)
KT_VAR_UNARY(sqrt, "kt::sqrt", Sqrt)
KT_VAR_UNARY(tanh, "kt::tanh", Tanh)
KT_VAR_UNARY(sigmoid, "kt::sigmoid", Sigmoid)
KT_VAR_UNARY(sin, "kt::sin", Sin)
KT_VAR_UNARY(cos, "kt::cos", Cos)
#undef KT_VAR_UNARY

/// GELU, exact form 0.5 x (1 + erf(x / √2)) (`torch.nn.functional.gelu`).
template <class T, class D>
Tensor<T, D> gelu(const Tensor<T, D>& a) {
  KT_PROFILE_REGION("kt::gelu");
  return impl::unary_map<T>("kt::gelu", a, impl::grad::GeluForward{});
}

template <class T, class D>
Var<T, D> gelu(const Var<T, D>& a) {
  impl::require_defined("kt::gelu", {a});
  return impl::unary_op("kt::gelu", a, gelu(a.data()), impl::grad::Gelu{});
}

/// Limits x to [lo, hi] (`torch.clamp`); the gradient flows where lo <= x <= hi.
template <class T, class D>
Var<T, D> clamp(const Var<T, D>& a, compute_t<T> lo, compute_t<T> hi) {
  impl::require_defined("kt::clamp", {a});
  return impl::unary_op("kt::clamp", a, clamp(a.data(), lo, hi), impl::grad::Clamp<compute_t<T>>{lo, hi});
}

}  // namespace kt
