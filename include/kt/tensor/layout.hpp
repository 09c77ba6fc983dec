#pragma once
/// \file kt/tensor/layout.hpp
/// Reordering dimensions: `kt::permute` (`torch.permute`) and `kt::transpose`
/// (`torch.transpose`). kt tensors are always contiguous, so both copy into a new contiguous
/// tensor (PyTorch returns a strided view; `.contiguous()` of that view is what kt returns).
/// Negative dims count from the back.
///
///     auto x = kt::randn<float>({2, 3, 4}, /*seed=*/0);
///     auto y = kt::permute(x, {2, 0, 1});      // (4, 2, 3): y[c][a][b] == x[a][b][c]
///     auto t = kt::transpose(x, 0, -1);        // (4, 3, 2)
///     kt::OpenMP exec;                         // or a Cuda stream's instance
///     auto u = kt::transpose(exec, x.to<kt::OpenMP>(), 1, 2);

#include "kt/core/profiling.hpp"
#include "kt/tensor/shape.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
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

inline std::string dims_str(const std::vector<int>& dims) {
  std::string s = "(";
  for (std::size_t d = 0; d < dims.size(); ++d) s += (d > 0 ? ", " : "") + std::to_string(dims[d]);
  return s + ")";
}

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
template <class ExecSpace, class T, class D>
Tensor<T, D> permute_copy(const ExecSpace& exec, const char* op, const Tensor<T, D>& t,
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
  Tensor<T, D> out{Shape(dims)};
  if (out.numel() == 0) return out;
  const auto x = t.view();
  const auto y = out.view();
  using Policy = Kokkos::RangePolicy<D, Kokkos::IndexType<std::int64_t>>;
  Kokkos::parallel_for(op, Policy(exec, 0, out.numel()),
                       KOKKOS_LAMBDA(std::int64_t i) { y(i) = x(index(i)); });
  return out;
}

}  // namespace impl

/// `permute(t, dims)` ordered on the execution-space instance `exec`.
template <class ExecSpace, class T, class D>
Tensor<T, D> permute(const ExecSpace& exec, const Tensor<T, D>& t, const std::vector<int>& dims) {
  static_assert(std::is_same_v<ExecSpace, D>,
                "kt::permute(exec, t, dims): exec must be an instance of the tensor's device");
  KT_PROFILE_REGION("kt::permute");
  KT_REQUIRE(t.defined(), "kt::permute: the input is an undefined tensor");
  const std::vector<int> perm = impl::normalize_permutation("kt::permute", t.shape(), dims);
  return impl::permute_copy(exec, "kt::permute", t, perm);
}

/// A contiguous copy whose dimension k is dimension dims[k] of t (`t.permute(dims)`).
template <class T, class D>
Tensor<T, D> permute(const Tensor<T, D>& t, const std::vector<int>& dims) {
  return permute(D(), t, dims);
}

/// `transpose(t, dim0, dim1)` ordered on the execution-space instance `exec`.
template <class ExecSpace, class T, class D>
Tensor<T, D> transpose(const ExecSpace& exec, const Tensor<T, D>& t, int dim0, int dim1) {
  static_assert(std::is_same_v<ExecSpace, D>,
                "kt::transpose(exec, t, dim0, dim1): exec must be an instance of the tensor's "
                "device");
  KT_PROFILE_REGION("kt::transpose");
  KT_REQUIRE(t.defined(), "kt::transpose: the input is an undefined tensor");
  const Shape& s = t.shape();
  const int rank = s.rank() > 0 ? s.rank() : 1;  // a scalar takes 0 or -1, as in PyTorch
  for (const int dim : {dim0, dim1})
    KT_REQUIRE(dim >= -rank && dim < rank, "kt::transpose: dimension ", dim,
               " is out of range for shape ", s.str(), " (expected a dimension in [", -rank, ", ",
               rank - 1, "])");
  std::vector<int> perm(static_cast<std::size_t>(s.rank()));
  for (int d = 0; d < s.rank(); ++d) perm[static_cast<std::size_t>(d)] = d;
  if (s.rank() > 0) std::swap(perm[static_cast<std::size_t>((dim0 + rank) % rank)],
                              perm[static_cast<std::size_t>((dim1 + rank) % rank)]);
  return impl::permute_copy(exec, "kt::transpose", t, perm);
}

/// A contiguous copy of t with dims dim0 and dim1 swapped (`t.transpose(dim0, dim1)`).
template <class T, class D>
Tensor<T, D> transpose(const Tensor<T, D>& t, int dim0, int dim1) {
  return transpose(D(), t, dim0, dim1);
}

}  // namespace kt
