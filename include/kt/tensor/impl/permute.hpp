#pragma once
// The permuted copy behind kt::permute and kt::transpose (kt/tensor/layout.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/error.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/impl/dims_str.hpp"
#include "kt/tensor/shape.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace kt {

namespace impl {

/// Maps a flat index of the permuted output to the flat offset of the same element in the
/// input: `in_stride[d]` is the input's stride of the dimension that lands at output dim d.
struct PermuteIndex {
  int rank = 0;
  Kokkos::Array<std::int64_t, Shape::max_rank> dims{}, in_stride{};

  KOKKOS_INLINE_FUNCTION std::int64_t operator()(std::int64_t i) const {
    std::int64_t offset = 0;
    for (int d = rank - 1; d >= 0; --d) {
      offset += (i % dims[d]) * in_stride[d];
      i /= dims[d];
    }
    return offset;
  }
};

/// Checks that `dims` is a permutation of the input's dimensions; returns them normalised.
inline std::vector<int> normalize_permutation(const char* op, const Shape& shape,
                                              const std::vector<int>& dims) {
  const int rank = shape.rank();
  KT_REQUIRE(static_cast<int>(dims.size()) == rank, op, ": ", dims.size(), " dims ", dims_str(dims),
             " given for a tensor of rank ", rank, " (shape ", shape.str(), ")");
  std::vector<int> out(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (std::size_t k = 0; k < dims.size(); ++k) {
    const int d = dims[k] < 0 ? dims[k] + rank : dims[k];
    KT_REQUIRE(d >= 0 && d < rank, op, ": dimension ", dims[k], " is out of range for shape ",
               shape.str(), " (expected a dimension in [", -rank, ", ", rank - 1, "])");
    KT_REQUIRE(!seen[static_cast<std::size_t>(d)], op, ": dims ", dims_str(dims),
               " are not a permutation: dimension ", d, " appears twice (shape ", shape.str(), ")");
    seen[static_cast<std::size_t>(d)] = true;
    out[k] = d;
  }
  return out;
}

/// Copies `t` with output dimension k taken from input dimension perm[k] (perm normalised).
template <class T, class D>
Tensor<T, D> permute_copy(const D& exec, const char* op, const Tensor<T, D>& t,
                          const std::vector<int>& perm) {
  const Shape& in = t.shape();
  std::vector<std::int64_t> dims(perm.size());
  PermuteIndex index;
  index.rank = in.rank();
  for (int k = 0; k < index.rank; ++k) {
    const int from = perm[static_cast<std::size_t>(k)];
    dims[static_cast<std::size_t>(k)] = index.dims[k] = in[from];
    index.in_stride[k] = in.stride(from);
  }
  Tensor<T, D> out(Shape(dims), exec);
  if (out.numel() == 0) return out;
  const auto x = t.view();
  const auto y = out.view();
  parallel_for(exec, op, out.numel(), KOKKOS_LAMBDA(std::int64_t i) { y(i) = x(index(i)); });
  return out;
}

}  // namespace impl

}  // namespace kt
