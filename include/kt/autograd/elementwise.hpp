#pragma once
/// \file kt/autograd/elementwise.hpp
/// Differentiable binary arithmetic with NumPy broadcasting: `+ - * /`, `kt::maximum`,
/// `kt::minimum`, `kt::pow`, on a Var with a Var, a Tensor (a constant) or a scalar, either
/// side. Gradients of broadcast operands are summed back to the operand's shape.
///
///     kt::Var<float> w(kt::randn<float>({1, 3}, 0), true);
///     kt::Tensor<float> x = kt::randn<float>({4, 3}, 1);
///     auto y = (x * w + 1.0f) / 2.0f;     // w broadcasts over the 4 rows
///     kt::sum(y).backward();              // w.grad() has shape (1, 3): column sums of x / 2

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/binary_grad.hpp"
#include "kt/autograd/impl/operand.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/elementwise.hpp"

namespace kt {

template <class A, class B, impl::var_scalar_operands_t<A, B> = 0>
auto operator+(const A& a, const B& b) { return impl::var_binary<impl::AddGrad>("kt::add", a, b); }
template <class A, class B, impl::var_scalar_operands_t<A, B> = 0>
auto operator-(const A& a, const B& b) { return impl::var_binary<impl::SubGrad>("kt::sub", a, b); }
template <class A, class B, impl::var_scalar_operands_t<A, B> = 0>
auto operator*(const A& a, const B& b) { return impl::var_binary<impl::MulGrad>("kt::mul", a, b); }
template <class A, class B, impl::var_scalar_operands_t<A, B> = 0>
auto operator/(const A& a, const B& b) { return impl::var_binary<impl::DivGrad>("kt::div", a, b); }
/// Elementwise maximum (`torch.maximum`, `clamp_min` with a scalar); ties split the gradient.
template <class A, class B, impl::var_scalar_operands_t<A, B> = 0>
auto maximum(const A& a, const B& b) { return impl::var_binary<impl::MaximumGrad>("kt::maximum", a, b); }
/// Elementwise minimum (`torch.minimum`, `clamp_max`); ties split the gradient.
template <class A, class B, impl::var_scalar_operands_t<A, B> = 0>
auto minimum(const A& a, const B& b) { return impl::var_binary<impl::MinimumGrad>("kt::minimum", a, b); }
/// a^b elementwise (`torch.pow`): d/da = b a^(b-1), d/db = a^b log a.
template <class A, class B, impl::var_scalar_operands_t<A, B> = 0>
auto pow(const A& a, const B& b) { return impl::var_binary<impl::PowGrad>("kt::pow", a, b); }

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
