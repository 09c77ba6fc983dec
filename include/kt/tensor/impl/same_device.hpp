#pragma once
// Compile-time checks that operands live on one device and hold one dtype, and that an
// execution-space instance belongs to the tensors' device. The compiler's "In instantiation
// of ... [with D1 = ...; D2 = ...]" line right above the message names both types, and the
// "required from" lines below it name the kt function that was called.

#include "kt/core/impl/internal.hpp"

#include "kt/backend/gemm_problem.hpp"

#include <type_traits>

namespace kt::impl {

template <class D1, class D2>
constexpr void require_same_device() {
  static_assert(std::is_same_v<D1, D2>,
                "kt: tensors are on different devices (D1 and D2 in the instantiation above); "
                "move one with .to<Device>() first, e.g. b.to<kt::DefaultDevice>()");
}

template <class T1, class T2>
constexpr void require_same_dtype() {
  static_assert(std::is_same_v<T1, T2>,
                "kt: tensors have different dtypes (T1 and T2 in the instantiation above); "
                "convert one with .to<T>() first, e.g. b.to<float>()");
}

/// A product's output dtype C for operands of dtype T: T, or fp32 for 16-bit operands.
template <class C, class T>
constexpr void require_product_output() {
  static_assert(gemm_output_ok_v<T, C>,
                "kt: the output's dtype must be the operands' dtype, or float for kt::half / "
                "kt::bfloat16 operands (C and T in the instantiation above)");
}

template <class Exec, class D>
constexpr void require_instance_of() {
  static_assert(std::is_same_v<Exec, D>,
                "kt: the execution-space instance is not one of the tensors' device (Exec and D "
                "in the instantiation above); pass an instance of D, e.g. D() or a D on your stream");
}

}  // namespace kt::impl
