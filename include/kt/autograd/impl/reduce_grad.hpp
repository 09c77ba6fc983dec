#pragma once
// The backward helpers of kt/autograd/reduce.hpp: keepdim shapes and the nodes of max / min,
// whose gradient goes to the positions the forward picked (kt/tensor/impl/scatter_impl.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/impl/scatter_impl.hpp"

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
