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

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/impl/parallel_for.hpp"
#include "kt/core/profiling.hpp"
#include "kt/tensor/impl/permute.hpp"
#include "kt/tensor/impl/same_device.hpp"
#include "kt/tensor/shape.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace kt {


/// `permute(t, dims)` ordered on the execution-space instance `exec`.
template <class ExecSpace, class T, class D>
Tensor<T, D> permute(const ExecSpace& exec, const Tensor<T, D>& t, const std::vector<int>& dims) {
  impl::require_instance_of<ExecSpace, D>();
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
  impl::require_instance_of<ExecSpace, D>();
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

#include "kt/core/impl/public_end.hpp"
