#pragma once
// The backward helpers of kt/autograd/reduce.hpp: keepdim shapes and scattering a gradient to
// the positions max / min picked.

#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/factories.hpp"

#include <cstdint>
#include <vector>

namespace kt {

namespace impl {
/// The reduced shape with `dim` kept as extent 1 (what keepdim=true gives).
inline Shape keepdim_shape(const Shape& in, int dim) {
  const int d = dim < 0 ? dim + in.rank() : dim;
  KT_REQUIRE(d >= 0 && d < in.rank(), "kt::autograd: dimension ", dim, " is out of range for shape ",
             in.str());
  return in.with(d, 1);
}

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

template <class T, class D>
Var<T, D> extreme_all(const char* name, const Var<T, D>& a, Tensor<T, D> out, Tensor<std::int64_t, D> pos) {
  return record(name, out, {a}, [shape = a.shape(), pos, name](const Tensor<T, D>& g, const Needs&) {
    (void)name;
    return std::vector<Tensor<T, D>>{
        scatter_along(g.reshape({1}), pos.reshape({1}), Shape{shape.numel()}, 0).reshape(shape.dims())};
  });
}

template <class T, class D>
Var<T, D> extreme_dim(const char* name, const Var<T, D>& a, int dim, bool keepdim, Tensor<T, D> out,
                      Tensor<std::int64_t, D> pos) {
  return record(name, out, {a}, [shape = a.shape(), pos, dim](const Tensor<T, D>& g, const Needs&) {
    const Shape kept = keepdim_shape(shape, dim);
    return std::vector<Tensor<T, D>>{
        scatter_along(g.reshape(kept.dims()), pos.reshape(kept.dims()), shape, dim)};
  });
  (void)keepdim;
}
}  // namespace impl

}  // namespace kt
