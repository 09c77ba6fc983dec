#pragma once
/// \file kt/core/dtype.hpp
/// The element types a kt::Tensor may hold and what kt knows about each.
///
///     static_assert(kt::is_dtype_v<kt::half>);
///     kt::dtype_name<kt::bfloat16>();   // "bfloat16"  (torch.bfloat16)
///     kt::compute_t<kt::half>           // float: 16-bit types compute in fp32

#include "kt/core/impl/public_begin.hpp"

#include "kt/core/bfloat16.hpp"
#include "kt/core/half.hpp"
#include "kt/core/impl/dtype_base.hpp"

#include <cstdint>
#include <type_traits>

namespace kt {

/// Traits of each supported dtype: its PyTorch name (`name`), whether it is a floating type
/// (`is_floating`), and the type arithmetic is carried out in (`compute_type`: fp32 for the
/// 16-bit types, the type itself otherwise).
template <> struct dtype_traits<float> : impl::DtypeTraits<float, true> { static constexpr const char* name = "float32"; };
template <> struct dtype_traits<double> : impl::DtypeTraits<double, true> { static constexpr const char* name = "float64"; };
template <> struct dtype_traits<half> : impl::DtypeTraits<float, true> { static constexpr const char* name = "float16"; };
template <> struct dtype_traits<bfloat16> : impl::DtypeTraits<float, true> { static constexpr const char* name = "bfloat16"; };
template <> struct dtype_traits<std::int32_t> : impl::DtypeTraits<std::int32_t, false> { static constexpr const char* name = "int32"; };
template <> struct dtype_traits<std::int64_t> : impl::DtypeTraits<std::int64_t, false> { static constexpr const char* name = "int64"; };
template <> struct dtype_traits<std::uint8_t> : impl::DtypeTraits<std::uint8_t, false> { static constexpr const char* name = "uint8"; };

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

}  // namespace kt

#include "kt/core/impl/public_end.hpp"
