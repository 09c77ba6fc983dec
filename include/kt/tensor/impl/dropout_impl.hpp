#pragma once
// The kernel of kt::dropout (kt/functional/dropout.hpp): the scaled keep-mask. Forward is
// x · mask and backward g · mask, both elementwise products of kt/tensor/elementwise.hpp.

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"
#include "kt/core/impl/parallel_for.hpp"
#include "kt/tensor/impl/view_type.hpp"
#include "kt/tensor/random.hpp"
#include "kt/tensor/tensor.hpp"

#include <Kokkos_Macros.hpp>

#include <cstdint>

namespace kt::impl {

/// mask(i) = u(i) >= p ? 1 / (1 − p) : 0 from fp32 uniforms u: keeps an element with
/// probability 1 − p, scaled in T's compute type.
template <class T, class MemSpace>
struct DropoutMask {
  view_t<T, 1, MemSpace> mask;
  view_t<float, 1, MemSpace> u;
  float p;
  compute_t<T> scale;
  KOKKOS_INLINE_FUNCTION void operator()(std::int64_t i) const { mask(i) = u(i) >= p ? T(scale) : T(0); }
};

/// The mask of one dropout call with probability p in [0, 1]: drawn as fp32 uniforms whatever
/// T, so a seed drops the same elements in every dtype; the survivors' scale 1 / (1 − p) in
/// T's compute type. Advances `gen` once.
template <class T, class D>
Tensor<T, D> dropout_mask(const D& exec, const Shape& shape, double p, Generator& gen) {
  const Tensor<float, D> u = rand<float>(exec, shape, gen);
  const Tensor<T, D> mask(shape, exec);
  parallel_for(exec, "kt::dropout_mask", mask.numel(),
               DropoutMask<T, typename Tensor<T, D>::memory_space>{
                   mask.view(), u.view(), float(p), p < 1 ? compute_t<T>(1.0 / (1.0 - p)) : compute_t<T>(0)});
  return mask;
}

}  // namespace kt::impl
