#pragma once
// Building blocks of kt/core/dtype.hpp: the common part of every dtype_traits specialisation
// and the detection of types that have one.

#include "kt/core/impl/internal.hpp"

#include <type_traits>

namespace kt {

template <class T>
struct dtype_traits;

namespace impl {

template <class Compute, bool Floating>
struct DtypeTraits {
  using compute_type = Compute;
  static constexpr bool is_floating = Floating;
};

template <class T, class = void>
struct is_dtype : std::false_type {};
template <class T>
struct is_dtype<T, std::void_t<decltype(dtype_traits<T>::name)>> : std::true_type {};

}  // namespace impl
}  // namespace kt
