#pragma once
// What each differentiable op does under kt::amp::autocast — PyTorch's three op lists as one
// enum. Every op declares its policy once, as a member `static constexpr AutocastPolicy
// autocast` of its functor (kt/tensor/impl/ops.hpp) or of its tag (the ops without a functor:
// kt/autograd/impl/autocast_dispatch.hpp), and the one dispatch there applies it. Kept in core/
// because the tensor layer's functors declare it.

#include "kt/core/impl/internal.hpp"

#include <type_traits>

namespace kt::impl {

enum class AutocastPolicy {
  /// Runs in the region's 16-bit dtype, its fp32 operands cast (PyTorch's lower_precision_fp
  /// list: matmul, linear).
  LowerPrecision,
  /// Runs on fp32 values and gives fp32, whatever its operands' twins (PyTorch's fp32 list:
  /// exp, log, pow, reductions, softmax, layer_norm, the losses).
  Fp32,
  /// Runs in its operands' dtype: in 16 bits when every Var operand carries a twin of the
  /// region's dtype, else in fp32, the widest (PyTorch's promote rule and its
  /// "run in the input's dtype" ops: + - * /, activations, reshapes, dropout, ...).
  Promote,
};

/// Whether Op declares its policy (`Op::autocast`).
template <class Op, class = void>
struct has_autocast_policy : std::false_type {};
template <class Op>
struct has_autocast_policy<Op, std::void_t<decltype(Op::autocast)>> : std::true_type {};

}  // namespace kt::impl
