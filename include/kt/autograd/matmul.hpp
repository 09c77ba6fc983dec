#pragma once
/// \file kt/autograd/matmul.hpp
/// Differentiable matrix products of kt::Var: 2-D, batched 3-D, and a 2-D operand broadcast
/// over the other's batch, as `kt::matmul` on tensors. The backward pass is two GEMMs
/// (dA = G·Bᵀ, dB = Aᵀ·G), each skipped when that input needs no gradient, run at once where
/// the back-end can (2-D operands); the gradient of a broadcast operand is summed over the
/// batch by folding the batch into the GEMM's rows.
///
///     kt::Var<float> x(kt::randn<float>({8, 4, 3}, 0)), w(kt::randn<float>({3, 5}, 1), true);
///     kt::sum(kt::matmul(x, w)).backward();     // w.grad(): (3, 5), summed over the batch

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/autocast_dispatch.hpp"
#include "kt/autograd/impl/matmul_grad.hpp"
#include "kt/autograd/impl/operand.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/profiling.hpp"
#include "kt/tensor/matmul.hpp"
#include "kt/tensor/reduce.hpp"

#include <tuple>
#include <vector>

namespace kt {


/// The product a · b (`torch.matmul`) of Vars or a Var and a Tensor; see kt/tensor/matmul.hpp
/// for the shapes.
template <class A, class B, impl::var_operands_t<A, B> = 0>
auto matmul(const A& a_, const B& b_) {
  using V = impl::var_of_t<A, B>;
  impl::require_compatible<V, A>();
  impl::require_compatible<V, B>();
  using T = typename V::value_type;
  using D = typename V::device_type;
  const V a = impl::as_var<V>(a_), b = impl::as_var<V>(b_);
  impl::require_defined("kt::matmul", {a, b});
  if (V result; impl::autocast_dispatch<impl::op_tag::Matmul, T, D>(
          result, [](const auto& x, const auto& y) { return matmul(x, y); }, a, b))
    return result;
  return impl::record("kt::matmul", matmul(a.data(), b.data()), {a, b},
                      [x = a.data(), y = b.data()](const Tensor<T, D>& g, const impl::Needs& needs) {
                        std::vector<Tensor<T, D>> grads(2);
                        if (needs[0] && needs[1] && x.rank() == 2 && y.rank() == 2) {  // independent: at once
                          KT_PROFILE_REGION("kt::matmul");  // one region for both, as the product's one
                          std::tie(grads[0], grads[1]) =
                              impl::matmul_pair(D(), g, y, MatmulOptions().transpose_b(true), x, g,
                                                MatmulOptions().transpose_a(true));
                          return grads;
                        }
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

#include "kt/core/impl/public_end.hpp"
