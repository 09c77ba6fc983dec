#pragma once
// The backward helper of kt::slice / kt::select (kt/autograd/shape_ops.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/tensor/factories.hpp"
#include "kt/tensor/tensor.hpp"
#include "kt/tensor/transfer.hpp"

#include <cstdint>

namespace kt::impl {

/// A zero tensor of the input's shape with g copied into rows [begin, end) of dim 0.
template <class T, class D>
Tensor<T, D> unslice(const Tensor<T, D>& g, const Shape& shape, std::int64_t begin, std::int64_t end) {
  Tensor<T, D> out = zeros<T, D>(shape);
  copy(out.slice(begin, end), g.reshape(out.slice(begin, end).shape().dims()));
  return out;
}

}  // namespace kt::impl
