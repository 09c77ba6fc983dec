#pragma once
/// \file kt/tensor/elementwise.hpp
/// Binary elementwise arithmetic and comparisons with NumPy broadcasting and scalar operands.
/// Both tensors must be on one device and of one dtype — mixing does not compile, and the
/// message says to call `.to<...>()`. Comparisons return `Tensor<std::uint8_t, D>` (0 or 1).
///
///     auto y = x * 2.0f + b;              // b of shape (N,) broadcasts over x of shape (M, N)
///     auto m = kt::maximum(x, 0.0f);      // torch.maximum / clamp_min
///     auto mask = x > 0.5f;               // uint8 tensor
///     x += 1.0f;                          // in place

#include "kt/tensor/impl/map.hpp"
#include "kt/tensor/impl/ops.hpp"
#include "kt/tensor/impl/same_device.hpp"
#include "kt/tensor/tensor.hpp"

#include <cstdint>
#include <type_traits>

namespace kt {

namespace impl {
/// Scalars that may appear beside a Tensor<T>: arithmetic types and the 16-bit types.
template <class S>
inline constexpr bool is_scalar_v =
    std::is_arithmetic_v<S> || std::is_same_v<S, half> || std::is_same_v<S, bfloat16>;

/// A floating scalar with an integer tensor is rejected: PyTorch would promote the result to
/// float, kt asks for the conversion to be explicit.
template <class T, class S>
constexpr void check_scalar(const char*) {
  static_assert(!(std::is_integral_v<T> && !std::is_integral_v<S>),
                "kt: a floating scalar cannot combine with an integer tensor; convert the "
                "tensor with .to<float>() first");
}
/// Result-dtype marker: the operands' own dtype.
struct same_dtype {};
template <class R, class T>
using result_t = std::conditional_t<std::is_same_v<R, same_dtype>, T, R>;
}  // namespace impl

// Defines `name(a, b)`, `name(a, s)` and `name(s, a)`; R is the result dtype (impl::same_dtype,
// or uint8 for comparisons).
#define KT_DEFINE_BINARY(name, opname, Op, R)                                                     \
  template <class T1, class D1, class T2, class D2>                                                \
  auto name(const Tensor<T1, D1>& a, const Tensor<T2, D2>& b) {                                    \
    KT_STATIC_REQUIRE_SAME_DEVICE(D1, D2, opname);                                                 \
    KT_STATIC_REQUIRE_SAME_DTYPE(T1, T2, opname);                                                  \
    if constexpr (!std::is_same_v<D1, D2> || !std::is_same_v<T1, T2>) {                           \
      return a; /* unreachable: the static_asserts above already failed */                       \
    } else {                                                                                       \
      KT_PROFILE_REGION(opname);                                                                   \
      if constexpr (std::is_same_v<impl::op::Op, impl::op::Div>) impl::require_no_zero(opname, b); \
      return impl::binary_map<impl::result_t<R, T1>>(opname, a, b, impl::op::Op{});               \
    }                                                                                              \
  }                                                                                                \
  template <class T, class D, class S, class = std::enable_if_t<impl::is_scalar_v<S>>>             \
  auto name(const Tensor<T, D>& a, S s) {                                                          \
    impl::check_scalar<T, S>(opname);                                                              \
    KT_PROFILE_REGION(opname);                                                                     \
    using C = compute_t<T>;                                                                        \
    if constexpr (std::is_same_v<impl::op::Op, impl::op::Div> && std::is_integral_v<T>)            \
      KT_REQUIRE(s != S(0), opname, ": integer division by zero");                                 \
    return impl::unary_map<impl::result_t<R, T>>(opname, a, impl::op::BindRight<impl::op::Op, C>{{}, static_cast<C>(s)}); \
  }                                                                                                \
  template <class T, class D, class S, class = std::enable_if_t<impl::is_scalar_v<S>>>             \
  auto name(S s, const Tensor<T, D>& a) {                                                          \
    impl::check_scalar<T, S>(opname);                                                              \
    KT_PROFILE_REGION(opname);                                                                     \
    using C = compute_t<T>;                                                                        \
    if constexpr (std::is_same_v<impl::op::Op, impl::op::Div>) impl::require_no_zero(opname, a);  \
    return impl::unary_map<impl::result_t<R, T>>(opname, a, impl::op::BindLeft<impl::op::Op, C>{{}, static_cast<C>(s)}); \
  }

KT_DEFINE_BINARY(operator+, "kt::operator+", Add, impl::same_dtype)
KT_DEFINE_BINARY(operator-, "kt::operator-", Sub, impl::same_dtype)
KT_DEFINE_BINARY(operator*, "kt::operator*", Mul, impl::same_dtype)
KT_DEFINE_BINARY(operator/, "kt::operator/", Div, impl::same_dtype)
KT_DEFINE_BINARY(maximum, "kt::maximum", Maximum, impl::same_dtype)
KT_DEFINE_BINARY(minimum, "kt::minimum", Minimum, impl::same_dtype)
KT_DEFINE_BINARY(pow, "kt::pow", Pow, impl::same_dtype)
KT_DEFINE_BINARY(operator==, "kt::operator==", Eq, std::uint8_t)
KT_DEFINE_BINARY(operator!=, "kt::operator!=", Ne, std::uint8_t)
KT_DEFINE_BINARY(operator<, "kt::operator<", Lt, std::uint8_t)
KT_DEFINE_BINARY(operator<=, "kt::operator<=", Le, std::uint8_t)
KT_DEFINE_BINARY(operator>, "kt::operator>", Gt, std::uint8_t)
KT_DEFINE_BINARY(operator>=, "kt::operator>=", Ge, std::uint8_t)
#undef KT_DEFINE_BINARY

// In place: `a op= b` (b broadcasts to a's shape) and `a op= s`.
#define KT_DEFINE_INPLACE(sym, opname, Op)                                                     \
  template <class T1, class D1, class T2, class D2>                                             \
  const Tensor<T1, D1>& operator sym(const Tensor<T1, D1>& a, const Tensor<T2, D2>& b) {        \
    KT_STATIC_REQUIRE_SAME_DEVICE(D1, D2, opname);                                              \
    KT_STATIC_REQUIRE_SAME_DTYPE(T1, T2, opname);                                               \
    if constexpr (std::is_same_v<D1, D2> && std::is_same_v<T1, T2>) {                           \
      KT_PROFILE_REGION(opname);                                                                \
      if constexpr (std::is_same_v<impl::op::Op, impl::op::Div>) impl::require_no_zero(opname, b); \
      impl::binary_inplace(opname, a, b, impl::op::Op{});                                       \
    }                                                                                           \
    return a;                                                                                   \
  }                                                                                             \
  template <class T, class D, class S, class = std::enable_if_t<impl::is_scalar_v<S>>>          \
  const Tensor<T, D>& operator sym(const Tensor<T, D>& a, S s) {                                \
    impl::check_scalar<T, S>(opname);                                                           \
    KT_PROFILE_REGION(opname);                                                                  \
    using C = compute_t<T>;                                                                     \
    if constexpr (std::is_same_v<impl::op::Op, impl::op::Div> && std::is_integral_v<T>)         \
      KT_REQUIRE(s != S(0), opname, ": integer division by zero");                              \
    impl::unary_inplace(opname, a, impl::op::BindRight<impl::op::Op, C>{{}, static_cast<C>(s)}); \
    return a;                                                                                   \
  }

KT_DEFINE_INPLACE(+=, "kt::operator+=", Add)
KT_DEFINE_INPLACE(-=, "kt::operator-=", Sub)
KT_DEFINE_INPLACE(*=, "kt::operator*=", Mul)
KT_DEFINE_INPLACE(/=, "kt::operator/=", Div)
#undef KT_DEFINE_INPLACE

}  // namespace kt
