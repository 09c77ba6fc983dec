#pragma once
// The backward kernel of max / min along a dimension: the gradient scattered to the positions
// the forward picked.

#include "kt/core/impl/internal.hpp"

#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/factories.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>

namespace kt::impl {

/// A zero tensor of `shape` with g(p) written at the position `index(p)` picked along `dim`
/// (index holds positions along dim, shaped like the reduction with keepdim).
template <class T, class D>
Tensor<T, D> scatter_along(const Tensor<T, D>& g, const Tensor<std::int64_t, D>& index, const Shape& shape,
                           int dim) {
  const D exec;
  Tensor<T, D> out = zeros<T>(exec, shape);
  const int d = dim < 0 ? dim + shape.rank() : dim;
  std::int64_t inner = 1;
  for (int k = d + 1; k < shape.rank(); ++k) inner *= shape[k];
  const std::int64_t extent = shape[d];
  const auto gv = g.view(), y = out.view();
  const auto iv = index.view();
  parallel_for(exec, "kt::autograd::scatter", g.numel(), KOKKOS_LAMBDA(std::int64_t p) {
    const std::int64_t outer = p / inner, in = p % inner;
    y((outer * extent + iv(p)) * inner + in) = gv(p);
  });
  return out;
}

}  // namespace kt::impl
