#pragma once
// The backward pair of broadcasting (kt/tensor/impl/broadcast.hpp): a gradient broadcast up to
// a shape, and summed back down to an operand's shape.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/compiled.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/impl/broadcast.hpp"
#include "kt/tensor/reduce.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kt::impl {

/// `t` broadcast to `shape` as a new contiguous tensor (t itself when shapes are equal).
template <class T, class D>
Tensor<T, D> expand_to(const Tensor<T, D>& t, const Shape& shape) {
  if (t.shape() == shape) return t;
  broadcast_shapes(t.shape(), shape, "kt::autograd::expand");
  const D exec;
  Tensor<T, D> out(shape, exec);
  const auto x = t.view();
  const auto y = out.view();
  broadcast_for(exec, "kt::autograd::expand", BroadcastIndex(shape, t.shape(), t.shape()), out.numel(),
                KOKKOS_LAMBDA(std::int64_t e, std::int64_t ia, std::int64_t) { y(e) = x(ia); });
  return out;
}

/// Sums `grad` (of a broadcast result's shape) down to `shape`, the operand's shape: over
/// the leading dims broadcasting added and over the dims where the operand had extent 1.
template <class T, class D>
Tensor<T, D> sum_to(Tensor<T, D> grad, const Shape& shape) {
  if (grad.shape() == shape) return grad;
  while (grad.rank() > shape.rank()) grad = sum(grad, 0);
  for (int d = 0; d < shape.rank(); ++d)
    if (shape[d] == 1 && grad.size(d) != 1) grad = sum(grad, d, /*keepdim=*/true);
  return grad.reshape(shape.dims());
}

}  // namespace kt::impl

// kt_compiled (kt/core/impl/compiled.hpp): both for every floating tensor.
#define KT_ETI_BROADCAST_GRAD_ONE(T, D, KW)                                          \
  KW kt::Tensor<T, D> kt::impl::expand_to<T, D>(const kt::Tensor<T, D>&, const kt::Shape&); \
  KW kt::Tensor<T, D> kt::impl::sum_to<T, D>(kt::Tensor<T, D>, const kt::Shape&);
#define KT_ETI_BROADCAST_GRAD(KW) KT_ETI_EACH_FLOAT_DEVICE(KT_ETI_BROADCAST_GRAD_ONE, KW)
#if defined(KT_COMPILED) && !defined(KT_COMPILED_DEFINES_ELEMENTWISE)
KT_ETI_BROADCAST_GRAD(extern template)
#endif
