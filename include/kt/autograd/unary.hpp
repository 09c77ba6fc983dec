#pragma once
/// \file kt/autograd/unary.hpp
/// Differentiable elementwise math of a kt::Var: `-x`, `abs`, `exp`, `log`, `sqrt`, `sin`,
/// `cos`, `clamp` (activations — relu, gelu, tanh, sigmoid — are in kt/functional/
/// activation.hpp). Each backward is one kernel over (gradient, input, output).
///
///     kt::Var<double> x(kt::randn<double>({8}, 0), true);
///     kt::sum(kt::exp(x) * kt::sin(x)).backward();     // x.grad() has shape (8)

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/unary_grad.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/impl/ops.hpp"

namespace kt {

template <class T, class D>
Var<T, D> operator-(const Var<T, D>& a) { return impl::var_unary<impl::op::Neg>("kt::neg", a); }
template <class T, class D>
Var<T, D> abs(const Var<T, D>& a) { return impl::var_unary<impl::op::Abs>("kt::abs", a); }
template <class T, class D>
Var<T, D> exp(const Var<T, D>& a) { return impl::var_unary<impl::op::Exp>("kt::exp", a); }
template <class T, class D>
Var<T, D> log(const Var<T, D>& a) { return impl::var_unary<impl::op::Log>("kt::log", a); }
template <class T, class D>
Var<T, D> sqrt(const Var<T, D>& a) { return impl::var_unary<impl::op::Sqrt>("kt::sqrt", a); }
template <class T, class D>
Var<T, D> sin(const Var<T, D>& a) { return impl::var_unary<impl::op::Sin>("kt::sin", a); }
template <class T, class D>
Var<T, D> cos(const Var<T, D>& a) { return impl::var_unary<impl::op::Cos>("kt::cos", a); }

/// Limits x to [lo, hi] (`torch.clamp`); the gradient flows where lo <= x <= hi.
template <class T, class D>
Var<T, D> clamp(const Var<T, D>& a, compute_t<T> lo, compute_t<T> hi) {
  KT_REQUIRE(!(hi < lo), "kt::clamp: lo (", lo, ") must not exceed hi (", hi, ")");
  return impl::var_unary("kt::clamp", a, impl::op::Clamp<compute_t<T>>{lo, hi});
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
