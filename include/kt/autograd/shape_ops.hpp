#pragma once
/// \file kt/autograd/shape_ops.hpp
/// Differentiable reshaping and reordering of a kt::Var: `reshape`, `flatten`, `slice`,
/// `select` (row i), `transpose`, `permute`. Reshapes share storage with their input, as
/// the tensor versions do; their gradients are reshapes of the output's gradient. Under
/// kt::amp::autocast they move a 16-bit result's twin along (kt/autograd/impl/autocast_twin.hpp).
///
///     kt::Var<float> x(kt::randn<float>({4, 3, 2}, 0), true);
///     auto y = kt::flatten(kt::transpose(x, 0, 2), 1);   // (2, 12)
///     kt::sum(kt::slice(y, 0, 1)).backward();             // ones where y's first row came from

#include "kt/core/impl/public_begin.hpp"

#include "kt/autograd/impl/autocast_dispatch.hpp"
#include "kt/autograd/impl/record.hpp"
#include "kt/autograd/impl/shape_grad.hpp"
#include "kt/autograd/var.hpp"
#include "kt/tensor/factories.hpp"
#include "kt/tensor/layout.hpp"
#include "kt/tensor/transfer.hpp"

#include <cstdint>
#include <vector>

namespace kt {

/// Same elements, new shape (one extent may be -1).
template <class T, class D>
Var<T, D> reshape(const Var<T, D>& a, const std::vector<std::int64_t>& dims) {
  impl::require_defined("kt::reshape", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Reshape, T, D>(result, [&](const auto& t) { return reshape(t, dims); }, a)) return result;
  return impl::record("kt::reshape", a.data().reshape(dims), {a},
                      [shape = a.shape()](const Tensor<T, D>& g, const impl::Needs&) {
                        return std::vector<Tensor<T, D>>{g.reshape(shape.dims())};
                      });
}

/// Merges dims start..end into one (`torch.flatten`).
template <class T, class D>
Var<T, D> flatten(const Var<T, D>& a, int start_dim = 0, int end_dim = -1) {
  impl::require_defined("kt::flatten", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Flatten, T, D>(result, [&](const auto& t) { return flatten(t, start_dim, end_dim); }, a)) return result;
  return impl::record("kt::flatten", a.data().flatten(start_dim, end_dim), {a},
                      [shape = a.shape()](const Tensor<T, D>& g, const impl::Needs&) {
                        return std::vector<Tensor<T, D>>{g.reshape(shape.dims())};
                      });
}

/// Rows [begin, end) along dim 0 (negative indices count from the end).
template <class T, class D>
Var<T, D> slice(const Var<T, D>& a, std::int64_t begin, std::int64_t end) {
  impl::require_defined("kt::slice", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Slice, T, D>(result, [&](const auto& t) { return slice(t, begin, end); }, a)) return result;
  Tensor<T, D> out = a.data().slice(begin, end);
  const std::int64_t n = a.size(0);
  const std::int64_t b = begin < 0 ? begin + n : begin, e = end < 0 ? end + n : end;
  return impl::record("kt::slice", out, {a}, [shape = a.shape(), b, e](const Tensor<T, D>& g, const impl::Needs&) {
    return std::vector<Tensor<T, D>>{impl::unslice(g, shape, b, e)};
  });
}

/// Row i along dim 0, one rank lower (`x[i]`).
template <class T, class D>
Var<T, D> select(const Var<T, D>& a, std::int64_t i) {
  impl::require_defined("kt::select", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Select, T, D>(result, [&](const auto& t) { return select(t, i); }, a)) return result;
  Tensor<T, D> out = a.data()[i];
  const std::int64_t k = i < 0 ? i + a.size(0) : i;
  return impl::record("kt::select", out, {a}, [shape = a.shape(), k](const Tensor<T, D>& g, const impl::Needs&) {
    return std::vector<Tensor<T, D>>{impl::unslice(g, shape, k, k + 1)};
  });
}

/// Dimension k of the result is dimension dims[k] of a (a contiguous copy).
template <class T, class D>
Var<T, D> permute(const Var<T, D>& a, const std::vector<int>& dims) {
  impl::require_defined("kt::permute", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Permute, T, D>(result, [&](const auto& t) { return permute(t, dims); }, a)) return result;
  const auto perm = impl::normalize_permutation("kt::permute", a.shape(), dims);
  std::vector<int> inverse(perm.size());
  for (std::size_t k = 0; k < perm.size(); ++k) inverse[static_cast<std::size_t>(perm[k])] = static_cast<int>(k);
  return impl::record("kt::permute", permute(a.data(), perm), {a},
                      [inverse](const Tensor<T, D>& g, const impl::Needs&) {
                        return std::vector<Tensor<T, D>>{permute(g, inverse)};
                      });
}

/// a with dims dim0 and dim1 swapped (a contiguous copy).
template <class T, class D>
Var<T, D> transpose(const Var<T, D>& a, int dim0, int dim1) {
  impl::require_defined("kt::transpose", {a});
  if (Var<T, D> result; impl::autocast_dispatch<impl::op_tag::Transpose, T, D>(result, [&](const auto& t) { return transpose(t, dim0, dim1); }, a)) return result;
  return impl::record("kt::transpose", transpose(a.data(), dim0, dim1), {a},
                      [dim0, dim1](const Tensor<T, D>& g, const impl::Needs&) {
                        return std::vector<Tensor<T, D>>{transpose(g, dim0, dim1)};
                      });
}

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
