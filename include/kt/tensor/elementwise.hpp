#pragma once
/// \file kt/tensor/elementwise.hpp
/// Binary elementwise arithmetic and comparisons with NumPy broadcasting and scalar operands
/// (`torch.add`, `mul`, `maximum`, `eq`, ...). Both tensors must be on one device and of one
/// dtype — mixing does not compile, and the message says to call `.to<...>()`. Comparisons
/// return `Tensor<std::uint8_t, D>` (0 or 1). Every named function (`kt::add(a, b)`,
/// `kt::eq(a, b)`, `kt::add_(a, b)`, ...) also takes an execution-space instance first (a CUDA
/// stream on GPUs) to order its kernel there.
///
///     auto y = x * 2.0f + b;              // b of shape (N,) broadcasts over x of shape (M, N)
///     auto m = kt::maximum(x, 0.0f);      // torch.maximum / clamp_min
///     auto mask = x > 0.5f;               // uint8 tensor
///     x += 1.0f;                          // in place
///     auto z = kt::add(exec, x, y);       // ordered on the instance exec

#include "kt/core/impl/public_begin.hpp"

#include "kt/tensor/impl/binary.hpp"
#include "kt/tensor/impl/ops.hpp"
#include "kt/tensor/tensor.hpp"

namespace kt {

// Operators: a and b are tensors or scalars, at least one a tensor.
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto operator+(const A& a, const B& b) { return impl::binary<impl::op::Add>("kt::operator+", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto operator-(const A& a, const B& b) { return impl::binary<impl::op::Sub>("kt::operator-", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto operator*(const A& a, const B& b) { return impl::binary<impl::op::Mul>("kt::operator*", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto operator/(const A& a, const B& b) { return impl::binary<impl::op::Div>("kt::operator/", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto operator==(const A& a, const B& b) { return impl::binary<impl::op::Eq>("kt::operator==", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto operator!=(const A& a, const B& b) { return impl::binary<impl::op::Ne>("kt::operator!=", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto operator<(const A& a, const B& b) { return impl::binary<impl::op::Lt>("kt::operator<", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto operator<=(const A& a, const B& b) { return impl::binary<impl::op::Le>("kt::operator<=", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto operator>(const A& a, const B& b) { return impl::binary<impl::op::Gt>("kt::operator>", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto operator>=(const A& a, const B& b) { return impl::binary<impl::op::Ge>("kt::operator>=", a, b); }

/// Elementwise maximum / minimum (`torch.maximum`, `torch.minimum`); NaN propagates.
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto maximum(const A& a, const B& b) { return impl::binary<impl::op::Maximum>("kt::maximum", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto minimum(const A& a, const B& b) { return impl::binary<impl::op::Minimum>("kt::minimum", a, b); }
/// a^b elementwise (`torch.pow`).
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto pow(const A& a, const B& b) { return impl::binary<impl::op::Pow>("kt::pow", a, b); }

/// The named forms of the operators (`torch.add`, `torch.eq`, ...).
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto add(const A& a, const B& b) { return impl::binary<impl::op::Add>("kt::add", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto sub(const A& a, const B& b) { return impl::binary<impl::op::Sub>("kt::sub", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto mul(const A& a, const B& b) { return impl::binary<impl::op::Mul>("kt::mul", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto div(const A& a, const B& b) { return impl::binary<impl::op::Div>("kt::div", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto eq(const A& a, const B& b) { return impl::binary<impl::op::Eq>("kt::eq", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto ne(const A& a, const B& b) { return impl::binary<impl::op::Ne>("kt::ne", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto lt(const A& a, const B& b) { return impl::binary<impl::op::Lt>("kt::lt", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto le(const A& a, const B& b) { return impl::binary<impl::op::Le>("kt::le", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto gt(const A& a, const B& b) { return impl::binary<impl::op::Gt>("kt::gt", a, b); }
template <class A, class B, impl::tensor_operands_t<A, B> = 0>
auto ge(const A& a, const B& b) { return impl::binary<impl::op::Ge>("kt::ge", a, b); }

// The same on an execution-space instance of the tensors' device.
template <class Exec, class A, class B, impl::tensor_operands_t<A, B> = 0>
auto add(const Exec& exec, const A& a, const B& b) { return impl::binary<impl::op::Add>("kt::add", exec, a, b); }
template <class Exec, class A, class B, impl::tensor_operands_t<A, B> = 0>
auto sub(const Exec& exec, const A& a, const B& b) { return impl::binary<impl::op::Sub>("kt::sub", exec, a, b); }
template <class Exec, class A, class B, impl::tensor_operands_t<A, B> = 0>
auto mul(const Exec& exec, const A& a, const B& b) { return impl::binary<impl::op::Mul>("kt::mul", exec, a, b); }
template <class Exec, class A, class B, impl::tensor_operands_t<A, B> = 0>
auto div(const Exec& exec, const A& a, const B& b) { return impl::binary<impl::op::Div>("kt::div", exec, a, b); }
template <class Exec, class A, class B, impl::tensor_operands_t<A, B> = 0>
auto maximum(const Exec& exec, const A& a, const B& b) { return impl::binary<impl::op::Maximum>("kt::maximum", exec, a, b); }
template <class Exec, class A, class B, impl::tensor_operands_t<A, B> = 0>
auto minimum(const Exec& exec, const A& a, const B& b) { return impl::binary<impl::op::Minimum>("kt::minimum", exec, a, b); }
template <class Exec, class A, class B, impl::tensor_operands_t<A, B> = 0>
auto pow(const Exec& exec, const A& a, const B& b) { return impl::binary<impl::op::Pow>("kt::pow", exec, a, b); }
template <class Exec, class A, class B, impl::tensor_operands_t<A, B> = 0>
auto eq(const Exec& exec, const A& a, const B& b) { return impl::binary<impl::op::Eq>("kt::eq", exec, a, b); }
template <class Exec, class A, class B, impl::tensor_operands_t<A, B> = 0>
auto ne(const Exec& exec, const A& a, const B& b) { return impl::binary<impl::op::Ne>("kt::ne", exec, a, b); }
template <class Exec, class A, class B, impl::tensor_operands_t<A, B> = 0>
auto lt(const Exec& exec, const A& a, const B& b) { return impl::binary<impl::op::Lt>("kt::lt", exec, a, b); }
template <class Exec, class A, class B, impl::tensor_operands_t<A, B> = 0>
auto le(const Exec& exec, const A& a, const B& b) { return impl::binary<impl::op::Le>("kt::le", exec, a, b); }
template <class Exec, class A, class B, impl::tensor_operands_t<A, B> = 0>
auto gt(const Exec& exec, const A& a, const B& b) { return impl::binary<impl::op::Gt>("kt::gt", exec, a, b); }
template <class Exec, class A, class B, impl::tensor_operands_t<A, B> = 0>
auto ge(const Exec& exec, const A& a, const B& b) { return impl::binary<impl::op::Ge>("kt::ge", exec, a, b); }

// In place: `a op= b` (b a tensor that broadcasts to a's shape, or a scalar), and the named
// forms `add_(a, b)` (`Tensor.add_`) ..., also ordered on an instance: `add_(exec, a, b)`.
template <class T, class D, class B>
const Tensor<T, D>& operator+=(const Tensor<T, D>& a, const B& b) { return impl::binary_inplace<impl::op::Add>("kt::operator+=", D(), a, b); }
template <class T, class D, class B>
const Tensor<T, D>& operator-=(const Tensor<T, D>& a, const B& b) { return impl::binary_inplace<impl::op::Sub>("kt::operator-=", D(), a, b); }
template <class T, class D, class B>
const Tensor<T, D>& operator*=(const Tensor<T, D>& a, const B& b) { return impl::binary_inplace<impl::op::Mul>("kt::operator*=", D(), a, b); }
template <class T, class D, class B>
const Tensor<T, D>& operator/=(const Tensor<T, D>& a, const B& b) { return impl::binary_inplace<impl::op::Div>("kt::operator/=", D(), a, b); }
template <class T, class D, class B>
const Tensor<T, D>& add_(const Tensor<T, D>& a, const B& b) { return impl::binary_inplace<impl::op::Add>("kt::add_", D(), a, b); }
template <class T, class D, class B>
const Tensor<T, D>& sub_(const Tensor<T, D>& a, const B& b) { return impl::binary_inplace<impl::op::Sub>("kt::sub_", D(), a, b); }
template <class T, class D, class B>
const Tensor<T, D>& mul_(const Tensor<T, D>& a, const B& b) { return impl::binary_inplace<impl::op::Mul>("kt::mul_", D(), a, b); }
template <class T, class D, class B>
const Tensor<T, D>& div_(const Tensor<T, D>& a, const B& b) { return impl::binary_inplace<impl::op::Div>("kt::div_", D(), a, b); }
template <class Exec, class T, class D, class B>
const Tensor<T, D>& add_(const Exec& exec, const Tensor<T, D>& a, const B& b) { return impl::binary_inplace<impl::op::Add>("kt::add_", exec, a, b); }
template <class Exec, class T, class D, class B>
const Tensor<T, D>& sub_(const Exec& exec, const Tensor<T, D>& a, const B& b) { return impl::binary_inplace<impl::op::Sub>("kt::sub_", exec, a, b); }
template <class Exec, class T, class D, class B>
const Tensor<T, D>& mul_(const Exec& exec, const Tensor<T, D>& a, const B& b) { return impl::binary_inplace<impl::op::Mul>("kt::mul_", exec, a, b); }
template <class Exec, class T, class D, class B>
const Tensor<T, D>& div_(const Exec& exec, const Tensor<T, D>& a, const B& b) { return impl::binary_inplace<impl::op::Div>("kt::div_", exec, a, b); }

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
