#pragma once
/// \file kt/tensor/unary.hpp
/// Unary elementwise math (`torch.exp`, `relu`, `gelu`, `clamp`, `isfinite`, ...).
/// Transcendental functions need a floating dtype; 16-bit dtypes compute in fp32 and round
/// once. Each function also takes an execution-space instance first (a CUDA stream on GPUs).
///
///     auto y = kt::sigmoid(x);
///     auto z = kt::clamp(x, -1.0f, 1.0f);
///     auto ok = kt::isfinite(x);          // uint8 tensor
///     auto g = kt::gelu(exec, x);         // ordered on the instance exec

#include "kt/core/impl/public_begin.hpp"

#include "kt/tensor/impl/binary.hpp"
#include "kt/tensor/impl/ops.hpp"
#include "kt/tensor/tensor.hpp"

namespace kt {

template <class T, class D>
Tensor<T, D> operator-(const Tensor<T, D>& a) { return impl::unary<impl::op::Neg>("kt::neg", D(), a); }

template <class Exec, class T, class D>
Tensor<T, D> neg(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::Neg>("kt::neg", exec, a); }
template <class Exec, class T, class D>
Tensor<T, D> abs(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::Abs>("kt::abs", exec, a); }
template <class Exec, class T, class D>
Tensor<T, D> exp(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::Exp>("kt::exp", exec, a); }
template <class Exec, class T, class D>
Tensor<T, D> log(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::Log>("kt::log", exec, a); }
template <class Exec, class T, class D>
Tensor<T, D> sqrt(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::Sqrt>("kt::sqrt", exec, a); }
template <class Exec, class T, class D>
Tensor<T, D> sin(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::Sin>("kt::sin", exec, a); }
template <class Exec, class T, class D>
Tensor<T, D> cos(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::Cos>("kt::cos", exec, a); }
template <class Exec, class T, class D>
Tensor<T, D> relu(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::Relu>("kt::relu", exec, a); }
/// GELU, the exact form 0.5 x (1 + erf(x / √2)) (`torch.nn.functional.gelu`).
template <class Exec, class T, class D>
Tensor<T, D> gelu(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::Gelu>("kt::gelu", exec, a); }
template <class Exec, class T, class D>
Tensor<T, D> tanh(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::Tanh>("kt::tanh", exec, a); }
template <class Exec, class T, class D>
Tensor<T, D> sigmoid(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::Sigmoid>("kt::sigmoid", exec, a); }
/// 1 where the element is NaN / ±Inf / finite, else 0 (`torch.isnan`, `isinf`, `isfinite`).
template <class Exec, class T, class D>
Tensor<std::uint8_t, D> isnan(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::IsNan>("kt::isnan", exec, a); }
template <class Exec, class T, class D>
Tensor<std::uint8_t, D> isinf(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::IsInf>("kt::isinf", exec, a); }
template <class Exec, class T, class D>
Tensor<std::uint8_t, D> isfinite(const Exec& exec, const Tensor<T, D>& a) { return impl::unary<impl::op::IsFinite>("kt::isfinite", exec, a); }

// The same on the device's default instance.
template <class T, class D> Tensor<T, D> neg(const Tensor<T, D>& a) { return neg(D(), a); }
template <class T, class D> Tensor<T, D> abs(const Tensor<T, D>& a) { return abs(D(), a); }
template <class T, class D> Tensor<T, D> exp(const Tensor<T, D>& a) { return exp(D(), a); }
template <class T, class D> Tensor<T, D> log(const Tensor<T, D>& a) { return log(D(), a); }
template <class T, class D> Tensor<T, D> sqrt(const Tensor<T, D>& a) { return sqrt(D(), a); }
template <class T, class D> Tensor<T, D> sin(const Tensor<T, D>& a) { return sin(D(), a); }
template <class T, class D> Tensor<T, D> cos(const Tensor<T, D>& a) { return cos(D(), a); }
template <class T, class D> Tensor<T, D> relu(const Tensor<T, D>& a) { return relu(D(), a); }
template <class T, class D> Tensor<T, D> gelu(const Tensor<T, D>& a) { return gelu(D(), a); }
template <class T, class D> Tensor<T, D> tanh(const Tensor<T, D>& a) { return tanh(D(), a); }
template <class T, class D> Tensor<T, D> sigmoid(const Tensor<T, D>& a) { return sigmoid(D(), a); }
template <class T, class D> Tensor<std::uint8_t, D> isnan(const Tensor<T, D>& a) { return isnan(D(), a); }
template <class T, class D> Tensor<std::uint8_t, D> isinf(const Tensor<T, D>& a) { return isinf(D(), a); }
template <class T, class D> Tensor<std::uint8_t, D> isfinite(const Tensor<T, D>& a) { return isfinite(D(), a); }

/// Limits every element to [lo, hi] (`torch.clamp`); NaN stays NaN.
template <class Exec, class T, class D>
Tensor<T, D> clamp(const Exec& exec, const Tensor<T, D>& a, compute_t<T> lo, compute_t<T> hi) {
  KT_REQUIRE(!(hi < lo), "kt::clamp: lo (", lo, ") must not exceed hi (", hi, ")");
  return impl::unary("kt::clamp", exec, a, impl::op::Clamp<compute_t<T>>{lo, hi});
}
template <class T, class D>
Tensor<T, D> clamp(const Tensor<T, D>& a, compute_t<T> lo, compute_t<T> hi) { return clamp(D(), a, lo, hi); }

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
