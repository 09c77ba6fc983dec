#pragma once
// Kernels shared by backward functions: broadcasting a gradient up to a shape, summing it
// back down to an input's shape (the inverse of broadcasting), and the per-element gradient
// maps of unary ops.

#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/profiling.hpp"
#include "kt/tensor/impl/broadcast.hpp"
#include "kt/tensor/reduce.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <vector>

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
  const BroadcastIndex index(shape, t.shape(), t.shape());
  parallel_for(exec, "kt::autograd::expand", out.numel(), KOKKOS_LAMBDA(std::int64_t i) {
    std::int64_t ia, ib;
    index(i, ia, ib);
    y(i) = x(ia);
  });
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

/// out[i] = f(g[i], x[i], y[i]) for three tensors of one shape (gradient, input, output);
/// f works in the compute type.
template <class T, class D, class F>
Tensor<T, D> grad_map(const char* label, const Tensor<T, D>& g, const Tensor<T, D>& x,
                      const Tensor<T, D>& y, F f) {
  using C = compute_t<T>;
  const D exec;
  Tensor<T, D> out(g.shape(), exec);
  const auto gv = g.view(), xv = x.view(), yv = y.view(), ov = out.view();
  parallel_for(exec, label, out.numel(), KOKKOS_LAMBDA(std::int64_t i) {
    ov(i) = static_cast<T>(f(static_cast<C>(gv(i)), static_cast<C>(xv(i)), static_cast<C>(yv(i))));
  });
  return out;
}

/// The gradient of a unary functor of kt/tensor/impl/ops.hpp: g · f'(x), from (g, x, y).
template <class Op>
struct UnaryGrad {
  Op op;
  template <class C>
  KOKKOS_INLINE_FUNCTION C operator()(C g, C x, C y) const { return op.grad(g, x, y); }
};

}  // namespace kt::impl
