#pragma once
/// \file kt/tensor/unary.hpp
/// Unary elementwise math (`torch.exp`, `relu`, `clamp`, ...). Transcendental functions need
/// a floating dtype; 16-bit dtypes compute in fp32 and round once.
///
///     auto y = kt::sigmoid(x);
///     auto z = kt::clamp(x, -1.0f, 1.0f);
///     auto p = kt::pow(x, 2.0f);          // declared in kt/tensor/elementwise.hpp

#include "kt/tensor/impl/map.hpp"
#include "kt/tensor/impl/ops.hpp"
#include "kt/tensor/tensor.hpp"

#include <type_traits>

namespace kt {

#define KT_DEFINE_UNARY(name, opname, Op, floating_only)                                        \
  template <class T, class D>                                                                  \
  Tensor<T, D> name(const Tensor<T, D>& a) {                                                   \
    static_assert(!(floating_only) || is_floating_dtype_v<T>,                                  \
                  opname ": needs a floating dtype; convert with .to<float>() first");         \
    KT_PROFILE_REGION(opname);                                                                 \
    return impl::unary_map<T>(opname, a, impl::op::Op{});                                      \
  }

KT_DEFINE_UNARY(operator-, "kt::operator-", Neg, false)
KT_DEFINE_UNARY(abs, "kt::abs", Abs, false)
KT_DEFINE_UNARY(relu, "kt::relu", Relu, false)
KT_DEFINE_UNARY(exp, "kt::exp", Exp, true)
KT_DEFINE_UNARY(log, "kt::log", Log, true)
KT_DEFINE_UNARY(sqrt, "kt::sqrt", Sqrt, true)
KT_DEFINE_UNARY(tanh, "kt::tanh", Tanh, true)
KT_DEFINE_UNARY(sigmoid, "kt::sigmoid", Sigmoid, true)
KT_DEFINE_UNARY(sin, "kt::sin", Sin, true)
KT_DEFINE_UNARY(cos, "kt::cos", Cos, true)
#undef KT_DEFINE_UNARY

/// Limits every element to [lo, hi] (`torch.clamp`); NaN stays NaN.
template <class T, class D>
Tensor<T, D> clamp(const Tensor<T, D>& a, compute_t<T> lo, compute_t<T> hi) {
  KT_PROFILE_REGION("kt::clamp");
  KT_REQUIRE(!(hi < lo), "kt::clamp: lo (", lo, ") must not exceed hi (", hi, ")");
  return impl::unary_map<T>("kt::clamp", a, impl::op::Clamp<compute_t<T>>{lo, hi});
}

}  // namespace kt
