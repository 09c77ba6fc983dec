#pragma once
// The one implementation of every binary elementwise op (kt/tensor/elementwise.hpp): a tensor
// with a tensor (broadcast), a tensor with a scalar, a scalar with a tensor, or in place; the
// op is a functor of kt/tensor/impl/ops.hpp. Devices and dtypes are checked at compile time.

#include "kt/core/impl/internal.hpp"

#include "kt/tensor/impl/map.hpp"
#include "kt/tensor/impl/ops.hpp"
#include "kt/tensor/impl/same_device.hpp"
#include "kt/tensor/tensor.hpp"

#include <type_traits>

namespace kt::impl {

/// Scalars that may appear beside a Tensor<T>: arithmetic types and the 16-bit types.
template <class S>
inline constexpr bool is_scalar_v = std::is_arithmetic_v<S> || is_float16<S>::value;

template <class X>
struct is_tensor : std::false_type {};
template <class T, class D>
struct is_tensor<Tensor<T, D>> : std::true_type {};
template <class X>
inline constexpr bool is_tensor_v = is_tensor<X>::value;

/// Enables a binary op for (tensor, tensor), (tensor, scalar) and (scalar, tensor).
template <class A, class B>
using tensor_operands_t = std::enable_if_t<(is_tensor_v<A> && (is_tensor_v<B> || is_scalar_v<B>)) ||
                                               (is_scalar_v<A> && is_tensor_v<B>),
                                           int>;

/// The tensor among two operands (the first when both are).
template <class A, class B>
using tensor_of_t = std::conditional_t<is_tensor_v<A>, A, B>;

/// A floating scalar with an integer tensor is rejected: PyTorch would promote the result to
/// float, kt asks for the conversion to be explicit.
template <class T, class S>
constexpr void check_scalar() {
  static_assert(!(std::is_integral_v<T> && !std::is_integral_v<S>),
                "kt: a floating scalar cannot combine with an integer tensor; convert the tensor "
                "with .to<float>() first");
}

/// a op b on `exec`; A and B are tensors or scalars (at least one a tensor).
template <class Op, class Exec, class A, class B>
auto binary(const char* name, const Exec& exec, const A& a, const B& b) {
  using TensorType = tensor_of_t<A, B>;
  using T = typename TensorType::value_type;
  using D = typename TensorType::device_type;
  using C = compute_t<T>;
  using R = op::result_t<Op, T>;
  require_instance_of<Exec, D>();
  KT_PROFILE_REGION(name);
  if constexpr (is_tensor_v<A> && is_tensor_v<B>) {
    using T2 = typename B::value_type;
    using D2 = typename B::device_type;
    require_same_device<D, D2>();
    require_same_dtype<T, T2>();
    if constexpr (!std::is_same_v<D, D2> || !std::is_same_v<T, T2>) {
      return Tensor<R, D>();  // unreachable: a static_assert above has failed
    } else {
      if constexpr (op::divides<Op>::value) require_no_zero(exec, name, b);
      return binary_map<R>(exec, name, a, b, Op{});
    }
  } else if constexpr (is_tensor_v<A>) {
    check_scalar<T, B>();
    if constexpr (op::divides<Op>::value && std::is_integral_v<T>)
      KT_REQUIRE(b != B(0), name, ": integer division by zero");
    return unary_map<R>(exec, name, a, op::BindRight<Op, C>{{}, static_cast<C>(b)});
  } else {
    check_scalar<T, A>();
    if constexpr (op::divides<Op>::value) require_no_zero(exec, name, b);
    return unary_map<R>(exec, name, b, op::BindLeft<Op, C>{{}, static_cast<C>(a)});
  }
}

/// a op b on the default instance of the tensor operand's device.
template <class Op, class A, class B>
auto binary(const char* name, const A& a, const B& b) {
  return binary<Op>(name, typename tensor_of_t<A, B>::device_type(), a, b);
}

/// a = a op b in place (b a tensor that broadcasts to a's shape, or a scalar); returns a.
template <class Op, class Exec, class T, class D, class B>
const Tensor<T, D>& binary_inplace(const char* name, const Exec& exec, const Tensor<T, D>& a, const B& b) {
  using C = compute_t<T>;
  require_instance_of<Exec, D>();
  KT_PROFILE_REGION(name);
  if constexpr (is_tensor_v<B>) {
    using T2 = typename B::value_type;
    using D2 = typename B::device_type;
    require_same_device<D, D2>();
    require_same_dtype<T, T2>();
    if constexpr (std::is_same_v<D, D2> && std::is_same_v<T, T2>) {
      if constexpr (op::divides<Op>::value) require_no_zero(exec, name, b);
      binary_inplace(exec, name, a, b, Op{});
    }
  } else {
    static_assert(is_scalar_v<B>, "kt: the right operand of an in-place op must be a tensor or a scalar");
    check_scalar<T, B>();
    if constexpr (op::divides<Op>::value && std::is_integral_v<T>)
      KT_REQUIRE(b != B(0), name, ": integer division by zero");
    unary_inplace(exec, name, a, op::BindRight<Op, C>{{}, static_cast<C>(b)});
  }
  return a;
}

/// f(a) for a unary functor of kt/tensor/impl/ops.hpp, on `exec`.
template <class Op, class Exec, class T, class D>
Tensor<op::result_t<Op, T>, D> unary(const char* name, const Exec& exec, const Tensor<T, D>& a, Op f = Op{}) {
  static_assert(!Op::floating || is_floating_dtype_v<T>,
                "kt: this function needs a floating dtype (see the instantiation above); convert "
                "with .to<float>() first");
  require_instance_of<Exec, D>();
  KT_PROFILE_REGION(name);
  return unary_map<op::result_t<Op, T>>(exec, name, a, f);
}

}  // namespace kt::impl
