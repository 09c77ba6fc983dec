#pragma once
// Which kt dtypes Eigen maps (kt/interop/eigen.hpp).

#include "kt/core/impl/internal.hpp"

#include "kt/core/dtype.hpp"

#include <type_traits>

namespace kt::impl {

template <class T>
inline constexpr bool is_eigen_scalar_v = is_dtype_v<T> && !std::is_same_v<T, half> &&
                                          !std::is_same_v<T, bfloat16>;

}  // namespace kt::impl
