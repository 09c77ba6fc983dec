#pragma once
/// \file kt/core/dtype.hpp
/// The element types a kt::Tensor may hold and what kt knows about each.
///
///     static_assert(kt::is_dtype_v<kt::half>);
///     kt::dtype_name<kt::bfloat16>();   // "bfloat16"  (torch.bfloat16)
///     kt::compute_t<kt::half>           // float: 16-bit types compute in fp32

#include "kt/core/bfloat16.hpp"
#include "kt/core/half.hpp"

#include <Kokkos_Macros.hpp>

#include <cstdint>
#include <type_traits>

namespace kt {

/// Traits of each supported dtype: its PyTorch name, whether it is a floating type, and the
/// type arithmetic is carried out in (fp32 for the 16-bit types, the type itself otherwise).
template <class T>
struct dtype_traits;

#define KT_DEFINE_DTYPE(type, dtype_name_, compute, floating) \
  template <>                                                  \
  struct dtype_traits<type> {                                  \
    static constexpr const char* name = dtype_name_;           \
    using compute_type = compute;                              \
    static constexpr bool is_floating = floating;              \
  };

KT_DEFINE_DTYPE(float, "float32", float, true)
KT_DEFINE_DTYPE(double, "float64", double, true)
KT_DEFINE_DTYPE(kt::half, "float16", float, true)
KT_DEFINE_DTYPE(kt::bfloat16, "bfloat16", float, true)
KT_DEFINE_DTYPE(std::int32_t, "int32", std::int32_t, false)
KT_DEFINE_DTYPE(std::int64_t, "int64", std::int64_t, false)
KT_DEFINE_DTYPE(std::uint8_t, "uint8", std::uint8_t, false)
#undef KT_DEFINE_DTYPE

namespace impl {
template <class T, class = void>
struct is_dtype : std::false_type {};
template <class T>
struct is_dtype<T, std::void_t<decltype(dtype_traits<T>::name)>> : std::true_type {};
}  // namespace impl

/// True for float, double, kt::half, kt::bfloat16, int32, int64 and uint8.
template <class T>
inline constexpr bool is_dtype_v = impl::is_dtype<T>::value;

/// True for the floating dtypes (the ones transcendental math accepts).
template <class T>
inline constexpr bool is_floating_dtype_v = is_dtype_v<T> && dtype_traits<T>::is_floating;

/// The type arithmetic on T is carried out in.
template <class T>
using compute_t = typename dtype_traits<T>::compute_type;

/// PyTorch's name of the dtype: "float32", "float16", "int64", ...
template <class T>
constexpr const char* dtype_name() {
  static_assert(is_dtype_v<T>, "kt::dtype_name: not a kt dtype (float, double, kt::half, "
                               "kt::bfloat16, int32_t, int64_t, uint8_t)");
  return dtype_traits<T>::name;
}

namespace impl {
/// Converts between dtypes the way `tensor.to(dtype)` does: through the compute types, so
/// 16-bit values round once (round-to-nearest-even) and floats truncate toward zero to ints.
template <class To, class From>
KOKKOS_INLINE_FUNCTION To convert(const From& x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else {
    return static_cast<To>(static_cast<compute_t<To>>(static_cast<compute_t<From>>(x)));
  }
}
}  // namespace impl

}  // namespace kt
