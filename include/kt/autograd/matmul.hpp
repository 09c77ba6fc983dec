#pragma once
/// \file kt/autograd/matmul.hpp
/// Differentiable matrix products of kt::Var: 2-D, batched 3-D, and a 2-D operand broadcast
/// over the other's batch, as `kt::matmul` on tensors. The backward pass is two GEMMs
/// (dA = G·Bᵀ, dB = Aᵀ·G), each skipped when that input needs no gradient; the gradient of a
/// broadcast operand is summed over the batch by folding the batch into the GEMM's rows.
///
///     kt::Var<float> x(kt::randn<float>({8, 4, 3}, 0)), w(kt::randn<float>({3, 5}, 1), true);
///     kt::sum(kt::matmul(x, w)).backward();     // w.grad(): (3, 5), summed over the batch

#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/matmul.hpp"
#include "kt/tensor/reduce.hpp"

#include <vector>

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

/// The product a · b (`torch.matmul`); see kt/tensor/matmul.hpp for the shapes.
template <class T, class D>
Var<T, D> matmul(const Var<T, D>& a, const Var<T, D>& b) {
  impl::require_defined("kt::matmul", {a, b});
  return impl::record("kt::matmul", matmul(a.data(), b.data()), {a, b},
                      [x = a.data(), y = b.data()](const Tensor<T, D>& g, const impl::Needs& needs) {
                        std::vector<Tensor<T, D>> grads(2);
                        if (needs[0])  // dA = G · Bᵀ
                          grads[0] = impl::unbroadcast_batch(matmul(g, y, MatmulOptions().transpose_b(true)), x.shape());
                        if (needs[1]) {  // dB = Aᵀ · G
                          if (x.rank() == 3 && y.rank() == 2)  // fold the batch into the rows
                            grads[1] = matmul(x.reshape({-1, x.size(2)}), g.reshape({-1, g.size(2)}),
                                              MatmulOptions().transpose_a(true));
                          else
                            grads[1] = impl::unbroadcast_batch(matmul(x, g, MatmulOptions().transpose_a(true)), y.shape());
                        }
                        return grads;
                      });
}

}  // namespace kt
