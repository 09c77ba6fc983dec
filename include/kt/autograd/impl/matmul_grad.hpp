#pragma once
// The backward helper of kt/autograd/matmul.hpp.

#include "kt/core/impl/internal.hpp"

#include "kt/tensor/reduce.hpp"
#include "kt/tensor/tensor.hpp"

namespace kt {

namespace impl {
/// Sums a batched gradient back to an operand that was broadcast over the batch: a 2-D
/// operand (sum over dim 0) or a batch of one (sum, keeping the dim).
template <class T, class D>
Tensor<T, D> unbroadcast_batch(const Tensor<T, D>& grad, const Shape& operand) {
  if (grad.rank() == 3 && operand.rank() == 2) return sum(grad, 0);
  if (grad.rank() == 3 && operand[0] == 1 && grad.size(0) != 1) return sum(grad, 0, /*keepdim=*/true);
  return grad;
}
}  // namespace impl

}  // namespace kt
