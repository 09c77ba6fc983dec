#pragma once
// Operands of differentiable functions: a kt::Var, a kt::Tensor (a constant Var) or, for
// elementwise ops, a scalar. Functions are templates over their operand types, so that
// `kt::matmul(tensor, var)` or `kt::mse_loss(var, tensor)` deduce; at least one operand must
// be a Var, and all must live on one device with one dtype (checked with a fix-it message).

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/var.hpp"
#include "kt/tensor/impl/binary.hpp"
#include "kt/tensor/impl/same_device.hpp"
#include "kt/tensor/tensor.hpp"

#include <type_traits>

namespace kt::impl {

template <class X>
struct is_var : std::false_type {};
template <class T, class D>
struct is_var<Var<T, D>> : std::true_type {};
template <class X>
inline constexpr bool is_var_v = is_var<X>::value;

/// The Var type among the operands (the first Var).
template <class... Xs>
struct var_of;
template <class X, class... Xs>
struct var_of<X, Xs...> {
  using type = std::conditional_t<is_var_v<X>, X, typename var_of<Xs...>::type>;
};
template <>
struct var_of<> {
  using type = void;
};
template <class... Xs>
using var_of_t = typename var_of<Xs...>::type;

/// Enables a differentiable function for operands that are Vars or Tensors, at least one a
/// Var (Tensor-only calls are the tensor ops').
template <class... Xs>
using var_operands_t = std::enable_if_t<(is_var_v<Xs> || ...) && ((is_var_v<Xs> || is_tensor_v<Xs>) && ...), int>;

/// The same, scalars allowed too (elementwise arithmetic).
template <class... Xs>
using var_scalar_operands_t =
    std::enable_if_t<(is_var_v<Xs> || ...) && ((is_var_v<Xs> || is_tensor_v<Xs> || is_scalar_v<Xs>) && ...), int>;

/// Checks at compile time that operand X (Var, Tensor or scalar) matches the Var type V.
template <class V, class X>
constexpr void require_compatible() {
  if constexpr (is_var_v<X> || is_tensor_v<X>) {
    require_same_device<typename V::device_type, typename X::device_type>();
    require_same_dtype<typename V::value_type, typename X::value_type>();
  }
}

template <class V, class X, bool = is_var_v<X> || is_tensor_v<X>>
struct compatible : std::true_type {};  // a scalar
template <class V, class X>
struct compatible<V, X, true>
    : std::bool_constant<std::is_same_v<typename V::device_type, typename X::device_type> &&
                         std::is_same_v<typename V::value_type, typename X::value_type>> {};
/// True when X (Var, Tensor or scalar) may take part in an op with the Var type V.
template <class V, class X>
inline constexpr bool compatible_v = compatible<V, X>::value;

/// A Var from a Var (itself) or a Tensor (a constant); scalars pass through.
template <class V, class X>
decltype(auto) as_var(const X& x) {
  if constexpr (is_var_v<X>) return (x);
  else if constexpr (is_tensor_v<X>) return V(x);
  else return (x);
}

/// The value an operand takes part in a tensor op with: a Var's tensor, a Tensor, a scalar.
template <class X>
decltype(auto) value_of(const X& x) {
  if constexpr (is_var_v<X>) return (x.data());
  else return (x);
}

}  // namespace kt::impl
